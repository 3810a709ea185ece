#!/usr/bin/env bats
# tests/bats/newapi.bats - the new mount API commands: open_tree,
# move_mount (with --beneath and --set-group) and mount_setattr.

bats_require_minimum_version 1.5.0
load helpers

@test "newapi: a recursive clone moved elsewhere copies the whole tree" {
	scn=$(write_scn clone <<'SCN'
requires: open_tree move_mount

    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mkdir /a/sub
    # mount /dev/sdb2 /a/sub
    # open_tree -c -R /a @t
    # move_mount @t /b
    # mount | awk '{print $1, $3}'
    /dev/sda1 /
    /dev/sdb1 /a
    /dev/sdb2 /a/sub
    /dev/sdb1 /b
    /dev/sdb2 /b/sub
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
}

@test "newapi: mount_setattr changes propagation recursively and flags singly" {
	scn=$(write_scn setattr <<'SCN'
requires: mount_setattr

    # mkdir /a
    # mount /dev/sdb1 /a
    # mkdir /a/sub
    # mount /dev/sdb2 /a/sub
    # mount_setattr -R --propagation shared /a
    # mount_setattr -o ro /a
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    1 0 0:1 / / rw,relatime
    2 1 0:2 / /a ro,relatime shared:1
    3 2 0:3 / /a/sub rw,relatime shared:2
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
}

@test "newapi: --set-group puts a private mount of the same filesystem into the peer group" {
	scn=$(write_scn setgroup <<'SCN'
requires: move_mount_set_group

    # mkdir /a /c
    # mount /dev/sdb1 /a
    # mount --make-shared /a
    # mount --bind /a /c
    # mount --make-private /c
    # move_mount --set-group /a /c
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    1 0 0:1 / / rw,relatime
    2 1 0:2 / /a rw,relatime shared:1
    3 1 0:2 / /c rw,relatime shared:1
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
}

@test "newapi: --set-group between different filesystems is refused" {
	scn=$(write_scn setgroup-bad <<'SCN'
requires: move_mount_set_group

    # mkdir /a /c
    # mount /dev/sdb1 /a
    # mount --make-shared /a
    # mount /dev/sdb3 /c
    # move_mount --set-group /a /c
    move_mount: EINVAL (Invalid argument)
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
}

@test "newapi: --beneath slides a mount under the top of a stack" {
	scn=$(write_scn beneath <<'SCN'
requires: move_mount_beneath open_tree

    # mkdir /a /d
    # mount /dev/sdb1 /a
    # mount /dev/sdb4 /d
    # open_tree -c /a @u
    # move_mount --beneath @u /d
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    1 0 0:1 / / rw,relatime
    2 1 0:2 / /a rw,relatime
    3 4 0:4 / /d rw,relatime
    4 1 0:2 / /d rw,relatime
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
}

@test "newapi: an unknown @NAME is EBADF, and a bad name is a parse error" {
	scn=$(write_scn badname <<'SCN'
    # mkdir /a
    # move_mount @nothing /a
    move_mount: EBADF (Bad file descriptor)
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
	scn=$(write_scn badname2 <<'SCN'
    # open_tree -c / tree
SCN
	)
	run --separate-stderr "$NSTEST" lint "$scn"
	assert_failure 2
	assert_equal "$stderr" "$scn:1:22: error: open_tree: name the tree with @NAME, not 'tree'"
}

@test "listmount --check: statmount and mountinfo agree across namespaces and slaves" {
	scn=$(write_scn crosscheck <<'SCN'
requires: statmount listmount

    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mount --make-shared /a
    # mount --bind /a /b
    # mount --make-slave /b
    # mount --make-shared /b
    # listmount --check
    # unshare -m --propagation unchanged sh
    # listmount --check
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
}

# ---- mount2: one mount(2) call with the flags named ----------------------------

@test "mount2: bad flag lists are parse errors naming file, line and column; nothing runs" {
	scn=$(write_scn mount2-bad <<'SCN'
    # mkdir /x
    # mount2 MS_SHARD /x
    # mount2 MS_REC /x
    # mount2 MS_SHARED
    # mount2 MS_SHARED /x /y
SCN
	)
	run "$NSTEST" lint "$scn"
	assert_failure 2
	assert_line "$scn:2:14: error: mount2: unknown flag 'MS_SHARD' (did you mean MS_SHARED?) (known: MS_SHARED, MS_PRIVATE, MS_SLAVE, MS_UNBINDABLE, MS_REC, MS_SILENT)"
	assert_line "$scn:3:14: error: mount2: name at least one of MS_SHARED, MS_PRIVATE, MS_SLAVE, MS_UNBINDABLE"
	assert_line "$scn:4:7: error: mount2: usage: mount2 FLAG[,FLAG...] TARGET"
	assert_line --regexp "^$scn:5:[0-9]+: error: mount2: usage: mount2 FLAG\[,FLAG...\] TARGET$"
	run "$NSTEST" run "$scn"
	assert_failure 2
	refute_output --partial "PASS"
}

@test "mount2: one call with two types fails on the kernel and in the model alike; util-linux's words do not stand for it" {
	scn=$(write_scn mount2 <<'SCN'
    # mkdir /x
    # mount /dev/sdb1 /x
    # mount2 MS_SLAVE,MS_PRIVATE /x
    mount2: EINVAL (Invalid argument)
    # mount2 MS_SLAVE /x
SCN
	)
	judged_on_both "$scn" 0
	# mount(8)'s message for EINVAL is no way to write mount2's failure
	sed -i 's|^    mount2: EINVAL (Invalid argument)$|    mount: /x: wrong fs type, bad option, bad superblock on none, missing codepage or helper program, or other error.|' "$scn"
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_output --partial "+mount2: EINVAL (Invalid argument)"
}

@test "handles: a failing call through a handle leaves the shell where it was, and relative paths beside a handle stay relative" {
	# nstest reaches a handle's place through the procfs directory it
	# keeps, moving the shell's working directory there for the call
	# (kernel/handles.c): every way out must move it back, and a relative
	# operand of the same call must still be walked from the shell's
	# directory
	scn=$(write_scn handle-cwd <<'SCN'
requires: open_tree

    # mkdir /a /b /c
    # mount /dev/sdb1 /a
    # mkdir /a/sub
    # open_tree /a @m
    # cd /b
    # umount @m/nope
    umount: ENOENT (No such file or directory)
    # ls @m/nope
    ls: ENOENT (No such file or directory)
    # cat @m/nope
    cat: ENOENT (No such file or directory)
    # cd @m/nope
    cd: ENOENT (No such file or directory)
    # mount --bind @nope /c
    mount: EBADF (Bad file descriptor)
    # pwd
    /b
    # cd /
    # mount --bind @m/sub c
    # cd /a
    # mount --bind sub @m/sub
    # cd /
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    [unordered]
    1 0 0:1 / / rw,relatime
    2 1 0:2 / /a rw,relatime
    3 1 0:2 /sub /c rw,relatime
    4 2 0:2 /sub /a/sub rw,relatime
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
	run "$NSTEST" run --backend model "$scn"
	assert_success
	# the wrong twin: the relative target taken from the procfs directory
	# (or the shell left there) would put the bind anywhere but /c
	sed -i 's|^    3 1 0:2 /sub /c rw,relatime$|    3 1 0:2 /sub /b rw,relatime|' "$scn"
	run "$NSTEST" run "$scn"
	assert_failure 1
	run "$NSTEST" run --backend model "$scn"
	assert_failure 1
}

@test "handles: the older kernels' EINVAL for --make-* through a detached tree's handle fails where the newer rule holds" {
	# the wrong twin of scenarios/newapi/handle-propagation.scn: what
	# 6.12.43 and 6.16.3 answer (the quirk change-type-ours-only) as the
	# expectation, without the xfail: lines
	scn=$(write_scn handle-prop-twin <"$NSTEST_ROOT/scenarios/newapi/handle-propagation.scn")
	sed -i '/^xfail:/d' "$scn"
	sed -i '/^    # mount --make-shared @t$/a\    mount: EINVAL (Invalid argument)' "$scn"
	grep -q '^    mount: EINVAL (Invalid argument)$' "$scn"
	run "$NSTEST" run --backend model "$scn"
	assert_failure 1
	assert_line --regexp '^ *-mount: EINVAL \(Invalid argument\)$'
	# the kernel half where this kernel has the newer rule
	rel=$(uname -r | grep -o '^[0-9]*\.[0-9]*\.[0-9]*')
	in_range() { [[ $(printf '%s\n' "$1" "$rel" | sort -V | head -1) == "$1" &&
			$(printf '%s\n' "$rel" "$2" | sort -V | head -1) == "$rel" && $rel != "$2" ]]; }
	if in_range 6.12.43 6.12.57 || in_range 6.16.3 6.16.12; then
		skip "Linux $rel has the older rule (quirk change-type-ours-only)"
	fi
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_line --regexp '^ *-mount: EINVAL \(Invalid argument\)$'
}

@test "handles: another terminal's handle passes between terminal processes too (SCM_RIGHTS), and across a user namespace it gives no privilege" {
	# a terminal in a user namespace of its own makes nstest run every
	# terminal as a process: the handle is then passed over the
	# terminals' sockets, not duplicated in one process
	scn=$(write_scn handle-proc <"$NSTEST_ROOT/scenarios/newapi/handle-other-terminal.scn")
	sed -i 's/^requires: open_tree move_mount$/requires: open_tree move_mount userns/' "$scn"
	cat >>"$scn" <<'SCN'

    sh1# mount --make-shared /a
    sh1# open_tree /a @m
    sh4# unshare -U -r -m sh
    sh4# ls sh1:@m
    f
    sh4# mount --make-private sh1:@m
    mount: EPERM (Operation not permitted)
    sh4# exit
SCN
	run "$NSTEST" run "$scn"
	assert_success
	run "$NSTEST" run --backend model "$scn"
	assert_success
	# the wrong twin: the privilege would have passed with the handle
	sed -i '/^    mount: EPERM (Operation not permitted)$/d' "$scn"
	run "$NSTEST" run "$scn"
	assert_failure 1
	run "$NSTEST" run --backend model "$scn"
	assert_failure 1
}

# judged_on_both SCN STATUS: the kernel and the model both pass SCN
# (STATUS 0) or both fail it (1, with a FAIL line).
judged_on_both() {
	local backend
	for backend in kernel model; do
		run "$NSTEST" run --backend "$backend" "$1"
		if (($2 == 0)); then
			assert_success
		else
			assert_failure 1
			assert_output --partial 'FAIL'
		fi
	done
}

# statmount's numbers are renamed as mountinfo's, so each wrong twin of a
# right block must fail: a group where there is none, a master swapped
# with the peer group, another mount's ID, two namespaces made one.
statmount_scn() {
	write_scn "$1" <<SCN
requires: statmount

    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mount --make-shared /a
    # mount --bind /a /b
    # mount --make-slave /b
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    [unordered]
    20 19 0:30 / / rw,relatime
    21 20 0:31 / /a rw,relatime shared:1
    22 20 0:31 / /b rw,relatime master:1
    # statmount -o id,parent,propagation,peer_group,master /b
    $2
    # statmount -o id,ns /a
    21 7
    # unshare -m sh
    # statmount -o id,ns /a
    $3
SCN
}

@test "statmount: a right block passes on both backends; each wrong twin fails on both" {
	local scn twin
	scn=$(statmount_scn right '22 20 slave - 1' '23 8')
	judged_on_both "$scn" 0
	for twin in '22 20 slave 1 1|23 8' '22 20 slave 1 -|23 8' '21 20 slave - 1|23 8' \
		    '22 21 slave - 1|23 8' '22 20 shared - 1|23 8' '22 20 slave - 2|23 8' \
		    '22 20 slave - 1|23 7' '22 20 slave - 1|21 8'; do
		scn=$(statmount_scn twin "${twin%|*}" "${twin#*|}")
		judged_on_both "$scn" 1
	done
}

@test "statmount: bad fields and operands are parse errors naming file, line and column" {
	local scn
	scn=$(write_scn sm-field <<'SCN'
    # statmount -o id,peergroup /
    # statmount -o id,,point /
    # statmount -o id
    # statmount / /a
    # statmount --json /
SCN
	)
	run "$NSTEST" lint "$scn"
	assert_failure 2
	assert_output --partial "sm-field.scn:1:20: error: statmount: unknown field 'peergroup' (did you mean 'peer_group'?)"
	assert_output --partial "sm-field.scn:2:20: error: statmount: empty field name in 'id,,point'"
	assert_output --partial "sm-field.scn:3:7:"
	assert_output --partial "statmount: missing operand"
	assert_output --partial "sm-field.scn:4:19:"
	assert_output --partial "statmount: extra operand '/a'"
	assert_output --partial "sm-field.scn:5:17: error: statmount: option '--json' is not supported"
}

# watch's events are renamed one to one like statmount's unique IDs: the
# twin that swaps attach and detach, names another mount, drops or adds
# an event, or gives a move one bit, fails on both backends. (The lazy
# unmount takes only the mount moved on top of /a: the first stays.)
watch_scn() {
	write_scn "$1" <<SCN
requires: mount_notify statmount

    # mkdir /a /b
    # watch start
    # mount /dev/sdb1 /a
    # statmount -o unique_id /a
    7
    # mount --bind /a /b
    # mount --move /b /a
    # umount -l /a
    # watch
$2
SCN
}

@test "watch: mount events pass on both backends; each wrong twin fails on both" {
	local scn twin
	scn=$(watch_scn right "$(printf '    [unordered]\n    attach 7\n    attach 8\n    attach,detach 8\n    detach 8')")
	judged_on_both "$scn" 0
	for twin in 'detach 7|attach 8|attach,detach 8|detach 8' \
		    'attach 7|attach 8|attach,detach 7|detach 8' \
		    'attach 7|attach 8|attach 8|detach 8' \
		    'attach 7|attach 8|attach,detach 8|detach 7' \
		    'attach 7|attach 8|attach,detach 8|detach 8|detach 7' \
		    'attach 7|attach 8|attach,detach 8' \
		    'attach 7|attach 9|attach,detach 8|detach 8'; do
		scn=$(watch_scn twin "$(printf '    [unordered]\n'; tr '|' '\n' <<<"$twin" | sed 's/^/    /')")
		judged_on_both "$scn" 1
	done
}
