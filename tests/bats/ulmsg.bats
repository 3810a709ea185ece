#!/usr/bin/env bats
# tests/bats/ulmsg.bats - expected error lines written as util-linux's
# mount(8) and umount(8) print them (nstest-scenario(5), ERRORS OF
# COMMANDS). The lines are the ones util-linux printed for the same
# failures: Debian 12's 2.38.1 (util-linux-2.38.1.txt; the tests below
# edit it) and Debian 13's 2.41.5 (util-linux-2.41.5.txt, recorded from
# the packages tests/data/ulmsg/debian-util-linux unpacks), both made by
# tests/data/ulmsg/record, which makes a new recording in one test.
# tests/data/ulmsg/cases.scn is the same set-up on stand-ins, with a
# @CASE@ line where each recorded message goes.
#
# Runs as root: the scenarios really run.

bats_require_minimum_version 1.5.0
load helpers

DATA=$NSTEST_ROOT/tests/data/ulmsg
RECORDED=$DATA/util-linux-2.38.1.txt

# fill [CASE SED]: cases.scn with every @CASE@ line replaced by the
# recorded lines, indented; the lines of CASE first edited by sed script
# SED. Prints the scenario.
fill() {
	# ENVIRON, not -v: awk would read the backslashes of the sed script
	ONLY=${1:-} SCRIPT=${2:-} awk '
	BEGIN { only = ENVIRON["ONLY"]; script = ENVIRON["SCRIPT"] }
	FNR == NR {
		if (/^#/) next
		if ($1 == "==") { c = $2; next }
		line = $0
		if (c == only && script != "") {
			cmd = "printf \"%s\\n\" \"" line "\" | sed \"$SCRIPT\""
			line = ""
			while ((cmd | getline l) > 0)
				line = line (line == "" ? "" : "\n    ") l
			close(cmd)
		}
		rec[c] = rec[c] "    " line "\n"
		next
	}
	/^    @[a-z-]+@$/ { k = substr($1, 2, length($1) - 2); printf "%s", rec[k]; next }
	{ print }
	' "${REC:-$RECORDED}" "$DATA/cases.scn"
}

# The cases of the recording, and the errno each stands for.
cases() {
	sed -n 's/^== //p' "$RECORDED"
}

@test "ulmsg: each recording has every case of cases.scn, each a failure with its errno" {
	local rec n=0
	for rec in "$DATA"/util-linux-*.txt; do
		n=$((n + 1))
		run ! grep -n '^!!' "$rec"
		run diff <(sed -n 's/^== //p' "$rec") <(cases)
		assert_success
	done
	((n >= 2))
}

@test "ulmsg: what util-linux 2.38 and 2.41 printed matches, verbatim, in both stand-in modes and on the model" {
	local rec
	for rec in "$DATA"/util-linux-*.txt; do
		REC=$rec fill >"$SCN_DIR/cases.scn"
		run "$NSTEST" run "$SCN_DIR/cases.scn"
		assert_success
		assert_line "PASS  $SCN_DIR/cases.scn"
		run "$NSTEST" run --devices=loop "$SCN_DIR/cases.scn"
		assert_success
		run "$NSTEST" run --backend model "$SCN_DIR/cases.scn"
		assert_success
	done
}

@test "ulmsg: a recording made now with this machine's mount(8) and umount(8) is accepted as it is" {
	# the failures happen again, with the real tools in a private
	# namespace on a tmpfs (record touches no mount of the host), and
	# nstest must take exactly what they printed
	REC=$BATS_TEST_TMPDIR/live.txt
	run "$DATA/record" "$REC"
	assert_success
	assert_output "wrote $REC"
	run ! grep -n '^!!' "$REC"
	run diff <(sed -n 's/^== //p' "$REC") <(cases)
	assert_success
	REC=$REC fill >"$SCN_DIR/live.scn"
	run "$NSTEST" run "$SCN_DIR/live.scn"
	assert_success
	assert_line "PASS  $SCN_DIR/live.scn"
	# with one recorded word changed, it fails
	sed -i '0,/target is busy/s//target is idle/' "$SCN_DIR/live.scn"
	run "$NSTEST" run "$SCN_DIR/live.scn"
	assert_failure 1
}

@test "ulmsg: each recorded failure has the errno the recording names" {
	# --update writes a file without util-linux lines in nstest's form:
	# CMD: ENAME (message), in the order of the cases
	grep -v '^    @' "$DATA/cases.scn" >"$SCN_DIR/plain.scn"
	run "$NSTEST" run --update "$SCN_DIR/plain.scn"
	assert_success
	run diff <(sed -n 's/^    u\{0,1\}mount: \(E[A-Z]*\) (.*)$/\1/p' "$SCN_DIR/plain.scn") \
		<(cases | cut -d' ' -f2)
	assert_success
}

@test "ulmsg: a message naming another path fails, case by case" {
	local c
	for c in $(cases | cut -d' ' -f1); do
		fill "$c" 's|^\(u\{0,1\}mount\): /[^:]*:|\1: /elsewhere:|' >"$SCN_DIR/$c.scn"
		grep -q '/elsewhere:' "$SCN_DIR/$c.scn"
		run "$NSTEST" run "$SCN_DIR/$c.scn"
		assert_failure 1
		assert_output --partial "+$(sed -n '/^    @'"$c"'@$/{x;p;q};h' "$DATA/cases.scn" | sed 's/^    # \([a-z]*\).*/\1/'): E"
	done
}

@test "ulmsg: a message of the other command fails, case by case" {
	local c
	for c in $(cases | cut -d' ' -f1); do
		fill "$c" 's/^umount:/MOUNT:/; s/^mount:/umount:/; s/^MOUNT:/mount:/' >"$SCN_DIR/$c.scn"
		run "$NSTEST" run "$SCN_DIR/$c.scn"
		assert_failure 1
	done
}

@test "ulmsg: the source named in a message must be the command's" {
	fill bind-unbindable 's| on /ub,| on /u,|' >"$SCN_DIR/src.scn"
	run "$NSTEST" run "$SCN_DIR/src.scn"
	assert_failure 1
	assert_output --partial "-mount: /x: wrong fs type, bad option, bad superblock on /u, missing"
}

@test "ulmsg: another errno's message fails" {
	# umount /x fails with EINVAL; "target is busy" is EBUSY's
	fill umount-not-mounted 's/not mounted/target is busy/' >"$SCN_DIR/errno.scn"
	run "$NSTEST" run "$SCN_DIR/errno.scn"
	assert_failure 1
	assert_output --partial "-umount: /x: target is busy."
	assert_output --partial "+umount: EINVAL (Invalid argument)"
	# mount --bind /nosrc /x fails with ENOENT, not EINVAL
	fill bind-no-source 's/special device \/nosrc does not exist/not mount point or bad option/' >"$SCN_DIR/errno2.scn"
	run "$NSTEST" run "$SCN_DIR/errno2.scn"
	assert_failure 1
}

@test "ulmsg: umount(8) prints no dmesg line, so none may follow its message" {
	fill umount-busy 's/$/\n       dmesg(1) may have more information after failed mount system call./' >"$SCN_DIR/dmesg.scn"
	grep -q '^           dmesg' "$SCN_DIR/dmesg.scn"
	run "$NSTEST" run "$SCN_DIR/dmesg.scn"
	assert_failure 1
}

@test "ulmsg: mount(8)'s dmesg line may be left out" {
	fill | grep -v 'dmesg(1)' >"$SCN_DIR/nodmesg.scn"
	run "$NSTEST" run "$SCN_DIR/nodmesg.scn"
	assert_success
}

@test "ulmsg: --update keeps the util-linux lines that match and writes new ones in that form" {
	fill >"$SCN_DIR/cases.scn"
	cp "$SCN_DIR/cases.scn" "$SCN_DIR/want.scn"
	run "$NSTEST" run --update "$SCN_DIR/cases.scn"
	assert_success
	assert_line --partial "unchanged"
	cmp "$SCN_DIR/cases.scn" "$SCN_DIR/want.scn"
	# an empty block of a failing umount is rewritten in util-linux's words
	awk '!done && /^    umount: \/x: not mounted\.$/ { done = 1; next } { print }' \
		"$SCN_DIR/want.scn" >"$SCN_DIR/cases.scn"
	run ! cmp -s "$SCN_DIR/cases.scn" "$SCN_DIR/want.scn"
	run "$NSTEST" run --update "$SCN_DIR/cases.scn"
	assert_success
	assert_line --partial "(1 block"
	cmp "$SCN_DIR/cases.scn" "$SCN_DIR/want.scn"
}

@test "ulmsg: errors: util-linux makes show and --update write util-linux's words" {
	scn=$(write_scn form <<'SCN'
errors: util-linux

    # mkdir /a /b
    # mount /dev/sdb /a
    # cd /a
    # umount /a
    # cd /
    # mount --bind /a /nope
    # umount /b
SCN
	)
	run "$NSTEST" show "$scn"
	assert_line "    umount: /a: target is busy."
	assert_line "    mount: ENOENT (No such file or directory)"
	assert_line "    umount: /b: not mounted."
	run "$NSTEST" run --update "$scn"
	assert_success
	run cat "$scn"
	assert_line "    umount: /a: target is busy."
	assert_line "    umount: /b: not mounted."
	run "$NSTEST" run "$scn"
	assert_success
}

@test "ulmsg: errors: nstest keeps nstest's form for show and --update" {
	scn=$(write_scn form <<'SCN'
errors: nstest

    # mkdir /a
    # umount /a
    umount: /a: not mounted.
    # umount /a
SCN
	)
	run "$NSTEST" show "$scn"
	assert_line "    umount: EINVAL (Invalid argument)"
	run "$NSTEST" run --update "$scn"
	run cat "$scn"
	assert_line "    umount: /a: not mounted."
	assert_line "    umount: EINVAL (Invalid argument)"
}

@test "ulmsg: errors: takes nstest or util-linux" {
	scn=$(write_scn bad <<'SCN'
errors: busybox

    # mkdir /a
SCN
	)
	run --separate-stderr "$NSTEST" run "$scn"
	assert_failure
	assert_equal "$stderr" "$scn:1:9: error: errors: expected nstest or util-linux, got 'busybox'"
}

@test "ulmsg: cd and echo > FILE fail in an interactive bash's own words, as this machine's bash prints them" {
	# paths that do not exist: bash creates nothing
	local cd_msg echo_msg
	cd_msg=$(bash --norc -ic 'cd /nstest-nowhere' 2>&1 | grep nstest-nowhere)
	echo_msg=$(bash --norc -ic 'echo x > /nstest-nowhere/f' 2>&1 | grep nstest-nowhere)
	[[ $cd_msg == "bash: cd: /nstest-nowhere: No such file or directory" ]]
	[[ $echo_msg == "bash: /nstest-nowhere/f: No such file or directory" ]]
	scn=$(write_scn bash-words <<SCN
    # cd /nstest-nowhere
    $cd_msg
    # echo x > /nstest-nowhere/f
    $echo_msg
SCN
	)
	for backend in kernel model; do
		run "$NSTEST" run --backend "$backend" "$scn"
		assert_success
	done
	# the message of the other path fails
	sed -i 's|^    bash: /nstest-nowhere/f:|    bash: /nstest-nowhere/g:|' "$scn"
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_line "    +echo: ENOENT (No such file or directory)"
}

# umount(8) names a relative target as libmount resolved it: from the
# directory the command ran in, which each backend reports with the
# step (issue 28: `umount b` run in /lab passed with a message naming
# /elsewhere/b). ".." and "." are walked as the path walk does.
@test "ulmsg: a relative path in a message is named from the directory the command ran in" {
	scn=$(write_scn relative <<'SCN'
errors: util-linux

    # mkdir -p /lab/x/b /lab/b /elsewhere/b
    # cd /lab/x
    # umount b
    umount: /lab/x/b: not mounted.
    # umount ../b
    umount: /lab/b: not mounted.
    # umount ./b/.
    umount: /lab/x/b: not mounted.
    # cd /
    # umount lab//b
    umount: /lab/b: not mounted.
SCN
	)
	for backend in kernel model; do
		run "$NSTEST" run --backend "$backend" "$scn"
		assert_success
	done
	# the same message from another directory fails
	for wrong in /elsewhere/b /x/b /lab/b; do
		sed "0,/^    umount: \/lab\/x\/b: not mounted\.\$/s||    umount: ${wrong//\//\\/}: not mounted.|" \
			"$scn" >"$SCN_DIR/wrong.scn"
		grep -q "umount: $wrong: not mounted" "$SCN_DIR/wrong.scn"
		for backend in kernel model; do
			run "$NSTEST" run --backend "$backend" "$SCN_DIR/wrong.scn"
			assert_failure 1
			assert_line --partial "+umount: EINVAL (Invalid argument)"
		done
	done
}
