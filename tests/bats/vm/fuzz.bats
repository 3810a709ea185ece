#!/usr/bin/env bats
# tests/bats/vm/fuzz.bats - `nstest fuzz --vs-kernel IMAGE`: the running
# kernel against another one booted by ci/vm-run, one boot per batch.
# Unlike the other VM tests, these skip (saying why) when qemu or a kernel
# image is missing: the fuzzer is an extra, not what check-vm proves.

load ../helpers
load vm-helpers

setup() {
	nstest_setup
	KERNEL=$(vm_kernel)
	[[ -n $KERNEL && -r $KERNEL ]] ||
		skip "no kernel image under /boot (ci/install-deps --vm, or set NSTEST_VM_KERNEL)"
	command -v qemu-system-x86_64 >/dev/null ||
		skip "no qemu-system-x86_64 (ci/install-deps --vm)"
	export NSTEST_VM_CACHE=$BATS_RUN_TMPDIR/vm-cache
}

@test "fuzz --vs-kernel: a batch of 20 scenarios in one boot, findings written as scenarios" {
	local out=$BATS_TEST_TMPDIR/out
	# each shrinking round is a boot: --shrink bounds the time a finding
	# between two kernels may take
	run "$NSTEST_ROOT/tests/isolation-check" "$NSTEST" fuzz --vs-kernel "$KERNEL" \
		--count 20 --batch 20 --shrink 60 --out "$out"
	# the two kernels may differ: 1 is a finding, not a failure
	[[ $status == 0 || $status == 1 ]] || fail "status $status: $output"
	assert_output --partial "fuzz: 20 scenarios in"
	assert_output --partial "kernel vs the kernel in a VM"
	if compgen -G "$out/*.scn" >/dev/null; then
		run "$NSTEST" lint "$out"
		assert_success
	fi
}

@test "fuzz --play-dump: the guest's runs in their framed form" {
	"$NSTEST" fuzz --print-scenarios --count 1 >"$SCN_DIR/one.scn"
	run "$NSTEST_ROOT/ci/vm-run" "$KERNEL" -- fuzz --play-dump "$SCN_DIR/one.scn"
	assert_success
	assert_line --regexp '^run 0 0 0 0 [0-9]+ -1$'
	assert_line --regexp '^step 1 0 [0-9]+$'
}
