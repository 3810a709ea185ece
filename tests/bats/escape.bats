#!/usr/bin/env bats
# tests/bats/escape.bats - hostile scenarios (issue 5) try to reach the
# host from inside a sandbox: bind mounts of /, /etc and /proc, ".."
# traversal, the links of /proc, the host's disk names, chroot and cd
# games, and moving or detaching the sandbox's root. Each scenario in
# tests/escape/ states in its expected output that it sees only what it
# made; this file runs each in both stand-in modes and checks that the
# host did not change: its mount table byte for byte, no loop device or
# process left, and a canary file in a fresh directory on the host, whose
# path the scenario is given (CANARY_DIR) and tries to read and write,
# has the same content and the directory the same listing.
#
# Symbolic links (`ln -s`, issue 13) are resolved inside the shell's
# root on both backends: symlink-root, symlink-dotdot and symlink-proc
# point links at /, at .. and into /proc, and also run on the model,
# which must agree. The last tests check that hard links and the ways to
# mount or read the host's view are refused before anything runs.
#
# Runs as root: `nstest run` sandboxes itself in a private mount namespace.

bats_require_minimum_version 1.5.0
load helpers
load robust

setup() {
	nstest_setup
	CANARY_DIR=$(mktemp -d /tmp/nstest-escape.XXXXXX)
	CANARY_TEXT="canary $$ $RANDOM $RANDOM"
	printf '%s\n' "$CANARY_TEXT" >"$CANARY_DIR/canary"
	canary_listing >"$BATS_TEST_TMPDIR/canary.before"
	host_snapshot
}

teardown() {
	rm -rf "$CANARY_DIR"
}

# Names, types, sizes, modes and times of everything in the canary dir.
canary_listing() {
	(cd "$CANARY_DIR" && find . -printf '%p %y %s %m %T@ %C@\n' | sort)
}

assert_canary_unchanged() {
	assert_equal "$(cat "$CANARY_DIR/canary")" "$CANARY_TEXT"
	assert_equal "$(canary_listing)" "$(cat "$BATS_TEST_TMPDIR/canary.before")"
}

# run_escape NAME MODE: tests/escape/NAME.scn, given the canary's path,
# must pass in stand-in mode MODE and leave the host as it was.
run_escape() {
	local scn=$SCN_DIR/$1.scn
	sed -e "s|CANARY_DIR|$CANARY_DIR|g" -e "s|CANARY_NAME|canary|g" \
		"$NSTEST_ROOT/tests/escape/$1.scn" >"$scn"
	run nstest_marked run --devices="$2" "$scn"
	assert_success
	assert_output "$(nstest_head "$2")
PASS  $scn
1 passed, 0 failed, 0 skipped"
	assert_host_unchanged
	assert_canary_unchanged
}

# ---- tests/escape/*.scn in both modes -------------------------------------

@test "escape: bind mounts of / show only the sandbox (tmpfs)" { run_escape bind-root tmpfs; }
@test "escape: bind mounts of / show only the sandbox (loop)" { run_escape bind-root loop; }
@test "escape: /etc is the scenario's own (tmpfs)" { run_escape bind-etc tmpfs; }
@test "escape: /etc is the scenario's own (loop)" { run_escape bind-etc loop; }
@test "escape: /proc and its magic links are out of reach (tmpfs)" { run_escape bind-proc tmpfs; }
@test "escape: /proc and its magic links are out of reach (loop)" { run_escape bind-proc loop; }
@test "escape: .. never climbs above the sandbox's root (tmpfs)" { run_escape dotdot tmpfs; }
@test "escape: .. never climbs above the sandbox's root (loop)" { run_escape dotdot loop; }
@test "escape: the host's disk names are empty stand-ins (tmpfs)" { run_escape host-devices tmpfs; }
@test "escape: the host's disk names are empty stand-ins (loop)" { run_escape host-devices loop; }
@test "escape: chroot and cd games end inside the sandbox (tmpfs)" { run_escape chroot-cd tmpfs; }
@test "escape: chroot and cd games end inside the sandbox (loop)" { run_escape chroot-cd loop; }
@test "escape: the sandbox's root cannot be moved; detaching it shows nothing (tmpfs)" { run_escape move-root tmpfs; }
@test "escape: the sandbox's root cannot be moved; detaching it shows nothing (loop)" { run_escape move-root loop; }

@test "escape: a symbolic link to / leads to the sandbox's root (tmpfs)" { run_escape symlink-root tmpfs; }
@test "escape: a symbolic link to / leads to the sandbox's root (loop)" { run_escape symlink-root loop; }
@test "escape: symbolic links to .. stop at the root (tmpfs)" { run_escape symlink-dotdot tmpfs; }
@test "escape: symbolic links to .. stop at the root (loop)" { run_escape symlink-dotdot loop; }
@test "escape: symbolic links into /proc lead nowhere (tmpfs)" { run_escape symlink-proc tmpfs; }
@test "escape: symbolic links into /proc lead nowhere (loop)" { run_escape symlink-proc loop; }

# The model resolves links by its own lookup (lib/model/shell.c): the
# same scenarios must pass there, with the same lines.
@test "escape: the symbolic link scenarios pass on the model too" {
	local name scn
	for name in symlink-root symlink-dotdot symlink-proc; do
		scn=$SCN_DIR/$name.scn
		sed -e "s|CANARY_DIR|$CANARY_DIR|g" -e "s|CANARY_NAME|canary|g" \
			"$NSTEST_ROOT/tests/escape/$name.scn" >"$scn"
		run "$NSTEST" run --backend model "$scn"
		assert_success
		assert_line "PASS  $scn"
	done
	assert_canary_unchanged
}

# A model whose lookup let an absolute link start at the sandbox's base,
# or let ".." climb past the root, would list something else: the
# listings are checked, so a scenario that claims more fails.
@test "escape: a link scenario that claims to see above the root fails" {
	sed -e "s|CANARY_DIR|$CANARY_DIR|g" -e "s|CANARY_NAME|canary|g" \
		-e '0,/^    a  jail  up$/s//    a  jail  nstest-base  up/' \
		"$NSTEST_ROOT/tests/escape/symlink-dotdot.scn" >"$SCN_DIR/claims.scn"
	for backend in kernel model; do
		run nstest_marked run --backend "$backend" "$SCN_DIR/claims.scn"
		assert_failure 1
		assert_line "    -a  jail  nstest-base  up"
		assert_line "    +a  jail  up"
	done
	assert_host_unchanged
}

@test "escape: every scenario in tests/escape is run by this file" {
	local f name
	for f in "$NSTEST_ROOT"/tests/escape/*.scn; do
		name=${f##*/}
		grep -q "run_escape ${name%.scn} tmpfs" "$BATS_TEST_FILENAME" || fail "$name has no tmpfs test"
		grep -q "run_escape ${name%.scn} loop" "$BATS_TEST_FILENAME" || fail "$name has no loop test"
	done
}

@test "escape: a scenario that claims to see more than it made fails (the listings are checked)" {
	sed -e "s|CANARY_DIR|$CANARY_DIR|g" -e 's/^    \.  \.\.$/    .  ..  etc/' \
		"$NSTEST_ROOT/tests/escape/bind-root.scn" >"$SCN_DIR/claims-etc.scn"
	run nstest_marked run "$SCN_DIR/claims-etc.scn"
	assert_failure 1
	assert_line "    -.  ..  etc"
	assert_line "    +.  .."
	assert_host_unchanged
}

# ---- the host's own disk ------------------------------------------------------

# The source of the host's / (e.g. /dev/vda), and a loop device node that
# exists on the host: a scenario naming them gets stand-ins (the root
# stand-in is named after the host's disk, and mounting that name again
# shows the stand-in's own files), and the host's count of mounts of that
# source does not change.
host_root_source() {
	awk '$5 == "/" { for (i = 7; i <= NF; i++) if ($i == "-") { print $(i + 2); exit } }' /proc/self/mountinfo
}

host_mounts_of() {
	awk -v src="$1" '{ for (i = 7; i <= NF; i++) if ($i == "-") { if ($(i + 2) == src) n++; break } } END { print n + 0 }' /proc/self/mountinfo
}

@test "escape: the host's root device and loop nodes, named in a scenario, are stand-ins in both modes" {
	local dev
	dev=$(host_root_source)
	[[ $dev == /dev/?* && $dev =~ ^/dev/[A-Za-z0-9/_.-]+$ ]] || dev=/dev/vda
	before=$(host_mounts_of "$dev")
	scn=$(write_scn host-root <<SCN
root: $dev

    # ls -a /
    .  ..
    # mkdir /x /y
    # mount $dev /x
    # ls /x
    x  y
    # mount /dev/loop0 /y
    # ls -a /y
    .  ..
    # touch /x/made-in-the-stand-in
    # ls /
    made-in-the-stand-in  x  y
    # mount | awk '{print \$1, \$2, \$3}'
    $dev on /
    $dev on /x
    /dev/loop0 on /y
SCN
	)
	for mode in tmpfs loop; do
		run nstest_marked run --devices=$mode "$scn"
		assert_success
		assert_line "PASS  $scn"
	done
	assert_equal "$(host_mounts_of "$dev")" "$before"
	assert_host_unchanged
	assert_canary_unchanged
}

# ---- refused before anything runs --------------------------------------------

@test "escape: hard links, mounts by type that would show the host, and /proc reads are refused before anything runs" {
	local cmds=(
		"ln / /x"
		"ln -f / /x"
		"mount -t proc proc /x"
		"mount -t sysfs sysfs /x"
		"mount -t devtmpfs udev /x"
		"mount -t cgroup2 none /x"
		"mount -t overlay overlay /x"
		"mount -t ext4 /tmp/disk.img /x"
		"mount -o remount,rw,size=1g /"
		"cat /proc/1/environ"
		"cat /proc/self/../1/root/etc/passwd"
	)
	local c i=0
	for c in "${cmds[@]}"; do
		i=$((i + 1))
		scn=$(write_scn "refused-$i" <<SCN
    # mkdir /x
    # $c
SCN
		)
		run --separate-stderr nstest_marked run "$scn"
		assert_equal "$status" 2 || fail "'$c' was not refused (status $status)"
		[[ $stderr =~ ^$scn:2:[0-9]+:\ error:\  ]] || fail "'$c': no 'file:line:col: error:' in: $stderr"
		assert_equal "$output" "" || fail "'$c': something ran: $output"
	done
	assert_host_unchanged
	assert_canary_unchanged
}
