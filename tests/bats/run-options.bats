#!/usr/bin/env bats
# tests/bats/run-options.bats - run --bisect and --output.

bats_require_minimum_version 1.5.0
load helpers

pass_scn() { write_scn pass <<'SCN'
    # mkdir /a
SCN
}

fail_scn() { write_scn fail <<'SCN'
    # mkdir /a
    # ls /
    b
SCN
}

@test "bisect: every scenario passing is 0" {
	run "$NSTEST" run --bisect "$(pass_scn)"
	assert_success
}

@test "bisect: a failing scenario is 1" {
	run "$NSTEST" run --bisect "$(pass_scn)" "$(fail_scn)"
	assert_failure 1
}

@test "bisect: a scenario this kernel cannot run (skipped) is 125" {
	scn=$(write_scn future <<'SCN'
kernel: >= 99.0

    # mkdir /a
SCN
	)
	run "$NSTEST" run --bisect "$(pass_scn)" "$scn"
	assert_failure 125
}

@test "bisect: a real failure outranks a skip" {
	scn=$(write_scn future <<'SCN'
kernel: >= 99.0

    # mkdir /a
SCN
	)
	run "$NSTEST" run --bisect "$(fail_scn)" "$scn"
	assert_failure 1
}

@test "bisect: xfail markers do not hide a deviation from the documented rule" {
	scn=$(write_scn marked <<'SCN'
xfail: *: known deviation (example)

    # mkdir /a
    # ls /
    b
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
	run "$NSTEST" run --bisect "$scn"
	assert_failure 1
}

@test "bisect: a parse error or a bad option is 128, which stops git bisect run" {
	printf '    # frobnicate\n' > "$SCN_DIR/bad.scn"
	run "$NSTEST" run --bisect "$SCN_DIR/bad.scn"
	assert_failure 128
	run "$NSTEST" run --bisect --no-such-option "$(pass_scn)"
	assert_failure 128
	run "$NSTEST" run --bisect --filter nothing "$(pass_scn)"
	assert_failure 128
}

@test "bisect: missing privileges with no user namespaces is 125" {
	scn=$(pass_scn)
	cp "$NSTEST" "$BATS_TEST_TMPDIR/nstest"
	chmod 755 "$BATS_TEST_TMPDIR/nstest"
	run unshare -U -r --fork sh -c '
		echo 0 > /proc/sys/user/max_user_namespaces &&
		exec setpriv --bounding-set=-all --inh-caps=-all "$0" run --bisect "$1"' \
		"$BATS_TEST_TMPDIR/nstest" "$scn"
	assert_failure 125
}

@test "output: the report goes to the file and nothing to stdout" {
	p=$(pass_scn)
	run --separate-stderr "$NSTEST" run --format tap --output "$BATS_TEST_TMPDIR/r.tap" "$p"
	assert_success
	assert_output ""
	run cat "$BATS_TEST_TMPDIR/r.tap"
	assert_line "ok 1 - $p"
}

@test "output: on a terminal the progress still shows there" {
	p=$(pass_scn)
	run script -qec "$NSTEST run --output $BATS_TEST_TMPDIR/r.txt $p" /dev/null
	assert_success
	[[ $output == *"[1/1] $p"* ]] || fail "no progress on the terminal: $output"
	run cat "$BATS_TEST_TMPDIR/r.txt"
	assert_output "$HEAD
PASS  $p
1 passed, 0 failed, 0 skipped"
}

@test "output: a file that cannot be written is a usage error" {
	run --separate-stderr "$NSTEST" run --output /nonexistent/dir/r.txt "$(pass_scn)"
	assert_failure 2
	assert_equal "$stderr" "nstest: error: --output /nonexistent/dir/r.txt: No such file or directory"
}
