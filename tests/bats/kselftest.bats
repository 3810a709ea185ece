#!/usr/bin/env bats
# kselftest.bats - `make kselftest-install DESTDIR=DIR` makes nstest a
# kselftest collection, and the kernel's own runner runs it: the real
# run_kselftest.sh and kselftest/ from Debian's linux-source package.
# ci/kselftest-runner fetches them into a cache once (ci/install-deps,
# which make check runs first, does so; otherwise the first run of this
# file does). The tests that need the runner skip, with its reason, only
# when it cannot be had (the archive out of reach), and fail then in CI
# (CI set).

load helpers
bats_require_minimum_version 1.5.0

# One try for the whole file: a machine without the archive waits for
# the attempt once, not in every test.
setup_file() {
	local s=0
	"$NSTEST_ROOT/ci/kselftest-runner" --quiet >"$BATS_FILE_TMPDIR/runner" \
		2>"$BATS_FILE_TMPDIR/runner.err" || s=$?
	echo "$s" >"$BATS_FILE_TMPDIR/runner.status"
}

setup() {
	nstest_setup
	DEST=$BATS_TEST_TMPDIR/selftests
	mkdir -p "$DEST"
}

# Put the kernel's runner into DIR (default $DEST), as the kernel's
# `make -C tools/testing/selftests install INSTALL_PATH=DIR` does.
with_runner() {
	local dir=${1:-$DEST} s runner
	s=$(cat "$BATS_FILE_TMPDIR/runner.status")
	if ((s != 0)); then
		local why
		why="kselftest's runner cannot be had: $(tail -n1 "$BATS_FILE_TMPDIR/runner.err") (status $s)"
		[[ -z ${CI:-} ]] || fail "CI: $why"
		skip "$why"
	fi
	runner=$(cat "$BATS_FILE_TMPDIR/runner")
	cp -r "$runner/run_kselftest.sh" "$runner/kselftest" "$dir/"
}

install_into() {
	make -C "$NSTEST_ROOT" --no-print-directory -s kselftest-install DESTDIR="$1"
}

# The runner's output (standard output only: tests/isolation-check says on
# standard error that the host was left alone).
run_selftests() {
	run --separate-stderr "$NSTEST_ROOT/tests/isolation-check" "$@"
	[[ $stderr == *"isolation-check: host mount table unchanged"* ]] ||
		fail "isolation-check: $stderr"
}

n_scenarios() { find "$NSTEST_ROOT/scenarios" -name '*.scn' | wc -l; }

# has_line LINE, has_match REGEX: a line of $output is LINE, or matches
# the extended REGEX (grep: bats' assert_line is slow on 3600 lines)
has_line() { grep -qxF -- "$1" <<<"$output" || fail "no line '$1' in the output"; }
has_match() { grep -qE -- "$1" <<<"$output" || fail "no line matches '$1' in the output"; }

@test "kselftest-install: the collection nstest/ holds the program, every scenario, run_nstest.sh and a settings file; kselftest-list.txt names it once" {
	echo "mount_setattr:mount_setattr_test" >"$DEST/kselftest-list.txt"
	run install_into "$DEST"
	assert_success
	run install_into "$DEST"
	assert_success
	[ -x "$DEST/nstest/nstest" ]
	[ -x "$DEST/nstest/run_nstest.sh" ]
	assert_equal "$(find "$DEST/nstest/scenarios" -name '*.scn' | wc -l)" "$(n_scenarios)"
	[ -f "$DEST/nstest/scenarios/article/01-shared-private.scn" ]
	# the kernel's collections stay; ours is there once
	run cat "$DEST/kselftest-list.txt"
	assert_output "mount_setattr:mount_setattr_test"$'\n'"nstest:run_nstest.sh"
	# runner.sh reads FIELD=VALUE lines and skips those starting with #
	run grep -v '^#' "$DEST/nstest/settings"
	assert_output --regexp '^timeout=[0-9]+$'
	(($(cut -d= -f2 <<<"$output") > 45)) || fail "timeout not above kselftest's default 45 s: $output"
}

@test "kselftest-install: a scenario gone from the tree is gone from the collection; without DESTDIR it refuses" {
	run install_into "$DEST"
	assert_success
	touch "$DEST/nstest/scenarios/stale.scn"
	run install_into "$DEST"
	assert_success
	[ ! -e "$DEST/nstest/scenarios/stale.scn" ]
	run make -C "$NSTEST_ROOT" --no-print-directory -s kselftest-install DESTDIR=
	assert_failure
	assert_output --partial "kselftest-install: set DESTDIR to the folder of run_kselftest.sh"
}

@test "kselftest: the real run_kselftest.sh runs the nstest collection, its KTAP nested in the runner's, and says ok" {
	with_runner
	run install_into "$DEST"
	assert_success
	run "$DEST/run_kselftest.sh" --list
	assert_output --partial "nstest:run_nstest.sh"
	run_selftests "$DEST/run_kselftest.sh" -c nstest
	assert_success
	assert_equal "${lines[0]}" "TAP version 13"
	assert_equal "${lines[1]}" "1..1"
	assert_equal "${lines[2]}" "# selftests: nstest: run_nstest.sh"
	assert_equal "${lines[3]}" "# KTAP version 1"
	has_line "# 1..$(n_scenarios)"
	has_line "# ok 1 scenarios/article/01-shared-private.scn"
	# every scenario has its result, and none failed (a step may, in a
	# scenario that is an expected failure: "# ok N ... # XFAIL")
	assert_equal "$(grep -cE '^# (not )?ok [0-9]+ scenarios/' <<<"$output")" "$(n_scenarios)"
	assert_equal "$(grep -cE '^# not ok ' <<<"$output")" 0
	assert_equal "${lines[-1]}" "ok 1 selftests: nstest: run_nstest.sh"
}

@test "kselftest: the runner takes its timeout for nstest from the collection's settings file" {
	with_runner
	run install_into "$DEST"
	assert_success
	# runner.sh as run_kselftest.sh runs it, its settings read by its own
	# code; only the call that would start the test under timeout(1) is
	# replaced, to print what it was given
	run sh -c 'BASE_DIR=$1 && cd "$1" && . ./kselftest/runner.sh &&
		tap_timeout() { echo "timeout $kselftest_timeout: $1"; } &&
		cd nstest && run_many run_nstest.sh' _ "$DEST"
	assert_success
	assert_line --regexp "^# timeout $(sed -n 's/^timeout=//p' "$DEST/nstest/settings"): \./run_nstest\.sh *\$"
	assert_line "ok 1 selftests: nstest: run_nstest.sh"
}

@test "kselftest: a planted failing scenario makes the collection not ok, with the step and its diff in the runner's output" {
	with_runner
	run install_into "$DEST"
	assert_success
	cat >"$DEST/nstest/scenarios/zz-planted.scn" <<-'EOF'
	A planted failure: ls lists the folder just made, not "wrong".

	    # mkdir /a
	    # ls /
	    wrong
	EOF
	run_selftests "$DEST/run_kselftest.sh" -c nstest
	local n=$(($(n_scenarios) + 1))
	has_line "# 1..$n"
	# the planted scenario's subtest, whole: the failing step with its diff
	assert_equal "$(sed -n '/^#   # Subtest: scenarios\/zz-planted\.scn$/,/^# [^ ]/p' <<<"$output")" \
		"#   # Subtest: scenarios/zz-planted.scn
#   1..2
#   ok 1 line 3: \\# mkdir /a
#   # --- expected
#   # +++ actual
#   # @@ -1,1 +1,1 @@
#   # -wrong
#   # +a
#   not ok 2 line 4: \\# ls /
# not ok $n scenarios/zz-planted.scn"
	# the scenarios of the tree still passed
	assert_equal "$(grep -cE '^# not ok [0-9]+ ' <<<"$output")" 1
	assert_equal "${lines[-1]}" "not ok 1 selftests: nstest: run_nstest.sh # exit=1"
}

@test "kselftest: KSELFTEST_RUN_NSTEST_SH_ARGS picks scenarios; a run where every scenario is skipped is kselftest's SKIP" {
	with_runner
	run install_into "$DEST"
	assert_success
	KSELFTEST_RUN_NSTEST_SH_ARGS=scenarios/article run_selftests "$DEST/run_kselftest.sh" -c nstest
	has_line "# 1..$(find "$NSTEST_ROOT/scenarios/article" -name '*.scn' | wc -l)"
	assert_equal "${lines[-1]}" "ok 1 selftests: nstest: run_nstest.sh"
	cat >"$DEST/nstest/scenarios/future.scn" <<-'EOF'
	kernel: >= 99.0

	No kernel is this new yet.

	    # mkdir /a
	EOF
	KSELFTEST_RUN_NSTEST_SH_ARGS=scenarios/future.scn run_selftests "$DEST/run_kselftest.sh" -c nstest
	assert_line --regexp '^# ok 1 scenarios/future\.scn # SKIP needs kernel >= 99'
	assert_equal "${lines[-1]}" "ok 1 selftests: nstest: run_nstest.sh # SKIP"
}
