#!/usr/bin/env bats
# tests/bats/userns.bats - shells in user namespaces and with fewer
# capabilities: unshare -U/-r and capsh --drop.

bats_require_minimum_version 1.5.0
load helpers

@test "userns: mounts copied into a less privileged namespace are locked" {
	scn=$(write_scn locked <<'SCN'
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mount --make-shared /a
    # unshare -Urm sh
    # umount /a
    umount: EINVAL (Invalid argument)
    # mount -t tmpfs tmpfs /b
    # exit
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    1 0 0:1 / / rw,relatime
    2 1 0:2 / /a rw,relatime shared:1
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
}

@test "userns: the mount made inside the user namespace is gone after exit" {
	scn=$(write_scn gone <<'SCN'
    # mkdir /b
    # unshare -U -r -m sh
    # mount -t tmpfs tmpfs /b
    # mount | awk '{print $3}'
    /
    /b
    # exit
    # mount | awk '{print $3}'
    /
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
}

@test "capsh: a shell without CAP_SYS_ADMIN cannot mount; exit gives it back" {
	scn=$(write_scn caps <<'SCN'
    # mkdir /a
    # capsh --drop=cap_sys_admin --
    # mount /dev/sdb1 /a
    mount: EPERM (Operation not permitted)
    # exit
    # mount /dev/sdb1 /a
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
}

@test "capsh: an unknown capability is a parse error" {
	scn=$(write_scn badcap <<'SCN'
    # capsh --drop=cap_flying --
SCN
	)
	run --separate-stderr "$NSTEST" lint "$scn"
	assert_failure 2
	assert_equal "$stderr" "$scn:1:13: error: capsh: unknown capability 'cap_flying'"
}

@test "unshare: an unsupported option is named" {
	scn=$(write_scn badopt <<'SCN'
    # unshare -mp sh
SCN
	)
	run --separate-stderr "$NSTEST" lint "$scn"
	assert_failure 2
	assert_equal "$stderr" "$scn:1:15: error: unshare: unsupported option -p (-m, -U, -r, -c, --map-user, --map-group, --map-users, --map-groups and --propagation)"
}

@test "userns: a stand-in is a block device, which a user namespace may not mount" {
	scn=$(write_scn blockdev <<'SCN'
    # mkdir /a
    # unshare -Urm sh
    # mount /dev/sdb1 /a
    mount: EPERM (Operation not permitted)
    # mount -t tmpfs tmpfs /a
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
	run "$NSTEST" run --devices=loop "$scn"
	assert_success
}
