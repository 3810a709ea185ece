#!/usr/bin/env bats
# tests/bats/mountns.bats - `mount -o remount[,bind]`, `unshare -m CMD`
# and `nsenter -t TERMINAL` (issue 13, part 4) on both backends.
#
# The expectations are mount(2)'s and mount_namespaces(7)'s rules:
#  - MS_REMOUNT|MS_BIND changes the flags of one mount; MS_REMOUNT alone
#    reconfigures the superblock, which every mount of it shares;
#  - a remount is neither a mount nor an unmount event, so it does not
#    propagate to peers (mount_namespaces(7), "Shared subtrees");
#  - unshare(1) with a command runs it in a new mount namespace, which
#    goes when it exits: the caller's shell never was in it;
#  - setns(2) into another process's mount namespace sees its mounts, and
#    what is mounted there is there for that process too.
# Each scenario runs on the kernel with both stand-in modes, rootless, and
# on the model; each has a twin with one wrong answer that must fail.
#
# Runs as root: the scenarios really mount.

bats_require_minimum_version 1.5.0
load helpers
load robust

setup() {
	nstest_setup
	host_snapshot
}

# passes_everywhere SCN: PASS on the kernel (tmpfs and loop stand-ins,
# rootless) and on the model, leaving the host's mount table as it was.
passes_everywhere() {
	passes_in "" --devices=loop --userns --backend=model "$1"
}

# mount(8) reads -t and -o with getopt_long(3): the value is the next
# word or the rest of the option's own (`--types=tmpfs`, `-ttmpfs`).
# The expected super options are shmem_show_options()'s: size and mode
# when not the default, size in k.
@test "mount: -t and -o in each spelling getopt_long reads" {
	scn=$(write_scn spellings <<'SCN'
    # mkdir /a /b /c /d
    # mount --types=tmpfs --options=size=1m,mode=700 tmpfs /a
    # mount -ttmpfs -omode=750 tmpfs /b
    # mount --types tmpfs -o ro tmpfs /c
    # mount -t tmpfs --options=nosuid tmpfs /d
    # grep ' - tmpfs tmpfs ' /proc/self/mountinfo | sed 's/^[0-9]* [0-9]* [0-9:]* //'
    / /a rw,relatime - tmpfs tmpfs rw,size=1024k,mode=700
    / /b rw,relatime - tmpfs tmpfs rw,mode=750
    / /c ro,relatime - tmpfs tmpfs ro
    / /d rw,nosuid,relatime - tmpfs tmpfs rw
SCN
	)
	passes_everywhere "$scn"
	sed 's|^    / /b rw,relatime - tmpfs tmpfs rw,mode=750$|    / /b rw,relatime - tmpfs tmpfs rw|' "$scn" >"$SCN_DIR/wrong.scn"
	fails_everywhere "$SCN_DIR/wrong.scn" "    +/ /b rw,relatime - tmpfs tmpfs rw,mode=750"
}

@test "remount: bind,ro makes one mount read-only; the other bind and the filesystem stay writable; bind,rw undoes it" {
	scn=$(write_scn bindro <<'SCN'
    # mkdir /data /ro
    # mount -t tmpfs /dev/sdb1 /data
    # mount --bind /data /ro
    # mount -o remount,bind,ro /ro
    # touch /ro/f
    touch: EROFS (Read-only file system)
    # touch /data/f
    # findmnt -no VFS-OPTIONS,FS-OPTIONS /ro
    ro,relatime rw
    # findmnt -no VFS-OPTIONS,FS-OPTIONS /data
    rw,relatime rw
    # mount -o remount,bind,rw /ro
    # touch /ro/g
    # ls /data
    f  g
SCN
	)
	passes_everywhere "$scn"
	sed 's/^    touch: EROFS (Read-only file system)$//' "$scn" >"$SCN_DIR/wrong.scn"
	fails_everywhere "$SCN_DIR/wrong.scn" "    +touch: EROFS (Read-only file system)"
}

@test "remount: without bind the filesystem goes read-only under every mount of it, and back" {
	scn=$(write_scn sbro <<'SCN'
    # mkdir /data /other
    # mount -t tmpfs /dev/sdb1 /data
    # mount --bind /data /other
    # mount -o remount,ro /data
    # touch /other/f
    touch: EROFS (Read-only file system)
    # findmnt -no VFS-OPTIONS,FS-OPTIONS /data
    ro,relatime ro
    # findmnt -no VFS-OPTIONS,FS-OPTIONS /other
    rw,relatime ro
    # mount -o remount,rw /data
    # touch /other/f
    # findmnt -no VFS-OPTIONS,FS-OPTIONS /data
    rw,relatime rw
SCN
	)
	passes_everywhere "$scn"
	sed 's/^    rw,relatime ro$/    rw,relatime rw/' "$scn" >"$SCN_DIR/wrong.scn"
	fails_everywhere "$SCN_DIR/wrong.scn" "    +rw,relatime ro"
}

@test "remount: the flags given change, the others stay (mount(8) merges with the table)" {
	scn=$(write_scn flags <<'SCN'
    # mkdir /a
    # mount -t tmpfs /dev/sdb1 /a
    # mount -o remount,bind,nosuid,nodev,noexec /a
    # findmnt -no VFS-OPTIONS /a
    rw,nosuid,nodev,noexec,relatime
    # mount -o remount,bind,exec /a
    # findmnt -no VFS-OPTIONS /a
    rw,nosuid,nodev,relatime
    # mount -o remount,bind,ro,noatime /a
    # findmnt -no VFS-OPTIONS /a
    ro,nosuid,nodev,noatime
SCN
	)
	passes_everywhere "$scn"
	sed 's/^    rw,nosuid,nodev,relatime$/    rw,nosuid,nodev,noexec,relatime/' "$scn" >"$SCN_DIR/wrong.scn"
	fails_everywhere "$SCN_DIR/wrong.scn" "    +rw,nosuid,nodev,relatime"
}

@test "remount: a remount of a shared mount does not reach its peer" {
	scn=$(write_scn peers <<'SCN'
    # mkdir /a /b
    # mount -t tmpfs --make-shared /dev/sdb1 /a
    # mount --bind /a /b
    # mount -o remount,bind,ro /b
    # findmnt -no VFS-OPTIONS,PROPAGATION /a
    rw,relatime shared
    # findmnt -no VFS-OPTIONS,PROPAGATION /b
    ro,relatime shared
    # touch /a/f
SCN
	)
	passes_everywhere "$scn"
	sed 's/^    rw,relatime shared$/    ro,relatime shared/' "$scn" >"$SCN_DIR/wrong.scn"
	fails_everywhere "$SCN_DIR/wrong.scn" "    +rw,relatime shared"
}

@test "remount: no mount at the path is EINVAL, in nstest's and in util-linux's words" {
	scn=$(write_scn notmounted <<'SCN'
    # mkdir /x
    # mount -o remount,ro /x
    mount: /x: mount point not mounted or bad option.
           dmesg(1) may have more information after failed mount system call.
    # mount -o remount,bind,ro /x
    mount: EINVAL (Invalid argument)
SCN
	)
	passes_everywhere "$scn"
	# another errno's message does not fit
	sed 's|not mounted or bad option|is busy|' "$scn" >"$SCN_DIR/wrong.scn"
	fails_everywhere "$SCN_DIR/wrong.scn" "    +mount: EINVAL (Invalid argument)"
}

@test "unshare -m CMD: the command's mount stays in its namespace; with --propagation unchanged a shared mount carries it back" {
	scn=$(write_scn unshare <<'SCN'
    # mkdir /mnt
    # mount -t tmpfs /dev/sdb1 /mnt
    # mkdir /mnt/a /mnt/b
    # mount --make-shared /mnt
    # unshare -m findmnt -no PROPAGATION /mnt
    private
    # unshare -m mount -t tmpfs /dev/sdc1 /mnt/a
    # unshare -m --propagation unchanged findmnt -no PROPAGATION /mnt
    shared
    # unshare -m --propagation unchanged mount -t tmpfs /dev/sdd1 /mnt/b
    # findmnt -no TARGET,SOURCE -R /mnt
    /mnt     /dev/sdb1
    └─/mnt/b /dev/sdd1
SCN
	)
	passes_everywhere "$scn"
	sed 's|^    └─/mnt/b /dev/sdd1$|    ├─/mnt/a /dev/sdc1\n    └─/mnt/b /dev/sdd1|' "$scn" >"$SCN_DIR/wrong.scn"
	fails_everywhere "$SCN_DIR/wrong.scn" "    -├─/mnt/a /dev/sdc1"
}

@test "unshare -m CMD: a failing command names itself, in nstest's and in util-linux's words" {
	scn=$(write_scn unshare-err <<'SCN'
    # mkdir /x
    # unshare -m mount --bind /nope /x
    mount: /x: special device /nope does not exist.
           dmesg(1) may have more information after failed mount system call.
    # unshare -m umount /x
    umount: EINVAL (Invalid argument)
    # unshare -m umount /x
    umount: /x: not mounted.
SCN
	)
	passes_everywhere "$scn"
	sed 's|^    umount: EINVAL (Invalid argument)$|    unshare: EINVAL (Invalid argument)|' "$scn" >"$SCN_DIR/wrong.scn"
	fails_everywhere "$SCN_DIR/wrong.scn" "    +umount: EINVAL (Invalid argument)"
}

@test "nsenter: one terminal sees and changes another's mount namespace; exit comes back" {
	scn=$(write_scn nsenter <<'SCN'
    sh1# mkdir /mnt
    sh1# unshare -m sh
    sh1# mount -t tmpfs /dev/sdb1 /mnt
    sh1# mkdir /mnt/a
    sh2# findmnt -no TARGET /mnt
    sh2# nsenter -t sh1 -m findmnt -no TARGET /mnt
    /mnt
    sh2# nsenter -t sh1 -m sh
    sh2# mount -t tmpfs /dev/sdc1 /mnt/a
    sh2# exit
    sh2# findmnt -no TARGET /mnt
    sh1# findmnt -no TARGET,SOURCE -R /mnt
    /mnt     /dev/sdb1
    └─/mnt/a /dev/sdc1
SCN
	)
	passes_everywhere "$scn"
	sed 's|^    sh2# findmnt -no TARGET /mnt$|&\n    /mnt|' "$scn" >"$SCN_DIR/wrong.scn"
	fails_everywhere "$SCN_DIR/wrong.scn" "    -/mnt"
}

@test "nsenter -U -m: into the user and mount namespaces unshare -U -r -m made, as root there" {
	scn=$(write_scn nsenter-user <<'SCN'
    sh1# mkdir /mnt
    sh1# unshare -U -r -m sh
    sh1# mount -t tmpfs none /mnt
    sh2# nsenter -t sh1 -U -m sh
    sh2# mkdir /mnt/a
    sh2# mount -t tmpfs inner /mnt/a
    sh2# exit
    sh1# findmnt -no TARGET,SOURCE -R /mnt
    /mnt     none
    └─/mnt/a inner
SCN
	)
	passes_everywhere "$scn"
	sed 's|^    └─/mnt/a inner$||' "$scn" >"$SCN_DIR/wrong.scn"
	fails_everywhere "$SCN_DIR/wrong.scn" "    +└─/mnt/a inner"
}

@test "nsenter: a terminal that has ended has no namespace to enter (ENOENT)" {
	scn=$(write_scn ended <<'SCN'
    sh1# mkdir /a
    sh1# exit
    sh2# nsenter -t sh1 -m findmnt
    nsenter: ENOENT (No such file or directory)
SCN
	)
	passes_everywhere "$scn"
	sed '$d' "$scn" >"$SCN_DIR/wrong.scn"
	fails_everywhere "$SCN_DIR/wrong.scn" "    +nsenter: ENOENT (No such file or directory)"
}

# mount_namespaces(7), restriction [5]: a flag of a mount copied into a
# less privileged mount namespace is locked; it may not be cleared, but
# others may be set.
@test "remount: in a less privileged namespace a locked ro stays (EPERM), other flags may be added" {
	scn=$(write_scn locked <<'SCN'
    # mkdir /a
    # mount -t tmpfs /dev/sdb1 /a
    # mount -o remount,bind,ro /a
    # unshare -U -r -m sh
    # mount -o remount,bind,rw /a
    mount: EPERM (Operation not permitted)
    # mount -o remount,bind,nosuid /a
    # findmnt -no VFS-OPTIONS /a
    ro,nosuid,relatime
SCN
	)
	passes_everywhere "$scn"
	sed 's/^    mount: EPERM (Operation not permitted)$//' "$scn" >"$SCN_DIR/wrong.scn"
	fails_everywhere "$SCN_DIR/wrong.scn" "    +mount: EPERM (Operation not permitted)"
}
