#!/usr/bin/env bats
# tests/bats/workers.bats - a worker plays scenario after scenario
# (issue 6): nothing one scenario does may reach the next one it plays,
# and what it opens for a scenario must be closed by the end of it.
#
# Runs as root: `nstest run` sandboxes itself in a private mount namespace.

bats_require_minimum_version 1.5.0
load helpers
load robust

setup() {
	robust_setup
}

# A scenario that ends deep inside itself: a mount, a directory in it,
# an inner shell in a namespace of its own, a chroot, an open_tree handle
# and a second terminal, none of it undone.
write_messy() {
	write_scn "$1" <<'SCN'
    # mkdir /a /a/b
    # mount /dev/sdb1 /a/b
    # mkdir /a/b/c
    # touch /a/b/c/f
    # cd /a/b/c
    # unshare -m --propagation unchanged sh
    # open_tree /a @T
    # chroot /a
    # ls /b/c
    f
    t2# mkdir /t2
SCN
}

# A fresh sandbox: only the root stand-in, empty, at its top.
write_fresh() {
	write_scn "$1" <<'SCN'
    # ls
    # ls /
    # cat /proc/self/mountinfo | wc -l
    1
SCN
}

@test "workers: a scenario left deep in mounts, shells and chroots does not reach the next one" {
	for mode in tmpfs loop; do
		run "$NSTEST" run -j 1 --devices=$mode "$(write_messy a-messy)" "$(write_fresh b-fresh)" \
			"$(write_messy c-messy)" "$(write_fresh d-fresh)"
		assert_success
		assert_line "4 passed, 0 failed, 0 skipped"
	done
	assert_host_unchanged
}

@test "workers: a scenario played as processes (capsh) between two played in the worker" {
	capsh=$(write_scn b-capsh <<'SCN'
    # capsh --drop=cap_sys_admin --
    # mkdir /a
    # mount /dev/sdb1 /a
    mount: EPERM (Operation not permitted)
    # exit
    # mount /dev/sdb1 /a
SCN
	)
	run "$NSTEST" run -j 1 "$(write_messy a-messy)" "$capsh" "$(write_fresh c-fresh)"
	assert_success
	assert_line "3 passed, 0 failed, 0 skipped"
	assert_host_unchanged
}

# The same mess in a scenario whose terminals are processes (capsh is a
# command no process can undo): the worker itself is then that sandbox,
# and must come out of it as it went in. It also holds a file open, makes
# / shared, and leaves a shell in a user namespace and one without
# capabilities behind.
write_messy_one_way() {
	write_scn "$1" <<'SCN'
    # mkdir /a /a/b
    # mount --make-shared /
    # mount /dev/sdb1 /a/b
    # mkdir /a/b/c
    # touch /a/b/c/f
    # cd /a/b/c
    # exec 3< /a/b/c/f
    # unshare -m --propagation unchanged sh
    # open_tree /a @T
    # chroot /a
    # ls /b/c
    f
    t2# cd /a/b
    t2# unshare -U -r -m sh
    t3# capsh --drop=cap_sys_admin --
SCN
}

# What a fresh sandbox shows, in more ways than write_fresh: its table
# (one mount, private), its directory, a mount allowed (capabilities),
# and a second terminal at its top. A file left held shows in the fd
# count of the test after this one.
write_fresh_more() {
	write_scn "$1" <<'SCN'
    # cat /proc/self/mountinfo | wc -l
    1
    # cat /proc/self/mountinfo | grep -c shared
    0
    # pwd
    /
    # ls /
    # mkdir /a
    # mount /dev/sdb1 /a
    # cat /proc/self/mountinfo | wc -l
    2
    t2# pwd
    /
SCN
}

@test "workers: a one-way scenario left deep in mounts, shells and held files does not reach the next one" {
	for mode in tmpfs loop; do
		run "$NSTEST" run -j 1 --devices=$mode "$(write_messy_one_way a-messy)" \
			"$(write_fresh_more b-fresh)" "$(write_messy_one_way c-messy)" \
			"$(write_fresh_more d-fresh)" "$(write_fresh e-fresh)"
		assert_success
		assert_line "5 passed, 0 failed, 0 skipped"
	done
	assert_host_unchanged
}

# The worker's open file descriptors while it sits in the last scenario's
# `sleep 30`, after the scenarios before it in the same run.
worker_fds_after() {
	local scns=("$@") pid worker
	scns+=("$(write_scn zz-sleeper <<'SCN'
    # sleep 30
SCN
	)")
	NSTEST_BATS_MARK=$NSTEST_MARK "$NSTEST" run -j 1 "${scns[@]}" >/dev/null 2>&1 &
	pid=$!
	wait_for_depth "$pid" 1 || fail "no worker appeared"
	worker=$(at_depth "$pid" 1)
	# in the sleeper's `sleep 30`: the worker sits in nanosleep(2) (35,
	# or clock_nanosleep, 230, on x86_64), which no other step calls
	wait_until 60 eval '[[ " 35 230 " == *" $(cut -d" " -f1 /proc/$worker/syscall 2>/dev/null) "* ]]' ||
		fail "the worker never reached the sleeper"
	ls "/proc/$worker/fd" | wc -l
	kill -9 "$pid"
	wait "$pid" || true
}

@test "workers: a worker closes what it opened for a scenario (no fd is left behind)" {
	scns=()
	for i in $(seq 1 12); do
		scns+=("$(write_messy "m$i")")
		scns+=("$(write_messy_one_way "w$i")")
	done
	alone=$(worker_fds_after)
	after=$(worker_fds_after "${scns[@]}")
	echo "fds in the sleeper: alone $alone, after 24 scenarios $after" >&3
	assert_equal "$after" "$alone"
	assert_host_unchanged
}

# Unpaired numbers in a failed step's diff take fresh names in the file's
# numbering (issue 13, part 5): the kernel's numbers differ between runs
# and workers, the report must not. Each file mounts a different number
# of mounts first, so that under -j 2 the files' sandboxes interleave.
@test "workers: a failed diff's unpaired numbers are the same with -j 1 and -j 2" {
	for k in 1 2 3 4; do
		{
			echo "    # mkdir /m /x"
			for ((i = 0; i < k; i++)); do
				echo "    # mkdir /m/$i"
				echo "    # mount /dev/sdb1 /m/$i"
			done
			echo "    # mount /dev/sdb2 /x"
			echo "    # cat /proc/self/mountinfo | grep /x | sed 's/ - .*//'"
			echo "    70 60 8:9 / /y rw,relatime"
		} | write_scn "fresh/f$k" >/dev/null
	done
	run "$NSTEST" run -j 1 "$SCN_DIR/fresh"
	assert_failure
	one=$output
	assert_output --partial "+72 71 8:10 / /x rw,relatime"
	refute_output --regexp '\+[0-9]+ [0-9]+ 0:'
	for round in 1 2 3; do
		run "$NSTEST" run -j 2 "$SCN_DIR/fresh"
		assert_failure
		[[ $output == "$one" ]] || fail "-j 2 (round $round) differs from -j 1:
$(diff <(echo "$one") <(echo "$output"))"
	done
}
