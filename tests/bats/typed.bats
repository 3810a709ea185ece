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

# findmnt -t, --real and --tree, as util-linux 2.38 prints them: a mount
# -t leaves out gets no line, and its submounts hang under the nearest
# line above them (create_treenode); -t's "no" negates, as libmount reads
# it; tmpfs and ramfs are pseudo filesystems, which --real leaves out.
@test "typed: findmnt -t, --types=, --real and --tree -l, on both backends, with wrong twins" {
	scn=$(write_scn findmnt-types <<'SCN'
    # mkdir -p /a /c
    # mount -t tmpfs none /a
    # mkdir /a/b
    # mount -t ramfs none /a/b
    # mkdir /a/b/x
    # mount -t tmpfs none /a/b/x
    # findmnt -o TARGET,FSTYPE -t tmpfs
    TARGET     FSTYPE
    /          tmpfs
    └─/a       tmpfs
      └─/a/b/x tmpfs
    # findmnt -o TARGET,FSTYPE --types=ramfs
    TARGET FSTYPE
    /a/b   ramfs
    # findmnt -no TARGET -t notmpfs
    /a/b
    # findmnt -o TARGET --real
    # findmnt -l --tree -o TARGET -t tmpfs,ramfs
    TARGET
    /
    └─/a
      └─/a/b
        └─/a/b/x
    # findmnt -l -o TARGET -t tmpfs
    TARGET
    /
    /a
    /a/b/x
SCN
	)
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" "$scn"
		assert_success
	done
	# /a/b/x drawn under the ramfs it sits on, which -t left out
	sed -e 's|^      └─/a/b/x tmpfs$|      └─/a/b   ramfs|' "$scn" >"$SCN_DIR/wrong1.scn"
	sed -e 's|^    /a/b$|    /a|' "$scn" >"$SCN_DIR/wrong2.scn"
	for w in wrong1 wrong2; do
		for b in kernel model; do
			run "$NSTEST" run --backend "$b" "$SCN_DIR/$w.scn"
			assert_failure 1
		done
	done
	printf '    # mkdir /a\n    # findmnt -t ,\n    # findmnt -r --tree\n' >"$SCN_DIR/bad.scn"
	run "$NSTEST" lint "$SCN_DIR/bad.scn"
	assert_failure 2
	assert_output --partial "bad.scn:2:15: error: findmnt: -t needs a filesystem type"
	assert_output --partial "bad.scn:3:7: error: findmnt: --tree with -r (a tree's lines in raw form) is not supported"
}

# NAME=VALUE, export and unset, and $NAME, ${NAME} and "$NAME" expanded
# as bash expands them, in the terminal that set them and, exported, in
# its inner shells (issue 29).
@test "typed: shell variables, set, exported into an inner shell, unset; wrong twins fail" {
	scn=$(write_scn vars <<'SCN'
    # D=/tmp/lab
    # mkdir -p $D/a "$D/b c"
    # ls "${D}"
    a
    b c
    # mount -t tmpfs none $D/a
    # export M="$D/a" X=1
    # findmnt -no TARGET $M
    /tmp/lab/a
    sh2# D=/elsewhere
    sh2# echo $D
    /elsewhere
    # echo $D is $X
    /tmp/lab is 1
    # unshare -m --propagation unchanged sh
    # echo "$M" $X
    /tmp/lab/a 1
    # exit
    # unset X
    # echo $D
    /tmp/lab
SCN
	)
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" "$scn"
		assert_success
	done
	sed -e 's|^    /tmp/lab is 1$|    /elsewhere is 1|' "$scn" >"$SCN_DIR/wrong.scn"
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" "$SCN_DIR/wrong.scn"
		assert_failure 1
	done
	# not exported: the inner shell has no D; unset: gone; $! and a
	# variable for one command are refused, each at its column
	printf '%s\n' '    # D=/x' '    # unshare -m sh' '    # echo $D' '    # exit' \
		'    # unset D' '    # echo ${D}' '    # echo $!' '    # D=1 ls /' >"$SCN_DIR/bad.scn"
	run "$NSTEST" lint "$SCN_DIR/bad.scn"
	assert_failure 2
	assert_line "$SCN_DIR/bad.scn:3:12: error: variable 'D' is not set in this terminal: set it on a line of its own first (D=VALUE)"
	assert_line "$SCN_DIR/bad.scn:6:12: error: variable 'D' is not set in this terminal: set it on a line of its own first (D=VALUE)"
	assert_line "$SCN_DIR/bad.scn:7:12: error: the special parameter '\$!' is not supported"
	assert_line "$SCN_DIR/bad.scn:8:11: error: a variable set for one command ('D=1 ls') is not supported: set it on a line of its own"
}

# on_both STATUS FILE...: each file ends with STATUS on the kernel and on
# the model
on_both() {
	local want=$1 f b
	shift
	for f; do
		for b in kernel model; do
			run "$NSTEST" run --backend "$b" "$f"
			[[ $status == "$want" ]] || fail "$f on $b: status $status, not $want: $output"
		done
	done
}

# $$: each shell (terminal, inner shell) has its own number, which echo
# prints and the judge renames as the PID the recording showed; nsenter
# -t takes a number `echo $$` showed for the terminal it names; /proc/$$/
# is the shell's own /proc entry (issue 29, Variables).
@test "typed: echo \$\$ prints each shell's PID, renamed; nsenter -t takes the one shown; wrong twins fail" {
	scn=$(write_scn pid <<'SCN'
    sh1# echo $$
    12345
    sh2# echo "pid $$."
    pid 12399.
    sh2# unshare -m --propagation private sh
    sh2# mkdir -p /x && mount -t tmpfs t /x
    sh2# echo $$
    12400
    sh1# nsenter -t 12400 -m findmnt -n -o TARGET /x
    /x
    sh1# nsenter --target=12400 -m findmnt -n -o TARGET /x
    /x
    sh1# findmnt -n -o TARGET /x
    sh2# exit
    sh2# echo $$
    12399
    sh1# echo $$
    12345
    sh1# cat /proc/$$/mountinfo | wc -l
    1
SCN
	)
	on_both 0 "$scn"
	# the inner shell is another shell, the outer one after its exit the
	# same as before; one shell's number is another's
	sed 's/12400/12399/g' "$scn" >"$SCN_DIR/wrong1.scn"
	sed 's/^    12399$/    12401/' "$scn" >"$SCN_DIR/wrong2.scn"
	sed '0,/^    12345$/s//    12399/' "$scn" >"$SCN_DIR/wrong3.scn"
	on_both 1 "$SCN_DIR"/wrong[123].scn
	# a number no echo $$ showed names no terminal
	sed 's/-t 12400/-t 12401/' "$scn" >"$SCN_DIR/bad.scn"
	run "$NSTEST" lint "$SCN_DIR/bad.scn"
	assert_failure 2
	assert_output --partial "bad.scn:9:21: error: nsenter: 12401 is a process ID that no 'echo \$\$' showed before this line"
	printf '%s\n' '    # echo $$ && echo done' >"$SCN_DIR/list.scn"
	run "$NSTEST" lint "$SCN_DIR/list.scn"
	assert_failure 2
	assert_output --partial "list.scn:1:7: error: 'echo \$\$' in a list"
}

# A && B, A || B and A ; B on one line, as bash runs them: && and || on
# the exit status of what ran last (grep's 1 for nothing selected,
# findmnt's 1 for no such mount), the output of every command that ran,
# in order (issue 29: 16 of 17 pasted sessions stopped at '&&' or ';').
@test "typed: command lists with &&, || and ; on both backends; a command that must not run fails the twin" {
	scn=$(write_scn lists <<'SCN'
errors: util-linux

    # mkdir /x && mount -t tmpfs none /x && findmnt -no TARGET /x
    /x
    # cd /x; pwd ; ls
    /x
    # mkdir /x || echo exists
    mkdir: EEXIST (File exists)
    exists
    # mkdir /y && echo made || echo not
    made
    # umount /nowhere && echo gone
    umount: /nowhere: no mount point specified.
    # grep zzz /proc/self/mountinfo || echo no zzz
    no zzz
    # findmnt /y || echo not mounted
    not mounted
    # cat /proc/self/mountinfo | grep -c tmpfs && echo some
    2
    some
    # echo a; echo b;
    a
    b
SCN
	)
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" "$scn"
		assert_success
	done
	# a command after a failed && must not run, nor one after a good ||
	printf '%s\n' "    # umount /nowhere && echo gone" "    umount: EINVAL (Invalid argument)" "    gone" >"$SCN_DIR/wrong1.scn"
	printf '%s\n' "    # mkdir /z || echo exists" "    exists" >"$SCN_DIR/wrong2.scn"
	for w in wrong1 wrong2; do
		for b in kernel model; do
			run "$NSTEST" run --backend "$b" "$SCN_DIR/$w.scn"
			assert_failure 1
		done
	done
	printf '%s\n' '    # mkdir /a && unshare -m sh' '    # echo a &' '    # echo a &&' '    # ; echo a' >"$SCN_DIR/bad.scn"
	run "$NSTEST" lint "$SCN_DIR/bad.scn"
	assert_failure 2
	assert_line "$SCN_DIR/bad.scn:1:19: error: 'unshare' in a list ('&&', '||', ';') is not supported: it starts or ends a shell, so put it on a line of its own"
	assert_line "$SCN_DIR/bad.scn:2:14: error: a command run in the background ('&') is not supported"
	assert_line "$SCN_DIR/bad.scn:3:16: error: empty command after '&&'"
	assert_line "$SCN_DIR/bad.scn:4:7: error: empty command before ';'"
}

# A message of a list's command that failed before its last is matched
# to that command: util-linux's words for its errno (issue 29, "a failure
# message is matched to the command that printed it").
@test "typed: util-linux's words for a command that failed in the middle of a list; a wrong twin fails" {
	scn=$(write_scn list-messages <<'SCN'
    # mkdir /x /y
    # umount /x || echo failed
    umount: /x: not mounted.
    failed
    # umount /x; umount /nope; echo done
    umount: /x: not mounted.
    umount: /nope: no mount point specified.
    done
    # mount /dev/sdb1 /nope || mount -t tmpfs t /x && echo ok
    mount: /nope: mount point does not exist.
           dmesg(1) may have more information after failed mount system call.
    ok
SCN
	)
	on_both 0 "$scn"
	# the message names the path the command was given; another path,
	# or the words of another errno, is wrong
	sed 's|umount: /x: not mounted.|umount: /y: not mounted.|' "$scn" >"$SCN_DIR/wrong1.scn"
	sed 's|umount: /nope: no mount point specified.|umount: /nope: not mounted.|' "$scn" >"$SCN_DIR/wrong2.scn"
	on_both 1 "$SCN_DIR"/wrong[12].scn
}

# findmnt -S/--source selects by source, as a list, every mount of it
# (a bind mount shows its source too); no match is findmnt's silent 1.
@test "typed: findmnt -S and --source=, on both backends; a wrong twin fails" {
	scn=$(write_scn findmnt-source <<'SCN'
    # mkdir /a /b /c
    # mount /dev/sdb1 /a
    # mount --bind /a /b
    # mount /dev/sdb2 /c
    # findmnt -S /dev/sdb1 -o TARGET,SOURCE
    TARGET SOURCE
    /a     /dev/sdb1
    /b     /dev/sdb1
    # findmnt -n --source=/dev/sdb2 -o TARGET
    /c
    # findmnt -S /dev/nothing || echo none
    none
SCN
	)
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" "$scn"
		assert_success
	done
	sed 's|^    /c$|    /a|' "$scn" >"$SCN_DIR/wrong.scn"
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" "$SCN_DIR/wrong.scn"
		assert_failure 1
	done
	printf '    # mkdir /a\n    # findmnt -S /dev/sdb1 -T /a\n' >"$SCN_DIR/bad.scn"
	run "$NSTEST" lint "$SCN_DIR/bad.scn"
	assert_failure 2
	assert_output --partial "bad.scn:2:28: error: findmnt: --source with --target or --mountpoint (both to match) is not supported"
}
