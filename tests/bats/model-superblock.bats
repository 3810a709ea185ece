#!/usr/bin/env bats
# tests/bats/model-superblock.bats - the model's superblocks as a scenario
# sees them: tmpfs's own options in the super options (mm/shmem.c,
# shmem_show_options(): size=Nk, mode=%03o, uid, in that order), a bad
# value refused with EINVAL, and a stand-in mounted -o ro whose
# superblock is read-only and, while mounted, cannot be mounted rw
# (EBUSY, get_tree_bdev()). Each expectation comes from those rules; a
# twin with one line changed must fail.

bats_require_minimum_version 1.5.0
load helpers

# The scenario, written into this test's directory; prints its path.
superblock_scn() {
	write_scn superblock <<'SCN'
title: a tmpfs's options and a read-only stand-in, on the model
    # mkdir -p /srv/data /srv/logs
    # mount -t tmpfs -o size=1m,mode=700,uid=1000 data /srv/data
    # mount -o ro /dev/sdd1 /srv/logs
    # findmnt -no FS-OPTIONS /srv/data
    rw,size=1024k,mode=700,uid=1000
    # cat /proc/self/mountinfo | grep ' /srv/logs ' | sed 's/.* - //'
    tmpfs /dev/sdd1 ro
    # mount /dev/sdd1 /srv/data
    mount: EBUSY (Device or resource busy)
    # mount -t tmpfs -o size=lots none /srv/data
    mount: EINVAL (Invalid argument)
    # umount /srv/logs
    # mount /dev/sdd1 /srv/logs
    # findmnt -no FS-OPTIONS /srv/logs
    rw
SCN
}

# run the scenario at $1 on the model: it must fail on the changed line.
assert_twin_fails() {
	run --separate-stderr "$NSTEST" run --backend model "$1"
	assert_failure 1
	assert_line "FAIL  $1"
	assert_line "0 passed, 1 failed, 0 skipped"
}

@test "model-superblock: tmpfs options and a read-only stand-in pass on the model" {
	scn=$(superblock_scn)
	run --separate-stderr "$NSTEST" run --backend model "$scn"
	assert_success
	assert_line "PASS  $scn"
}

@test "model-superblock: a size shown as typed, not in kilobytes, fails" {
	scn=$(superblock_scn)
	sed -i 's/^    rw,size=1024k,mode=700,uid=1000$/    rw,size=1m,mode=700,uid=1000/' "$scn"
	run grep -c '^    rw,size=1m,' "$scn"
	assert_output 1
	assert_twin_fails "$scn"
	assert_line --partial "+rw,size=1024k,mode=700,uid=1000"
}

@test "model-superblock: a stand-in mounted -o ro with a rw superblock fails" {
	scn=$(superblock_scn)
	sed -i 's|^    tmpfs /dev/sdd1 ro$|    tmpfs /dev/sdd1 rw|' "$scn"
	run grep -c '/dev/sdd1 rw$' "$scn"
	assert_output 1
	assert_twin_fails "$scn"
	assert_line --partial "+tmpfs /dev/sdd1 ro"
}

@test "model-superblock: a rw mount of a stand-in mounted ro that succeeds fails" {
	scn=$(superblock_scn)
	sed -i '/^    mount: EBUSY /d' "$scn"
	run grep -c EBUSY "$scn"
	assert_output 0
	assert_twin_fails "$scn"
	assert_line --partial "+mount: EBUSY (Device or resource busy)"
}
