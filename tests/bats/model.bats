#!/usr/bin/env bats
# tests/bats/model.bats - `nstest run --backend model` (issue 12): the
# scenario suite on the userspace model of the documented rules, with no
# privilege and no user namespace; its quirks (NSTEST_MODEL_QUIRKS), its
# rule broken on purpose (NSTEST_MODEL_BREAK), its refusals, its report
# head, the host left alone, and a wrong expectation caught.

bats_require_minimum_version 1.5.0
load helpers
load robust

setup() {
	nstest_setup
	MODEL_HEAD="$("$NSTEST" --version): model backend, documented rules, tmpfs stand-ins"
	LISTMOUNT=newapi/listmount-crosscheck.scn
}

# How many scenarios the suite under $1 holds.
count_scn() {
	find "$1" -name '*.scn' | wc -l
}

# The suite's outcome in $output (run on the folder $1): every scenario
# PASS except listmount-crosscheck, which is skipped for want of the
# kernel; nothing failed, xfailed or xpassed.
assert_suite_passes() {
	local dir=$1 total
	total=$(count_scn "$dir")
	((total > 1)) || fail "no scenarios under $dir"
	assert_line --regexp "^SKIP  $dir/$LISTMOUNT \(.*kernel.*\)\$"
	assert_line "$((total - 1)) passed, 0 failed, 1 skipped"
	refute_line --regexp '^(FAIL|XFAIL|XPASS) '
	assert_equal "$(grep -c '^PASS  ' <<<"$output")" "$((total - 1))"
	refute_line --regexp "^PASS  .*/$LISTMOUNT\$"
}

# A copy of nstest and of the scenarios that user nobody can read, in
# this test's directory (bats makes it 0700 for root).
nobody_tree() {
	local d=$BATS_TEST_TMPDIR
	NB=$d/nb
	mkdir -p "$NB"
	cp "$NSTEST" "$NB/nstest"
	cp -r "$NSTEST_ROOT/scenarios" "$NB/scenarios"
	chmod -R o+rX "$NB"
	while [[ $d == "$BATS_RUN_TMPDIR"* && $d != / ]]; do
		chmod o+x "$d"
		d=${d%/*}
	done
}

need_setpriv() {
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is missing: cannot become user nobody"
}

# ---- the suite -------------------------------------------------------------

@test "model: the scenario suite passes, listmount-crosscheck skipped for want of the kernel" {
	run --separate-stderr "$NSTEST" run --backend model "$NSTEST_ROOT/scenarios"
	assert_success
	assert_line --index 0 "$MODEL_HEAD"
	assert_suite_passes "$NSTEST_ROOT/scenarios"
	assert_equal "$stderr" ""
}

@test "model: the report head names the model and its documented rules, in human and JSON" {
	scn=$(write_scn ok <<'SCN'
    # mkdir /a
SCN
	)
	run --separate-stderr "$NSTEST" run --backend model "$scn"
	assert_success
	assert_output "$MODEL_HEAD
PASS  $scn
1 passed, 0 failed, 0 skipped"
	run --separate-stderr "$NSTEST" run --backend=model --format json "$scn"
	assert_success
	[[ $output == *'"backend":"model"'* ]] || fail "no model backend in the JSON: $output"
}

@test "model: user nobody runs the suite, with no capability and no user namespace" {
	need_setpriv
	nobody_tree
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all "$NB/nstest" run --backend model "$NB/scenarios"
	assert_success
	assert_line --index 0 "$MODEL_HEAD"
	assert_suite_passes "$NB/scenarios"
	# the kernel backend would say it goes rootless; the model has no need
	assert_equal "$stderr" ""
}

# user namespaces forbidden (the limit set to 0 inside a throwaway user
# namespace, where it counts for what runs below) and every capability
# gone: the kernel backend cannot run at all then (cli.bats), the model can.
@test "model: runs where neither capabilities nor user namespaces are available" {
	need_setpriv
	nobody_tree
	run --separate-stderr unshare -U -r --fork sh -c '
		echo 0 > /proc/sys/user/max_user_namespaces &&
		exec setpriv --bounding-set=-all --inh-caps=-all "$0" run "$@"' \
		"$NB/nstest" --backend model "$NB/scenarios"
	assert_success
	assert_suite_passes "$NB/scenarios"
	assert_equal "$stderr" ""
	# the same confinement stops the kernel backend: the test is real
	run --separate-stderr unshare -U -r --fork sh -c '
		echo 0 > /proc/sys/user/max_user_namespaces &&
		exec setpriv --bounding-set=-all --inh-caps=-all "$0" run "$@"' \
		"$NB/nstest" "$NB/scenarios/article"
	assert_failure 2
}

@test "model: the host's mount table is unchanged by a run of the suite" {
	host_snapshot
	run nstest_marked run --backend model -j 4 "$NSTEST_ROOT/scenarios"
	assert_success
	assert_host_unchanged
}

# ---- judged for real --------------------------------------------------------

@test "model: a scenario with a wrong expectation fails on the model" {
	# sharedsubtree.rst 5b case 6: a bind of a shared mount onto a
	# private one is a peer of its source; private is wrong
	scn=$(write_scn wrong <<'SCN'
    # mkdir /a /b
    # mount --make-shared /dev/sdb1 /a
    # mount --bind /a /b
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    [unordered]
    20 19 8:1 / / rw,relatime
    21 20 8:17 / /a rw,relatime shared:1
    22 20 8:17 / /b rw,relatime
SCN
	)
	run --separate-stderr "$NSTEST" run --backend model "$scn"
	assert_failure 1
	assert_line "FAIL  $scn"
	assert_line "0 passed, 1 failed, 0 skipped"
	assert_line --partial "-22 20 8:17 / /b rw,relatime"
	# the right expectation passes: the failure was the expectation's
	sed -i 's|^    22 20 8:17 / /b rw,relatime$|& shared:1|' "$scn"
	run --separate-stderr "$NSTEST" run --backend model "$scn"
	assert_success
	assert_line "PASS  $scn"
}

@test "model: a wrong error expectation fails on the model" {
	# 5b case 8: an unbindable mount cannot be bound; success is wrong
	scn=$(write_scn wrong-err <<'SCN'
    # mkdir /u /x
    # mount --make-unbindable /dev/sdb1 /u
    # mount --bind /u /x
SCN
	)
	run --separate-stderr "$NSTEST" run --backend model "$scn"
	assert_failure 1
	assert_line "FAIL  $scn"
	assert_line --partial "+mount: EINVAL (Invalid argument)"
}

# ---- NSTEST_MODEL_QUIRKS -----------------------------------------------------

# Does the running kernel fall in copy-drops-unbindable's range (6.18)?
kernel_drops_unbindable() {
	local rel maj min
	rel=$(uname -r)
	maj=${rel%%.*}
	min=${rel#*.}
	min=${min%%[!0-9]*}
	((maj == 6 && min == 18))
}

@test "model: NSTEST_MODEL_QUIRKS=kernel makes 51-clone-namespace-unbindable XFAIL on 6.18 only" {
	scn=$NSTEST_ROOT/scenarios/sharedsubtree/51-clone-namespace-unbindable.scn
	NSTEST_MODEL_QUIRKS=kernel run --separate-stderr "$NSTEST" run --backend model "$scn"
	assert_success
	if kernel_drops_unbindable; then
		assert_line --regexp "^XFAIL $scn \(known kernel deviation: .*\)\$"
		assert_line "0 passed, 0 failed, 0 skipped, 1 xfailed, 0 xpassed"
	else
		# outside every quirk range that matters here: the documented rule
		assert_line "PASS  $scn"
		assert_line "1 passed, 0 failed, 0 skipped"
	fi
	# imitating a kernel, the report names it instead of the documents
	assert_line --index 0 "$("$NSTEST" --version): model backend, Linux $(uname -r), tmpfs stand-ins"
}

@test "model: without quirks 51-clone-namespace-unbindable passes whatever the kernel" {
	scn=$NSTEST_ROOT/scenarios/sharedsubtree/51-clone-namespace-unbindable.scn
	run --separate-stderr "$NSTEST" run --backend model "$scn"
	assert_success
	assert_output "$MODEL_HEAD
PASS  $scn
1 passed, 0 failed, 0 skipped"
	# named, the quirk applies on any kernel; with no kernel ranges to
	# judge by, the scenario fails
	NSTEST_MODEL_QUIRKS=copy-drops-unbindable run --separate-stderr "$NSTEST" run --backend model "$scn"
	assert_failure 1
	assert_line "FAIL  $scn"
}

@test "model: an unknown quirk exits 2 and names it" {
	NSTEST_MODEL_QUIRKS=bogus run --separate-stderr "$NSTEST" run --backend model "$NSTEST_ROOT/scenarios/article"
	assert_failure 2
	assert_output ""
	[[ $stderr == *"unknown quirk 'bogus'"* ]] || fail "stderr: $stderr"
}

# ---- NSTEST_MODEL_BREAK ------------------------------------------------------

# break_caught BREAK SCN STEP...: the model passes SCN, and with
# NSTEST_MODEL_BREAK=BREAK fails it, at each STEP among others (a step as
# the report names it, "sh2# umount /a/sub", after "SCN:LINE: "); then
# the kernel passes it too, so what the model gets right unbroken is the
# kernel's behaviour. The kernel comes last: when it lacks something SCN
# requires (SKIP), the test skips once the model's verdicts are proven.
break_caught() {
	local brk=$1 scn=$2 step line found
	shift 2
	run --separate-stderr "$NSTEST" run --backend model "$scn"
	assert_success
	assert_line "PASS  $scn"
	NSTEST_MODEL_BREAK=$brk run --separate-stderr "$NSTEST" run --backend model "$scn"
	assert_failure 1
	assert_line "FAIL  $scn"
	for step; do
		found=
		for line in "${lines[@]}"; do
			line=${line#"$scn:"}
			[[ $line =~ ^[0-9]+:\ (.*)$ && ${BASH_REMATCH[1]} == "$step" ]] && found=1
		done
		[[ $found ]] || fail "with $brk, no failed step '$step' in: $output"
	done
	run --separate-stderr "$NSTEST" run "$scn"
	if [[ $output == *"SKIP  $scn "* ]]; then
		skip "the kernel cannot run $scn: $(grep "^SKIP  " <<<"$output")"
	fi
	assert_success
	assert_line "PASS  $scn"
}

@test "model: NSTEST_MODEL_BREAK=slaves-receive-nothing fails the scenarios that need slave propagation" {
	NSTEST_MODEL_BREAK=slaves-receive-nothing run --separate-stderr \
		"$NSTEST" run --backend model "$NSTEST_ROOT/scenarios/article"
	assert_failure 1
	assert_line "FAIL  $NSTEST_ROOT/scenarios/article/02-slave.scn"
	# a scenario without slaves is not affected
	assert_line "PASS  $NSTEST_ROOT/scenarios/article/01-shared-private.scn"
	# the same scenario passes unbroken
	run --separate-stderr "$NSTEST" run --backend model "$NSTEST_ROOT/scenarios/article/02-slave.scn"
	assert_success
}

@test "model: NSTEST_MODEL_BREAK=userns-receipt-unlocked lets a copied mount go alone" {
	# copied by unshare -U -r -m (mount_namespaces(7) [3]): /a/sub is
	# locked to /a, umount is EINVAL
	break_caught userns-receipt-unlocked \
		"$NSTEST_ROOT/scenarios/man7/userns-locked-mounts.scn" 'sh2# umount /a/sub'
}

@test "model: NSTEST_MODEL_BREAK=userns-receipt-unlocked lets a propagated mount go alone" {
	# propagated into the less privileged namespace after the copy
	# (mount_namespaces(7) [4]): /mnt/ppp/y is locked to /mnt/ppp there
	break_caught userns-receipt-unlocked \
		"$NSTEST_ROOT/scenarios/man7/userns-recursive-unit.scn" 'ns2# umount /mnt/ppp/y'
}

@test "model: NSTEST_MODEL_BREAK=remount-ignores-locks lets MS_REMOUNT|MS_BIND clear locked flags" {
	# the kernel's selftest: in a less privileged namespace, remounting
	# a copy rw (or dev, suid, exec, another atime) is EPERM
	break_caught remount-ignores-locks \
		"$NSTEST_ROOT/scenarios/peers/kselftest-unprivileged-remount.scn" \
		'# mount -o remount,bind,rw,dev /t1' '# mount -o remount,bind,noatime,nodev /t5'
}

@test "model: NSTEST_MODEL_BREAK=remount-ignores-locks lets a plain MS_REMOUNT clear a locked ro" {
	# root of the first user namespace, entering the less privileged
	# mount namespace: privilege enough for the superblock, but not the lock
	break_caught remount-ignores-locks \
		"$NSTEST_ROOT/tests/data/breaks/remount-locked-readonly.scn" 'sh3# mount -o remount,rw /ro'
}

@test "model: NSTEST_MODEL_BREAK=remount-ignores-locks lets mount_setattr clear locked flags" {
	break_caught remount-ignores-locks \
		"$NSTEST_ROOT/scenarios/man7/userns-locked-flags.scn" \
		'sh2# mount_setattr -o rw /ro' 'sh2# mount_setattr -o suid /ro'
}

@test "model: NSTEST_MODEL_BREAK=set-group-keeps-unbindable leaves the new peer unbindable" {
	# no scenario of the suite notices (the fuzzer's issue): this one
	# binds the target once it is a peer, as it was refused before
	break_caught set-group-keeps-unbindable \
		"$NSTEST_ROOT/tests/data/breaks/set-group-unbindable.scn" '# mount --bind /c /d'
}

@test "model: NSTEST_MODEL_BREAK=busy-candidate-not-ebusy unmounts a copy held open" {
	local scn=$NSTEST_ROOT/scenarios/man2/06-held-files.scn
	# the older busy check (quirk umount-busy-skips-chains) is broken too
	NSTEST_MODEL_QUIRKS=umount-busy-skips-chains run --separate-stderr \
		"$NSTEST" run --backend model "$scn"
	assert_success
	NSTEST_MODEL_QUIRKS=umount-busy-skips-chains NSTEST_MODEL_BREAK=busy-candidate-not-ebusy \
		run --separate-stderr "$NSTEST" run --backend model "$scn"
	assert_failure 1
	assert_line "FAIL  $scn"
	# a file held open on the copy /q/x keeps umount /p/x from taking it
	break_caught busy-candidate-not-ebusy "$scn" '# umount /p/x'
}

@test "model: NSTEST_MODEL_BREAK=busy-candidate-not-ebusy unmounts a copy that is a working directory" {
	# a shell works in the copy C2, under a mount that covers its root
	break_caught busy-candidate-not-ebusy \
		"$NSTEST_ROOT/scenarios/man2/05-umount-busy-overmount.scn" 'sh1# umount /b1/x'
}

@test "model: an unknown NSTEST_MODEL_BREAK exits 2 and names it" {
	NSTEST_MODEL_BREAK=nothing-at-all run --separate-stderr \
		"$NSTEST" run --backend model "$NSTEST_ROOT/scenarios/article"
	assert_failure 2
	assert_output ""
	[[ $stderr == *"'nothing-at-all'"* ]] || fail "stderr: $stderr"
	# and lists every rule it can break
	local known='slaves-receive-nothing, userns-receipt-unlocked, remount-ignores-locks'
	known+=', set-group-keeps-unbindable, busy-candidate-not-ebusy'
	[[ $stderr == *"(known: $known)"* ]] || fail "stderr: $stderr"
}

# ---- refusals ------------------------------------------------------------

@test "model: --devices=loop with the model exits 2 and names the model" {
	run --separate-stderr "$NSTEST" run --backend model --devices=loop "$NSTEST_ROOT/scenarios/article"
	assert_failure 2
	assert_output ""
	[[ $stderr == *"--devices=loop"*"model"* ]] || fail "stderr: $stderr"
}
