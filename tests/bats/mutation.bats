#!/usr/bin/env bats
# tests/bats/mutation.bats - tests/mutation-check itself: it must catch a
# harness that passes everything, refuse a scenario that fails unmutated,
# and fall back to adding a line for scenarios its table does not know.

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

@test "mutation-check: the article scenarios pass and every mutant fails" {
	run "$MUTATION_CHECK" "$NSTEST"
	assert_success
	assert_equal "$(grep -c '^mutant: killed$' <<<"$output")" 4
	assert_line "mutation-check: every mutant of 4 scenario(s) failed, every original passed"
}

@test "mutation-check: a harness that passes everything is caught" {
	run "$MUTATION_CHECK" "$(fake_nstest)"
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
