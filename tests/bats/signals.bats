#!/usr/bin/env bats
# tests/bats/signals.bats - nstest run under SIGINT, SIGTERM and SIGHUP
# (issue 28, "Signals"). The first signal stops the run: no scenario
# starts, the running ones end with their sandboxes, and every report
# (--output, each --report) is written whole, marked interrupted, naming
# each scenario that did not run; then nstest ends by that signal (status
# 130, 143, 129). A second signal may end it sooner, but a report file is
# then still the earlier one or a complete one. After each, the host is
# as it was: the same mount table, no loop device of ours, no process of
# the run (robust.bash).
#
# The moment "during a scenario" is the `sleep 30` of
# tests/faults/scenarios/must-time-out.scn, found by polling: a process of
# the run has /a (the step before the sleep makes it) in its root. The
# random moments are sleeps, the only ones here. Nothing is timed.
#
# Runs as root, as faults.bats.

bats_require_minimum_version 1.5.0
load helpers
load robust

setup() {
	robust_setup
	command -v python3 >/dev/null || skip "python3 is missing"
	command -v xmllint >/dev/null || skip "xmllint is missing"
	env --default-signal=INT true 2>/dev/null || skip "env(1) has no --default-signal (coreutils >= 8.31)"
	HANG=$NSTEST_ROOT/tests/faults/scenarios/must-time-out.scn
	OUT=$BATS_TEST_TMPDIR/out
	mkdir -p "$OUT"
	PASS1=$(write_scn a-pass <<'SCN'
    # mkdir /b
    # ls /
    b
SCN
	)
	PASS2=$(write_scn z-pass <<'SCN'
    # mkdir /c
    # ls /
    c
SCN
	)
}

# start_run ARGS...: `nstest run ARGS` in the background ($PID), marked,
# with the three signals at their default: a shell starts a background
# job with SIGINT ignored, and nstest keeps a signal ignored at its start.
start_run() {
	"$NSTEST" run --list "$@" >"$BATS_TEST_TMPDIR/list" || fail "run --list $*"
	NSTEST_BATS_MARK=$NSTEST_MARK env --default-signal=INT,TERM,HUP \
		"$NSTEST" run "$@" >"$OUT/stdout" 2>"$OUT/stderr" &
	PID=$!
}

# finish_run: wait for it; its status in $ST.
finish_run() {
	ST=0
	wait "$PID" || ST=$?
}

# Is a process of the run in must-time-out.scn's `sleep 30`? Its sandbox
# root, not the host's, has /a.
hanging() {
	local p host
	host=$(stat -L -c %d:%i /)
	for p in $(marked_pids); do
		[[ $(stat -L -c %d:%i /proc/"$p"/root 2>/dev/null) != "$host" ]] &&
			[[ -d /proc/$p/root/a ]] && return 0
	done
	return 1
}

signum() { case $1 in INT) echo 2 ;; TERM) echo 15 ;; HUP) echo 1 ;; esac; }

# check_reports SIGNALS [OLD]: r.json, and each other report in $OUT that
# is there (r.xml, r.tap, r.txt, r.html), is complete and valid, says the run was
# interrupted by one of SIGNALS (comma-separated, "SIGINT,SIGTERM"), and
# accounts for every scenario of $BATS_TEST_TMPDIR/list exactly once: a
# result, or named as not run. With OLD, a file may instead be exactly
# OLD, the earlier report, as a second signal may leave it. Also: nothing
# else is left in $OUT (no temporary file).
check_reports() {
	local f
	for f in "$OUT"/r.xml; do
		[[ -e $f ]] || continue
		[[ -n ${2-} && $(cat "$f") == "$2" ]] && continue
		xmllint --noout "$f" || fail "$f is not well-formed XML"
	done
	run python3 - "$OUT" "$1" "$BATS_TEST_TMPDIR/list" "${2-}" <<'PY'
import json, os, re, sys
import xml.etree.ElementTree as ET

out, signals, listfile, old = sys.argv[1], sys.argv[2].split(","), sys.argv[3], sys.argv[4]
want = open(listfile).read().split("\n")[:-1]
pos = {p: i for i, p in enumerate(want)}
assert len(pos) == len(want), "scenario paths are not unique"

def in_order(paths, what):
    assert all(p in pos for p in paths), (what, paths)
    idx = [pos[p] for p in paths]
    assert idx == sorted(set(idx)), (what, "not in list order, or twice", paths)

def accounted(ran, not_run, what):
    in_order(ran, what + ": results")
    in_order(not_run, what + ": not run")
    assert sorted(ran + not_run) == sorted(want), (what, "every scenario once", ran, not_run)

def text(name):
    path = os.path.join(out, name)
    if not os.path.exists(path):
        return None
    t = open(path, encoding="utf-8").read()
    return None if old and t.rstrip("\n") == old else t

sig = None
# every run here writes r.json: it must be there
assert os.path.exists(os.path.join(out, "r.json")), "no r.json"
t = text("r.json")
if t is not None:
    doc = json.loads(t)
    it = doc["interrupted"]
    assert it and it["signal"] in signals, ("json: interrupted", it)
    sig = it["signal"]
    ran = [s["path"] for s in doc["scenarios"]]
    accounted(ran, [x["path"] for x in it["not_run"]], "json")
    assert sum(doc["summary"].values()) == len(ran), ("json: summary", doc["summary"])
    print("json ok")

t = text("r.xml")
if t is not None:
    suite = ET.fromstring(t).find("testsuite")
    props = {p.get("name"): p.get("value") for p in suite.find("properties")}
    assert props.get("interrupted") in signals, ("junit: property", props)
    assert sig in (None, props["interrupted"]), "junit and json name other signals"
    cases = suite.findall("testcase")
    assert int(suite.get("tests")) == len(cases) == len(want), ("junit: tests", suite.get("tests"))
    stopped = [c for c in cases if c.find("error") is not None]
    assert all(c.find("error").get("type") == "interrupted" for c in stopped), "junit: error type"
    not_run = [c for c in cases if c.find("error") is not None or
               (c.find("skipped") is not None and
                "the run was interrupted by" in c.find("skipped").get("message"))]
    ran = [c.get("file") for c in cases if c not in not_run]
    accounted(ran, [c.get("file") for c in not_run], "junit")
    assert int(suite.get("errors")) == len(stopped), "junit: errors"
    print("junit ok")

t = text("r.tap")
if t is not None:
    lines = t.split("\n")
    assert lines[-1] == "", "tap: no newline at the end"
    lines = lines[:-1]
    assert lines[:2] == ["TAP version 13", "1..%d" % len(want)], ("tap: head", lines[:2])
    tests = [l for l in lines if re.match(r"(not )?ok \d+ - ", l)]
    nums = [int(re.match(r"(?:not )?ok (\d+)", l).group(1)) for l in tests]
    assert nums == list(range(1, len(tests) + 1)), ("tap: numbers", nums)
    not_run = [l[len("# not run: "):].rsplit(" (", 1)[0] for l in lines if l.startswith("# not run: ")]
    assert len(tests) + len(not_run) == len(want), "tap: every scenario once"
    in_order(not_run, "tap: not run")
    m = re.fullmatch(r"(Bail out! |# )interrupted by (SIG[A-Z]+)(: (\d+) of (\d+) scenarios? did not run| after every scenario ran)", lines[-1])
    assert m and m.group(2) in signals, ("tap: last line", lines[-1])
    assert (m.group(1) == "Bail out! ") == bool(not_run), "tap: Bail out! when scenarios did not run"
    print("tap ok")

t = text("r.txt")
if t is not None:
    lines = t.split("\n")[:-1]
    assert re.fullmatch(r"\d+ passed, \d+ failed, \d+ skipped.*", lines[-1]), ("human: tally", lines[-1])
    head = [i for i, l in enumerate(lines) if l.startswith("interrupted by SIG")]
    assert len(head) == 1, "human: one 'interrupted by' line"
    not_run = [l[2:].rsplit(" (", 1)[0] for l in lines[head[0] + 1:-1]]
    ran = [l[6:] for l in lines if re.match(r"(PASS |FAIL |SKIP |XFAIL|XPASS) ", l)]
    ran = [p.split(" (")[0] if p not in pos else p for p in ran]
    accounted(ran, not_run, "human")
    print("human ok")

t = text("r.html")
if t is not None:
    assert t.rstrip().endswith("</html>"), "html: cut short"
    assert '<p class="interrupted">interrupted by SIG' in t, "html: not marked"
    print("html ok")

left = sorted(set(os.listdir(out)) - {"r.json", "r.xml", "r.tap", "r.txt", "r.html",
                                      "out.json", "out.xml", "out.tap", "stdout", "stderr"})
assert not left, ("files left behind", left)
print("checked")
PY
	if [[ $status -ne 0 ]]; then
		echo "$output" >&2
		fail "the reports are not complete and marked interrupted"
	fi
}

# ---- one signal, at a known moment ---------------------------------------------

# interrupt_hang SIG FORMAT [RUN OPTIONS...]: run a passing scenario, the
# hanging one and another passing one; send SIG once the hanging one is
# in its sleep; every report must say so.
interrupt_hang() {
	local sig=$1 format=$2
	shift 2
	start_run --format "$format" --output "$OUT/$(report_name "$format")" \
		--report json:"$OUT/r.json" --report junit:"$OUT/r.xml" --report tap:"$OUT/r.tap" \
		--report human:"$OUT/r.txt" --report html:"$OUT/r.html" "$@" "$PASS1" "$HANG" "$PASS2"
	wait_until 20 hanging || { kill -9 "$PID"; fail "must-time-out.scn never reached its sleep"; }
	kill -"$sig" "$PID"
	finish_run
}

# The --output file of a format, other than the --report files.
report_name() { case $1 in json) echo out.json ;; junit) echo out.xml ;; tap) echo out.tap ;; esac; }

# Every report names what ran, what was stopped and what never started.
assert_hang_reported() {
	local sig=$1
	check_reports "SIG$sig"
	run python3 - "$OUT/r.json" "$PASS1" "$HANG" "$PASS2" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert [(s["path"], s["status"]) for s in doc["scenarios"]] == [(sys.argv[2], "pass")], doc["scenarios"]
assert [(x["path"], x["running"]) for x in doc["interrupted"]["not_run"]] == \
    [(sys.argv[3], True), (sys.argv[4], False)], doc["interrupted"]
PY
	assert_success
	grep -qx "interrupted by SIG$sig: 2 of 3 scenarios did not run:" "$OUT/r.txt"
	grep -qx "  $HANG (stopped while running)" "$OUT/r.txt"
	grep -qx "  $PASS2 (not started)" "$OUT/r.txt"
	grep -qx "PASS  $PASS1" "$OUT/r.txt"
	grep -qx "Bail out! interrupted by SIG$sig: 2 of 3 scenarios did not run" "$OUT/r.tap"
}

@test "signals: SIGINT during a scenario: status 130, every report whole, marked, naming what did not run" {
	interrupt_hang INT json
	assert_equal "$ST" 130
	assert_hang_reported INT
	cmp "$OUT/out.json" "$OUT/r.json"
	assert_host_unchanged
}

@test "signals: SIGTERM during a scenario: status 143, the --output report (junit) whole and valid" {
	interrupt_hang TERM junit
	assert_equal "$ST" 143
	assert_hang_reported TERM
	xmllint --noout "$OUT/out.xml"
	grep -q '<property name="interrupted" value="SIGTERM"/>' "$OUT/out.xml"
	assert_host_unchanged
}

@test "signals: SIGHUP during a scenario with -j 2: status 129, the --output report (tap) whole" {
	interrupt_hang HUP tap -j 2
	assert_equal "$ST" 129
	check_reports SIGHUP
	# with two workers, z-pass may have run beside the hanging scenario
	grep -qx "# not run: $HANG (stopped while running)" "$OUT/out.tap"
	tail -n 1 "$OUT/out.tap" | grep -Eq '^Bail out! interrupted by SIGHUP: [12] of 3 scenarios did not run$'
	assert_host_unchanged
}

@test "signals: SIGINT to a run on standard output: the human report ends with what did not run, then the tally" {
	start_run "$PASS1" "$HANG" "$PASS2"
	wait_until 20 hanging || { kill -9 "$PID"; fail "must-time-out.scn never reached its sleep"; }
	kill -INT "$PID"
	finish_run
	assert_equal "$ST" 130
	run tail -n 4 "$OUT/stdout"
	assert_output "interrupted by SIGINT: 2 of 3 scenarios did not run:
  $HANG (stopped while running)
  $PASS2 (not started)
1 passed, 0 failed, 0 skipped"
	assert_host_unchanged
}

@test "signals: SIGTERM in loop mode ends the sandbox and detaches its loop devices" {
	[[ -e /dev/loop-control ]] || skip "no loop devices"
	scn=$(write_scn loop-hang <<'SCN'
    # mkdir /x
    # mount /dev/sdb1 /x
    # mkdir /a
    # sleep 30
SCN
	)
	start_run --devices=loop --format json --output "$OUT/r.json" "$scn" "$PASS2"
	wait_until 20 hanging || { kill -9 "$PID"; fail "the scenario never reached its sleep"; }
	[[ -n $(comm -13 "$HOST_LOOPS" <(nstest_loops)) ]] || fail "no loop device attached"
	kill -TERM "$PID"
	finish_run
	assert_equal "$ST" 143
	check_reports SIGTERM
	assert_host_unchanged
}

# ---- --bisect ------------------------------------------------------------------

# git bisect run: 0 good, 1 bad, 125 skip, above 127 stop. A run cut
# short is no verdict either way, and whoever sent the signal wants an
# end: 128 + N stops the bisect.
@test "signals: --bisect: an interrupted run is neither good nor bad nor skipped: 128+N stops the bisect" {
	fail_scn=$(write_scn a-fail <<'SCN'
    # mkdir /b
    # ls /
    nothing
SCN
	)
	start_run --bisect --format json --output "$OUT/r.json" "$fail_scn" "$HANG" "$PASS2"
	wait_until 20 hanging || { kill -9 "$PID"; fail "must-time-out.scn never reached its sleep"; }
	kill -TERM "$PID"
	finish_run
	assert_equal "$ST" 143
	check_reports SIGTERM
	start_run --bisect --format json --output "$OUT/r.json" "$PASS1" "$HANG" "$PASS2"
	wait_until 20 hanging || { kill -9 "$PID"; fail "must-time-out.scn never reached its sleep"; }
	kill -INT "$PID"
	finish_run
	assert_equal "$ST" 130
	check_reports SIGINT
	assert_host_unchanged
}

# ---- random moments --------------------------------------------------------------

# One trial: the whole scenario suite and the hanging scenario after it,
# -j 1 to 3, reports in three formats over earlier ones; SIG at a random
# moment once the run has a worker (its handlers are in place), and in
# some trials a second signal right after the first.
@test "signals: SIGINT, SIGTERM and SIGHUP at random moments of a suite run: whole reports, status 128+N, host unchanged" {
	local trials=${NSTEST_SIGNAL_TRIALS:-12} t sig sig2 jobs delay old="an earlier report"
	local sigs=(INT TERM HUP)
	for ((t = 0; t < trials; t++)); do
		sig=${sigs[t % 3]}
		sig2=
		((t % 4 == 3)) && sig2=${sigs[RANDOM % 3]}
		jobs=$((1 + RANDOM % 3))
		delay=$(printf '0.%03d' $((RANDOM % 900)))
		rm -f "$OUT"/*
		for f in r.json r.xml r.tap; do echo "$old" >"$OUT/$f"; done
		start_run -j "$jobs" --format json --output "$OUT/r.json" --report junit:"$OUT/r.xml" \
			--report tap:"$OUT/r.tap" "$NSTEST_ROOT/scenarios" "$HANG"
		wait_for_depth "$PID" 1 || fail "trial $t: no worker"
		sleep "$delay"
		kill -"$sig" "$PID"
		[[ -z $sig2 ]] || { sleep "0.00$((RANDOM % 10))"; kill -"$sig2" "$PID" 2>/dev/null || true; }
		finish_run
		echo "# trial $t: SIG$sig${sig2:+ then SIG$sig2} after ${delay}s, -j $jobs: status $ST" >&3
		if [[ -z $sig2 ]]; then
			assert_equal "$ST" $((128 + $(signum "$sig")))
			check_reports "SIG$sig"
		else
			[[ $ST == $((128 + $(signum "$sig"))) || $ST == $((128 + $(signum "$sig2"))) ]] ||
				fail "trial $t: status $ST after SIG$sig and SIG$sig2"
			check_reports "SIG$sig" "$old"
		fi
		assert_host_unchanged
	done
}
