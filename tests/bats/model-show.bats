#!/usr/bin/env bats
# tests/bats/model-show.bats - the model's causes under `nstest show
# --backend model`, `show --explain` beside the kernel, and the --quirk and
# --quirks options of run and show with their errors.

bats_require_minimum_version 1.5.0
load helpers

slave_demo() {
	write_scn slave <<'SCN'
title: a slave receives from its master

    # mkdir /m /s
    # mount --make-shared /dev/sdb1 /m
    # mkdir /m/x
    # mount --bind /m /s
    # mount --make-slave /s
    # mount /dev/sdc1 /m/x
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    [unordered]
    20 19 8:1 / / rw,relatime
    21 20 8:17 / /m rw,relatime shared:1
    22 20 8:17 / /s rw,relatime master:1
    23 21 8:33 / /m/x rw,relatime shared:2
    24 22 8:33 / /s/x rw,relatime master:2
SCN
}

@test "show --backend model: each mount made is followed by its cause and rule" {
	scn=$(slave_demo)
	run "$NSTEST" show --backend model "$scn"
	assert_success
	# the copy on the slave: the event, the relation, the rule
	assert_line --regexp '^##  mount [0-9]+ on /s/x \(/dev/sdc1\): propagated from mount [0-9]+.s event to mount [0-9]+, a slave .*sharedsubtree\.rst 2b, 5b'
	assert_line --regexp '^##  mount [0-9]+ on /m/x \(/dev/sdc1\): made by mount \(sharedsubtree\.rst 5e\)$'
	assert_line --regexp '^PASS  .*model backend'
}

@test "show --backend model: an unmount lists what goes and why" {
	scn=$(write_scn umount <<'SCN'
    # mkdir /b1 /b2
    # mount --make-shared /dev/sdb1 /b1
    # mkdir /b1/x
    # mount --bind /b1 /b2
    # mount /dev/sdc1 /b1/x
    # umount /b1/x
SCN
	)
	run "$NSTEST" show --backend model "$scn"
	assert_success
	assert_line --regexp '^##  mount [0-9]+ on /b1/x \(/dev/sdc1\) goes: the mount named$'
	assert_line --regexp '^##  mount [0-9]+ on /b2/x \(/dev/sdc1\) goes: .*sharedsubtree\.rst 5f'
}

@test "show --explain: a differing kernel step gets the model's view" {
	# the expectation is wrong on purpose (no mount at /s/x): the kernel
	# differs, and the model shows the documented table with /s/x
	scn=$(write_scn wrong <<'SCN'
    # mkdir /m /s
    # mount --make-shared /dev/sdb1 /m
    # mkdir /m/x
    # mount --bind /m /s
    # mount --make-slave /s
    # mount /dev/sdc1 /m/x
    # cat /proc/self/mountinfo | sed 's/ - .*//' | grep /s
    22 20 8:17 / /s rw,relatime master:1
SCN
	)
	run "$NSTEST" show --explain "$scn"
	assert_failure 1
	assert_line '=>  the model (the documented rules) prints:'
	assert_line --regexp '^=>    [0-9]+ [0-9]+ 0:[0-9]+ / /s/x rw,relatime master:[0-9]+$'
	assert_line --regexp '^!!  .*this kernel differs from the transcript'
}

@test "show --explain: nothing from the model under steps that match" {
	scn=$(slave_demo)
	run "$NSTEST" show --explain "$scn"
	assert_success
	refute_line --partial '=>'
}

@test "run --quirk: needs the model backend" {
	scn=$(slave_demo)
	run "$NSTEST" run --quirk copy-drops-unbindable "$scn"
	assert_failure 2
	assert_output --partial 'need --backend model'
}

@test "run --quirk: an unknown name lists the known ones" {
	scn=$(slave_demo)
	run "$NSTEST" run --backend model --quirk no-such-quirk "$scn"
	assert_failure 2
	assert_output --partial "unknown quirk 'no-such-quirk' (known: umount-shifts-stacks, copy-drops-unbindable, unmounted-target-einval, move-target-first, change-type-ours-only, detached-ours-only, umount-busy-skips-chains, namespace-of-a-file, beneath-not-root, beneath-not-locked, copy-under-lock-unlocked, copy-under-lock-takes-lock, mountinfo-attach-order, make-slave-same-root, bind-onto-detached, set-group-not-unbindable, tmpfs-inode64; or kernel)"
}

@test "run --quirks takes only 'kernel'" {
	scn=$(slave_demo)
	run "$NSTEST" run --backend model --quirks=all "$scn"
	assert_failure 2
	assert_output --partial "--quirks takes 'kernel'"
}

@test "run --quirk copy-drops-unbindable: the model breaks sharedsubtree.rst 5g as 6.18 does" {
	run "$NSTEST" run --backend model "$NSTEST_ROOT/scenarios/sharedsubtree/51-clone-namespace-unbindable.scn"
	assert_success
	# named explicitly, the quirk applies but no kernel range does: FAIL
	run "$NSTEST" run --backend model --quirk copy-drops-unbindable \
		"$NSTEST_ROOT/scenarios/sharedsubtree/51-clone-namespace-unbindable.scn"
	assert_failure 1
	assert_line --regexp '^ *\+[0-9]+ [0-9]+ 8:17 / /ub rw,relatime$'
}

@test "run --quirk umount-shifts-stacks: the model shifts the stack as 6.1 does" {
	run "$NSTEST" run --backend model --quirk umount-shifts-stacks \
		"$NSTEST_ROOT/scenarios/sharedsubtree/46-umount-reparents-a-stack.scn"
	assert_failure 1
	run "$NSTEST" run --backend model \
		"$NSTEST_ROOT/scenarios/sharedsubtree/46-umount-reparents-a-stack.scn"
	assert_success
}

@test "show --quirks=kernel: the head names this kernel" {
	scn=$(slave_demo)
	run "$NSTEST" show --backend model --quirks=kernel "$scn"
	assert_success
	assert_line --regexp "^PASS  .*Linux $(uname -r | sed 's/[.]/[.]/g'), tmpfs stand-ins, model backend"
}

@test "run --quirk unmounted-target-einval: the model answers EINVAL where 6.18 says ENOENT" {
	reg=$NSTEST_ROOT/scenarios/regressions/02-mount-on-an-unmounted-tree.scn
	run "$NSTEST" run --backend model "$reg"
	assert_success
	run "$NSTEST" run --backend model --quirk unmounted-target-einval "$reg"
	assert_failure 1
	assert_line --regexp '^ *\+mount: EINVAL \(Invalid argument\)$'
}

@test "run --quirk change-type-ours-only: the model refuses --make-* through a detached tree's handle as 6.12.43 does" {
	scn=$NSTEST_ROOT/scenarios/newapi/handle-propagation.scn
	run "$NSTEST" run --backend model "$scn"
	assert_success
	run "$NSTEST" run --backend model --quirk change-type-ours-only "$scn"
	assert_failure 1
	assert_line --regexp '^ *\+mount: EINVAL \(Invalid argument\)$'
	# the same EINVAL for the shell in a user namespace of its own, where
	# the newer rule says EPERM
	assert_line --regexp '^ *-mount: EPERM \(Operation not permitted\)$'
}

@test "run --quirk detached-ours-only: the model refuses a bind from a detached tree and a move onto one, as 6.12 does" {
	scn=$NSTEST_ROOT/scenarios/newapi/detached-trees.scn
	run "$NSTEST" run --backend model "$scn"
	assert_success
	run "$NSTEST" run --backend model --quirk detached-ours-only "$scn"
	assert_failure 1
	assert_line --regexp '^ *\+move_mount: EINVAL \(Invalid argument\)$'
	assert_line --regexp '^ *\+mount: EINVAL \(Invalid argument\)$'
}

@test "run --quirk namespace-of-a-file: the model makes a namespace of a file, as 7.0.4 to 7.0.12 do" {
	scn=$NSTEST_ROOT/scenarios/newapi/open-tree-namespace.scn
	run "$NSTEST" run --backend model "$scn"
	assert_success
	run "$NSTEST" run --backend model --quirk namespace-of-a-file "$scn"
	assert_failure 1
	assert_line --regexp '^ *-open_tree: ENOTDIR \(Not a directory\)$'
}

@test "run --quirk umount-busy-skips-chains: the busy copy of a chain goes from under its user, as 6.18.44 does" {
	scn=$NSTEST_ROOT/scenarios/man2/07-umount-busy-chain.scn
	run "$NSTEST" run --backend model "$scn"
	assert_success
	run "$NSTEST" run --backend model --quirk umount-busy-skips-chains "$scn"
	assert_failure 1
	assert_line --regexp '^ *-umount: .*busy.*$'
}

@test "run --quirk beneath-not-root: the model refuses to go beneath the root, as 6.18.44 does" {
	scn=$NSTEST_ROOT/scenarios/peers/kselftest-move-mount-beneath-root.scn
	run "$NSTEST" run --backend model "$scn"
	assert_success
	run "$NSTEST" run --backend model --quirk beneath-not-root "$scn"
	assert_failure 1
	assert_line --regexp '^.*:[0-9]+: sh1# move_mount --beneath @tree /$'
	assert_line --regexp '^ *\+move_mount: EINVAL \(Invalid argument\)$'
	refute_line --regexp '^.*sh6# move_mount --beneath @new /mnt_dir$'
}

@test "run --quirk beneath-not-locked: the model refuses to go beneath a locked mount, as 6.18.44 does" {
	scn=$NSTEST_ROOT/scenarios/peers/kselftest-move-mount-beneath-root.scn
	run "$NSTEST" run --backend model --quirk beneath-not-locked "$scn"
	assert_failure 1
	assert_line --regexp '^.*:[0-9]+: sh6# move_mount --beneath @new /mnt_dir$'
	assert_line --regexp '^ *\+move_mount: EINVAL \(Invalid argument\)$'
	refute_line --regexp '^.*sh1# move_mount --beneath @tree /$'
}

@test "run --quirk copy-under-lock-unlocked: a copy under a locked mount is not locked, as 6.18.44 does" {
	scn=$NSTEST_ROOT/scenarios/man7/userns-copy-under-a-locked-mount.scn
	run "$NSTEST" run --backend model "$scn"
	assert_success
	run "$NSTEST" run --backend model --quirk copy-under-lock-unlocked "$scn"
	assert_failure 1
	assert_line --regexp '^.*:[0-9]+: sh2# mount --bind /c /z$'
	assert_line --regexp '^ *-mount: EINVAL \(Invalid argument\)$'
	refute_line --regexp '^.*sh2# umount /c/y$'
}

@test "run --quirk copy-under-lock-takes-lock: the copy takes the lock of the mount on top, as 7.1.3 to 7.2.9 do" {
	scn=$NSTEST_ROOT/scenarios/man7/userns-copy-under-a-locked-mount.scn
	run "$NSTEST" run --backend model --quirk copy-under-lock-takes-lock "$scn"
	assert_failure 1
	assert_line --regexp '^.*:[0-9]+: sh2# umount /c/y$'
	assert_line --regexp '^ *-umount: EINVAL \(Invalid argument\)$'
	refute_line --regexp '^.*sh2# mount --bind /c /z$'
}

@test "run --quirk mountinfo-attach-order: the model lists mounts in the order they entered the namespace, as 6.1 does" {
	scn=$NSTEST_ROOT/scenarios/newapi/mountinfo-order.scn
	run "$NSTEST" run --backend model "$scn"
	assert_success
	run "$NSTEST" run --backend model --quirk mountinfo-attach-order "$scn"
	assert_failure 1
	# the clone attached last is listed last, after /b
	assert_line --regexp '^ *-22 20 0:31 / /c rw,relatime$'
	assert_line --regexp '^ *\+24 20 0:31 / /c rw,relatime$'
}

@test "run --quirk make-slave-same-root: slaves receive in the order of the slave lists before 6.17" {
	scn=$NSTEST_ROOT/scenarios/regressions/04-slave-list-order.scn
	run "$NSTEST" run --backend model "$scn"
	assert_success
	run "$NSTEST" run --backend model --quirk make-slave-same-root "$scn"
	assert_failure 1
	# each copy was made the slave of the peer with its root: the copy
	# of / receives before the copy of /b
	assert_line --regexp '^ *-63 61 8:17 / /b/x rw,relatime master:2$'
	assert_line --regexp '^ *\+66 61 8:17 / /b/x rw,relatime master:2$'
}
