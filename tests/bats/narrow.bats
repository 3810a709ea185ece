#!/usr/bin/env bats
# tests/bats/narrow.bats - findmnt on a narrow terminal (issue 29,
# "Narrow terminals"; run/narrow.h). The real findmnt is run in a pty
# 80 columns wide (script(1), in a mount namespace of its own on a
# scratch tmpfs at /mnt, so the host sees nothing of it): it breaks a row
# whose TARGET or SOURCE does not fit over several lines and cuts the
# OPTIONS cells of a table that fills the terminal. A scenario holding
# what it printed, with `columns: 80`, replays on the kernel and on the
# model; each rule has a wrong twin that fails.
#
# Runs as root: the recording mounts in a private namespace, and `nstest
# run` sandboxes itself.

bats_require_minimum_version 1.5.0
load helpers

LONG=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa

# The session's commands, as the scenario and the recording type them.
commands() {
	cat <<EOF
mkdir -p /mnt/lab
mount -t tmpfs -o size=4k,nr_inodes=1000,mode=0755 lab /mnt/lab
mkdir -p /mnt/lab/$LONG /mnt/lab/b
mount -t tmpfs -o size=8k $LONG /mnt/lab/$LONG
mount --bind /mnt/lab/b /mnt/lab/b
EOF
}

# record FINDMNT-ARGS...: what the real findmnt prints for them on an
# 80-column terminal, after the session's commands
record() {
	local cmds
	# COLUMNS too: libsmartcols reads it before the terminal's size
	cmds="$(commands); stty cols 80; COLUMNS=80 findmnt $*"
	timeout 30 unshare -m --propagation private sh -c \
		'mount -t tmpfs scratch /mnt && exec script -q -c "$1" /dev/null' sh "$cmds" </dev/null |
		tr -d '\r'
}

# scenario NAME FINDMNT-ARGS...: the session and the recorded output, with
# `columns: 80`
scenario() {
	local name=$1 out
	shift
	out=$(record "$@")
	[[ -n $out ]] || fail "findmnt printed nothing"
	{
		printf 'title: findmnt on an 80-column terminal\ncolumns: 80\n\n'
		commands | sed 's/^/    # /'
		printf '    # findmnt %s\n' "$*"
		printf '%s\n' "$out" | sed 's/^/    /'
	} | write_scn "$name" >/dev/null
}

both_pass() {
	run "$NSTEST_ROOT/tests/isolation-check" "$NSTEST" run "$1"
	assert_success
	run "$NSTEST" run --backend model "$1"
	assert_success
}

both_fail() {
	run "$NSTEST_ROOT/tests/isolation-check" "$NSTEST" run "$1"
	assert_failure 1
	run "$NSTEST" run --backend model "$1"
	assert_failure 1
}

@test "narrow: a tree whose long rows findmnt broke over lines replays with columns: 80" {
	scenario wrap -R /mnt/lab
	# the recording really broke a row: the long SOURCE on a line of its
	# own, under a tree line or not (findmnt orders siblings by mount ID,
	# which the kernel may hand out in either order)
	run grep -cE "^    (│| ) *$LONG\$" "$SCN_DIR/wrap.scn"
	assert_output 1
	both_pass "$SCN_DIR/wrap.scn"
}

@test "narrow: without columns: the same tree fails" {
	scenario wrap -R /mnt/lab
	sed -i '/^columns: 80$/d' "$SCN_DIR/wrap.scn"
	both_fail "$SCN_DIR/wrap.scn"
}

@test "narrow: a broken row with a wrong cell on its second line fails" {
	scenario wrap -R /mnt/lab
	sed -Ei "s/^(    (│| ) *)$LONG\$/\1${LONG}x/" "$SCN_DIR/wrap.scn"
	run grep -cE "^    (│| ) *${LONG}x\$" "$SCN_DIR/wrap.scn"
	assert_output 1
	both_fail "$SCN_DIR/wrap.scn"
}

@test "narrow: a full-width table's cut OPTIONS cells match the options they start" {
	scenario cut -R -o TARGET,SOURCE,FSTYPE,OPTIONS,PROPAGATION /mnt/lab
	# the recording really cut a cell: a line of exactly 80 characters
	# whose options stop after 'mode='
	run grep -c 'mode= *private$' "$SCN_DIR/cut.scn"
	assert_output 2
	both_pass "$SCN_DIR/cut.scn"
}

@test "narrow: a cut cell that is not the start of the options fails" {
	scenario cut -R -o TARGET,SOURCE,FSTYPE,OPTIONS,PROPAGATION /mnt/lab
	sed -i '0,/nr_inodes=1000,mode=/s//nr_inodes=1001,mode=/' "$SCN_DIR/cut.scn"
	both_fail "$SCN_DIR/cut.scn"
}

@test "narrow: a cell narrower than its column is whole, never cut" {
	scenario cut -R -o TARGET,SOURCE,FSTYPE,OPTIONS,PROPAGATION /mnt/lab
	# size=8k fits its column; written size=8 it is wrong, not cut
	sed -i 's/rw,relatime,size=8k /rw,relatime,size=8  /' "$SCN_DIR/cut.scn"
	both_fail "$SCN_DIR/cut.scn"
}

@test "narrow: a table that does not fill the terminal cuts nothing" {
	scenario whole -R /mnt/lab
	# the widest line is 79 characters: shortened options are wrong
	sed -i 's/,mode=755$/,mode=/' "$SCN_DIR/whole.scn"
	both_fail "$SCN_DIR/whole.scn"
}

@test "narrow: columns: must be a terminal's width" {
	write_scn bad <<'SCN'
title: bad width
columns: wide

    # ls
SCN
	run "$NSTEST" lint "$SCN_DIR/bad.scn"
	assert_failure 2
	assert_output --partial "bad.scn:2:10: error: columns: expected the terminal's width, a number from 20 to 4096, got 'wide'"
}
