#!/usr/bin/env bats
# tests/bats/write-errors.bats - results that are never lost (issue 28,
# "Write errors"): every file nstest writes and its standard output, on a
# full disk. A write that fails is exit 2 (125 under run --bisect) with a
# message naming what and why, and a file written over stays as it was,
# byte for byte: reports, pictures, pages and scenario files are renamed
# into place only when complete (lib/base/outfile.c).
#
# The full disk is a 16 KiB tmpfs mounted in a mount namespace of the
# test's own (unshare -m --propagation private: its root is rprivate, so
# the mount never reaches the host, and goes with the namespace). Runs as
# root; skipped without root or unshare(1). Scenarios run on the model
# backend: the writing is the same on both, and the model is quick.

bats_require_minimum_version 1.5.0
load helpers

FORMATS="human tap ktap junit json html"

setup() {
	nstest_setup
	PASS=$(write_scn pass <<'SCN'
    # mkdir /a
    # touch /a/f
    # ls /a
    f
SCN
	)
}

# Root and unshare(1), for the tests that mount a tmpfs.
need_ns() {
	((EUID == 0)) || skip "needs root to mount a tmpfs in a private mount namespace"
	command -v unshare >/dev/null || skip "unshare (util-linux) is missing"
}

# on_small_disk SCRIPT: bash runs SCRIPT in a new, private mount namespace
# with $FULL a 16 KiB tmpfs (SIZE=64k on_small_disk ...: another size), `fill` taking all of its free space, and
# $OUT (this test's folder, on the host's disk) for what is to outlive it.
# $status, $output and $stderr are the script's.
on_small_disk() {
	need_ns
	mkdir -p "$BATS_TEST_TMPDIR/full"
	run --separate-stderr env SIZE="${SIZE:-16k}" FULL="$BATS_TEST_TMPDIR/full" OUT="$BATS_TEST_TMPDIR" \
		NSTEST="$NSTEST" PASS="$PASS" SCN_DIR="$SCN_DIR" \
		unshare -m --propagation private bash -c '
		mount -t tmpfs -o size=${SIZE:-16k} nstest-write-errors "$FULL" || exit 99
		fill() { dd if=/dev/zero of="$FULL/fill" bs=4k 2>/dev/null; sync; :; }
		'"$1"
	((status != 99)) || fail "cannot mount a tmpfs: $stderr"
}

# many N: N passing scenarios in one folder, for a report larger than the
# page a small one frees when it is overwritten.
many() {
	local i
	mkdir -p "$SCN_DIR/many"
	for ((i = 0; i < $1; i++)); do
		cp "$PASS" "$SCN_DIR/many/scenario-with-a-long-name-$i.scn"
	done
	printf '%s\n' "$SCN_DIR/many"
}

# ---- run --output ------------------------------------------------------------

@test "write errors: run --output on a full disk exits 2 naming the file, in every format, and leaves nothing" {
	on_small_disk '
		fill
		for f in '"$FORMATS"'; do
			"$NSTEST" run --backend=model --format $f --output "$FULL/r.$f" "$PASS"
			echo "$f $?"
		done
		ls -A "$FULL" >"$OUT/left"'
	for f in $FORMATS; do
		assert_line "$f 2"
		[[ $stderr == *"nstest: error: --output $BATS_TEST_TMPDIR/full/r.$f: write error: No space left on device"* ]] ||
			fail "$f: no message naming the file: $stderr"
	done
	# no half report, no temporary file
	assert_equal "$(cat "$BATS_TEST_TMPDIR/left")" "fill"
}

@test "write errors: an earlier good report survives a run that cannot write, byte for byte, in every format" {
	dir=$(many 100)
	# room for the five first reports, a page each
	SIZE=64k on_small_disk '
		for f in '"$FORMATS"'; do
			"$NSTEST" run --backend=model --format $f --output "$FULL/r.$f" "$PASS" || echo "first $f failed"
			cp "$FULL/r.$f" "$OUT/good.$f"
		done
		fill
		for f in '"$FORMATS"'; do
			"$NSTEST" run --backend=model --format $f --output "$FULL/r.$f" '"$dir"'
			echo "$f $?"
			cmp "$FULL/r.$f" "$OUT/good.$f" && echo "$f kept"
		done'
	refute_line --partial "first"
	for f in $FORMATS; do
		[[ -s $BATS_TEST_TMPDIR/good.$f ]] || fail "no first $f report"
		assert_line "$f 2"
		assert_line "$f kept"
	done
}

@test "write errors: run --bisect --output on a full disk is 125, cannot judge" {
	on_small_disk '
		fill
		"$NSTEST" run --bisect --backend=model --output "$FULL/r" "$PASS"
		echo "status $?"'
	assert_line "status 125"
	[[ $stderr == *"--output $BATS_TEST_TMPDIR/full/r: write error: No space left on device"* ]]
}

@test "write errors: run --report on a full disk exits 2 naming it; the run's other reports are still written" {
	on_small_disk '
		fill
		"$NSTEST" run --backend=model --format tap --output "$OUT/r.tap" \
			--report junit:"$FULL/r.xml" --report json:"$OUT/r.json" "$PASS"
		echo "status $?"
		ls -A "$FULL" >"$OUT/left"'
	assert_line "status 2"
	assert_equal "$stderr" "nstest: error: --report junit:$BATS_TEST_TMPDIR/full/r.xml: write error: No space left on device; the file is left as it was"
	assert_equal "$(cat "$BATS_TEST_TMPDIR/left")" "fill"
	grep -q '^ok 1 ' "$BATS_TEST_TMPDIR/r.tap" || fail "no TAP report"
	grep -q '"summary":{"passed":1,' "$BATS_TEST_TMPDIR/r.json" || fail "no JSON report"
}

# ---- standard output -----------------------------------------------------------

@test "write errors: standard output on a full device is exit 2 for every command" {
	[[ -c /dev/full ]] || skip "no /dev/full"
	graph=$(write_scn graph <<'SCN'
    # mkdir /a
    # mount -t tmpfs tmpfs /a
SCN
	)
	while IFS= read -r cmd; do
		run --separate-stderr bash -c '"$@" >/dev/full' _ $cmd
		((status == 2)) || fail "$cmd >/dev/full: status $status, not 2 ($stderr)"
		[[ $stderr == *"nstest: error: write error on standard output: No space left on device"* ]] ||
			fail "$cmd >/dev/full: $stderr"
	done <<EOF
$NSTEST run --backend=model $PASS
$NSTEST run --backend=model --format json $PASS
$NSTEST run --list $PASS
$NSTEST show --backend=model $PASS
$NSTEST graph --backend=model $graph
$NSTEST fuzz --print-scenarios --count 2
$NSTEST --version
$NSTEST run --help
EOF
}

@test "write errors: run --bisect > /dev/full is 125, passing or failing" {
	[[ -c /dev/full ]] || skip "no /dev/full"
	fail=$(write_scn fail <<'SCN'
    # mkdir /a
    # ls /
    nothing-like-this
SCN
	)
	for scn in "$PASS" "$fail"; do
		run --separate-stderr bash -c '"$1" run --bisect --backend=model "$2" >/dev/full' _ "$NSTEST" "$scn"
		assert_equal "$status" 125
		[[ $stderr == *"write error on standard output"* ]]
	done
}

@test "write errors: a reader that went away is no error (EPIPE, SIGPIPE ignored)" {
	# the reader, true, is gone long before nstest writes; with SIGPIPE
	# ignored the write fails with EPIPE, which util-linux's tools and
	# nstest leave unsaid: `| head` wanted no more
	run --separate-stderr bash -c 'trap "" PIPE
		{ sleep 0.5; "$1" run --backend=model "$2"; echo "status $?" >&2; } | true' _ "$NSTEST" "$PASS"
	assert_equal "$stderr" "status 0"
}

# ---- graph -o, show --html, fuzz --out, --update ------------------------------

@test "write errors: graph -o on a full disk exits 2, leaves no empty file, keeps an earlier picture" {
	on_small_disk '
		"$NSTEST" graph --backend=model -o "$FULL/g.dot" "$PASS" || echo "first failed"
		cp "$FULL/g.dot" "$OUT/good.dot"
		fill
		"$NSTEST" graph --backend=model -o "$FULL/new.dot" "$PASS"
		echo "new $?"
		"$NSTEST" graph --backend=model -o "$FULL/g.dot" "$PASS"
		echo "again $?"
		cmp "$FULL/g.dot" "$OUT/good.dot" && echo kept
		ls -A "$FULL" >"$OUT/left"'
	refute_line "first failed"
	assert_line "new 2"
	assert_line "again 2"
	assert_line "kept"
	[[ $stderr == *"nstest: error: -o $BATS_TEST_TMPDIR/full/new.dot: No space left on device"* ]]
	assert_equal "$(sort "$BATS_TEST_TMPDIR/left" | tr '\n' ' ')" "fill g.dot "
}

@test "write errors: show --html on a full disk exits 2 and keeps an earlier page" {
	command -v dot >/dev/null || skip "Graphviz's dot is not installed (apt-get install graphviz)"
	on_small_disk '
		"$NSTEST" show --backend=model --html "$FULL/p.html" "$PASS" >/dev/null || echo "first failed"
		cp "$FULL/p.html" "$OUT/good.html"
		fill
		# a page larger than the old one: it cannot fit where that was
		"$NSTEST" show --backend=model --html "$FULL/p.html" '"$(many 1)"'/*.scn
		echo "status $?"
		cmp "$FULL/p.html" "$OUT/good.html" && echo kept'
	refute_line "first failed"
	assert_line "status 2"
	assert_line "kept"
	[[ $stderr == *"nstest: error: --html $BATS_TEST_TMPDIR/full/p.html: No space left on device"* ]]
}

@test "write errors: fuzz --out on a full disk exits 2 and leaves no empty finding" {
	on_small_disk '
		mkdir "$FULL/out"
		fill
		NSTEST_MODEL_BREAK=slaves-receive-nothing "$NSTEST" fuzz --count 300 -j 2 --out "$FULL/out"
		echo "status $?"
		ls -A "$FULL/out" >"$OUT/left"'
	assert_line "status 2"
	[[ $stderr == *"nstest fuzz: writing $BATS_TEST_TMPDIR/full/out/fuzz-"*": No space left on device"* ]]
	assert_equal "$(cat "$BATS_TEST_TMPDIR/left")" ""
}

@test "write errors: run --update on a full disk keeps the scenario file as it was" {
	on_small_disk '
		cat >"$FULL/wrong.scn" <<SCN
    # mkdir /a
    # ls /
    nothing-like-this
SCN
		cp "$FULL/wrong.scn" "$OUT/wrong.before"
		fill
		"$NSTEST" run --update --backend=model "$FULL/wrong.scn"
		echo "status $?"
		cmp "$FULL/wrong.scn" "$OUT/wrong.before" && echo kept
		ls -A "$FULL" >"$OUT/left"'
	assert_line "status 1"
	assert_line --partial "failed     $BATS_TEST_TMPDIR/full/wrong.scn (cannot replace it: No space left on device)"
	assert_line "kept"
	assert_equal "$(sort "$BATS_TEST_TMPDIR/left" | tr '\n' ' ')" "fill wrong.scn "
}
