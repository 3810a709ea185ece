#!/usr/bin/env bats
# tests/bats/typed.bats - command lines as people type them (issue 29):
# `sudo COMMAND` and `--name=value` long options, on both backends, each
# with a wrong twin that fails and the refusals that name file, line and
# column.
#
# Runs as root: `nstest run` sandboxes itself in a private mount namespace.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	nstest_setup
}

@test "typed: sudo COMMAND is the command, on both backends, in any stage; a wrong twin fails" {
	scn=$(write_scn sudo <<'SCN'
errors: util-linux

    # sudo mkdir /a /b
    # sudo mount -t tmpfs none /a
    # sudo -- mount --make-shared /a
    # sudo mount --bind /a /b
    # sudo cat /proc/self/mountinfo | sudo grep /b | sed 's/ - .*//'
    22 20 0:2 / /b rw,relatime shared:1
    # sudo umount /nowhere
    umount: /nowhere: no mount point specified.
    # sudo unshare -m --propagation unchanged sh
    # findmnt -n -o TARGET,PROPAGATION /a
    /a     shared
SCN
	)
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" "$scn"
		assert_success
	done
	sed -i 's|^    /a     shared$|    /a     private|' "$scn"
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" "$scn"
		assert_failure 1
		assert_line "    -/a     private"
	done
}

@test "typed: sudo's options, a root shell, a builtin and sudo alone are refused at the word" {
	for line in "sudo -E ls /|12|sudo: option '-E' is not supported" \
		"sudo su|12|sudo: a root shell ('sudo su') is not supported" \
		"sudo -i|12|sudo: a root shell ('sudo -i') is not supported" \
		"sudo cd /|12|sudo: 'cd' is a shell builtin, not a program it could run" \
		"sudo|7|sudo: a command is needed"; do
		IFS='|' read -r cmd col msg <<<"$line"
		printf '    # mkdir /a\n    # %s\n' "$cmd" >"$SCN_DIR/bad.scn"
		run "$NSTEST" lint "$SCN_DIR/bad.scn"
		assert_failure 2
		assert_output --partial "$SCN_DIR/bad.scn:2:$col: error: $msg"
	done
}

@test "typed: --name=value is --name value for every long option that takes one" {
	scn=$(write_scn equals <<'SCN'
    # mkdir /a /b
    # mount --types=tmpfs none /a
    # mount --options=ro --types=tmpfs none /b
    # mount_setattr --propagation=shared /a
    # findmnt --output=TARGET,OPTIONS,PROPAGATION /b
    TARGET OPTIONS     PROPAGATION
    /b     ro,relatime private
    # findmnt --noheadings --output=TARGET,PROPAGATION --mountpoint=/a
    /a     shared
SCN
	)
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" "$scn"
		assert_success
	done
	sed -i 's|^    /a     shared$|    /a     private|' "$scn"
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" "$scn"
		assert_failure 1
	done
	# an option that takes no value, or none the command knows, still fails
	printf '    # mkdir /a\n    # findmnt --bogus=1\n' >"$SCN_DIR/bad.scn"
	run "$NSTEST" lint "$SCN_DIR/bad.scn"
	assert_failure 2
	assert_output --partial "bad.scn:2:15: error: findmnt: unknown option --bogus=1"
}

# Debian's bash prints USER@HOST:PATH# and Fedora's [USER@HOST PATH]#; the
# terminal is USER@HOST, whatever directory the prompt shows (issue 29:
# a pasted Debian session gave 16 errors of "output line before any
# command").
@test "typed: Debian's and Fedora's default prompts name a terminal by USER@HOST" {
	scn=$(write_scn prompts <<'SCN'
    root@host:~# mkdir -p /mnt/a
    root@host:~# cd /mnt
    root@host:/mnt# mount -t tmpfs none a
    root@host:/mnt# findmnt -n -o TARGET a
    /mnt/a
    [root@box ~]# pwd
    /
    [root@box ~]# cd /mnt/a
    [root@box a]# pwd
    /mnt/a
    root@host:/mnt# pwd
    /mnt
    user@host:~$ pwd
    /
SCN
	)
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" "$scn"
		assert_success
	done
	run "$NSTEST" run --format json "$scn"
	assert_success
	python3 -c '
import json, sys
r = json.load(sys.stdin)
names = [s["terminal"] for s in r["scenarios"][0]["steps"]]
assert names[0] == "root@host" and "root@box" in names and "user@host" in names, names
' <<<"$output"
	# the same terminal keeps its directory: a wrong twin fails
	sed -i '0,/^    \/mnt$/s||    /|' "$scn"
	run "$NSTEST" run "$scn"
	assert_failure 1
	# a form that is none of them is an output line, and says so
	printf '    root@host# mkdir /a\n' >"$SCN_DIR/bad.scn"
	run "$NSTEST" lint "$SCN_DIR/bad.scn"
	assert_failure 2
	assert_output --partial "bad.scn:1:5: error: 'root@host# ' looks like a prompt, but is none, so the line is read as output"
}
