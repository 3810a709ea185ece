#!/usr/bin/env bats
# tests/bats/standin-ro.bats - a stand-in device mounted read-only has a
# read-only superblock, as a real block device has (issue 13, session 02).
#
# The expectations are mount(2)'s and the kernel's block-device rules:
#  - MS_RDONLY on a new mount makes the mount read-only and, for the
#    superblock it creates, the superblock too: findmnt's FS-OPTIONS
#    column (mountinfo's super options) says ro;
#  - one block device has one superblock while any mount of it lives; a
#    new mount of it that would change its read-only state fails with
#    EBUSY (get_tree_bdev(): "Can't mount, would change RO state"), and
#    one of the same state shares it;
#  - once every mount of it is gone, the next mount makes a new
#    superblock, with that mount's state.
#
# Runs as root: the scenarios really mount.

bats_require_minimum_version 1.5.0
load helpers
load robust

setup() {
	nstest_setup
	host_snapshot
}

@test "standin-ro: -o ro makes the stand-in's superblock read-only, in every mode and on the model" {
	# /dev/sdb1 mounted once (a new tmpfs) and /dev/sdc1 twice (a clone
	# of its master): both paths of tmpfs stand-ins
	scn=$(write_scn ro <<'SCN'
    # mkdir /a /b /c
    # mount -o ro /dev/sdb1 /a
    # mount -o ro /dev/sdc1 /b
    # mount -o ro /dev/sdc1 /c
    # findmnt -no FS-OPTIONS /a | cut -d, -f1
    ro
    # findmnt -no FS-OPTIONS /c | cut -d, -f1
    ro
    # findmnt -no VFS-OPTIONS /c
    ro,relatime
    # touch /b/f
    touch: EROFS (Read-only file system)
SCN
	)
	passes_in "" --devices=loop --userns --backend=model "$scn"
	# the twin: a read-write superblock there fails on both backends
	sed -i '0,/^    ro$/s//    rw/' "$scn"
	fails_everywhere "$scn" "    -rw"
}

@test "standin-ro: a read-write mount of a live read-only stand-in is EBUSY; once all are gone it is a new superblock" {
	scn=$(write_scn ebusy <<'SCN'
    # mkdir /a /b /c
    # mount -o ro /dev/sdb1 /a
    # mount /dev/sdb1 /b
    mount: EBUSY (Device or resource busy)
    # mount -o ro /dev/sdb1 /b
    # umount /a
    # mount --bind /b /c
    # mount /dev/sdb1 /a
    mount: EBUSY (Device or resource busy)
    # umount /b /c
    # mount /dev/sdb1 /a
    # touch /a/f
    # findmnt -no FS-OPTIONS /a | cut -d, -f1
    rw
SCN
	)
	# tmpfs stand-ins cannot tell when the superblock is gone, so the
	# kernel backend falls back to loop stand-ins and says so
	passes_in "" --devices=loop --backend=model "$scn"
	run "$NSTEST" run "$scn"
	assert_line --partial "fell back to loop stand-ins: it mounts a device name read-only and read-write"
	# the twin: the read-write mount beside a live read-only one succeeds
	sed -i '0,/^    mount: EBUSY.*/{//d}' "$scn"
	fails_everywhere "$scn" "    +mount: EBUSY (Device or resource busy)"
}

@test "standin-ro: tmpfs stand-ins (rootless, or devices: tmpfs) keep the first mount's state for the whole scenario" {
	# a documented approximation (nstest-scenario(5), DEVICE STAND-INS):
	# what holds while the superblock lives holds with tmpfs stand-ins
	scn=$(write_scn tmpfs <<'SCN'
devices: tmpfs

    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mount -o ro /dev/sdb1 /b
    mount: EBUSY (Device or resource busy)
    # mount -o ro,bind /a /b
    # findmnt -no VFS-OPTIONS,FS-OPTIONS /b
    ro,relatime rw
SCN
	)
	passes_in "" --userns --backend=model "$scn"
}
