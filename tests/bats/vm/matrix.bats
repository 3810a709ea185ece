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
		-s scenarios/article -s "$loop" "$KERNEL"
	assert_success

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
