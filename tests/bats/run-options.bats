#!/usr/bin/env bats
# tests/bats/run-options.bats - run --bisect, --output and --report.

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
	# the live line: which scenario of how many, the time it has taken
	[[ $output == *"[1/1] "*" elapsed  $p"* ]] || fail "no progress on the terminal: $output"
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

# ---- --report FORMAT:FILE: several reports from one run ----------------------

# What differs from one run to the next: times, the timestamp, and the
# version in the JUnit properties and the JSON head (report.bats has the
# same).
normalize() {
	sed -E -e 's/ time="[0-9]+\.[0-9]{3}"/ time="T"/g' \
		-e 's/ timestamp="[^"]*"/ timestamp="TS"/' \
		-e 's/"seconds":[0-9]+\.[0-9]{3}/"seconds":S/g' "$@"
}

@test "report: one run writes every report, each what a run of that format alone writes" {
	write_scn tree/a-pass <<<$'    # mkdir /a\n    # ls /\n    a' >/dev/null
	write_scn tree/b-fail <<<$'    # mkdir /b\n    # ls /\n    nothing' >/dev/null
	write_scn tree/c-skip <<<$'kernel: >= 99.0\n\n    # mkdir /a' >/dev/null
	r=$BATS_TEST_TMPDIR/r
	mkdir "$r"
	run --separate-stderr "$NSTEST" run --format json "$SCN_DIR/tree" \
		--report junit:"$r/one.xml" --report tap:"$r/one.tap" --report human:"$r/one.txt" \
		--report json:"$r/also.json"
	assert_failure 1
	assert_equal "$stderr" ""
	normalize <<<"$output" >"$r/one.json"
	# the same run once per format, each to standard output
	for f in junit:xml tap:tap human:txt json:json; do
		run --separate-stderr "$NSTEST" run --format "${f%:*}" "$SCN_DIR/tree"
		assert_failure 1
		normalize <<<"$output" >"$r/alone.${f#*:}"
	done
	for ext in xml tap txt json; do
		[[ -s $r/one.$ext ]] || fail "no $ext report"
		normalize -i "$r/one.$ext"
		diff -u "$r/alone.$ext" "$r/one.$ext" || fail "the $ext report of the one run differs"
	done
	normalize "$r/also.json" | diff -u "$r/alone.json" - || fail "--report json differs from --format json"
	grep -q '<testcase classname="nstest.tree" name="b-fail"' "$r/one.xml"
	grep -q '^not ok 2 ' "$r/one.tap"

	# --output and --report together: nothing on standard output
	run --separate-stderr "$NSTEST" run --format junit --output "$r/o.xml" \
		--report=json:"$r/o.json" "$SCN_DIR/tree"
	assert_failure 1
	assert_output ""
	normalize "$r/o.xml" | diff -u "$r/alone.xml" - || fail "--output differs"
	normalize "$r/o.json" | diff -u "$r/alone.json" - || fail "--report= differs"
}

@test "report: on a terminal the human report keeps its progress and colour, the files get neither" {
	p=$(fail_scn)
	run script -qec "$NSTEST run $p --report human:$BATS_TEST_TMPDIR/r.txt" /dev/null
	assert_failure 1
	[[ $output == *"[1/1] $p"* && $output == *$'\e['* ]] || fail "no progress or colour on the terminal: $output"
	run cat "$BATS_TEST_TMPDIR/r.txt"
	[[ $output != *$'\e'* && $output == *"FAIL  $p"* ]] || fail "the file: $output"
}

@test "report: an unknown FORMAT, or no FORMAT:FILE, is a usage error that names it, and nothing runs" {
	p=$(pass_scn)
	run --separate-stderr "$NSTEST" run --report xml:r.xml "$p"
	assert_failure 2
	assert_output ""
	assert_equal "${stderr_lines[0]}" "nstest: error: --report xml:r.xml: unknown format 'xml' (known: human, tap, ktap, junit, json, html)"
	for bad in junit junit: :r.xml ""; do
		run --separate-stderr "$NSTEST" run --report "$bad" "$p"
		assert_failure 2
		assert_equal "${stderr_lines[0]}" "nstest: error: --report must be FORMAT:FILE, a format, a colon and a file name, not '$bad'"
	done
	run --separate-stderr "$NSTEST" run "$p" --report
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "nstest: error: run: option '--report' needs a value"
	# --bisect: the command line is wrong, stop the bisection
	run "$NSTEST" run --bisect --report xml:r.xml "$p"
	assert_failure 128
	[[ ! -e r.xml ]]
}

@test "report: a file that cannot be written stops the run before it starts, and no report is written" {
	p=$(pass_scn)
	mkdir "$BATS_TEST_TMPDIR/w"
	cd "$BATS_TEST_TMPDIR/w"
	run --separate-stderr "$NSTEST" run --output o.txt --report json:o.json \
		--report junit:/nonexistent/dir/r.xml "$p"
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "nstest: error: --report junit:/nonexistent/dir/r.xml: No such file or directory"
	[[ ! -e o.txt && ! -e o.json ]] || fail "a report was written: $(ls)"
	[[ -z $(ls -A) ]] || fail "left behind: $(ls -A)"
	# a folder cannot be replaced by a report
	mkdir d
	run --separate-stderr "$NSTEST" run --report tap:d "$p"
	assert_failure 2
	assert_equal "$stderr" "nstest: error: --report tap:d: Is a directory"
	# --bisect: the machine, not the command line: cannot judge
	run "$NSTEST" run --bisect --report junit:/nonexistent/dir/r.xml "$p"
	assert_failure 125
}

@test "report: two reports to one file, however it is spelt, are a usage error" {
	p=$(pass_scn)
	mkdir "$BATS_TEST_TMPDIR/w"
	cd "$BATS_TEST_TMPDIR/w"
	mkdir sub
	ln -s r.json link.json
	echo old >r.json
	for two in "--report json:r.json --report junit:r.json" \
		   "--report json:r.json --report junit:./sub/../r.json" \
		   "--report json:$BATS_TEST_TMPDIR/w/r.json --report junit:link.json"; do
		# shellcheck disable=SC2086 # two options
		run --separate-stderr "$NSTEST" run $two "$p"
		assert_failure 2
		first=${two%% --report junit:*} second=${two##* junit:}
		assert_equal "${stderr_lines[0]}" "nstest: error: --report junit:$second: $second is the file of $first already; each report needs a file of its own"
	done
	run --separate-stderr "$NSTEST" run --format tap --output r.json --report junit:r.json "$p"
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "nstest: error: --report junit:r.json: r.json is the file of --output already; each report needs a file of its own"
	# a file not there yet, named twice
	run --separate-stderr "$NSTEST" run --report tap:sub/new --report human:./sub/new "$p"
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "nstest: error: --report human:./sub/new: ./sub/new is the file of --report tap:sub/new already; each report needs a file of its own"
	# nothing ran, nothing was written
	assert_equal "$(cat r.json)" old
	[[ ! -e sub/new ]]
	# two files of the same format are fine
	run "$NSTEST" run --report json:a.json --report json:sub/a.json "$p"
	assert_success
	cmp a.json sub/a.json || diff <(normalize a.json) <(normalize sub/a.json)
}

# ---- progress off a terminal (NSTEST_PROGRESS_INTERVAL, nstest(1)) ---------
# A plain line on stderr at least every NSTEST_PROGRESS_INTERVAL seconds
# (10 by default); 0 gives one at every change, which makes the lines
# known without timing anything.

three_scn() {
	local i
	for i in 1 2 3; do
		write_scn "three/s$i" <<'SCN' >/dev/null
    # mkdir /a
SCN
	done
	printf '%s\n' "$SCN_DIR/three"
}

@test "progress: --output off a terminal says k of N on stderr, with what runs" {
	d=$(three_scn)
	NSTEST_PROGRESS_INTERVAL=0 run --separate-stderr "$NSTEST" run --format junit \
		--output "$BATS_TEST_TMPDIR/x.xml" "$d"
	assert_success
	assert_output ""
	grep -q '<testsuite' "$BATS_TEST_TMPDIR/x.xml" || fail "no report"
	[[ $stderr == *"nstest run: 0 of 3 scenarios done, "*" elapsed (running $d/s1.scn)"* ]] ||
		fail "no first line: $stderr"
	[[ $stderr == *"nstest run: 1 of 3 scenarios done, "*" elapsed, about "*" left (running $d/s2.scn)"* ]] ||
		fail "no second line: $stderr"
	[[ $stderr == *"nstest run: 3 of 3 scenarios done, "*" elapsed"* ]] || fail "no last line: $stderr"
	[[ $stderr != *$'\033'* ]] || fail "terminal codes off a terminal: $stderr"
}

@test "progress: a machine format on stdout keeps stdout clean, the lines go to stderr" {
	d=$(three_scn)
	NSTEST_PROGRESS_INTERVAL=0 run --separate-stderr "$NSTEST" run --format tap "$d"
	assert_success
	[[ $output != *"nstest run:"* ]] || fail "progress on stdout: $output"
	assert_line "ok 3 - $d/s3.scn"
	[[ $stderr == *"nstest run: 2 of 3 scenarios done"* ]] || fail "no progress: $stderr"
}

@test "progress: the human report on stdout is the progress; nothing more is said" {
	d=$(three_scn)
	NSTEST_PROGRESS_INTERVAL=0 run --separate-stderr "$NSTEST" run "$d"
	assert_success
	assert_equal "$stderr" ""
	assert_line "PASS  $d/s2.scn"
}

@test "progress: by default (every 10 s) a short run off a terminal prints no line" {
	d=$(three_scn)
	run --separate-stderr "$NSTEST" run --format junit --output "$BATS_TEST_TMPDIR/x.xml" "$d"
	assert_success
	assert_equal "$stderr" ""
	# a value that is no number of seconds is the default too
	NSTEST_PROGRESS_INTERVAL=soon run --separate-stderr "$NSTEST" run --format junit \
		--output "$BATS_TEST_TMPDIR/x.xml" "$d"
	assert_equal "$stderr" ""
}
