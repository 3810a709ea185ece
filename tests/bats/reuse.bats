#!/usr/bin/env bats
# tests/bats/reuse.bats - numbers the kernel frees and gives out again
# (issue 13, part 4, Matching). Mount IDs, anonymous device minors and
# peer-group IDs come from the kernel's IDAs, which hand out the lowest
# free number: a mount made right after an unmount gets the numbers of
# the one that went. A transcript may write it with new names once a
# complete view (`cat /proc/self/mountinfo`, every number of the table
# shown, no "...") of the same place no longer showed the old ones; with
# no such view the old names stay bound. Each case runs on the kernel and
# on the model, which allocates IDs the same way (lib/model/world.c).
# The kernel's IDAs are the machine's: a process elsewhere may take a
# freed group ID in between (seen once: shared:8 instead of 1), so the
# cases that show the reuse check the mount ID and device, not the group.
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

# Without the evidence the kernel's reuse shows in the diff: /b's
# numbers are the ones the transcript named /a's.
@test "reuse: a filtered view, or none, releases nothing" {
	none=$(reuse_scn none "")
	grep=$(reuse_scn grep "    # cat /proc/self/mountinfo | grep /b")
	dots=$(reuse_scn dots "    # cat /proc/self/mountinfo | sed 's/ - .*//'
    ...")
	for b in "${backends[@]}"; do
		for scn in "$none" "$grep" "$dots"; do
			run "$NSTEST" run $b "$scn"
			assert_failure
			assert_output --partial "+21 20 0:2 / /b rw,relatime shared:"
		done
	done
}

# The second terminal's namespace is made first, so that its copies take
# no number /a frees; its view, complete, comes after the unmount.
@test "reuse: a complete view from another namespace releases nothing" {
	scn=$(reuse_scn other "    t2# cat /proc/self/mountinfo | sed 's/ - .*//'
    90 80 0:1 / / rw,relatime")
	sed -i '1i\    t2# unshare -m sh' "$scn"
	for b in "${backends[@]}"; do
		run "$NSTEST" run $b "$scn"
		assert_failure
		assert_output --partial "+21 20 0:2 / /b rw,relatime shared:"
		refute_output --partial "t2# cat"
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
