#!/usr/bin/env bats
# tests/bats/layers.bats - tests/layer-check can fail: an include and
# calls planted in a copy of the built lib/ and harness/ against the
# folders' order are named by file, folder and header or symbol; the
# same within a folder or downward are not; a tree that keeps the order
# passes. The copy is compared with its own unplanted output, so these
# tests hold whether or not the real tree passes the check yet.

bats_require_minimum_version 1.5.0
load helpers

CHECK=$NSTEST_ROOT/tests/layer-check

setup() {
	TREE=$BATS_TEST_TMPDIR/tree
	mkdir -p "$TREE"
	[[ -f $NSTEST_ROOT/lib/base/util.o ]] ||
		fail "lib/ is not built: run 'make nstest' first"
	# objects and all, their times kept: the check reads the objects
	cp -a "$NSTEST_ROOT/lib" "$NSTEST_ROOT/harness" "$TREE"/
	run "$CHECK" "$TREE"
	BASE_STATUS=$status
	BASE_OUTPUT=$output
}

# violations OUTPUT: the lines that name one (the summary, which counts
# files, left out).
violations() {
	grep -v '^layer-check: ' <<<"$1" || true
}

# compile FILE <<'C' ... C: writes C code to FILE of the copy (a new
# .c) and builds its object beside it, as make would.
compile() {
	cat >"$TREE/$1"
	cc -std=gnu11 -I"$TREE/lib" -c -o "$TREE/${1%.c}.o" "$TREE/$1"
}

# assert_base_lines: every line the unplanted copy printed is printed
# still (the planted ones come on top).
assert_base_lines() {
	local l
	while IFS= read -r l; do
		[[ -z $l ]] || assert_line "$l"
	done <<<"$(violations "$BASE_OUTPUT")"
}

@test "layers: an upward include is named by file, folder and header" {
	cat >>"$TREE/lib/mounts/snapshot.h" <<'C'
#include "run/runner.h"
/* #include "report/reporter.h" in a comment includes nothing */
C
	run "$CHECK" "$TREE"
	assert_failure 1
	assert_line "lib/mounts/snapshot.h: reaches run (run/runner.h)"
	refute_line --partial "lib/mounts/snapshot.h: reaches report"
	assert_base_lines
}

@test "layers: an upward call is named by object, folder and symbol" {
	compile lib/base/planted.c <<'C'
const void *ns_reporter_find(const char *name);
const void *planted(void);
const void *planted(void) { return ns_reporter_find("tap"); }
C
	run "$CHECK" "$TREE"
	assert_failure 1
	assert_line "lib/base/planted.o: reaches report (ns_reporter_find)"
	assert_base_lines
}

@test "layers: the backends are siblings: one reaching the other's data is named" {
	compile lib/kernel/planted.c <<'C'
extern const char ns_backend_model[];
const void *planted(void);
const void *planted(void) { return ns_backend_model; }
C
	run "$CHECK" "$TREE"
	assert_failure 1
	assert_line "lib/kernel/planted.o: reaches model (ns_backend_model)"
	assert_base_lines
}

@test "layers: includes and calls downward or within a folder are allowed" {
	cat >>"$TREE/lib/report/show.h" <<'C'
#include "match/match.h"
#include "report/reporter.h"
C
	compile lib/report/planted.c <<'C'
void *ns_matcher_new(void);
const void *ns_reporter_find(const char *name);
int planted(void);
int planted(void) { return ns_matcher_new() != ns_reporter_find("tap"); }
C
	compile harness/planted.c <<'C'
void *ns_matcher_new(void);
void *planted(void);
void *planted(void) { return ns_matcher_new(); }
C
	run "$CHECK" "$TREE"
	assert_equal "$status" "$BASE_STATUS"
	assert_equal "$(violations "$output")" "$(violations "$BASE_OUTPUT")"
}

@test "layers: a folder of lib/ outside the order is named" {
	mkdir "$TREE/lib/extra"
	compile lib/extra/x.c <<'C'
int extra(void);
int extra(void) { return 0; }
C
	run "$CHECK" "$TREE"
	assert_failure 1
	assert_line "lib/extra/: in no level of the order (tests/layer-check, ORDER)"
}

@test "layers: a tree that keeps the order passes" {
	rm -rf "$TREE"
	mkdir -p "$TREE"/lib/{base,match,kernel,model} "$TREE/harness"
	echo 'int base_f(void);' >"$TREE/lib/base/a.h"
	compile lib/base/a.c <<'C'
int base_f(void);
int base_f(void) { return 1; }
C
	compile lib/match/m.c <<'C'
#include "base/a.h"
int match_f(void);
int match_f(void) { return base_f(); }
C
	compile lib/kernel/k.c <<'C'
int match_f(void);
int kernel_f(void);
int kernel_f(void) { return match_f(); }
C
	compile lib/model/m.c <<'C'
int base_f(void);
int model_f(void);
int model_f(void) { return base_f(); }
C
	compile harness/main.c <<'C'
#include "base/a.h"
int kernel_f(void), model_f(void);
int main(void) { return kernel_f() + model_f() + base_f(); }
C
	run "$CHECK" "$TREE"
	assert_success
	assert_output "layer-check: ok, every include and call points down (6 files, 5 objects)"
}

@test "layers: a source whose object is missing or older stops the check (exit 2)" {
	rm "$TREE/lib/match/renaming.o"
	run "$CHECK" "$TREE"
	assert_failure 2
	assert_output --partial "lib/match/renaming.o is not built (run make first)"
	cp -a "$NSTEST_ROOT/lib/match/renaming.o" "$TREE/lib/match/"
	touch -d '1 hour' "$TREE/lib/match/renaming.c"
	run "$CHECK" "$TREE"
	assert_failure 2
	assert_output --partial "lib/match/renaming.o is older than lib/match/renaming.c"
}

@test "layers: usage errors exit 2" {
	run "$CHECK" "$BATS_TEST_TMPDIR/nowhere"
	assert_failure 2
	run "$CHECK" a b
	assert_failure 2
}
