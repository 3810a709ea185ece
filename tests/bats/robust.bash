# tests/bats/robust.bash - host-side checks shared by faults.bats and
# escape.bats (issue 5): whatever a run does or suffers, the host must
# come out of it as it went in. Also the pass-in-every-mode checks of
# mountns.bats and standin-ro.bats (passes_in, fails_everywhere).
#
#     load helpers
#     load robust
#
#     host_snapshot                 # before the run: mountinfo, loops, a mark
#     run nstest_marked run "$scn"  # nstest with the mark in its environment
#     assert_host_unchanged         # same mountinfo, no loop, no process left
#
# nstest never execs, so every process it forks (and mke2fs) inherits the
# mark; a survivor is found by looking for it in /proc/PID/environ.

# "/dev/loopN BACKING" for each attached loop device over a memfd of
# nstest's ("/memfd:nstest:NAME (deleted)", "/memfd:nstest-image ...").
nstest_loops() {
	local f dev back
	for f in /sys/block/loop*/loop/backing_file; do
		[[ -e $f ]] || continue
		back=$(cat "$f" 2>/dev/null) || continue
		[[ $back == /memfd:nstest* ]] || continue
		dev=${f#/sys/block/}
		printf '/dev/%s %s\n' "${dev%%/*}" "$back"
	done | sort
}

# Another run on the machine may hold loop devices of its own: they are
# open in a live process (nstest's sandbox keeps its fd); ours are not.
loop_in_use() {
	local rdev fd
	rdev=$(stat -c '%t:%T' "$1" 2>/dev/null) || return 1
	for fd in /proc/[0-9]*/fd/*; do
		[[ $(stat -L -c '%t:%T' "$fd" 2>/dev/null) == "$rdev" ]] && return 0
	done
	return 1
}

host_snapshot() {
	HOST_MOUNTINFO=$BATS_TEST_TMPDIR/host-mountinfo.before
	HOST_LOOPS=$BATS_TEST_TMPDIR/host-loops.before
	cat /proc/self/mountinfo >"$HOST_MOUNTINFO"
	nstest_loops >"$HOST_LOOPS"
	NSTEST_MARK=nstest-bats-$$-${BATS_TEST_NUMBER:-0}-$RANDOM$RANDOM
}

# nstest ARGS..., marked so that its processes can be found later.
nstest_marked() {
	NSTEST_BATS_MARK=$NSTEST_MARK "$NSTEST" "$@"
}

# Live processes carrying this test's mark.
marked_pids() {
	grep -lzx "NSTEST_BATS_MARK=$NSTEST_MARK" /proc/[0-9]*/environ 2>/dev/null |
		cut -d/ -f3
}

# Loop devices of ours attached since host_snapshot, held by no one.
leftover_loops() {
	local dev back
	comm -13 "$HOST_LOOPS" <(nstest_loops) | while read -r dev back; do
		loop_in_use "$dev" || echo "$dev $back"
	done
}

# wait_until SECONDS CMD...: poll CMD (success = done) every 0.1 s.
wait_until() {
	local tries=$(($1 * 10))
	shift
	while ((tries-- > 0)); do
		"$@" && return 0
		sleep 0.1
	done
	"$@"
}

no_marked_pids() { [[ -z $(marked_pids) ]]; }
no_leftover_loops() { [[ -z $(comm -13 "$HOST_LOOPS" <(nstest_loops)) ]] || [[ -z $(leftover_loops) ]]; }

# The host as host_snapshot saw it: the same mount table byte for byte,
# no loop device of ours left attached (autoclear is asynchronous: 5 s),
# and no process of the run still alive (5 s).
assert_host_unchanged() {
	local diffs
	if ! diffs=$(diff -u "$HOST_MOUNTINFO" /proc/self/mountinfo); then
		fail "the host's mount table changed:
$diffs"
	fi
	if ! wait_until 5 no_leftover_loops; then
		fail "loop devices left attached:
$(leftover_loops)"
	fi
	if ! wait_until 5 no_marked_pids; then
		local p
		for p in $(marked_pids); do
			echo "survivor: $(cat /proc/"$p"/stat 2>/dev/null)"
			kill -9 "$p" 2>/dev/null
		done
		fail "processes of the run survived it"
	fi
}

# at_depth ROOT DEPTH: the processes DEPTH generations below ROOT.
at_depth() {
	local level=("$1") next p c d
	for ((d = 0; d < $2; d++)); do
		next=()
		for p in "${level[@]}"; do
			for c in $(cat /proc/"$p"/task/*/children 2>/dev/null); do
				next+=("$c")
			done
		done
		level=("${next[@]}")
	done
	echo "${level[*]}"
}

# Wait (up to 10 s) until ROOT has a process DEPTH generations below it.
wait_for_depth() {
	local root=$1 depth=$2
	wait_until 10 eval "[[ -n \$(at_depth $root $depth) ]]"
}

# setup() of a file whose tests each prove the host unchanged after.
robust_setup() {
	nstest_setup
	host_snapshot
}

# passes_in MODE... SCN: PASS with each set of run options (one word
# each; "" for none), leaving the host's mount table as host_snapshot saw
# it.
passes_in() {
	local scn=${*: -1} mode
	for mode in "${@:1:$#-1}"; do
		run "$NSTEST" run $mode "$scn"
		assert_success
		assert_line --partial "PASS  $scn"
	done
	assert_equal "$(cat /proc/self/mountinfo)" "$(cat "$HOST_MOUNTINFO")"
}

# fails_everywhere SCN LINE: FAIL on both backends, with LINE in the diff.
fails_everywhere() {
	local backend
	for backend in kernel model; do
		run "$NSTEST" run --backend=$backend "$1"
		assert_failure 1
		assert_line "$2"
	done
}
