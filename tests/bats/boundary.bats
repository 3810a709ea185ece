#!/usr/bin/env bats
# tests/bats/boundary.bats - tests/boundary-check can fail: calls planted
# in a copy of lib/ and harness/ are named by file and line; calls in
# comments, strings and lib/kernel/ are not. The copy is compared with
# its own unplanted output, so these tests hold whether or not the real
# tree passes the check yet.

bats_require_minimum_version 1.5.0
load helpers

CHECK=$NSTEST_ROOT/tests/boundary-check

setup() {
	TREE=$BATS_TEST_TMPDIR/tree
	mkdir -p "$TREE"
	cp -a "$NSTEST_ROOT/lib" "$NSTEST_ROOT/harness" "$TREE"/
	find "$TREE" -name '*.[oad]' -delete
	# what the check says about the unplanted copy
	run "$CHECK" "$TREE"
	BASE_STATUS=$status
	BASE_OUTPUT=$output
}

# plant FILE <<'C' ... C: appends C code to FILE of the copy; sets LINE
# to the number of the planted text's first line.
plant() {
	LINE=$(($(wc -l <"$TREE/$1") + 1))
	cat >>"$TREE/$1"
}

@test "boundary: mount() in lib/match/ is named by file and line" {
	plant lib/match/match.c <<'C'
void planted(void);
void planted(void)
{
	mount("a", "b", NULL, 0, NULL);
}
C
	run "$CHECK" "$TREE"
	assert_failure 1
	assert_line "lib/match/match.c:$((LINE + 3)):mount() (in planted)"
}

@test "boundary: syscall(SYS_move_mount, ...) outside lib/kernel/ is named" {
	plant lib/report/reporter.c <<'C'
long planted(void);
long planted(void) { return syscall(SYS_move_mount, -1, "", -1, "", 0); }
C
	run "$CHECK" "$TREE"
	assert_failure 1
	assert_line "lib/report/reporter.c:$((LINE + 1)):SYS_move_mount (in planted)"
}

@test "boundary: a mountapi.h wrapper outside lib/kernel/ is named" {
	plant harness/collect.c <<'C'
int planted(void);
int planted(void)
{
	return ns_open_tree(AT_FDCWD, "/", 0) +
	       ns_fsconfig(3, 0, NULL, NULL, 0);
}
C
	run "$CHECK" "$TREE"
	assert_failure 1
	assert_line "harness/collect.c:$((LINE + 3)):ns_open_tree() (in planted)"
	assert_line "harness/collect.c:$((LINE + 4)):ns_fsconfig() (in planted)"
}

@test "boundary: a syscall number under another macro name is still seen" {
	plant lib/match/diff.c <<'C'
#ifndef SYS_statmount
#define SYS_statmount_ 457
#endif
long planted(void);
long planted(void) { return syscall(SYS_statmount_, NULL, NULL, 0, 0); }
C
	run "$CHECK" "$TREE"
	assert_failure 1
	assert_line "lib/match/diff.c:$((LINE + 4)):SYS_statmount_ (in planted)"
	# the #ifndef and the #define call nothing
	refute_line --partial "lib/match/diff.c:$LINE:"
	refute_line --partial "lib/match/diff.c:$((LINE + 1)):"
}

@test "boundary: calls in comments and strings do not trip it" {
	plant lib/match/match.c <<'C'
/* mount("a", "b", NULL, 0, NULL);
 * unshare(CLONE_NEWNS); */
// setns(fd, 0); syscall(SYS_move_mount, ...)
// a continued line comment \
   chroot("/");
static const char *planted_s = "mount(\"a\", \"b\") \\";
static const char *planted_t = "\" pivot_root(\".\", \".\") ns_open_tree(";
static const char planted_q = '"', planted_e = '\'';
static const char *planted_u(void) { return "umount2(\"x\", 0)"; }
C
	run "$CHECK" "$TREE"
	assert_equal "$status" "$BASE_STATUS"
	assert_equal "$output" "$BASE_OUTPUT"
}

@test "boundary: a quote in a character constant does not hide later code" {
	plant lib/match/match.c <<'C'
static const char planted_q = '"';
int planted(void);
int planted(void) { return chroot("/x"); }
C
	run "$CHECK" "$TREE"
	assert_failure 1
	assert_line "lib/match/match.c:$((LINE + 2)):chroot() (in planted)"
}

@test "boundary: calls inside lib/kernel/ are allowed" {
	plant lib/kernel/sandbox.c <<'C'
int planted(void);
int planted(void)
{
	return mount("a", "b", NULL, 0, NULL) + unshare(CLONE_NEWNS) +
	       (int)syscall(SYS_move_mount, -1, "", -1, "", 0) +
	       ns_open_tree(AT_FDCWD, "/", 0);
}
C
	run "$CHECK" "$TREE"
	assert_equal "$status" "$BASE_STATUS"
	assert_equal "$output" "$BASE_OUTPUT"
}

@test "boundary: a clean tree passes; member calls through an ops table are the seam" {
	rm -rf "$TREE"
	mkdir -p "$TREE/lib/run" "$TREE/lib/kernel" "$TREE/harness"
	cat >"$TREE/lib/run/seam.c" <<'C'
#include <sys/mount.h>
/* the backend carries out mount(2); we only call through it */
int seam(const struct ops *b, struct ops o);
int seam(const struct ops *b, struct ops o)
{
	return b->mount("a", "b") + o.unshare(0) + cmd_mount(0) + remount(1);
}
C
	echo 'int k(void) { return umount2("/x", 0); }' >"$TREE/lib/kernel/k.c"
	run "$CHECK" "$TREE"
	assert_success
	assert_output --partial "boundary-check: ok"
}

@test "boundary: an exception line allows one identifier in one file" {
	plant harness/prepare.c <<'C'
int planted(void);
int planted(void) { return capset(NULL, NULL); }
C
	mkdir -p "$TREE/tests"
	sed 's|^# (none: .*|harness/prepare.c:capset  # test|' "$CHECK" \
		>"$TREE/tests/boundary-check"
	chmod +x "$TREE/tests/boundary-check"
	run "$TREE/tests/boundary-check"
	assert_equal "$status" "$BASE_STATUS"
	assert_equal "$output" "$BASE_OUTPUT"
	run "$CHECK" "$TREE"
	assert_failure 1
	assert_line "harness/prepare.c:$((LINE + 1)):capset() (in planted)"
}

@test "boundary: usage errors exit 2" {
	run "$CHECK" "$BATS_TEST_TMPDIR/nowhere"
	assert_failure 2
	run "$CHECK" a b
	assert_failure 2
}
