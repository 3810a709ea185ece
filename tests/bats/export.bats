#!/usr/bin/env bats
# export.bats - `nstest export --c`: the program it writes compiles without
# warnings, leaves the host's mount table alone, and exits as nstest's
# verdict on this kernel; its checks can fail; refusals name file:line.

load helpers

# export FILE, build it with gcc's warnings as errors; the binary's path
export_build() {
	local f=$1 out=$BATS_TEST_TMPDIR/$(basename "$1" .scn)
	"$NSTEST" export --c "$f" -o "$out.c" || return 1
	gcc -O2 -Wall -Werror -o "$out" "$out.c" || return 1
	printf '%s\n' "$out"
}

# The refusal the exporter gives for a file of these folders, or nothing
# when it exports it (none is refused at present).
refused_reason() {
	case $(basename "$1") in
	*) ;;
	esac
}

@test "export: --help, and usage errors exit 2" {
	run "$NSTEST" export --help
	assert_success
	assert_output --partial "usage: nstest export --c FILE"
	run "$NSTEST" export scenarios/article/03-bind.scn
	assert_failure 2
	assert_output --partial "say which format: --c"
	run "$NSTEST" export --c
	assert_failure 2
	run "$NSTEST" export --c --bogus "$NSTEST_ROOT/scenarios/article/03-bind.scn"
	assert_failure 2
	assert_output --partial "unknown option '--bogus'"
}

@test "export: every article and regression file, compiled and run, agrees with nstest" {
	[[ $(id -u) == 0 ]] || skip "needs root"
	local f prog want n=0 files=("$NSTEST_ROOT"/scenarios/article/*.scn "$NSTEST_ROOT"/scenarios/regressions/*.scn)
	for f in "${files[@]}"; do
		if [[ -n $(refused_reason "$f") ]]; then
			run "$NSTEST" export --c "$f"
			assert_failure 2
			assert_output --partial "$(refused_reason "$f")"
			continue
		fi
		prog=$(export_build "$f") || fail "$f: export or build failed"
		run "$NSTEST" run "$f"
		# nstest: PASS 0, FAIL 1; an XFAIL (a known kernel deviation,
		# exit 0) is a difference the program reports: it checks the
		# documented expectation and exits 1
		if [[ $output == *XFAIL* ]]; then want=1; else want=$status; fi
		run "$NSTEST_ROOT/tests/isolation-check" "$prog"
		[[ $status == "$want" ]] || fail "$f: program exit $status, nstest says $want: $output"
		n=$((n + 1))
	done
	((n == ${#files[@]})) || fail "only $n of ${#files[@]} files exported"
}

@test "export: loop stand-ins: ext4 on loop devices the program attaches and lets go" {
	[[ $(id -u) == 0 ]] || skip "needs root"
	[[ -w /dev/loop-control ]] || skip "no loop devices here"
	command -v mke2fs >/dev/null || skip "no mke2fs"
	# one superblock per block device (so a file made through one mount
	# is in the other), and get_tree_bdev()'s EBUSY for a read-only mount
	# of a device mounted read-write; the type reads ext4
	scn=$(write_scn loop <<'SCN'
devices: loop

    # mkdir /a /b /c
    # mount /dev/sdb1 /a
    # mount /dev/sdb1 /b
    # touch /a/f
    # ls /b
    f
    # mount -o ro /dev/sdb1 /c
    mount: EBUSY (Device or resource busy)
    # cat /proc/self/mountinfo | grep ' /b ' | sed 's/.* - \([a-z0-9]*\) \([^ ]*\) .*/\1 \2/'
    ext4 /dev/sdb1
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
	prog=$(export_build "$scn")
	grep -q 'xs_image = &image;' "$prog.c"
	# isolation-check: the host's mounts and attached loop devices unchanged
	run "$NSTEST_ROOT/tests/isolation-check" "$prog"
	assert_success
	assert_output --partial "PASS $scn (7 steps)"
	assert_output --partial "no loop device left attached"
	# the image is the same bytes every time: one file, one program
	"$NSTEST" export --c "$scn" -o "$BATS_TEST_TMPDIR/again.c"
	cmp "$prog.c" "$BATS_TEST_TMPDIR/again.c"
	# the same file with tmpfs stand-ins is another filesystem
	"$NSTEST" export --c --devices tmpfs "$scn" -o "$BATS_TEST_TMPDIR/t.c"
	gcc -O2 -Wall -Werror -o "$BATS_TEST_TMPDIR/t" "$BATS_TEST_TMPDIR/t.c"
	run "$NSTEST_ROOT/tests/isolation-check" "$BATS_TEST_TMPDIR/t"
	assert_failure 1
	assert_output --partial "FAIL step 7"
	assert_output --partial "tmpfs /dev/sdb1"
	# a wrong twin: the file made through /a not seen through /b
	sed -i '/^    f$/d' "$scn"
	prog=$(export_build "$scn")
	run "$NSTEST_ROOT/tests/isolation-check" "$prog"
	assert_failure 1
	assert_output --partial "FAIL step 5"
}

@test "export: --devices takes tmpfs or loop; a tmpfs file exports as loop on request" {
	run "$NSTEST" export --c --devices ext4 "$NSTEST_ROOT/scenarios/article/03-bind.scn"
	assert_failure 2
	assert_output --partial "--devices: tmpfs or loop, not 'ext4'"
	run "$NSTEST" export --c "$NSTEST_ROOT/scenarios/article/03-bind.scn"
	assert_success
	refute_output --partial "xs_image = &image;"
	command -v mke2fs >/dev/null || skip "no mke2fs"
	run "$NSTEST" export --c --devices loop "$NSTEST_ROOT/scenarios/article/03-bind.scn"
	assert_success
	assert_output --partial "xs_image = &image;"
}

@test "export: clang builds a program without warnings" {
	command -v clang >/dev/null || skip "no clang"
	"$NSTEST" export --c "$NSTEST_ROOT/scenarios/article/02-slave.scn" -o "$BATS_TEST_TMPDIR/s.c"
	run clang -O2 -Wall -Wextra -Werror -o "$BATS_TEST_TMPDIR/s" "$BATS_TEST_TMPDIR/s.c"
	assert_success
	assert_output ""
}

@test "export: a wrong errno makes the program exit 1 naming the step" {
	[[ $(id -u) == 0 ]] || skip "needs root"
	scn=$(write_scn wrong-errno <<'SCN'
    # mkdir /a
    # umount /a
    umount: EBUSY (Device or resource busy)
SCN
	)
	prog=$(export_build "$scn")
	run "$NSTEST_ROOT/tests/isolation-check" "$prog"
	assert_failure 1
	assert_output --partial "FAIL step 2 ($scn:2): # umount /a"
	assert_output --partial "expected: EBUSY"
	assert_output --partial "got:      EINVAL"
}

@test "export: a wrong table makes the program exit 1 naming the step" {
	[[ $(id -u) == 0 ]] || skip "needs root"
	scn=$(write_scn wrong-table <<'SCN'
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mount --make-shared /a
    # mount --bind /a /b
    # cat /proc/self/mountinfo | grep ' /b ' | sed 's/ - .*//'
    30 20 0:40 / /b rw,relatime master:1
SCN
	)
	prog=$(export_build "$scn")
	run "$NSTEST_ROOT/tests/isolation-check" "$prog"
	assert_failure 1
	assert_output --partial "FAIL step 5 ($scn:5): # cat /proc/self/mountinfo"
	assert_output --partial " /b rw,relatime shared:"
	# and the same file with the right propagation passes
	sed -i 's/master:1/shared:1/' "$scn"
	prog=$(export_build "$scn")
	run "$NSTEST_ROOT/tests/isolation-check" "$prog"
	assert_success
}

@test "export: the renaming is one across steps" {
	[[ $(id -u) == 0 ]] || skip "needs root"
	scn=$(write_scn renaming <<'SCN'
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # mount /dev/sdb2 /b
    # cat /proc/self/mountinfo | grep ' /a ' | sed 's/ - .*//'
    30 20 0:40 / /a rw,relatime
    # cat /proc/self/mountinfo | grep ' /b ' | sed 's/ - .*//'
    31 20 0:40 / /b rw,relatime
SCN
	)
	# 0:40 named /a's device in step 4: /b's is another one
	prog=$(export_build "$scn")
	run "$NSTEST_ROOT/tests/isolation-check" "$prog"
	assert_failure 1
	assert_output --partial "FAIL step 5"
}

@test "export: a refused command gives file:line and exit 2, and writes nothing" {
	scn=$(write_scn refused <<'SCN'
    # mkdir /a
    # findmnt /
SCN
	)
	run "$NSTEST" export --c "$scn" -o "$BATS_TEST_TMPDIR/out.c"
	assert_failure 2
	assert_output "nstest export: $scn:2: findmnt: not exportable to C (findmnt's tables are not exported)"
	[[ ! -e $BATS_TEST_TMPDIR/out.c ]]
}

@test "export: -o - and no -o write to standard output" {
	run "$NSTEST" export --c -o - "$NSTEST_ROOT/scenarios/regressions/02-mount-on-an-unmounted-tree.scn"
	assert_success
	assert_output --partial "MS_REC | MS_PRIVATE"
	assert_output --partial "int main(void)"
}

@test "export: the program refuses to run without root (exit 2)" {
	[[ $(id -u) == 0 ]] || skip "needs root to build the case"
	command -v setpriv >/dev/null || skip "no setpriv"
	prog=$(export_build "$NSTEST_ROOT/scenarios/regressions/02-mount-on-an-unmounted-tree.scn")
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$prog"
	assert_failure 2
	assert_output --partial "must run as root"
}

@test "export: the new mount API and handles, as nstest judges them" {
	[[ $(id -u) == 0 ]] || skip "needs root"
	scn=$(write_scn newapi <<'SCN'
    # mkdir /a /b
    # mount /dev/sdb1 /a
    # open_tree -c /a @t
    # move_mount @t /b
    # mount_setattr -o ro /b
    # fsopen tmpfs @fc
    # fsconfig @fc create
    # fsmount @fc @m
    # close @fc
    # move_mount @m /a
    # cat /proc/self/mountinfo | sed 's/ - .*//'
    [unordered]
    1 0 0:1 / / rw,relatime
    2 1 0:2 / /a rw,relatime
    3 1 0:2 / /b ro,relatime
    4 2 0:3 / /a rw,relatime
    # close @m
    # close @m
    close: EBADF (Bad file descriptor)
SCN
	)
	run "$NSTEST" run "$scn"
	assert_success
	prog=$(export_build "$scn")
	run "$NSTEST_ROOT/tests/isolation-check" "$prog"
	assert_success
	# the same file expecting the copy read-write fails at that step
	sed -i 's|3 1 0:2 / /b ro,relatime|3 1 0:2 / /b rw,relatime|' "$scn"
	prog=$(export_build "$scn")
	run "$NSTEST_ROOT/tests/isolation-check" "$prog"
	assert_failure 1
	assert_output --partial "FAIL step 11"
}
