#!/usr/bin/env bats
# tests/bats/fscmds.bats - the file commands of issue 13 (rmdir, mv, ln -s,
# pwd, echo > FILE, stat -c, mountpoint, diff -r) print what the real tools
# print. tests/data/fscmds/record plays tests/data/fscmds/session with
# coreutils 9.1, util-linux 2.38 and diffutils 3.8 in a private namespace
# on a tmpfs and writes it as a scenario (recorded.scn is one such
# recording, Debian 12); nstest must replay it on both backends.
#
# Runs as root: the scenarios and the recording really run.

bats_require_minimum_version 1.5.0
load helpers

DATA=$NSTEST_ROOT/tests/data/fscmds

@test "fscmds: the stored recording replays on the kernel, in both stand-in modes, and on the model" {
	local mode
	for mode in "" --devices=loop --backend=model; do
		run "$NSTEST" run $mode "$DATA/recorded.scn"
		assert_success
		assert_line --partial "PASS  $DATA/recorded.scn"
	done
}

@test "fscmds: a new recording with the tools of this machine replays on both backends" {
	"$DATA/record" >"$SCN_DIR/live.scn"
	run "$NSTEST" run "$SCN_DIR/live.scn"
	assert_success
	run "$NSTEST" run --backend=model "$SCN_DIR/live.scn"
	assert_success
}

# The check is live: a recording with one answer turned round fails on
# both backends, at that step.
@test "fscmds: a recording with a wrong answer fails on both backends" {
	local backend
	sed 's/^    c is a mountpoint$/    c is not a mountpoint/' "$DATA/recorded.scn" >"$SCN_DIR/wrong.scn"
	for backend in kernel model; do
		run "$NSTEST" run --backend=$backend "$SCN_DIR/wrong.scn"
		assert_failure 1
		assert_line "    -c is not a mountpoint"
		assert_line "    +c is a mountpoint"
	done
}

# GNU diff takes two directories with one device and inode for equal and
# looks no further, so after `mount --bind s t` it reports nothing, even
# when a mount below s is not below t. This test shows that of the real
# diff, then that nstest's descends: s/m holds a tmpfs with a file, t/m
# (a private bind does not get it) is empty, so the file is only in s/m.
@test "fscmds: diff -r descends where GNU diff stops at the same inode" {
	run unshare -m --propagation private bash -c '
		d=$(mktemp -d) && mount -t tmpfs t "$d" && cd "$d" &&
		mkdir -p s/m t && mount --bind s t && mount -t tmpfs u s/m &&
		echo x >s/m/file && diff -r s t; echo "rc=$?"; cd / && umount -R "$d" && rmdir "$d"'
	assert_output "rc=0"
	cat >"$SCN_DIR/bind.scn" <<'SCN'
    # mkdir -p /s/m /t
    # mount --bind /s /t
    # mount -t tmpfs u /s/m
    # echo x > /s/m/file
    # diff -r /s /t
    Only in /s/m: file
    # diff -r /t /s
    Only in /s/m: file
    # diff /s /t
    Common subdirectories: /s/m and /t/m
SCN
	for backend in kernel model; do
		run "$NSTEST" run --backend=$backend "$SCN_DIR/bind.scn"
		assert_success
	done
}
