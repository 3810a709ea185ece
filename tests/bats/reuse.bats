#!/usr/bin/env bats
# tests/bats/reuse.bats - numbers the kernel frees and gives out again
# (issue 13, part 4, Matching; issue 28, section 1). Mount IDs,
# anonymous device minors and peer-group IDs come from the kernel's IDAs,
# which hand out the lowest free number: a mount made right after an
# unmount gets the numbers of the one that went, unless a process
# elsewhere on the machine took them in between. A transcript may
# therefore write a mount made after an unmount with the old numbers or
# with new ones, and both must pass on every run. A pair of the renaming
# is released once every place that showed it has lost it: a complete
# view (`cat /proc/self/mountinfo`, no "...") or the place's own mount
# table, which each backend reads after every step whatever the step
# printed. A number still held somewhere keeps its name. Each case runs
# on the kernel and on the model, which allocates IDs the same way
# (lib/model/world.c).
#
# Runs as root: `nstest run` sandboxes itself in a private mount namespace.

bats_require_minimum_version 1.5.0
load helpers

# reuse_scn NAME VIEW: /a mounted and shared, shown, unmounted, then the
# terminal runs VIEW, then /b is mounted and shared and written with a
# new mount ID and a new group (the device with its old name, which the
# release has freed too).
reuse_scn() {
	write_scn "$1" <<SCN
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mount --make-shared /a
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    20 19 0:1 / / rw,relatime
    21 20 0:2 / /a rw,relatime shared:1
    # umount /a
$2
    # mount /dev/sdb1 /b
    # mount --make-shared /b
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    20 19 0:1 / / rw,relatime
    30 20 0:2 / /b rw,relatime shared:7
SCN
}

backends=("" "--backend model")

@test "reuse: after a complete view without /a, its reused numbers take new names" {
	scn=$(reuse_scn full "    # cat /proc/self/mountinfo | sed 's/ - .*//'
    20 19 0:1 / / rw,relatime")
	for b in "${backends[@]}"; do
		run "$NSTEST" run $b "$scn"
		assert_success
		assert_output --partial "PASS  $scn"
	done
}

# No view between the unmount and the new mount, or one that hides
# numbers: the place's own table after `umount /a` is the evidence. The
# transcript may write /b with the numbers the recording kernel gave /a
# again, or with new ones, as a busy host makes it (issue 28: the first
# passed 2 to 4 runs in 30 on the kernel and never on the model).
@test "reuse: a number its place's table lost pairs anew, with no view printed" {
	none=$(reuse_scn none "")
	grep=$(reuse_scn grep "    # cat /proc/self/mountinfo | grep /b")
	dots=$(reuse_scn dots "    # cat /proc/self/mountinfo | sed 's/ - .*//'
    ...")
	same=$(reuse_scn same "")
	sed -i 's|^    30 20 0:2 / /b rw,relatime shared:7$|    21 20 0:2 / /b rw,relatime shared:1|' "$same"
	grep -q '21 20 0:2 / /b' "$same"
	for b in "${backends[@]}"; do
		for scn in "$none" "$grep" "$dots" "$same"; do
			run "$NSTEST" run $b "$scn"
			assert_success
			assert_output --partial "PASS  $scn"
		done
	done
}

# t2's namespace, copied while /a was shared (and kept so: unshare's
# default would make its copies private), holds a peer of /a in group 1
# after /a is unmounted: 1 is not free, /b's new group cannot take its
# name. t2's table after its step showed the group, so the pair stays.
@test "reuse: a group still held in another namespace keeps its name" {
	for g in 1 2; do
		scn=$(write_scn held$g <<SCN
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mount --make-shared /a
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    20 19 0:1 / / rw,relatime
    21 20 0:2 / /a rw,relatime shared:1
    t2# unshare -m --propagation unchanged sh
    # umount /a
    # mount /dev/sdb2 /b
    # mount --make-shared /b
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    20 19 0:1 / / rw,relatime
    30 20 0:3 / /b rw,relatime shared:$g
SCN
		)
		for b in "${backends[@]}"; do
			run "$NSTEST" run $b "$scn"
			if [[ $g == 1 ]]; then
				assert_failure
				assert_output --partial "-30 20 0:3 / /b rw,relatime shared:1"
			else
				assert_success
			fi
		done
	done
}

@test "reuse: /a still mounted, a new name for it fails" {
	scn=$(write_scn alive <<'SCN'
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    20 19 0:1 / / rw,relatime
    21 20 0:2 / /a rw,relatime
    # mount /dev/sdb2 /b
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    20 19 0:1 / / rw,relatime
    30 20 0:2 / /a rw,relatime
    31 20 0:3 / /b rw,relatime
SCN
	)
	for b in "${backends[@]}"; do
		run "$NSTEST" run $b "$scn"
		assert_failure
		assert_output --partial "+21 20 0:2 / /a rw,relatime"
	done
}

# An inner shell's namespace ends with the shell: the numbers only it
# showed are free once `exit` has run, and the outer shell's next mount
# may take them (the kernel's IDAs give the lowest free number) under the
# new names the transcript gives it.
@test "reuse: what an inner shell's namespace held is free once it exits" {
	scn=$(write_scn inner <<'SCN'
    # mkdir /a /b
    # unshare -m sh
    # mount /dev/sdb1 /a
    # mount --make-shared /a
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    30 29 0:1 / / rw,relatime
    31 30 0:2 / /a rw,relatime shared:1
    # exit
    # mount /dev/sdb2 /b
    # mount --make-shared /b
    # grep /b /proc/self/mountinfo | sed 's/ - .*//'
    40 20 0:3 / /b rw,relatime shared:2
SCN
	)
	for b in "${backends[@]}"; do
		run "$NSTEST" run $b "$scn"
		assert_success
		assert_output --partial "PASS  $scn"
	done
}

# awk and cut can print a mount ID or a device as plain text, which no
# renaming covers: such a step passes only while the numbering happens
# to repeat. When it fails, the report says which number it is and what
# to write instead (issue 28: an awk $7 passed 145 runs in 150 alone and
# none in 15 under churn).
@test "reuse: a failed step whose filter printed table numbers as text names them" {
	scn=$(write_scn leak <<'SCN'
    # mkdir /a
    # mount /dev/sdb1 /a
    # awk '{print $1, $3, $5}' /proc/self/mountinfo
    1 0:1 /
    2 0:2 /a
SCN
	)
	for b in "${backends[@]}"; do
		run "$NSTEST" run $b "$scn"
		assert_failure 1
		assert_line --regexp "^    # [0-9]+ in '[0-9]+ [0-9]+:[0-9]+ /' is a mount ID of the mount table, which changes from run to run: let the filter drop it, or print whole records$"
		assert_line --regexp "^    # [0-9]+:[0-9]+ in '[0-9]+ [0-9]+:[0-9]+ /' is a device of the mount table, which changes from run to run: let the filter drop it, or print whole records$"
	done
	# a filter that keeps no number gets no such note
	sed -i "s|awk '{print \$1, \$3, \$5}'|awk '{print \$5}'|; s|^    1 0:1 /\$|    /x|" "$scn"
	run "$NSTEST" run "$scn"
	assert_failure 1
	refute_output --partial "of the mount table, which changes"
}
