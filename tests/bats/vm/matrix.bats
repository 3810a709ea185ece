#!/usr/bin/env bats
# tests/bats/vm/matrix.bats - ci/kernel-matrix: the running kernel and a
# kernel image in a VM, side by side.

bats_require_minimum_version 1.5.0
load vm-helpers

@test "kernel-matrix: host and VM, a matrix, diffs only for what differs, JUnit per kernel" {
	[[ -r /dev/loop-control ]] || skip "no loop devices on this host"
	cd "$NSTEST_ROOT"
	# Needs loop devices: there on the host, not in a VM without modules.
	loop=$(write_scn needs-loop <<'SCN'
requires: loop

    # mkdir /a
    # ls /
    a
SCN
	)
	out=$BATS_TEST_TMPDIR/reports
	host=$(uname -r)
	guest=$(basename "$KERNEL" | sed 's/^vmlinuz-//')
	run --separate-stderr "$CI_DIR/kernel-matrix" -o "$out" --vm-opt=--modules=none \
		--markdown "$BATS_TEST_TMPDIR/k.md" -s scenarios/article -s "$loop" "$KERNEL"
	assert_success
	matrix=("${lines[@]}")

	# the matrix: a header, then one row per scenario, in run order
	assert_line --index 0 --regexp "^scenario +$host \(host\) +$guest$"
	assert_line --index 1 --regexp "^scenarios/article/01-shared-private.scn +pass +pass$"
	assert_line --index 4 --regexp "^scenarios/article/04-unbindable.scn +pass +pass$"
	assert_line --index 5 --regexp "^${loop//./\\.} +pass +skip$"
	# the article's numbers differ between the kernels, but not after
	# renaming: only the loop scenario is reported as different
	assert_line "=== $loop: pass on $host, skip on $guest"
	assert_line --partial "+result: skip (needs loop devices"
	assert_equal "$(grep -c '^=== ' <<<"$output")" 1
	assert_line "5 scenarios on 2 kernels; 1 differs from $host"

	# nstest's own JUnit and JSON, per kernel
	for k in "00-$host" "01-$guest"; do
		[[ -s $out/$k.json && -s $out/$k.xml ]] || fail "no reports for $k: $(ls "$out")"
		grep -q '<testsuites' "$out/$k.xml" || fail "$k.xml is not JUnit"
	done
	grep -q "<property name=\"kernel\" value=\"$guest\"/>" "$out/01-$guest.xml" ||
		fail "the VM's JUnit does not name its kernel"

	# --markdown wrote the same run as tables, and --from prints the same
	# matrix again from the folder without booting anything
	run cat "$BATS_TEST_TMPDIR/k.md"
	assert_line --index 0 '<!-- kernel-matrix: begin -->'
	assert_line --regexp "^\| $host \(host\) \| 5 \| 0 \| 0 \| 0 \| 0 \| 0 \| [0-9]+ s \|$"
	assert_line --regexp "^\| $guest[^|]* \| 4 \| 0 \| 1 \| 0 \| 0 \| 0 \| [0-9]+ s \|$"
	assert_line --partial '5 scenarios on 2 kernels. 4 of them have the same verdict'
	assert_line --regexp '^\| `article/02-slave` \| pass \| pass \|$'
	run --separate-stderr "$CI_DIR/kernel-matrix" --from "$out"
	assert_success
	for i in 0 1 5; do
		assert_equal "${lines[$i]}" "${matrix[$i]}"
	done
}

@test "kernel-matrix: each kernel boots once for both its reports, JSON and JUnit; --no-junit: JSON only" {
	cd "$NSTEST_ROOT"
	# a qemu that counts its starts
	cat >"$BATS_TEST_TMPDIR/qemu" <<EOF2
#!/bin/bash
echo boot >>$BATS_TEST_TMPDIR/boots
exec qemu-system-x86_64 "\$@"
EOF2
	chmod +x "$BATS_TEST_TMPDIR/qemu"
	# TCG: under --accel auto a KVM that does not work would be a start too
	export NSTEST_VM_ACCEL=tcg
	out=$BATS_TEST_TMPDIR/reports
	guest=$(basename "$KERNEL" | sed 's/^vmlinuz-//')
	QEMU=$BATS_TEST_TMPDIR/qemu run --separate-stderr "$CI_DIR/kernel-matrix" --no-host -o "$out" \
		-s scenarios/article/02-slave.scn -s scenarios/article/03-bind.scn "$KERNEL"
	assert_success
	assert_equal "$(wc -l <"$BATS_TEST_TMPDIR/boots")" 1
	assert_equal "$(cd "$out" && ls)" "00-$guest.json
00-$guest.stderr
00-$guest.xml
matrix.json"
	# the two reports of the one run: its kernel, its scenarios
	grep -q "\"kernel\":\"$guest\"" "$out/00-$guest.json"
	grep -q "<property name=\"kernel\" value=\"$guest\"/>" "$out/00-$guest.xml"
	grep -q '<testsuites name="nstest" tests="2" failures="0"' "$out/00-$guest.xml"

	rm "$BATS_TEST_TMPDIR/boots"
	QEMU=$BATS_TEST_TMPDIR/qemu run --separate-stderr "$CI_DIR/kernel-matrix" --no-host --no-junit \
		-o "$out" -s scenarios/article/02-slave.scn "$KERNEL"
	assert_success
	assert_equal "$(wc -l <"$BATS_TEST_TMPDIR/boots")" 1
	# the earlier run's JUnit report is not left to pass for this one's
	[[ -s $out/00-$guest.json && ! -e $out/00-$guest.xml ]] || fail "reports: $(ls "$out")"
}

@test "kernel-matrix: a kernel without a verdict is a column of '-' and status 125" {
	cd "$NSTEST_ROOT"
	head -c 100000 /dev/zero >"$BATS_TEST_TMPDIR/vmlinuz-zeros"
	run --separate-stderr "$CI_DIR/kernel-matrix" -o "$BATS_TEST_TMPDIR/reports" \
		--no-junit -s scenarios/article/02-slave.scn "$BATS_TEST_TMPDIR/vmlinuz-zeros"
	assert_failure 125
	assert_line --regexp "^scenarios/article/02-slave.scn +pass +-$"
	[[ $stderr == *"zeros: no verdict (status 125)"* ]] || fail "stderr: $stderr"
}

@test "kernel-matrix: usage errors exit 2" {
	run "$CI_DIR/kernel-matrix" --no-such-option
	assert_failure 2
	run "$CI_DIR/kernel-matrix" "$BATS_TEST_TMPDIR/no-such-image"
	assert_failure 2
	assert_output --partial "no kernel image at"
}

# The upstream version of Debian's newest kernel of LINE, from ci/kernels'
# cache (fetching it if need be).
debian_version() {
	local image
	image=$("$CI_DIR/kernels" --quiet fetch "$1") || fail "cannot fetch Debian's $1"
	sed -n 's/^version: //p' "$(dirname "$image")/info"
}

@test "kernel-matrix --debian: packaged kernels by line, in parallel, and the verdict changes in version order" {
	cd "$NSTEST_ROOT"
	old=$(debian_version 6.1)
	new=$(debian_version 6.12)
	out=$BATS_TEST_TMPDIR/reports
	# move_mount(2)'s MOVE_MOUNT_BENEATH came with 6.5: a skip on 6.1
	run --separate-stderr "$CI_DIR/kernel-matrix" --no-host --no-junit -j 2 -o "$out" \
		--debian 6.12,6.1 -s scenarios/newapi/move-mount-beneath.scn -s scenarios/article/02-slave.scn
	assert_success
	assert_line --index 0 --regexp "^scenario +$new +$old$"
	assert_line --regexp "^scenarios/newapi/move-mount-beneath.scn +pass +skip$"
	assert_line --regexp "^scenarios/article/02-slave.scn +pass +pass$"
	assert_line "verdict changes across versions (1 scenario; kernels in version order: $old, $new):"
	assert_line "  scenarios/newapi/move-mount-beneath.scn"
	assert_line "    skip on $old; pass on $new"
	assert_line "    changes: $old -> $new (skip to pass)"
	assert_line --regexp "^time: [0-9]+s in all with -j 2, load [0-9.]+ \(median; [0-9.]+ at most\); per kernel $new [0-9]+s, $old [0-9]+s$"
	# the reports are named by place and release
	ls "$out"/00-6.12.*.json "$out"/01-6.1.*.json >/dev/null || fail "reports: $(ls "$out")"
	[[ $stderr == *"$old: running"*"in a VM"* ]] || fail "stderr: $stderr"
}

@test "kernel-matrix --shard: the shards cover every kernel once, in the matrix's order" {
	cd "$NSTEST_ROOT"
	old=$(debian_version 6.1)
	new=$(debian_version 6.12)
	# the third shard has no kernel: with --allow-empty-shard no error
	for k in 1 2 3; do
		run --separate-stderr "$CI_DIR/kernel-matrix" --no-host --no-junit --shard "$k/3" \
			--allow-empty-shard -o "$BATS_TEST_TMPDIR/s$k" --debian 6.1,6.12 \
			-s scenarios/article/01-shared-private.scn
		assert_success
		eval "out$k=\$output err$k=\$stderr"
	done
	[[ $out1 == "scenario "*" $old"* && $out1 != *"$new"* ]] || fail "shard 1/3: $out1"
	[[ $out2 == "scenario "*" $new"* && $out2 != *"$old"* ]] || fail "shard 2/3: $out2"
	[[ -z $out3 && $err3 == *"shard 3/3: no kernel falls to this shard (2 in all)" ]] ||
		fail "shard 3/3: $out3 / $err3"
	# without it, that shard is an error, and says what to do
	run --separate-stderr "$CI_DIR/kernel-matrix" --no-host --no-junit --shard 3/3 \
		-o "$BATS_TEST_TMPDIR/s3" --debian 6.1,6.12 -s scenarios/article/01-shared-private.scn
	assert_failure 2
	assert_output ""
	[[ $stderr == *"shard 3/3: no kernel falls to this shard (2 in all); split into at most 2 shards, or pass --allow-empty-shard"* ]] ||
		fail "stderr: $stderr"
	# the report names keep the kernel's place in the whole matrix
	ls "$BATS_TEST_TMPDIR"/s1/00-6.1.*.json "$BATS_TEST_TMPDIR"/s2/01-6.12.*.json >/dev/null
}

@test "kernel-matrix: bad --debian, --shard and -j values exit 2 and boot nothing" {
	cd "$NSTEST_ROOT"
	for bad in 0/2 3/2 1/0 x 1/; do
		run "$CI_DIR/kernel-matrix" --no-host --shard "$bad" --debian 6.1
		assert_failure 2
		assert_output --partial "--shard: K/N with 1 <= K <= N, not '$bad'"
	done
	run "$CI_DIR/kernel-matrix" --no-host -j 0 --debian 6.1
	assert_failure 2
	assert_output --partial "-j: a number of kernels at once, 1 or more, not 0"
	run "$CI_DIR/kernel-matrix" --no-host --debian '6.1;rm'
	assert_failure 2
	assert_output --partial "--debian: '6.1;rm' is not a line, a version, latest, lines or LINE.*"
	run "$CI_DIR/kernel-matrix" --no-host --debian 9.9.*
	assert_failure 2
	assert_output --partial "the archive has no kernel of line 9.9"
	run "$CI_DIR/kernel-matrix" --no-host --debian 9.9 -s scenarios/article/01-shared-private.scn
	assert_failure 2
	assert_output --partial "no Debian cloud kernel '9.9' in the archive"
	refute_output --partial "running"
}

@test "kernel-matrix --retries: a boot without a verdict is booted again, and the end says so" {
	cd "$NSTEST_ROOT"
	# a qemu that gives no verdict the first time it is started
	cat >"$BATS_TEST_TMPDIR/qemu" <<EOF2
#!/bin/bash
if [[ ! -e $BATS_TEST_TMPDIR/started ]]; then
	touch $BATS_TEST_TMPDIR/started
	exit 1
fi
exec qemu-system-x86_64 "\$@"
EOF2
	chmod +x "$BATS_TEST_TMPDIR/qemu"
	# TCG: under --accel auto a usable /dev/kvm makes vm-run's KVM try the
	# first start, and vm-run itself falls back to TCG when it fails, so the
	# matrix would never see the lost boot this test is about.
	export NSTEST_VM_ACCEL=tcg
	QEMU=$BATS_TEST_TMPDIR/qemu run --separate-stderr "$CI_DIR/kernel-matrix" --no-host --no-junit \
		-o "$BATS_TEST_TMPDIR/r" -s scenarios/article/01-shared-private.scn "$KERNEL"
	assert_success
	guest=$(basename "$KERNEL" | sed 's/^vmlinuz-//')
	assert_line --regexp "^scenarios/article/01-shared-private.scn +pass$"
	assert_line "booted again after a boot without a verdict: $guest (1x)"
	[[ $stderr == *"$guest: no verdict (status 125)"*"-- booting it again"* ]] || fail "stderr: $stderr"

	# with --retries 0 the first answer stands
	rm -f "$BATS_TEST_TMPDIR/started"
	QEMU=$BATS_TEST_TMPDIR/qemu run --separate-stderr "$CI_DIR/kernel-matrix" --no-host --no-junit \
		--retries 0 -o "$BATS_TEST_TMPDIR/r0" -s scenarios/article/01-shared-private.scn "$KERNEL"
	assert_failure 125
	[[ $stderr != *"booting it again"* ]] || fail "stderr: $stderr"

	run "$CI_DIR/kernel-matrix" --retries -1 "$KERNEL"
	assert_failure 2
	assert_output --partial "--retries: 0 or more, not -1"
}
