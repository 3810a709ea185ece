#!/usr/bin/env bats
# tests/bats/boundary.bats - tests/boundary-check can fail: calls planted
# in a copy of the built tree (lib/, harness/, its objects and the
# Makefile), then compiled there, are named by object, symbol, line and
# function; calls in comments and strings, through an ops table or in
# lib/kernel/ are not. Needs the tree built (make nstest).

bats_require_minimum_version 1.5.0
load helpers

CHECK=$NSTEST_ROOT/tests/boundary-check

setup() {
	[[ -e $NSTEST_ROOT/lib/run/verdict.o ]] || fail "the tree is not built: run 'make nstest' first"
	TREE=$BATS_TEST_TMPDIR/tree
	mkdir -p "$TREE"
	cp -a "$NSTEST_ROOT/Makefile" "$NSTEST_ROOT/lib" "$NSTEST_ROOT/harness" "$TREE"/
	if [[ -e $NSTEST_ROOT/.build-flags ]]; then
		cp -a "$NSTEST_ROOT/.build-flags" "$TREE"/
	fi
	TREE=$(cd "$TREE" && pwd -P)
}

# plant FILE <<'C' ... C: appends C code to FILE of the copy (a new file
# if there is none) and compiles its object there; sets LINE to the
# number of the planted text's first line.
plant() {
	local file=$TREE/$1

	LINE=1
	[[ -e $file ]] && LINE=$(($(wc -l <"$file") + 1))
	cat >>"$file"
	build "${1%.c}.o"
}

# build OBJECT...: make them in the copy, with this make's flags or none
build() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TREE" "$@" >/dev/null ||
		fail "could not build $*"
}

@test "boundary: a clean tree passes" {
	run "$CHECK" "$TREE"
	assert_success
	assert_output --regexp '^boundary-check: ok, no listed call outside lib/kernel/ \([0-9]+ objects: lib/ but lib/kernel/, harness/, fuzz/ not built\)$'
}

@test "boundary: syscall(SYS_fspick, ...) in lib/run/ is named by object, symbol, line and function" {
	plant lib/run/verdict.c <<'C'
#include <sys/syscall.h>
#include <unistd.h>
int planted(void);
int planted(void)
{
	return (int)syscall(SYS_fspick, -1, "/", 0);
}
C
	run "$CHECK" "$TREE"
	assert_failure 1
	assert_line "lib/run/verdict.o: syscall (lib/run/verdict.c:$((LINE + 5)), in planted)"
	assert_equal "${#lines[@]}" 2
	assert_line --index 1 --regexp '^boundary-check: 1 call\(s\) outside lib/kernel/ in [0-9]+ objects'
}

@test "boundary: a plain fspick() call is named" {
	plant lib/run/verdict.c <<'C'
int fspick(int dfd, const char *path, unsigned int flags);
int planted(void);
int planted(void)
{
	return fspick(-1, "/", 0);
}
C
	run "$CHECK" "$TREE"
	assert_failure 1
	assert_line "lib/run/verdict.o: fspick (lib/run/verdict.c:$((LINE + 4)), in planted)"
}

@test "boundary: every listed call is named, and nothing else" {
	local calls="mount umount umount2 unshare setns pivot_root chroot fsopen fsconfig
		fsmount fspick open_tree open_tree_attr move_mount mount_setattr statmount
		listmount capset cap_set_proc syscall" want=() c
	{
		echo '/* each a call, declared here so that no header decides */'
		for c in $calls; do
			echo "int $c(void);"
		done
		echo 'int getpid(void);'
		echo 'int planted_all(void);'
		echo 'int planted_all(void)'
		echo '{'
		echo '	int r = 0;'
		for c in $calls; do
			echo "	r += $c();"
		done
		echo '	return r + getpid();'
		echo '}'
	} | plant lib/match/planted_all.c
	run "$CHECK" "$TREE"
	assert_failure 1
	for c in $calls; do
		want+=("lib/match/planted_all.o: $c")
	done
	# one line per call, in symbol order; getpid is no mount call
	assert_equal "$(sed -n 's/ (lib\/match\/planted_all\.c:[0-9]*, in planted_all)$//p' <<<"$output")" \
		"$(printf '%s\n' "${want[@]}" | LC_ALL=C sort)"
	assert_equal "${#lines[@]}" 21
}

@test "boundary: an inline wrapper of mountapi.h outside lib/kernel/ is named where it was inlined" {
	plant harness/collect.c <<'C'
#include <fcntl.h>
#include "kernel/mountapi.h"
int planted(void);
int planted(void)
{
	return ns_open_tree(AT_FDCWD, "/", 0);
}
C
	run "$CHECK" "$TREE"
	assert_failure 1
	assert_line --regexp "^harness/collect\\.o: syscall \\((lib/kernel/mountapi\\.h:[0-9]+|harness/collect\\.c:$((LINE + 4))), in (planted|ns_open_tree)\\)\$"
}

@test "boundary: mount() in lib/match/ and a pointer to umount2 are named" {
	plant lib/match/match.c <<'C'
int mount(const char *, const char *, const char *, unsigned long, const void *);
int umount2(const char *, int);
int planted(void);
int planted(void)
{
	return mount("a", "b", NULL, 0, NULL);
}
int (*planted_fp)(const char *, int);
int (*planted_fp)(const char *, int) = umount2;
C
	run "$CHECK" "$TREE"
	assert_failure 1
	assert_line "lib/match/match.o: mount (lib/match/match.c:$((LINE + 5)), in planted)"
	assert_line "lib/match/match.o: umount2 (referenced, not called)"
}

@test "boundary: calls in comments and strings, and through an ops table, do not trip it" {
	plant lib/match/match.c <<'C'
/* mount("a", "b", NULL, 0, NULL);
 * unshare(CLONE_NEWNS); syscall(SYS_fspick, -1, "/", 0); */
// setns(fd, 0); fspick(-1, "/", 0)
static const char *planted_s = "mount(\"a\", \"b\") umount2(\"x\", 0)";
struct planted_ops { int (*mount)(const char *); int (*syscall)(long); };
int planted(const struct planted_ops *b);
int planted(const struct planted_ops *b)
{
	/* the backend carries out mount(2); we only call through it */
	return b->mount(planted_s) + b->syscall(0);
}
C
	run "$CHECK" "$TREE"
	assert_success
	assert_output --partial "boundary-check: ok"
}

@test "boundary: calls inside lib/kernel/ are allowed" {
	plant lib/kernel/sandbox.c <<'C'
#include <sys/syscall.h>
#include <unistd.h>
#include "kernel/mountapi.h"
int planted(void);
int planted(void)
{
	return (int)syscall(SYS_move_mount, -1, "", -1, "", 0) +
	       ns_fspick(-1, "/", 0);
}
C
	run "$CHECK" "$TREE"
	assert_success
}

@test "boundary: fuzz/ objects are checked when they are built" {
	cp -a "$NSTEST_ROOT/fuzz" "$TREE"/
	rm -f "$TREE"/fuzz/*.o
	build fuzz/replay.o fuzz/fuzz_scenario.o fuzz/fuzz_matcher.o
	run "$CHECK" "$TREE"
	assert_success
	assert_output --regexp 'harness/, fuzz/\)$'
	plant fuzz/replay.c <<'C'
int unshare(int);
int planted(void);
int planted(void) { return unshare(0x00020000); }
C
	run "$CHECK" "$TREE"
	assert_failure 1
	assert_line "fuzz/replay.o: unshare (fuzz/replay.c:$((LINE + 2)), in planted)"
}

@test "boundary: a missing or stale object is an error, not a pass" {
	rm "$TREE/lib/run/verdict.o"
	run "$CHECK" "$TREE"
	assert_failure 2
	assert_line "boundary-check: lib/run/verdict.c: no object"
	assert_line "boundary-check: build first (make check-boundary does)"
	build lib/run/verdict.o
	run "$CHECK" "$TREE"
	assert_success
	touch -d 'now + 1 minute' "$TREE/harness/collect.c"
	run "$CHECK" "$TREE"
	assert_failure 2
	assert_line "boundary-check: harness/collect.o: older than harness/collect.c"
}

@test "boundary: usage errors exit 2" {
	run "$CHECK" "$BATS_TEST_TMPDIR/nowhere"
	assert_failure 2
	run "$CHECK" a b
	assert_failure 2
	run "$CHECK" -h
	assert_failure 2
}
