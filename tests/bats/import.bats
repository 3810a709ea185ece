#!/usr/bin/env bats
# tests/bats/import.bats - `nstest import` (issue 29, raw logs): a real
# session, recorded with script(1) in a pty with the real bash and
# util-linux (in a mount namespace of its own, on a scratch directory, so
# that the host sees nothing of it), imported and replayed on the kernel
# and on the model; escape sequences, carriage returns and backspaces as
# a terminal applies them; a command nstest does not take becomes prose
# that names it.
#
# Runs as root: the recording mounts in a private namespace, and `nstest
# run` sandboxes itself.

bats_require_minimum_version 1.5.0
load helpers
load robust

setup() {
	robust_setup
	command -v script >/dev/null || skip "script(1) (bsdutils) is not installed"
}

# record FILE: type the lines of stdin into an interactive bash, in a
# pty that script(1) logs to FILE. The first line gives it Debian's
# prompt, as a user's .bashrc would: import reads the prompts after it
# as the same shell's. The shell runs in a mount namespace of its own
# whose /mnt is a fresh tmpfs: the session works under /mnt/lab, and
# neither its mounts nor its directories reach the host.
record() {
	{
		printf '%s\n' "PS1='\u@\h:\w\\$ '"
		cat
	} | timeout 30 unshare -m --propagation private sh -c \
		'mount -t tmpfs scratch /mnt && exec script -q -c "bash --norc --noprofile -i" "$1"' \
		sh "$1" >/dev/null 2>&1
}

@test "import: a session recorded with script(1) replays on the kernel and on the model; one changed line fails" {
	record "$BATS_TEST_TMPDIR/ts" <<'EOF_TYPED'
mkdir -p /mnt/lab/a && cd /mnt/lab
mount -t tmpfs none a; mount --make-shared a
D=/mnt/lab
findmnt -no TARGET,PROPAGATION $D/a
mkdir b && mount --bind a b && findmnt -no TARGET,PROPAGATION "$D/b"
umount /nowhere
findmnt /nowhere || echo not mounted
lsblk --version
exit
EOF_TYPED
	grep -q 'findmnt -no TARGET,PROPAGATION' "$BATS_TEST_TMPDIR/ts" || fail "nothing recorded"
	run --separate-stderr "$NSTEST" import -o "$SCN_DIR/rec.scn" "$BATS_TEST_TMPDIR/ts"
	assert_success
	[[ $stderr == *"\`lsblk --version\` not carried over: unknown command 'lsblk'"* ]] || fail "stderr: $stderr"
	run cat "$SCN_DIR/rec.scn"
	assert_line --regexp '^    bash-[0-9.]+# findmnt -no TARGET,PROPAGATION \$D/a$'
	assert_line '    /mnt/lab/a shared'
	assert_line '    umount: /nowhere: no mount point specified.'
	assert_line --regexp '^Not carried over \(log line [0-9]+\): the command `lsblk --version` \(unknown command .lsblk.'
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" "$SCN_DIR/rec.scn"
		assert_success
	done
	sed 's|^    /mnt/lab/a shared$|    /mnt/lab/a private|' "$SCN_DIR/rec.scn" >"$SCN_DIR/wrong.scn"
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" "$SCN_DIR/wrong.scn"
		assert_failure 1
	done
	assert_host_unchanged
}

# record80 FILE: type stdin's lines into an interactive bash in a pty 80
# columns wide that script(1) logs to FILE (and names in its header),
# each line once the shell prompts (tests/pty-type: nothing typed ahead,
# so sudo reads no line meant for the shell). bash starts without an
# exported PS1, so an inner sh (dash) shows its own bare '# ' unless the
# session exports one; its rc file sets Debian's prompt, as Debian's
# /etc/skel/.bashrc does. A mount namespace of its own, /mnt a fresh tmpfs.
record80() {
	printf '%s\n' "PS1='\\u@\\h:\\w\\\$ '" >"$BATS_TEST_TMPDIR/bashrc"
	unshare -m --propagation private sh -c \
		'mount -t tmpfs scratch /mnt && exec "$1" --cols 80 -- script -q -c "env -u PS1 -u COLUMNS bash --rcfile $3 --noprofile -i" "$2"' \
		sh "$NSTEST_ROOT/tests/pty-type" "$1" "$BATS_TEST_TMPDIR/bashrc" >/dev/null
}

# Issue 29's done means: a real session with lists, a variable, Debian's
# prompt, an inner sh at dash's bare prompt and one that keeps an
# exported prompt, sudo, ls -l, findmnt --tree and -D, and a findmnt
# table an 80-column terminal broke, recorded with the real tools,
# imported and replayed on both backends; each form has a wrong twin.
@test "import: an 80-column session with lists, variables, inner shells, sudo, ls -l, findmnt --tree and -D replays; wrong twins fail" {
	command -v sudo >/dev/null || skip "sudo is not installed (ci/install-deps installs it)"
	{
		cat <<'EOF_TYPED'
mkdir -p /mnt/lab && cd /mnt/lab; mkdir a b
L=/mnt/lab
N=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
mount -t tmpfs -o size=4k,mode=0755 lab $L/a && mount --make-shared $L/a
sudo mount --bind $L/a $L/b
ls -l $L
mkdir $L/a/$N && mount -t tmpfs -o size=8k $N $L/a/$N
findmnt -R $L/a
findmnt --tree -o TARGET,PROPAGATION -R $L/b
findmnt -D $L/b
unshare -m sh
findmnt -no TARGET,PROPAGATION /mnt/lab/b
exit
export PS1='lab# '
unshare -m --propagation unchanged sh
findmnt -no TARGET,PROPAGATION /mnt/lab/b
exit
exit
EOF_TYPED
	} | record80 "$BATS_TEST_TMPDIR/ts"
	grep -q 'COLUMNS="80"' "$BATS_TEST_TMPDIR/ts" || fail "the typescript does not name its width: $(head -c 300 "$BATS_TEST_TMPDIR/ts")"
	run --separate-stderr "$NSTEST" import -o "$SCN_DIR/s80.scn" "$BATS_TEST_TMPDIR/ts"
	assert_success
	run cat "$SCN_DIR/s80.scn"
	assert_line 'columns: 80'
	assert_line --regexp '^    root@[^ ]+:/mnt/lab# sudo mount --bind \$L/a \$L/b$'
	assert_line --regexp '^    drwxr-xr-x +2 root root +[0-9]+ .* a$'
	# dash's bare prompt, and the exported one (which import writes as
	# the terminal's first prompt), each a shell of the Debian terminal
	assert_line '    # findmnt -no TARGET,PROPAGATION /mnt/lab/b'
	assert_line --regexp '^    root@[^ ]+:/mnt/lab# findmnt -no TARGET,PROPAGATION /mnt/lab/b$'
	# findmnt broke the long row over lines
	assert_line --regexp '^    [^ ]*/mnt/lab/a/a{40}$'
	assert_line --regexp '^ {5,}a{40}$'
	refute_output --partial 'Not carried over'
	for b in kernel model; do
		run "$NSTEST_ROOT/tests/isolation-check" "$NSTEST" run --backend "$b" "$SCN_DIR/s80.scn"
		assert_success
	done
	# wrong twins: the inner sh's copy is private, the outer's shared; a
	# mode; the broken row's second line; the df row's mount point
	sed '0,/^    \/mnt\/lab\/b private$/s//    \/mnt\/lab\/b shared/' "$SCN_DIR/s80.scn" >"$SCN_DIR/w1.scn"
	sed '0,/^    drwxr-xr-x \(.* a\)$/s//    drwxrwxr-x \1/' "$SCN_DIR/s80.scn" >"$SCN_DIR/w2.scn"
	sed 's/^\(     *\)\(a\{40\}\)$/\1\2x/' "$SCN_DIR/s80.scn" >"$SCN_DIR/w3.scn"
	sed 's|^\(    lab .*\) /mnt/lab/b$|\1 /mnt/lab/a|' "$SCN_DIR/s80.scn" >"$SCN_DIR/w4.scn"
	sed '/^columns: 80$/d' "$SCN_DIR/s80.scn" >"$SCN_DIR/w5.scn"
	for w in w1 w2 w3 w4 w5; do
		! cmp -s "$SCN_DIR/s80.scn" "$SCN_DIR/$w.scn" || fail "$w: the line to change is not in the file"
		for b in kernel model; do
			run "$NSTEST" run --backend "$b" "$SCN_DIR/$w.scn"
			assert_failure 1
		done
	done
	assert_host_unchanged
}

@test "import: escapes, carriage returns, backspaces and a changed PS1 are read as the terminal showed them" {
	printf '%b' 'Script started on today\r\n' \
		'\e]0;root@box: ~\a\e[?2004h\e[01;32mbash-5.2\e[00m# PS1=\x27[\\u@\\h \\W]\\$ \x27\r\n' \
		'\e[?2004l\r\e[?2004h[root@box ~]# echo helo\bl\blo\r\n' \
		'\e[?2004l\rhello\r\n' \
		'[root@box ~]# echo Xbc\r\n' \
		'\rabc\rXbc\r\n' \
		'[root@box ~]# \r\n' \
		'[root@box ~]# echo\r\n' \
		'\r\n' \
		'[root@box ~]# exit\r\n' 'exit\r\n' 'Script done on today\r\n' >"$BATS_TEST_TMPDIR/log"
	run --separate-stderr "$NSTEST" import "$BATS_TEST_TMPDIR/log"
	assert_success
	assert_line "    bash-5.2# PS1='[\\u@\\h \\W]\\\$ '"
	assert_line '    bash-5.2# echo hello'
	assert_line '    hello'
	assert_line '    bash-5.2# echo Xbc'
	assert_line '    Xbc'
	assert_line '    bash-5.2# exit'
	refute_output --partial $'\e'
	refute_output --partial $'\r'
	refute_line '    exit'
	[[ $stderr == *"an empty output line is written '...'"* ]] || fail "stderr: $stderr"
	printf '%s\n' "$output" >"$SCN_DIR/imported.scn"
	run "$NSTEST" lint "$SCN_DIR/imported.scn"
	assert_success
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" "$SCN_DIR/imported.scn"
		assert_success
	done
}

@test "import: a log that cannot be read, or no log, is a usage error" {
	run "$NSTEST" import "$BATS_TEST_TMPDIR/none"
	assert_failure 2
	assert_output --partial "none: No such file or directory"
	run "$NSTEST" import
	assert_failure 2
	assert_output --partial "import needs exactly one log file"
	run "$NSTEST" import --help
	assert_success
	assert_output --partial "usage: nstest import"
}

@test "import --scratch: a session that saw the host's mounts replays once they are left out ('...'), findmnt padded again; without --scratch it does not" {
	# the session works below /mnt/lab, on the scratch tmpfs that record()
	# mounts on /mnt in a namespace of its own: every other mount it sees
	# is the host's (and /mnt's own)
	record "$BATS_TEST_TMPDIR/ts" <<'EOF_TYPED'
export COLUMNS=300
mkdir -p /mnt/lab/a /mnt/lab/b && cd /mnt/lab
mount -t tmpfs none a && mount --make-shared a
mount --bind a b
findmnt
findmnt -o TARGET,PROPAGATION
cat /proc/self/mountinfo
mount
exit
EOF_TYPED
	grep -q 'findmnt -o TARGET,PROPAGATION' "$BATS_TEST_TMPDIR/ts" || fail "nothing recorded"
	run --separate-stderr "$NSTEST" import --scratch /mnt/lab -o "$SCN_DIR/s.scn" "$BATS_TEST_TMPDIR/ts"
	assert_success
	[[ $stderr == *"of mounts outside the session left out of \`findmnt\` (written '...')"* ]] || fail "stderr: $stderr"
	run cat "$SCN_DIR/s.scn"
	# the tree: the session's mounts under the root '...' stands for,
	# columns as wide as that root row's (/dev/sda1) and the session's
	assert_line '    TARGET       SOURCE    FSTYPE OPTIONS'
	# (findmnt puts siblings in mount ID order, which the kernel reuses:
	# either may come first)
	assert_line --regexp '^    (├|└)─/mnt/lab/a none      tmpfs  rw,relatime$'
	assert_line --regexp '^    (├|└)─/mnt/lab/b none      tmpfs  rw,relatime$'
	assert_line '    TARGET       PROPAGATION'
	assert_line --regexp '^    (├|└)─/mnt/lab/a shared$'
	assert_line --regexp '^    [0-9]+ [0-9]+ [0-9]+:[0-9]+ / /mnt/lab/b rw,relatime shared:[0-9]+ - tmpfs none rw$'
	assert_line '    none on /mnt/lab/b type tmpfs (rw,relatime)'
	refute_line --regexp '^    .*(/proc |/sys/| scratch )'
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" "$SCN_DIR/s.scn"
		assert_success
	done
	# its wrong twin: the bind shown private
	sed 's|/mnt/lab/a shared$|/mnt/lab/a private|' "$SCN_DIR/s.scn" >"$SCN_DIR/wrong.scn"
	! cmp -s "$SCN_DIR/s.scn" "$SCN_DIR/wrong.scn" || fail "the line to change is not in the file"
	run "$NSTEST" run "$SCN_DIR/wrong.scn"
	assert_failure 1
	# without --scratch the host's mounts are expected on replay
	run "$NSTEST" import -o "$SCN_DIR/host.scn" "$BATS_TEST_TMPDIR/ts"
	assert_success
	run "$NSTEST" run "$SCN_DIR/host.scn"
	assert_failure 1
	run "$NSTEST" import --scratch lab "$BATS_TEST_TMPDIR/ts"
	assert_failure 2
	assert_output --partial "--scratch needs an absolute directory"
	assert_host_unchanged
}

@test "import --scratch: a findmnt table whose columns cannot be told apart is named in the file, at its step, and on standard error" {
	printf '%s\n' 'x# findmnt' 'TARGET SOURCE' '/ /dev/vda' '/mnt/lab/a none' >"$BATS_TEST_TMPDIR/log"
	run --separate-stderr "$NSTEST" import --scratch /mnt/lab "$BATS_TEST_TMPDIR/log"
	assert_success
	assert_line 'Not carried over as it should be (log line 1): the output of `findmnt` may still show mounts outside the session (its columns could not be told apart); edit its block.'
	assert_line '    x# findmnt'
	[[ $stderr == *"log line 1: \`findmnt\` may still show mounts outside the session"* ]] || fail "stderr: $stderr"
}
