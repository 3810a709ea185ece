#!/usr/bin/env bats
# tests/bats/glyph-mutants.bats - tests/glyph-mutants on the shipped
# findmnt trees (issue 28, section 1): a tree's glyphs must agree with the
# tree, so every single glyph flipped in an expected block fails the run,
# on the kernel and on the model; and the check itself catches a harness
# that passes everything.

bats_require_minimum_version 1.5.0
load helpers

GLYPH_MUTANTS=$NSTEST_ROOT/tests/glyph-mutants

trees() {
	printf '%s\n' "$NSTEST_ROOT"/scenarios/findmnt/*.scn \
		"$NSTEST_ROOT"/tests/data/sessions/0*-findmnt-*.scn
}

@test "glyph-mutants: every glyph flipped in a shipped findmnt tree fails, on the kernel" {
	mapfile -t files < <(trees)
	run "$GLYPH_MUTANTS" "$NSTEST" "${files[@]}"
	assert_success
	refute_output --partial SURVIVED
	(($(grep -c '^killed ' <<<"$output") >= 30)) || fail "too few mutants: $output"
}

@test "glyph-mutants: ... and on the model" {
	mapfile -t files < <(trees)
	run "$GLYPH_MUTANTS" "$NSTEST" --backend model "${files[@]}"
	assert_success
	refute_output --partial SURVIVED
}

@test "glyph-mutants: every findmnt tree of the recorded sessions, unpiped, has no surviving mutant" {
	mapfile -t files < <(grep -lE '├─|└─' "$NSTEST_ROOT"/tests/data/sessions/*.scn)
	run "$GLYPH_MUTANTS" "$NSTEST" "${files[@]}"
	assert_success
	refute_output --partial SURVIVED
}

@test "glyph-mutants: a harness that passes everything is caught; a piped block is left out" {
	local fake=$BATS_TEST_TMPDIR/fake-nstest
	printf '#!/bin/bash\nexit 0\n' >"$fake"
	chmod +x "$fake"
	scn=$(write_scn tree <<'SCN'
    # mkdir /m /m/a /m/b
    # findmnt -R -o TARGET /m
    TARGET
    /m
    ├─/m/a
    └─/m/b
    # findmnt -o TARGET | grep /m
    ├─/m
SCN
	)
	run "$GLYPH_MUTANTS" "$fake" "$scn"
	assert_failure 1
	assert_equal "$(grep -c '^SURVIVED ' <<<"$output")" 2
	assert_line "glyph-mutants: 2 mutant(s) of 1 file(s), 2 problem(s)"
}

@test "glyph-mutants: usage" {
	run "$GLYPH_MUTANTS"
	assert_failure 2
	assert_output --partial "usage: tests/glyph-mutants"
}
