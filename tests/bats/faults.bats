#!/usr/bin/env bats
# tests/bats/faults.bats - nstest under faults (issue 5): random SIGKILLs
# of nstest and its processes during whole runs, each kind of process
# killed on purpose at a known moment, the watchdog, and the mount limit.
# After each, the host must be as it was: the same mount table, no loop
# device of ours attached, no process of the run alive.
#
# The random trials are tests/faults/run-faults (20 here; `make
# check-faults` runs 100). NSTEST_FAULT_TRIALS changes the number here.
#
# Runs as root: `nstest run` sandboxes itself in a private mount namespace.

bats_require_minimum_version 1.5.0
load helpers
load robust

setup() {
	robust_setup
	[[ -x $NSTEST_ROOT/tests/faults/killer ]] ||
		fail "tests/faults/killer is missing: run 'make tests/faults/killer'"
}

# A scenario that sits in `sleep 30` at its second step (line 2), long
# enough for a test to find its processes and kill one; it would fail
# when complete, since /a holds nothing called "never".
write_sleeper() {
	write_scn "${1:-sleeper}" <<'SCN'
    # mkdir /a
    # sleep 30
    # ls /a
    never
SCN
}

# The same in a scenario that needs a process per shell level (capsh is a
# command no process can undo): the worker (depth 1) is the sandbox and
# starts terminal '#' (depth 2), whose capsh shell (depth 3) sits in
# `sleep 30` at line 3.
write_shell_sleeper() {
	write_scn "${1:-shell-sleeper}" <<'SCN'
    # capsh --drop=cap_sys_time --
    # mkdir /a
    # sleep 30
    # ls /a
    never
SCN
}

# ---- random kills ---------------------------------------------------------

@test "faults: random SIGKILLs of nstest, workers, sandboxes and terminals leave the host as it was" {
	run "$NSTEST_ROOT/tests/faults/run-faults" -n "${NSTEST_FAULT_TRIALS:-20}" \
		"$NSTEST" "$NSTEST_ROOT/scenarios"
	# the figures, for the log
	grep -E '^# [0-9]+ trials|^# kills|^# runs' <<<"$output" | sed 's/^# /# faults: /' >&3
	assert_success
	refute_output --regexp '^not ok [0-9]+ - [^#]*$'
	assert_host_unchanged
}

# ---- one kind of process at a time ------------------------------------------

@test "faults: SIGKILL of nstest mid-run in loop mode detaches its loop devices and ends every process" {
	scn=$(write_scn loops <<'SCN'
    # mkdir /a /b /c
    # mount /dev/sdb1 /a
    # mount /dev/sdb2 /b
    # mount /dev/sdb3 /c
    # sleep 30
SCN
	)
	NSTEST_BATS_MARK=$NSTEST_MARK "$NSTEST" run --devices=loop "$scn" >"$BATS_TEST_TMPDIR/out" 2>&1 &
	pid=$!
	# the worker is in `sleep 30` once four devices are attached
	wait_for_depth "$pid" 1
	wait_until 10 eval '(($(comm -13 "$HOST_LOOPS" <(nstest_loops) | wc -l) >= 4))' ||
		fail "nstest never attached its four loop devices"
	kill -9 "$pid"
	wait "$pid" || true
	assert_host_unchanged
}

# A scenario that passes: the run goes on after a fault.
write_other() {
	write_scn "${1:-other}" <<'SCN'
    # mkdir /b
    # ls /
    b
SCN
}

# kill_during WAIT KILL SCN...: run nstest on SCN..., wait until it has a
# process WAIT generations below it, then (once that is in its sandbox's
# namespace and a moment into `sleep 30`) SIGKILL the processes KILL
# generations below. nstest's status lands in $st, its output in $output.
kill_during() {
	local wait=$1 kill=$2 pid
	shift 2
	NSTEST_BATS_MARK=$NSTEST_MARK "$NSTEST" run "$@" >"$BATS_TEST_TMPDIR/out" 2>&1 &
	pid=$!
	wait_for_depth "$pid" "$wait" || fail "no process $wait levels below nstest appeared"
	wait_until 10 eval '[[ $(readlink /proc/$(at_depth "$pid" "$kill")/ns/mnt) != $(readlink /proc/self/ns/mnt) ]]'
	sleep 0.2
	kill -9 $(at_depth "$pid" "$kill")
	st=0
	wait "$pid" || st=$?
	run cat "$BATS_TEST_TMPDIR/out"
}

# It must not pass with steps not run (a bug once: it did), and the
# reason names the step it was in.
@test "faults: a killed worker fails only its own scenario, naming the step, and the run goes on" {
	sleeper=$(write_sleeper)
	kill_during 1 1 "$sleeper" "$(write_other)"
	assert_equal "$st" 1
	assert_line "FAIL  $sleeper (the sandbox ended with the step at line 2 unfinished (signal 9))"
	assert_line --regexp "^PASS  .*/other.scn$"
	assert_line "1 passed, 1 failed, 0 skipped"
	assert_host_unchanged
}

@test "faults: a killed worker that is a one-way scenario's sandbox fails its scenario, and the run goes on" {
	sleeper=$(write_shell_sleeper)
	kill_during 3 1 "$sleeper" "$(write_other)"
	assert_equal "$st" 1
	assert_line "FAIL  $sleeper (the sandbox ended with the step at line 3 unfinished (signal 9))"
	assert_line --regexp "^PASS  .*/other.scn$"
	assert_host_unchanged
}

@test "faults: a killed terminal process fails its scenario, naming the terminal and the step" {
	sleeper=$(write_shell_sleeper)
	kill_during 3 2 "$sleeper"
	assert_equal "$st" 1
	assert_line "FAIL  $sleeper (terminal '#' died during the step at line 3)"
	assert_host_unchanged
}

@test "faults: a killed inner shell process fails its scenario, naming the terminal and the step" {
	sleeper=$(write_shell_sleeper)
	kill_during 3 3 "$sleeper"
	assert_equal "$st" 1
	assert_line "FAIL  $sleeper (terminal '#' died during the step at line 3)"
	assert_host_unchanged
}

# ---- the watchdog -----------------------------------------------------------

@test "faults: the watchdog kills a hung scenario after --timeout, and the next one runs" {
	sleeper=$(write_sleeper a-sleeper)
	other=$(write_other b-other)
	run nstest_marked run --timeout 1 "$sleeper" "$other"
	assert_failure 1
	assert_line "FAIL  $sleeper (timeout after 1 s)"
	assert_line "PASS  $other"
	assert_host_unchanged
}

@test "faults: the watchdog also ends a hung loop-mode scenario and detaches its devices" {
	scn=$(write_scn loop-sleeper <<'SCN'
    # mkdir /a
    # mount /dev/sdb1 /a
    # sleep 30
SCN
	)
	run nstest_marked run --devices=loop --timeout 1 "$scn"
	assert_failure 1
	assert_line "FAIL  $scn (timeout after 1 s)"
	assert_host_unchanged
}

# A session stopped (SIGSTOP, ^Z, a debugger) is not hung: the watchdog's
# clock counts the time a scenario's worker, and the runner, were not
# stopped (issue 28, section 3). The worker is stopped in its `sleep 1`
# for three times --timeout, then let go; then nstest itself and its
# worker are stopped together. Both runs must pass; a hang still times
# out (the tests above).
@test "faults: a stopped worker, or a stopped nstest, does not time out" {
	scn=$(write_scn napper <<'SCN'
    # mkdir /a
    # sleep 1
    # ls /
    a
SCN
	)
	for who in worker both; do
		NSTEST_BATS_MARK=$NSTEST_MARK "$NSTEST" run --timeout 2 "$scn" >"$BATS_TEST_TMPDIR/out" 2>&1 &
		pid=$!
		wait_for_depth "$pid" 1 || fail "no worker appeared"
		w=$(at_depth "$pid" 1)
		wait_until 10 eval '[[ $(readlink /proc/$w/ns/mnt) != $(readlink /proc/self/ns/mnt) ]]'
		[[ $who == both ]] && kill -STOP "$pid"
		kill -STOP "$w"
		sleep 6
		kill -CONT "$w"
		[[ $who == both ]] && kill -CONT "$pid"
		st=0
		wait "$pid" || st=$?
		run cat "$BATS_TEST_TMPDIR/out"
		assert_equal "$st" 0
		assert_line "PASS  $scn"
	done
	assert_host_unchanged
}

# ---- the mount limit ----------------------------------------------------------

@test "faults: a scenario past fs.mount-max fails with ENOSPC at the right round, and the next one runs" {
	"$NSTEST_ROOT/tests/faults/make-limit-scenario" --expect-enospc >"$SCN_DIR/a-limit.scn" ||
		skip "fs.mount-max is $(cat /proc/sys/fs/mount-max): too large to reach in a test"
	other=$(write_other b-other)
	run nstest_marked run "$SCN_DIR/a-limit.scn" "$other"
	assert_success
	assert_line "PASS  $SCN_DIR/a-limit.scn"
	assert_line "PASS  $other"
	assert_host_unchanged
}

@test "faults: an unexpected ENOSPC from mount(2) names the call and mentions fs.mount-max" {
	"$NSTEST_ROOT/tests/faults/make-limit-scenario" >"$SCN_DIR/limit.scn" ||
		skip "fs.mount-max is $(cat /proc/sys/fs/mount-max): too large to reach in a test"
	run nstest_marked run "$SCN_DIR/limit.scn"
	assert_failure 1
	assert_line --partial "mount: ENOSPC (No space left on device)"
	assert_line --regexp "system call failed: mount: ENOSPC"
	assert_host_unchanged
	assert_line --partial "/proc/sys/fs/mount-max"
}

# ---- --update ---------------------------------------------------------------

# `run --update` writes the new text to an unnamed file beside the
# scenario and names it only to rename it over the scenario. A SIGKILL at
# any moment must leave the scenario whole (the old text or the new one)
# and nothing else in its folder.
@test "faults: SIGKILL of nstest run --update at random moments leaves the scenario whole" {
	local rounds=15 r dirs="" try delay
	for ((r = 1; r <= rounds; r++)); do dirs+=" /h$r"; done
	{
		echo "2^$rounds mounts, their table to be written by --update"
		echo
		echo "    # mkdir$dirs"
		for ((r = 1; r <= rounds; r++)); do echo "    # mount --rbind / /h$r"; done
		echo "    # cat /proc/self/mountinfo"
	} >"$BATS_TEST_TMPDIR/orig.scn"
	mkdir "$SCN_DIR/u"
	for try in 1 2 3 4 5 6 7 8; do
		rm -rf "$SCN_DIR/u"/* "$SCN_DIR/u"/.[!.]*
		cp "$BATS_TEST_TMPDIR/orig.scn" "$SCN_DIR/u/table.scn"
		NSTEST_BATS_MARK=$NSTEST_MARK "$NSTEST" run --update "$SCN_DIR/u/table.scn" >/dev/null 2>&1 &
		pid=$!
		delay=$(printf '0.%02d' $((RANDOM % 40)))
		sleep "$delay"
		kill -9 "$pid" 2>/dev/null || true
		wait "$pid" || true
		# whole: the old text, or a complete update that parses and passes
		if ! cmp -s "$SCN_DIR/u/table.scn" "$BATS_TEST_TMPDIR/orig.scn"; then
			run "$NSTEST" run "$SCN_DIR/u/table.scn"
			assert_success
		fi
		leftover=$(cd "$SCN_DIR/u" && ls -A | grep -v '^table\.scn$' || true)
		assert_equal "$leftover" ""
	done
	assert_host_unchanged
}

