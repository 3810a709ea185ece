# tests/bats/vm/vm-helpers.bash - shared setup for the tests that boot
# kernels under qemu (ci/vm-run, ci/kernel-matrix, ci/bisect-step).
#
# These tests are not part of `make check`, which has to stay fast and
# needs no VM packages: `make check-vm` runs them, after
# `ci/install-deps --vm`. They fail, rather than skip, when qemu or a
# kernel image is missing, so that a CI run cannot pass without booting.

load ../helpers

CI_DIR=$NSTEST_ROOT/ci
export CI_DIR

# The kernel image to boot: $NSTEST_VM_KERNEL, or the newest Debian
# cloud kernel under /boot (package linux-image-cloud-amd64).
vm_kernel() {
	if [[ -n ${NSTEST_VM_KERNEL:-} ]]; then
		printf '%s\n' "$NSTEST_VM_KERNEL"
		return
	fi
	local k
	k=$(ls /boot/vmlinuz-*-cloud-amd64 2>/dev/null | sort -V | tail -n1)
	[[ -n $k ]] || k=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n1)
	printf '%s\n' "$k"
}

vm_setup() {
	nstest_setup
	KERNEL=$(vm_kernel)
	[[ -n $KERNEL && -r $KERNEL ]] ||
		fail "no kernel image under /boot (run ci/install-deps --vm, or set NSTEST_VM_KERNEL)"
	command -v qemu-system-x86_64 >/dev/null ||
		fail "no qemu-system-x86_64 (run ci/install-deps --vm)"
	# One KVM verdict for the whole run, kept out of $HOME.
	export NSTEST_VM_CACHE=$BATS_RUN_TMPDIR/vm-cache
	export KERNEL
}

setup() {
	vm_setup
}

# A failing test shows the standard error of its last `run`, where
# vm-run says why there was no verdict.
teardown() {
	if [[ -n ${stderr:-} ]]; then
		printf 'stderr of the last command:\n%s\n' "$stderr"
	fi
}
