#!/usr/bin/env bats
# tests/bats/findmnt-order.bats - the order of findmnt's list forms
# (issue 28, section 1; nstest-scenario(5), findmnt). util-linux prints
# -l, -r and -J -l with -R and a selection as the selected mount's tree,
# depth first, each mount's submounts in the order of their mount IDs;
# the kernel reuses a freed ID, so that order is no fact about the
# mounts and a block in either order must pass, run after run, under
# tests/churn too. A block whose rows hang elsewhere still fails.

bats_require_minimum_version 1.5.0
load helpers

# /m/c is mounted after /m/a is unmounted: on a quiet host it takes /m/a's
# ID and findmnt lists it before /m/b (with its submount /m/b/x); under
# churn another namespace may have taken that ID first. $1: b or c, the
# submount the blocks write first.
reuse_scn() {
	local b=("/m/b   /dev/sdd1" "/m/b/x /dev/sdf1") c=("/m/c   /dev/sde1")
	local r_b=("32 30 /dev/sdd1" "33 32 /dev/sdf1") r_c=("34 30 /dev/sde1")
	local j_b=('/m/b' '/m/b/x') j_c=('/m/c') list raw json t
	if [[ $1 == b ]]; then
		list=("${b[@]}" "${c[@]}") raw=("${r_b[@]}" "${r_c[@]}") json=("${j_b[@]}" "${j_c[@]}")
	else
		list=("${c[@]}" "${b[@]}") raw=("${r_c[@]}" "${r_b[@]}") json=("${j_c[@]}" "${j_b[@]}")
	fi
	{
		cat <<'SCN'
    # mkdir /m
    # mount -t tmpfs /dev/sdb1 /m
    # mkdir /m/a /m/b /m/c
    # mount -t tmpfs /dev/sdc1 /m/a
    # mount -t tmpfs /dev/sdd1 /m/b
    # mkdir /m/b/x
    # mount -t tmpfs /dev/sdf1 /m/b/x
    # umount /m/a
    # mount -t tmpfs /dev/sde1 /m/c
    # findmnt -l -R -o TARGET,SOURCE /m
    TARGET SOURCE
    /m     /dev/sdb1
SCN
		printf '    %s\n' "${list[@]}"
		printf '    # findmnt -r -R -o ID,PARENT,SOURCE /m\n    ID PARENT SOURCE\n    30 29 /dev/sdb1\n'
		printf '    %s\n' "${raw[@]}"
		printf '    # findmnt -J -l -R -o TARGET /m\n    {\n       "filesystems": [\n'
		printf '          {\n             "target": "/m"\n'
		for t in "${json[@]}"; do
			printf '          },{\n             "target": "%s"\n' "$t"
		done
		printf '          }\n       ]\n    }\n'
	} | write_scn "reuse-$1"
}

@test "findmnt-order: -l -R, -r -R and -J -l -R pass in either sibling order, 10 runs under churn, both backends" {
	for first in b c; do
		scn=$(reuse_scn $first)
		run "$NSTEST_ROOT/tests/churn" "$NSTEST" run --repeat 10 "$scn"
		assert_success
		refute_output --partial "flaky"
		run "$NSTEST" run --backend model --repeat 10 "$scn"
		assert_success
	done
}

@test "findmnt-order: a row moved out of its parent's subtree fails" {
	scn=$(write_scn moved <<'SCN'
    # mkdir /m
    # mount -t tmpfs /dev/sdb1 /m
    # mkdir /m/a /m/b
    # mount -t tmpfs /dev/sdc1 /m/a
    # mount -t tmpfs /dev/sdd1 /m/b
    # mkdir /m/a/x
    # mount -t tmpfs /dev/sde1 /m/a/x
    # findmnt -l -R -o TARGET,SOURCE /m
    TARGET SOURCE
    /m     /dev/sdb1
    /m/a   /dev/sdc1
    /m/b   /dev/sdd1
    /m/a/x /dev/sde1
SCN
	)
	run "$NSTEST" run "$scn"
	assert_failure 1
	run "$NSTEST" run --backend model "$scn"
	assert_failure 1
}

@test "findmnt-order: a list without -R keeps mountinfo's order" {
	scn=$(write_scn stacked <<'SCN'
    # mkdir /m
    # mount -t tmpfs /dev/sdb1 /m
    # mount -t tmpfs /dev/sdc1 /m
    # findmnt -l -o TARGET,SOURCE /m
    TARGET SOURCE
    /m     /dev/sdc1
    /m     /dev/sdb1
SCN
	)
	run "$NSTEST" run "$scn"
	assert_failure 1
}
