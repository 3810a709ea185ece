#!/usr/bin/env bats
# tests/bats/vm/vm.bats - ci/vm-run boots a real kernel under qemu: the
# report comes back as nstest wrote it, the exit status is nstest's own,
# and a VM that gives no verdict exits 125 with the reason. Each test
# boots Debian's kernel (see vm-helpers.bash), a few seconds under TCG.

bats_require_minimum_version 1.5.0
load vm-helpers

@test "vm-run: the article passes on the VM's kernel, with the host's very report" {
	cd "$NSTEST_ROOT"
	host=$("$NSTEST" run scenarios/article)
	guest=$(basename "$KERNEL" | sed 's/^vmlinuz-//')
	run --separate-stderr "$CI_DIR/vm-run" "$KERNEL" -- run scenarios/article
	assert_success
	# the same report but for the head line, which names the VM's kernel
	assert_output "${host/Linux $(uname -r),/Linux $guest,}"
	# and it ran on that kernel, not here
	run --separate-stderr "$CI_DIR/vm-run" "$KERNEL" -- run --format json scenarios/article/02-slave.scn
	assert_success
	assert_output --partial "\"kernel\":\"$(basename "$KERNEL" | sed 's/^vmlinuz-//')\""
}

@test "vm-run: article and sharedsubtree in the VM; the exit status is nstest's own" {
	cd "$NSTEST_ROOT"
	run --separate-stderr "$CI_DIR/vm-run" "$KERNEL" -- run scenarios/article scenarios/sharedsubtree
	summary=$(tail -n1 <<<"$output")
	[[ $summary =~ ^[0-9]+\ passed,\ ([0-9]+)\ failed ]] || fail "no summary: $output"
	if ((BASH_REMATCH[1] > 0)); then assert_failure 1; else assert_success; fi
	# every scenario has its result line
	n=$(find scenarios/article scenarios/sharedsubtree -name '*.scn' | wc -l)
	assert_equal "$(grep -cE '^(PASS|FAIL|SKIP|XFAIL|XPASS) ' <<<"$output")" "$n"
}

@test "vm-run: a failing scenario exits 1 with the diff" {
	scn=$(write_scn broken <<'SCN'
    # mkdir /a
    # ls /
    b
SCN
	)
	run --separate-stderr "$CI_DIR/vm-run" "$KERNEL" -- run "$scn"
	assert_failure 1
	assert_line "    -b"
	assert_line "FAIL  $scn"
}

@test "vm-run: nstest's stderr stays apart from the report; status 2 comes back" {
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr "$CI_DIR/vm-run" "$KERNEL" -- run no-such.scn
	assert_failure 2
	assert_output ""
	[[ $stderr == *"nstest: "*"no-such.scn"* ]] || fail "stderr: $stderr"
}

@test "vm-run: loop stand-ins work (the module is loaded); -v shows the console on stderr" {
	cd "$NSTEST_ROOT"
	run --separate-stderr "$CI_DIR/vm-run" -v "$KERNEL" -- \
		run --devices=loop scenarios/article/01-shared-private.scn
	assert_success
	assert_output "$(nstest_head loop | sed "s/Linux $(uname -r),/Linux $(basename "$KERNEL" | sed 's/^vmlinuz-//'),/")
PASS  scenarios/article/01-shared-private.scn
1 passed, 0 failed, 0 skipped"
	[[ $stderr == *"Linux version"* ]] || fail "no kernel console on stderr: $stderr"
	[[ $stderr == *"vm-init: nstest exited with status 0"* ]] || fail "stderr: $stderr"
}

@test "vm-run: before 6.15, a scenario that mounts a device twice falls back to loop stand-ins, and the report says so" {
	cd "$NSTEST_ROOT"
	release=$(basename "$KERNEL" | sed 's/^vmlinuz-//')
	[[ $release == 6.1[0-4].* || $release == 6.[0-9].* || $release == [45].* ]] ||
		skip "$release clones tmpfs stand-ins: nothing falls back"
	scn=$(write_scn twice <<'SCN'
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mount /dev/sdb1 /b
SCN
	)
	run --separate-stderr "$CI_DIR/vm-run" "$KERNEL" -- run "$scn"
	assert_success
	assert_line "PASS  $scn [fell back to loop stand-ins: it mounts a device name twice, which tmpfs stand-ins allow from Linux 6.15 only]"
	assert_line --index 0 --partial ", tmpfs stand-ins"
}

@test "vm-run: the files of run --output and --report come back from one boot, whole, where a run here writes them" {
	pass=$(write_scn pass <<<$'    # mkdir /a\n    # ls /\n    a')
	broken=$(write_scn broken <<<$'    # mkdir /a\n    # ls /\n    b')
	mkdir -p "$BATS_TEST_TMPDIR/w/sub"
	cd "$BATS_TEST_TMPDIR/w"
	# an old report keeps its mode; a symlink leads to the file it names
	echo old >old.tap
	chmod 640 old.tap
	echo old >sub/target.json
	ln -s sub/target.json link.json
	run --separate-stderr "$CI_DIR/vm-run" "$KERNEL" -- run --format json "$pass" "$broken" \
		--report junit:sub/r.xml --report=tap:old.tap --report json:link.json \
		--output="$BATS_TEST_TMPDIR/w/r.json"
	assert_failure 1
	assert_output ""
	[[ -L link.json && -s sub/target.json && -s r.json && -s sub/r.xml ]] || fail "reports: $(ls -lR)"
	# the same run: its two JSON reports are the same, byte for byte
	cmp r.json sub/target.json
	grep -q "\"kernel\":\"$(basename "$KERNEL" | sed 's/^vmlinuz-//')\"" r.json
	grep -q '^not ok 2 ' old.tap
	assert_equal "$(stat -c %a old.tap)" 640
	# the JUnit report is what a JUnit run in the VM prints, times aside
	run --separate-stderr "$CI_DIR/vm-run" "$KERNEL" -- run --format junit "$pass" "$broken"
	assert_failure 1
	times='s/ time="[0-9.]+"/ time="T"/g; s/ timestamp="[^"]*"/ timestamp="TS"/'
	diff -u <(sed -E "$times" <<<"$output") <(sed -E "$times" sub/r.xml)
	# a report nstest does not write (a run that cannot start) leaves the
	# file here as it was
	run --separate-stderr "$CI_DIR/vm-run" "$KERNEL" -- run --report tap:old.tap no-such.scn
	assert_failure 2
	grep -q '^not ok 2 ' old.tap
	[[ -z $(find . -mindepth 1 -name '.*') ]] || fail "left behind: $(find . -mindepth 1 -name '.*')"
}

@test "vm-run: reports cut short on their way back are no verdict: 125, and nothing is written" {
	# a qemu whose fourth serial port loses the end of what the guest sent
	cat >"$BATS_TEST_TMPDIR/qemu" <<'EOF2'
#!/bin/bash
qemu-system-x86_64 "$@"
s=$?
for a in "$@"; do
	[[ $a == file,id=reports,path=* ]] && truncate -s 200 "${a#*path=}"
done
exit $s
EOF2
	chmod +x "$BATS_TEST_TMPDIR/qemu"
	cd "$BATS_TEST_TMPDIR"
	echo old >r.xml
	QEMU=$BATS_TEST_TMPDIR/qemu run --separate-stderr "$CI_DIR/vm-run" "$KERNEL" -- \
		run --report junit:r.xml "$NSTEST_ROOT/scenarios/article/02-slave.scn"
	assert_failure 125
	[[ $stderr == *"vm-run: no verdict: the reports did not come back from the guest: "* ]] ||
		fail "stderr: $stderr"
	assert_equal "$(cat r.xml)" old
}

@test "vm-run: a kernel panic is no verdict: 125 and the panic named" {
	run --separate-stderr "$CI_DIR/vm-run" --append rdinit=/no-such-init "$KERNEL"
	assert_failure 125
	assert_output ""
	[[ $stderr == *"no verdict: the guest stopped without a verdict: Kernel panic"* ]] ||
		fail "stderr: $stderr"
}

@test "vm-run: a guest that does not finish in time is no verdict: 125" {
	run --separate-stderr "$CI_DIR/vm-run" --timeout 1 "$KERNEL"
	assert_failure 125
	[[ $stderr == *"no verdict after 1s"* ]] || fail "stderr: $stderr"
}

@test "vm-run: an image qemu cannot boot is no verdict: 125" {
	head -c 100000 /dev/zero >"$BATS_TEST_TMPDIR/zeros"
	run --separate-stderr "$CI_DIR/vm-run" "$BATS_TEST_TMPDIR/zeros"
	assert_failure 125
	[[ $stderr == *"no verdict: qemu failed"* ]] || fail "stderr: $stderr"
}

@test "vm-run: an nstest that cannot start, or dies, is no verdict: 125" {
	printf '#!/bin/sh\necho never\n' >"$BATS_TEST_TMPDIR/script"
	chmod +x "$BATS_TEST_TMPDIR/script"
	run --separate-stderr "$CI_DIR/vm-run" --nstest "$BATS_TEST_TMPDIR/script" "$KERNEL"
	assert_failure 125
	[[ $stderr == *"init failed before nstest ran"* ]] || fail "stderr: $stderr"

	printf '#include <signal.h>\nint main(void) { raise(SIGSEGV); return 0; }\n' \
		>"$BATS_TEST_TMPDIR/crash.c"
	cc -static -o "$BATS_TEST_TMPDIR/crash" "$BATS_TEST_TMPDIR/crash.c"
	run --separate-stderr "$CI_DIR/vm-run" --nstest "$BATS_TEST_TMPDIR/crash" "$KERNEL"
	assert_failure 125
	[[ $stderr == *"nstest ended abnormally"*"signal 11"* ]] || fail "stderr: $stderr"
}

# A qemu that hangs whenever it is asked for KVM, as on machines where
# /dev/kvm exists but guests never boot, and logs what it was asked.
fake_hanging_kvm() {
	local real
	real=$(command -v qemu-system-x86_64)
	cat >"$BATS_TEST_TMPDIR/qemu" <<EOF
#!/bin/bash
echo "\$*" >>"$BATS_TEST_TMPDIR/qemu.log"
[[ " \$* " == *" -accel kvm "* ]] && exec sleep 600
exec "$real" "\$@"
EOF
	chmod +x "$BATS_TEST_TMPDIR/qemu"
}

@test "vm-run: --accel auto gives up on a KVM that hangs, within the deadline, and remembers" {
	[[ -r /dev/kvm && -w /dev/kvm ]] || skip "no usable /dev/kvm: auto never tries KVM here"
	fake_hanging_kvm
	export NSTEST_VM_CACHE=$BATS_TEST_TMPDIR/cache
	start=$SECONDS
	QEMU=$BATS_TEST_TMPDIR/qemu run --separate-stderr "$CI_DIR/vm-run" --kvm-deadline 2 \
		"$KERNEL" -- lint "$NSTEST_ROOT/scenarios/article"
	assert_success
	assert_output "4 scenario(s) parsed"
	[[ $stderr == *"KVM does not work here (detected in "*" ms); using TCG"* ]] || fail "stderr: $stderr"
	assert_equal "$(grep -c -- '-accel kvm' "$BATS_TEST_TMPDIR/qemu.log")" 1
	assert_equal "$(grep -c -- '-accel tcg' "$BATS_TEST_TMPDIR/qemu.log")" 1

	# the next run goes straight to TCG
	QEMU=$BATS_TEST_TMPDIR/qemu run --separate-stderr "$CI_DIR/vm-run" --kvm-deadline 2 \
		"$KERNEL" -- lint "$NSTEST_ROOT/scenarios/article"
	assert_success
	assert_equal "$(grep -c -- '-accel kvm' "$BATS_TEST_TMPDIR/qemu.log")" 1
	assert_equal "$(grep -c -- '-accel tcg' "$BATS_TEST_TMPDIR/qemu.log")" 2
}

@test "vm-run: --accel kvm forces KVM: a hanging KVM ends in a timeout, 125" {
	fake_hanging_kvm
	QEMU=$BATS_TEST_TMPDIR/qemu run --separate-stderr "$CI_DIR/vm-run" --accel kvm \
		--timeout 2 "$KERNEL"
	assert_failure 125
	[[ $stderr == *"no verdict after 2s under kvm"* ]] || fail "stderr: $stderr"
	run grep -c -- '-accel tcg' "$BATS_TEST_TMPDIR/qemu.log"
	assert_output 0
}

# A qemu that logs what it was asked and boots nothing.
fake_logging_qemu() {
	cat >"$BATS_TEST_TMPDIR/qemu" <<EOF
#!/bin/bash
echo "\$*" >>"$BATS_TEST_TMPDIR/qemu.log"
exit 1
EOF
	chmod +x "$BATS_TEST_TMPDIR/qemu"
}

@test "vm-run: under TCG the CPU has no ERMS (TCG copies rep movsb a byte at a time); --cpu overrides" {
	fake_logging_qemu
	QEMU=$BATS_TEST_TMPDIR/qemu run --separate-stderr "$CI_DIR/vm-run" --accel tcg "$KERNEL"
	assert_failure 125
	run grep -c -- ' -accel tcg -cpu max,-erms,-fsrm ' "$BATS_TEST_TMPDIR/qemu.log"
	assert_output 1
	QEMU=$BATS_TEST_TMPDIR/qemu run --separate-stderr "$CI_DIR/vm-run" --accel tcg --cpu qemu64 "$KERNEL"
	assert_failure 125
	run grep -c -- ' -accel tcg -cpu qemu64 ' "$BATS_TEST_TMPDIR/qemu.log"
	assert_output 1
}

@test "vm-run: --smp N gives the guest N CPUs, each a thread of its own under TCG" {
	fake_logging_qemu
	QEMU=$BATS_TEST_TMPDIR/qemu run --separate-stderr "$CI_DIR/vm-run" --accel tcg --smp 2 "$KERNEL"
	assert_failure 125
	run grep -c -- ' -accel tcg,thread=multi .* -smp 2 ' "$BATS_TEST_TMPDIR/qemu.log"
	assert_output 1
	run "$CI_DIR/vm-run" --smp 0 "$KERNEL"
	assert_failure 2
	assert_output --partial "'0' is not a positive whole number"
}

@test "vm-run: command-line errors exit 2 and boot nothing" {
	run "$CI_DIR/vm-run"
	assert_failure 2
	run "$CI_DIR/vm-run" --accel fast "$KERNEL"
	assert_failure 2
	assert_output --partial "--accel: auto, kvm or tcg"
	run "$CI_DIR/vm-run" "$BATS_TEST_TMPDIR/no-such-image"
	assert_failure 2
	assert_output --partial "no kernel image at"
	run "$CI_DIR/vm-run" --timeout 0 "$KERNEL"
	assert_failure 2
	# a report that could not be brought back here
	run "$CI_DIR/vm-run" "$KERNEL" -- run --report junit:/nonexistent/r.xml scenarios
	assert_failure 2
	assert_output "vm-run: --report junit:/nonexistent/r.xml: no folder /nonexistent here to bring the report back to"
	run "$CI_DIR/vm-run" "$KERNEL" -- run --output=no-such-dir/r.txt scenarios
	assert_failure 2
	assert_output "vm-run: --output=no-such-dir/r.txt: no folder $PWD/no-such-dir here to bring the report back to"
}
