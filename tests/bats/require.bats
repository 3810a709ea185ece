#!/usr/bin/env bats
# tests/bats/require.bats - requirements (skips) and known kernel
# deviations (xfail/xpass) as the command line reports them.

bats_require_minimum_version 1.5.0
load helpers

@test "require: a scenario for a newer kernel is skipped with the reason" {
	scn=$(write_scn future <<'SCN'
kernel: >= 99.0

    # mkdir /a
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
	assert_line --regexp "^SKIP  $scn \(needs kernel >= 99\.0\.0, this is .+\)$"
	assert_line "0 passed, 0 failed, 1 skipped"
}

@test "require: features present on this kernel let the scenario run" {
	scn=$(write_scn feats <<'SCN'
requires: open_tree move_mount fsmount

    # mkdir /a
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
	assert_line "PASS  $scn"
}

@test "require: an unknown requirement is a parse error naming it" {
	scn=$(write_scn unknown-req <<'SCN'
requires: root warp_drive

    # mkdir /a
SCN
	)
	run --separate-stderr "$NSTEST" lint "$scn"
	assert_failure 2
	assert_equal "$stderr" "$scn:1:16: error: requires: unknown requirement 'warp_drive' (known: root, loop, userns, open_tree, move_mount, fsmount, mount_setattr, statmount, listmount, move_mount_beneath, move_mount_set_group, open_tree_attr, mount_notify, open_tree_namespace)"
}

@test "xfail: a failure inside the marked kernel range is XFAIL and exit 0" {
	scn=$(write_scn known-bug <<'SCN'
xfail: *: this kernel lists the wrong name (example reference)

    # mkdir /a
    # ls /
    b
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
	assert_line "XFAIL $scn (known kernel deviation: this kernel lists the wrong name (example reference))"
	assert_line "0 passed, 0 failed, 0 skipped, 1 xfailed, 0 xpassed"
}

@test "xfail: a pass inside the marked range is XPASS and fails the run" {
	scn=$(write_scn fixed-bug <<'SCN'
xfail: *: was broken once (example reference)

    # mkdir /a
SCN
	)
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_line "XPASS $scn (passed although marked xfail at line 1: was broken once (example reference))"
}

@test "xfail: outside the marked range a failure is a plain FAIL" {
	scn=$(write_scn old-bug <<'SCN'
xfail: < 2.6: only very old kernels (example reference)

    # mkdir /a
    # ls /
    b
SCN
	)
	run "$NSTEST" run "$scn"
	assert_failure 1
	assert_line "FAIL  $scn"
}

@test "xfail: a malformed range is a parse error" {
	scn=$(write_scn bad-range <<'SCN'
xfail: >= six: nonsense

    # mkdir /a
SCN
	)
	run --separate-stderr "$NSTEST" lint "$scn"
	assert_failure 2
	assert_equal "$stderr" "$scn:1:8: error: xfail: bad kernel range '>= six' (use '*' or comparisons like '>= 6.1, < 6.9')"
}
