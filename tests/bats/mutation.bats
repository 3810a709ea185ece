#!/usr/bin/env bats
# tests/bats/mutation.bats - tests/mutation-check itself: it must catch a
# harness that passes everything, refuse a scenario that fails unmutated,
# and mutate every scenario its table does not know: a peer-group number
# changed, else a mountinfo line deleted, else a line added; xfailed
# scenarios are judged on the steps they pass, skipped ones not at all.

bats_require_minimum_version 1.5.0
load helpers

MUTATION_CHECK=$NSTEST_ROOT/tests/mutation-check

# A stand-in for nstest that parses nothing and passes everything.
fake_nstest() {
	local f=$BATS_TEST_TMPDIR/fake-nstest
	cat >"$f" <<'SH'
#!/bin/bash
[[ $1 == lint ]] && exit 0
echo "PASS  ${@: -1}"
echo "1 passed, 0 failed, 0 skipped"
SH
	chmod +x "$f"
	printf '%s\n' "$f"
}

@test "mutation-check: usage without arguments exits 2" {
	run "$MUTATION_CHECK"
	assert_failure 2
	assert_output --partial "usage: tests/mutation-check NSTEST [SCENARIO...]"
}

ARTICLE=("$NSTEST_ROOT"/scenarios/article/*.scn)

@test "mutation-check: the article scenarios pass and every mutant fails" {
	run "$MUTATION_CHECK" "$NSTEST" "${ARTICLE[@]}"
	assert_success
	assert_equal "$(grep -c '^mutant: killed$' <<<"$output")" 4
	assert_line "mutation-check: every mutant of 4 scenario(s) failed, every original passed"
}

@test "mutation-check: a harness that passes everything is caught" {
	run "$MUTATION_CHECK" "$(fake_nstest)" "${ARTICLE[@]}"
	assert_failure 1
	assert_equal "$(grep -c 'the mutant SURVIVED' <<<"$output")" 4
	assert_line "mutation-check: 4 problem(s) in 4 scenario(s)"
}

@test "mutation-check: a scenario the table does not know gets an extra line" {
	scn=$(write_scn other <<'SCN'
    # mkdir /a
    # ls /
    a

Prose after the last session.
SCN
	)
	run "$MUTATION_CHECK" "$NSTEST" "$scn"
	assert_success
	assert_line --partial "mutation: add-line"
	assert_line "    |     +++ actual"
	assert_line "mutant: killed"
}

@test "mutation-check: an original that fails is reported, not mutated" {
	scn=$(write_scn failing <<'SCN'
    # ls /
    nothing here
SCN
	)
	run "$MUTATION_CHECK" "$NSTEST" "$scn"
	assert_failure 1
	assert_line --partial "the original does not pass (exit 1)"
	refute_line --partial "mutation:"
}

@test "mutation-check: a table entry that no longer applies is a problem" {
	# Named like an article scenario but without the line its mutation edits.
	mkdir -p "$SCN_DIR/x"
	scn=$(write_scn x/04-unbindable <<'SCN'
    # mkdir /a
SCN
	)
	run "$MUTATION_CHECK" "$NSTEST" "$scn"
	assert_failure 1
	assert_line --partial "none of its mutations applies"
}

@test "mutation-check: without scenarios it takes every scenarios/*/*.scn" {
	local all=("$NSTEST_ROOT"/scenarios/*/*.scn)
	run "$MUTATION_CHECK" "$(fake_nstest)"
	assert_failure 1
	assert_line "mutation-check: ${#all[@]} problem(s) in ${#all[@]} scenario(s)"
	assert_line "=== $NSTEST_ROOT/scenarios/sharedsubtree/01-from-shared.scn"
	assert_line "=== $NSTEST_ROOT/scenarios/man7/04-propagate-from.scn"
}

@test "mutation-check: a peer group number on two lines is renumbered" {
	scn=$(write_scn renumber <<'SCN'
    # mkdir /a /b
    # mount --make-shared /dev/sdb1 /a
    # mount --bind /a /b
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    [unordered]
    20 19 8:1 / / rw,relatime
    21 20 8:17 / /a rw,relatime shared:1
    22 20 8:17 / /b rw,relatime shared:1
SCN
	)
	run "$MUTATION_CHECK" "$NSTEST" "$scn"
	assert_success
	assert_line --partial "mutation: renumber line 7, shared:1 -> shared:2"
	assert_line "    | -    21 20 8:17 / /a rw,relatime shared:1"
	assert_line "    | +    21 20 8:17 / /a rw,relatime shared:2"
	assert_line "mutant: killed"
}

@test "mutation-check: without a repeated group number the last mountinfo line goes" {
	scn=$(write_scn delete <<'SCN'
    # mkdir /a
    # mount --make-shared /dev/sdb1 /a
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    [unordered]
    20 19 8:1 / / rw,relatime
    21 20 8:17 / /a rw,relatime shared:1
    # ls /
    a
SCN
	)
	run "$MUTATION_CHECK" "$NSTEST" "$scn"
	assert_success
	assert_line --partial "mutation: delete line 6 '21 20 8:17 / /a rw,relatime shared:1'"
	assert_line "mutant: killed"
}

@test "mutation-check: an xfailed scenario is mutated where it passes" {
	scn=$(write_scn xfailed <<'SCN'
xfail: *: the second step expects a name that is not there (nstest's own test)

    # mkdir /a
    # mount /dev/sdb1 /a
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    [unordered]
    20 19 8:1 / / rw,relatime
    21 20 8:17 / /a rw,relatime
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    [unordered]
    20 19 8:1 / / rw,relatime
    21 20 8:17 / /b rw,relatime
SCN
	)
	run "$MUTATION_CHECK" "$NSTEST" "$scn"
	assert_success
	assert_line "original: XFAIL"
	assert_line "without its xfail: lines, the original fails at line(s): 9"
	assert_line --partial "mutation: delete line 8 '21 20 8:17 / /a rw,relatime'"
	assert_line "mutant: killed (a new failure at line(s) 5)"
	assert_line "mutation-check: every mutant of 1 scenario(s) failed, every original passed, 1 of them xfailed"
}

@test "mutation-check: an xfailed scenario with nothing left to mutate survives" {
	scn=$(write_scn all-xfailed <<'SCN'
xfail: *: the only step expects a name that is not there (nstest's own test)

    # ls /
    nothing here
SCN
	)
	run "$MUTATION_CHECK" "$NSTEST" "$scn"
	assert_failure 1
	assert_line --partial "mutation: add-line"
	assert_line --partial "the mutant SURVIVED: it fails only where the original fails anyway"
}

@test "mutation-check: a skipped scenario is reported, not judged" {
	scn=$(write_scn skipped <<'SCN'
kernel: >= 999.0

    # mkdir /a
SCN
	)
	run "$MUTATION_CHECK" "$NSTEST" "$scn"
	assert_success
	assert_line "original: SKIP, not judged on this machine:"
	refute_line --partial "mutation:"
	assert_line "mutation-check: every mutant of 0 scenario(s) failed, every original passed; 1 skipped, not judged here"
}
