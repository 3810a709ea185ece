#!/usr/bin/env bats
# tests/bats/record.bats - `nstest record` (issue 29): a session typed
# into two terminals through ptys (tests/record-drive, which waits for
# each prompt's mark and never sleeps), with the real tools in the
# recorder's sandbox; the file it writes replays on the kernel and on the
# model, and one changed line fails. The recorder runs inside
# tests/isolation-check, and the host's mount table is compared after
# each test (robust.bash): the sandbox's mounts never reach it.

bats_require_minimum_version 1.5.0
load helpers
load robust

setup() {
	robust_setup
	command -v python3 >/dev/null || skip "python3 (for its pty module) is not installed"
	[[ $(id -u) == 0 ]] || skip "nstest record needs root"
}

# drive FILE < SCRIPT: record-drive under the isolation check.
drive() {
	"$NSTEST_ROOT/tests/isolation-check" "$NSTEST_ROOT/tests/record-drive" "$NSTEST" "$1"
}

# No shell of a recording, nor a job of one, is left: each has the mark
# in its exported PS1. (grep's status is 2 for a process that went away
# while it read, whatever it found: its output decides.)
no_recorded_shell() {
	[[ -z $(grep -lsa $'\e]7771;P' /proc/[0-9]*/environ) ]]
}

@test "record: two terminals, propagation between them, lists, a variable, findmnt and mountinfo; the file replays on the kernel and on the model, and a changed line fails" {
	cd "$SCN_DIR"
	run --separate-stderr drive lab.scn <<'EOF_TYPED'
1 mkdir -p /mnt/lab/a /mnt/lab/b && mount -t tmpfs lab /mnt/lab/a
1 mount --make-shared /mnt/lab/a; mount --bind /mnt/lab/a /mnt/lab/b
busy
1 D=/mnt/lab
1 findmnt -o TARGET,PROPAGATION $D/b
2 unshare -m --propagation unchanged sh
2 findmnt -o TARGET,PROPAGATION
1 mkdir /mnt/lab/a/sub && mount -t tmpfs sub "$D/a/sub"
2 cat /proc/self/mountinfo
2 exit
1 findmnt
1 ls -l /mnt/lab
end
EOF_TYPED
	((status == 0)) || fail "record-drive: status $status: $stderr"
	[[ $stderr == *"lab.scn written; it replays"* ]] || fail "stderr: $stderr"
	run cat lab.scn
	assert_line '    sh1# mount --make-shared /mnt/lab/a; mount --bind /mnt/lab/a /mnt/lab/b'
	assert_line '    sh1# findmnt -o TARGET,PROPAGATION $D/b'
	assert_line '    /mnt/lab/b shared'
	assert_line '    sh2# unshare -m --propagation unchanged sh'
	# the copy sh1's new mount propagated to sh2's namespace (peers of
	# /mnt/lab/a there), as the real kernel showed it
	assert_line --regexp '^    [0-9]+ [0-9]+ [0-9]+:[0-9]+ / /mnt/lab/a/sub rw,relatime shared:[0-9]+ - tmpfs sub rw$'
	assert_line --regexp '^    [0-9]+ [0-9]+ [0-9]+:[0-9]+ / /mnt/lab/b/sub rw,relatime shared:[0-9]+ - tmpfs sub rw$'
	# findmnt padded as without the tools' rows: /usr and /proc are gone
	assert_line '    TARGET             SOURCE    FSTYPE OPTIONS'
	assert_line '    /                  /dev/sda1 tmpfs  rw,relatime'
	refute_line --regexp '^    .*(/usr|/proc |nstest-proc)'
	refute_output --partial $'\e'
	# ls -l is kept, as a command or, where nstest does not take it, as
	# prose that names it
	assert_output --regexp '(    sh1# ls -l /mnt/lab|the command `ls -l /mnt/lab`)'
	assert_line --partial 'terminal 512 columns wide'
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" lab.scn
		assert_success
	done
	sed 's|^    /mnt/lab/b shared$|    /mnt/lab/b private|' lab.scn >wrong.scn
	! cmp -s lab.scn wrong.scn || fail "the line to change is not in the file"
	for b in kernel model; do
		run "$NSTEST" run --backend "$b" wrong.scn
		assert_failure 1
	done
	no_recorded_shell || fail "a recorded shell survived"
	assert_host_unchanged
}

@test "record: a step where nstest prints otherwise than the real tool says so in the file, with the tool's lines, and the file replays" {
	cd "$SCN_DIR"
	run --separate-stderr drive sudo.scn <<'EOF_TYPED'
1 mkdir /a && mount -t tmpfs a /a
1 sudo findmnt -no TARGET /a
end
EOF_TYPED
	((status == 0)) || fail "record-drive: status $status: $stderr"
	run cat sudo.scn
	assert_line '    sh1# sudo findmnt -no TARGET /a'
	assert_line '    /a'
	# whatever the real sudo printed in the recording's sandbox (it has
	# no sudoers there, or is not installed at all), the step says so
	# when nstest's differs, and the file replays
	if ! command -v sudo >/dev/null; then
		[[ $stderr == *"1 block of sudo.scn holds nstest's output"* ]] || fail "stderr: $stderr"
		assert_line 'nstest prints otherwise than the real tools at the next command: its block'
		assert_line '| bash: sudo: command not found'
	fi
	run "$NSTEST" run sudo.scn
	assert_success
	assert_host_unchanged
}

@test "record: SIGHUP (the window closed) ends every shell, its background jobs and every joiner, writes nothing, leaves no socket" {
	cd "$SCN_DIR"
	run --separate-stderr drive hup.scn <<'EOF_TYPED'
1 mount -t tmpfs x /mnt
1 sleep 1000 &
2 findmnt /mnt
2 sleep 1001 &
hup
EOF_TYPED
	assert_failure 129
	[[ $stderr == *"stopped by signal 1: nothing written"* ]] || fail "stderr: $stderr"
	[[ ! -e hup.scn ]] || fail "a file was written"
	run compgen -G "/run/nstest-record-*.sock"
	assert_failure
	no_recorded_shell || fail "a recorded shell survived"
	assert_host_unchanged
}

@test "record: a joiner's window closing ends its shell and jobs; the recording goes on, with its steps" {
	cd "$SCN_DIR"
	run --separate-stderr drive join.scn <<'EOF_TYPED'
1 mkdir /a && mount -t tmpfs a /a && mount --make-shared /a
2 mkdir /a/b && mount -t tmpfs b /a/b
2 sleep 1000 &
close 2
1 findmnt -no TARGET /a/b
end
EOF_TYPED
	((status == 0)) || fail "record-drive: status $status: $stderr"
	run cat join.scn
	assert_line '    sh2# mkdir /a/b && mount -t tmpfs b /a/b'
	assert_line '    /a/b'
	run "$NSTEST" run join.scn
	assert_success
	no_recorded_shell || fail "a recorded shell survived"
	assert_host_unchanged
}

@test "record: --join with no recording, a missing file name, --help" {
	run --separate-stderr "$NSTEST" record --join "$SCN_DIR/none.scn"
	assert_failure 2
	[[ $stderr == *"no recording of $SCN_DIR/none.scn is running"* ]] || fail "stderr: $stderr"
	run "$NSTEST" record
	assert_failure 2
	assert_output --partial "record needs exactly one scenario file"
	run "$NSTEST" record --help
	assert_success
	assert_output --partial "usage: nstest record FILE"
	assert_output --partial "--join"
}
