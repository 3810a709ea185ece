#!/usr/bin/env bats
# tests/bats/repeat.bats - `nstest run --repeat N`, the flake detector
# (issue 28, section 1): every scenario runs N times, the report is the
# first run's, and a scenario whose verdict (status, and the first step
# that failed) changed in any run is named on stderr and fails the run;
# under --bisect it is 125, since a verdict that flips cannot steer a
# bisect. The flip is made on purpose: round 2's worker is killed while
# it sits in `sleep`, the other rounds pass.
#
# Runs as root: `nstest run` sandboxes itself in a private mount namespace.

bats_require_minimum_version 1.5.0
load helpers
load robust

setup() {
	robust_setup
}

write_napper() {
	write_scn "${1:-napper}" <<'SCN'
    # mkdir /a
    # sleep 1
    # ls /
    a
SCN
}

# repeat_with_kill ROUND ARGS...: nstest run ARGS..., and SIGKILL the
# worker of run ROUND while it sleeps. Status in $st, stdout in $output,
# stderr in $BATS_TEST_TMPDIR/err.
repeat_with_kill() {
	local round=$1 pid w seen=() k
	shift
	NSTEST_BATS_MARK=$NSTEST_MARK "$NSTEST" run "$@" >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	for ((k = 1; k <= round; k++)); do
		# a worker not seen before: run k's
		wait_until 20 eval 'w=$(at_depth '"$pid"' 1); [[ -n $w && " ${seen[*]} " != *" $w "* ]]' ||
			fail "the worker of run $k never appeared"
		seen+=("$w")
	done
	# in its sandbox, and in `sleep 1`
	wait_until 10 eval '[[ $(readlink /proc/$w/ns/mnt) != $(readlink /proc/self/ns/mnt) ]]'
	sleep 0.3
	kill -9 "$w"
	st=0
	wait "$pid" || st=$?
	run cat "$BATS_TEST_TMPDIR/out"
}

@test "repeat: a verdict that changes in one run of three is named, with the runs, and fails the run" {
	scn=$(write_napper)
	repeat_with_kill 2 --repeat 3 "$scn"
	assert_equal "$st" 1
	# the report is the first run's
	assert_line "PASS  $scn"
	assert_line "1 passed, 0 failed, 0 skipped"
	run cat "$BATS_TEST_TMPDIR/err"
	assert_line "nstest: flaky: $scn: 3 runs: PASS 2 FAIL 1; run 1 PASS, run 2 FAIL at line 2"
	assert_host_unchanged
}

@test "repeat: under --bisect a flaky verdict is 125, not good or bad" {
	scn=$(write_napper)
	repeat_with_kill 3 --bisect --repeat 3 "$scn"
	assert_equal "$st" 125
	run cat "$BATS_TEST_TMPDIR/err"
	assert_line "nstest: flaky: $scn: 3 runs: PASS 2 FAIL 1; run 1 PASS, run 3 FAIL at line 2"
	assert_host_unchanged
}

@test "repeat: stable verdicts, passing or failing, are no flake" {
	good=$(write_scn good <<'SCN'
    # mkdir /a
    # ls /
    a
SCN
	)
	bad=$(write_scn bad <<'SCN'
    # mkdir /a
    # ls /
    b
SCN
	)
	for b in "" "--backend model"; do
		run --separate-stderr "$NSTEST" run $b --repeat 4 -j 2 "$good"
		assert_success
		[[ -z $stderr ]] || fail "stderr: $stderr"
		run --separate-stderr "$NSTEST" run $b --repeat 4 "$good" "$bad"
		assert_failure 1
		assert_line "1 passed, 1 failed, 0 skipped"
		[[ $stderr != *flaky* ]] || fail "stderr: $stderr"
	done
	assert_host_unchanged
}

@test "repeat: a bad count, or --update, is a usage error" {
	scn=$(write_napper)
	for n in 0 -1 x 10001 ""; do
		run "$NSTEST" run --repeat "$n" "$scn"
		assert_failure 2
		assert_output --partial "--repeat must be a number of runs from 1 to 10000, not '$n'"
	done
	run "$NSTEST" run --repeat 2 --update "$scn"
	assert_failure 2
	assert_output --partial "--repeat and --update do not go together"
	run "$NSTEST" run --repeat 2 --bisect --update "$scn"
	assert_failure 128
}

# tests/churn moves the numbers a new mount gets: under it, the mount ID
# of a fresh namespace's root takes several values in 20 tries (each
# churner holds 0 to 47 IDs at random), and the host is left as it was.
@test "repeat: tests/churn makes the numbering differ from run to run, and leaves the host alone" {
	run "$NSTEST_ROOT/tests/churn" bash -c '
		# wait until a churner has mounted its first tmpfs
		for ((i = 0; i < 100; i++)); do
			grep -qs " churn " /proc/[0-9]*/mountinfo && break
			sleep 0.1
		done
		for ((i = 0; i < 20; i++)); do
			unshare -m cat /proc/self/mountinfo | head -n 1 | cut -d" " -f1
			sleep 0.05
		done'
	assert_success
	distinct=$(sort -u <<<"$output" | wc -l)
	((distinct > 1)) || fail "one mount ID in 20 tries under churn: $output"
	run "$NSTEST_ROOT/tests/churn"
	assert_failure 2
	assert_output --partial "usage: tests/churn"
	assert_host_unchanged
}
