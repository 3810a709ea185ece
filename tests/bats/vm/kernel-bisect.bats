#!/usr/bin/env bats
# tests/bats/vm/kernel-bisect.bats - ci/kernel-bisect over Debian's real
# packaged kernels, fetched by ci/kernels and booted under qemu.
#
# sharedsubtree/51 (a namespace copy keeps an unbindable mount
# unbindable) holds on Debian's 7.2 kernels and not on the newest 7.1
# (docs/kernels.md): the bisection between them must name two releases
# next to each other in the archive, the first judged good and the second
# bad, which two independent boots then confirm.

bats_require_minimum_version 1.5.0
load vm-helpers

SCN=scenarios/sharedsubtree/51-clone-namespace-unbindable.scn

# the image of Debian's kernel $1 (fetched if need be)
image() { "$CI_DIR/kernels" --quiet fetch "$1"; }

@test "kernel-bisect: finds where a verdict changed, down to the point release, and shows the diff" {
	cd "$NSTEST_ROOT"
	run --separate-stderr "$CI_DIR/kernel-bisect" -o "$BATS_TEST_TMPDIR/b" 7.2 7.1 -- "$SCN"
	assert_success
	good=$(sed -n 's/^last good: //p' <<<"$output")
	bad=$(sed -n 's/^first bad: //p' <<<"$output")
	[[ -n $good && -n $bad ]] || fail "no answer: $output"
	# next to each other among the archive's versions
	"$CI_DIR/kernels" list 7.1 7.2 | awk 'NR > 1 { print $1 }' | uniq >"$BATS_TEST_TMPDIR/versions"
	pair=$(grep -A1 -x -F "$bad" "$BATS_TEST_TMPDIR/versions" | paste -sd' ')
	assert_line "the verdict changes between $bad (bad) and $good (good)"
	[[ $pair == "$bad $good" ]] || fail "$bad and $good are not neighbours: $(paste -sd' ' "$BATS_TEST_TMPDIR/versions")"
	# the diff of what the two printed: the copy's unbindable state
	assert_line "=== $SCN"
	assert_line --regexp '^    --- .*'"${good//./\\.}"'$'
	assert_line --regexp '^    \+.*shared:|^    \+.*unbindable|^    -.*unbindable'
	[[ $stderr == *"kernels between"* && $stderr == *"$bad: bad"* && $stderr == *"$good: good"* ]] ||
		fail "stderr: $stderr"
	# independent boots agree
	run ci/vm-run "$(image "$good")" -- run --bisect "$SCN"
	assert_success
	run ci/vm-run "$(image "$bad")" -- run --bisect "$SCN"
	assert_failure 1
}

@test "kernel-bisect: a GOOD that is bad is said at once, status 1" {
	cd "$NSTEST_ROOT"
	run --separate-stderr "$CI_DIR/kernel-bisect" 6.18 7.1 -- "$SCN"
	assert_failure 1
	[[ $stderr == *", given as good, is bad on these scenarios: nothing to bisect"* ]] ||
		fail "stderr: $stderr"
}

@test "kernel-bisect: a scenario that does not parse stops it (128)" {
	cd "$NSTEST_ROOT"
	printf 'requires: nonsense\n' >"$BATS_TEST_TMPDIR/bad.scn"
	run --separate-stderr "$CI_DIR/kernel-bisect" 7.2 7.1 -- "$BATS_TEST_TMPDIR/bad.scn"
	assert_failure 128
	[[ $stderr == *"kernel-bisect: stop: nstest refuses these scenarios or options"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"bad.scn:1:"* && $stderr != *"kernels between"* ]] || fail "stderr: $stderr"
	run --separate-stderr "$CI_DIR/kernel-bisect" 7.2 7.1 -- --bogus "$SCN"
	assert_failure 128
	[[ $stderr == *"unknown option '--bogus'"* && $stderr != *"kernels between"* ]] || fail "stderr: $stderr"
}

@test "kernel-bisect: usage errors exit 2 and boot nothing" {
	cd "$NSTEST_ROOT"
	run "$CI_DIR/kernel-bisect" 7.2
	assert_failure 2
	run "$CI_DIR/kernel-bisect" 7.2 7.1
	assert_failure 2
	assert_output --partial "name the scenarios after --"
	run "$CI_DIR/kernel-bisect" 7.2 9.9 -- "$SCN"
	assert_failure 2
	assert_output --partial "no Debian cloud kernel '9.9' in the archive"
	run "$CI_DIR/kernel-bisect" 7.2 7.2 -- "$SCN"
	assert_failure 2
	assert_output --partial "GOOD and BAD are the same kernel"
	refute_output --partial ": good"
}
