#!/usr/bin/env bats
# tests/bats/bisect-step.bats - ci/bisect-step's and tests/check-bisect's
# answers to a wrong command line. git bisect stops on 128 (and a wrapper
# on 2), so a mistake in the step's own arguments, or a scenario that does
# not parse, must never come out as 125 ("skip this commit"), which would
# skip every commit of the bisection and name none. Nothing here builds a
# kernel: every case is refused before the build (make check-bisect runs
# the real thing).

bats_require_minimum_version 1.5.0
load helpers

STEP=$NSTEST_ROOT/ci/bisect-step
CHECK=$NSTEST_ROOT/tests/check-bisect

setup() {
	nstest_setup
	GOOD=$NSTEST_ROOT/scenarios/sharedsubtree/51-clone-namespace-unbindable.scn
	# an empty directory as the kernel tree: reaching the build would
	# say "not a Linux kernel tree" with 125, which no case here wants
	TREE=$BATS_TEST_TMPDIR/tree
	mkdir -p "$TREE"
	cd "$TREE"
}

@test "bisect-step: no scenario named stops the bisection (128)" {
	run -128 "$STEP"
	assert_output --partial "stop: no scenarios named"
}

@test "bisect-step: a --base other than tinyconfig or defconfig stops it" {
	run -128 "$STEP" --base allnoconfig "$GOOD"
	assert_output --partial "--base: tinyconfig or defconfig, not 'allnoconfig'"
}

@test "bisect-step: --jobs that is no positive number stops it" {
	run -128 "$STEP" --jobs x "$GOOD"
	assert_output --partial "--jobs: 'x' is not a positive whole number"
	run -128 "$STEP" -j0 "$GOOD"
	assert_output --partial "--jobs: '0'"
}

@test "bisect-step: an unreadable --config fragment stops it" {
	run -128 "$STEP" --config "$BATS_TEST_TMPDIR/none.config" "$GOOD"
	assert_output --partial "cannot read --config $BATS_TEST_TMPDIR/none.config"
}

@test "bisect-step: an unknown option stops it" {
	run -128 "$STEP" --frobnicate "$GOOD"
	assert_output --partial "unknown option '--frobnicate'"
}

@test "bisect-step: a scenario that does not parse stops it before any build" {
	printf '    # mout /x\n' >"$SCN_DIR/bad.scn"
	run -128 "$STEP" "$SCN_DIR/bad.scn"
	assert_output --partial "unknown command 'mout'"
	assert_output --partial "the scenarios do not parse"
	[[ ! -e $TREE/nstest-build.log ]]
}

@test "bisect-step: a folder that is no kernel tree cannot be judged (125)" {
	run -125 "$STEP" "$GOOD"
	assert_output --partial "is not a Linux kernel tree"
}

@test "check-bisect: a wrong command line or a missing tarball is 2" {
	run -2 "$CHECK" --jobs x
	assert_output --partial "--jobs: 'x' is not a positive whole number"
	run -2 "$CHECK" --source "$BATS_TEST_TMPDIR/none.tar.xz" --cache "$BATS_TEST_TMPDIR/c"
	assert_output --partial "no kernel source at $BATS_TEST_TMPDIR/none.tar.xz"
	run -2 "$CHECK" --bogus
	assert_output --partial "unknown argument '--bogus'"
}

# No qemu or cpio: no commit can be judged here. 125 would skip every
# commit of the bisection; 128 stops it, before any build, naming what is
# missing and how to install it (issue 28). A PATH without them simulates
# such a machine (path_without, helpers.bash).
@test "bisect-step: no qemu on PATH stops the bisection (128) before any build" {
	local nq
	nq=$(path_without 'qemu-*' cpio)
	run -128 env PATH="$nq" "$STEP" "$GOOD"
	assert_output --partial "vm-run: error: not found on PATH: qemu-system-x86_64 cpio; no kernel can boot here: install with ci/install-deps --vm"
	assert_output --partial "bisect-step: stop: this machine cannot boot a kernel"
	[[ ! -e $TREE/nstest-build.log ]]
}
