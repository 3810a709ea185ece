#!/usr/bin/env bats
# tests/bats/sessions.bats - the recorded sessions of tests/data/sessions
# replay with nstest; see tests/data/sessions/README. Runs as root.
bats_require_minimum_version 1.5.0
load helpers

DATA=$NSTEST_ROOT/tests/data/sessions
@test "sessions: at least 15, each with its script and transcript" {
	local n=0 f
	for f in "$DATA"/*.scn; do
		n=$((n + 1))
		[[ -f $DATA/src/$(basename "$f" .scn).cmds && -f ${f%.scn}.txt ]]
	done
	((n >= 15))
}

@test "sessions: each .scn is make-scn of its transcript, nothing else" {
	local f name
	for f in "$DATA"/*.scn; do
		name=$(basename "$f" .scn)
		run diff <("$DATA/make-scn" "$DATA/src/$name.cmds" "$DATA/$name.txt") "$f"
		assert_success
		# session lines, unindented, are the transcript but for nsenter -t
		run diff <(sed -E 's/(nsenter .*-t )[0-9]+/\1T/' "$DATA/$name.txt") \
			<(sed -n 's/^    //p' "$f" | sed -E 's/(nsenter .*-t )[A-Za-z0-9_.-]+/\1T/')
		assert_success
	done
}

@test "sessions: every session replays, on the kernel and on the model" {
	local f
	for f in "$DATA"/*.scn; do
		run "$NSTEST" run "$f"
		assert_success
		run "$NSTEST" run --backend model "$f"
		assert_success
	done
}

@test "sessions: one changed output line fails" {
	sed '0,/^    \/mnt\/a \/dev\/sdc1/s//    \/mnt\/a \/dev\/sdX9/' "$DATA/01-findmnt-tree.scn" >"$SCN_DIR/c.scn"
	run ! cmp -s "$SCN_DIR/c.scn" "$DATA/01-findmnt-tree.scn"
	run "$NSTEST" run "$SCN_DIR/c.scn"
	assert_failure 1
}
