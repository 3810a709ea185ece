/* test_fuzz_gen.c - the generator (fuzz/gen.h) and the case it writes
 * (fuzz/case.h): one seed and index, one text; every case parses; the
 * shrinker's rewrites. */
#include <stdlib.h>
#include <string.h>

#include "fuzz/gen.h"
#include "scenario/scenario.h"
#include "tap.h"

static char *text_of(uint64_t seed, uint64_t index, const struct ns_fuzz_gen_opts *o)
{
	struct ns_fuzz_case c;
	struct ns_buf b = NS_BUF_INIT;

	ns_fuzz_generate(seed, index, o, &c);
	ns_fuzz_case_text(&c, "t", &b);
	ns_fuzz_case_free(&c);
	return ns_buf_detach(&b);
}

TEST(determinism)
{
	struct ns_fuzz_gen_opts o = { 10, 3, NS_FEAT_OPEN_TREE | NS_FEAT_MOVE_MOUNT | NS_FEAT_MOUNT_SETATTR };
	char *a = text_of(42, 7, &o), *b = text_of(42, 7, &o), *c = text_of(43, 7, &o),
	     *d = text_of(42, 8, &o);

	is_str(a, b, "the same seed and index give the same text");
	ok(strcmp(a, c) != 0, "another seed, another case");
	ok(strcmp(a, d) != 0, "another index, another case");
	free(a), free(b), free(c), free(d);
}

TEST(every_case_parses)
{
	struct ns_fuzz_gen_opts o = { 10, 3, NS_FEAT_OPEN_TREE | NS_FEAT_MOVE_MOUNT | NS_FEAT_MOUNT_SETATTR };
	size_t bad = 0, wrong_len = 0, too_many_terms = 0;
	bool seen_newapi = false, seen_exit = false, seen_userns = false;

	for (uint64_t seed = 1; seed <= 5000; seed++) {
		struct ns_fuzz_case c;
		struct ns_buf b = NS_BUF_INIT;
		struct ns_diag d = { NULL, 0 };
		struct ns_scenario *sc;
		unsigned terms[NS_FUZZ_MAX_TERMS];

		o.steps = 1 + (unsigned)(seed % 20);
		ns_fuzz_generate(seed, seed * 3, &o, &c);
		ns_fuzz_case_text(&c, "t", &b);
		sc = ns_scenario_parse("t.scn", ns_buf_str(&b), b.len, &d);
		if (!sc && bad++ < 3)
			printf("# seed %llu:\n%s# %s\n", (unsigned long long)seed, ns_buf_str(&b), d.msg);
		wrong_len += c.n != o.steps;
		too_many_terms += ns_fuzz_case_terms(&c, terms) > 3;
		seen_newapi |= strstr(ns_buf_str(&b), "open_tree") != NULL;
		seen_exit |= strstr(ns_buf_str(&b), "# exit") != NULL;
		seen_userns |= strstr(ns_buf_str(&b), "unshare -U") != NULL;
		ns_scenario_free(sc);
		ns_diag_free(&d);
		ns_buf_free(&b);
		ns_fuzz_case_free(&c);
	}
	ok(bad == 0, "5000 generated cases parse with no error (%zu did not)", bad);
	ok(wrong_len == 0, "each has as many operations as asked");
	ok(too_many_terms == 0, "and no more terminals than asked");
	ok(seen_newapi && seen_exit && seen_userns, "the new mount API, exit and unshare -U all occur");
}

TEST(no_features)
{
	struct ns_fuzz_gen_opts o = { 30, 2, 0 };
	bool newapi = false;

	for (uint64_t i = 0; i < 300; i++) {
		char *t = text_of(1, i, &o);
		newapi |= strstr(t, "open_tree") || strstr(t, "move_mount") || strstr(t, "mount_setattr");
		free(t);
	}
	ok(!newapi, "no new mount API where a side lacks it");
}

TEST(rewrites)
{
	struct ns_fuzz_case c = { NULL, 0, 0 }, r;
	struct ns_buf b = NS_BUF_INIT;

	ns_fuzz_case_add(&c, 3, "mount --bind /b/x /c");
	ns_fuzz_case_add(&c, 2, "mount /dev/d3 /b");
	ns_fuzz_case_add(&c, 3, "cat /proc/self/mountinfo");
	ok(ns_fuzz_case_rename(&r, &c, "b", "a"), "a rename that changes something says so");
	is_str(r.ops[0].cmd, "mount --bind /a/x /c", "a directory renamed in a path");
	is_str(r.ops[1].cmd, "mount /dev/d3 /a", "and in another");
	ns_fuzz_case_free(&r);
	ok(!ns_fuzz_case_rename(&r, &c, "q", "a"), "a rename that changes nothing says so");
	ns_fuzz_case_free(&r);
	ns_fuzz_case_normalize(&r, &c);
	ns_fuzz_case_text(&r, "t", &b);
	is_str(ns_buf_str(&b),
	       "title: t\n\n"
	       "    sh1# mount --bind /a/x /b\n"
	       "    sh2# mount /dev/d1 /a\n"
	       "    sh1# cat /proc/self/mountinfo\n"
	       "    sh1# cat /proc/self/mountinfo\n"
	       "    sh2# cat /proc/self/mountinfo\n",
	       "the normal form: names by first appearance, one observation per terminal");
	ns_fuzz_case_free(&r);
	ns_buf_free(&b);
	ns_fuzz_case_free(&c);
	ns_fuzz_case_add(&c, 1, "mkdir -p /a/x /b/x /c/x");
	ns_fuzz_case_rename(&r, &c, "b", "a");
	is_str(r.ops[0].cmd, "mkdir -p /a/x /c/x", "a merge leaves each mkdir operand once");
	ns_fuzz_case_free(&r);
	ns_fuzz_case_free(&c);
	ns_fuzz_case_add(&c, 3, "mount --bind /b/x /c");
	ns_fuzz_case_add(&c, 2, "mount /dev/d3 /b");
	ns_fuzz_case_add(&c, 3, "cat /proc/self/mountinfo");
	ns_fuzz_case_drop_term(&r, &c, 3);
	ok(r.n == 1 && r.ops[0].term == 2, "a terminal dropped");
	ns_fuzz_case_free(&r);
	ns_fuzz_case_drop(&r, &c, 0, 2);
	ok(r.n == 1 && !strcmp(r.ops[0].cmd, "cat /proc/self/mountinfo"), "a chunk dropped");
	ns_fuzz_case_free(&r);
	ns_fuzz_case_free(&c);
}
