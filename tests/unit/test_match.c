/* test_match.c - the matcher: mountinfo parsing, the three renamings that
 * hold across a scenario, numbers released once a view shows them dead,
 * "...", unordered blocks and the diff of a failed step. Every rule has a
 * test that makes it fail. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "match/match.h"
#include "step.h"
#include "tap.h"

/* ---- helpers ------------------------------------------------------------- */

/* Run one step (step.h) in the default shape. */
static bool run(struct ns_matcher *m, const char *const *exp, bool unordered,
		const char *actual, char **diff)
{
	return match_step(m, NULL, exp, unordered, actual, diff);
}

/* A step on a fresh matcher. */
static bool run1(const char *const *exp, bool unordered, const char *actual)
{
	struct ns_matcher *m = ns_matcher_new();
	bool ok = run(m, exp, unordered, actual, NULL);

	ns_matcher_free(m);
	return ok;
}

static char *renamed(const struct ns_matcher *m, const char *line)
{
	struct ns_buf b = NS_BUF_INIT;

	ns_matcher_rename(m, line, &b);
	return ns_buf_detach(&b);
}

#define L(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* Run one step that was taken in view v (ns_matcher_set_view). */
static bool runv(struct ns_matcher *m, const struct ns_view *v,
		 const char *const *exp, bool unordered, const char *actual,
		 char **diff)
{
	ns_matcher_set_view(m, v);
	return run(m, exp, unordered, actual, diff);
}

/* Two places (say two namespaces), complete views of them, and views
 * that show only some kinds, or nothing, in full. */
static const struct ns_view P1 = { { 1, 10, 100 }, NS_VIEW_ALL };
static const struct ns_view P2 = { { 2, 20, 200 }, NS_VIEW_ALL };
static const struct ns_view P1_PART = { { 1, 10, 100 }, 0 };
static const struct ns_view P1_IDS = { { 1, 10, 100 }, NS_VIEW_IDS };
static const struct ns_view NOWHERE = { { 0, 0, 0 }, NS_VIEW_ALL };

/* ---- ns_mi_parse --------------------------------------------------------- */

TEST(parse_article_line)
{
	struct ns_mi_line l;

	ok(ns_mi_parse("77 61 8:17 / /mntS rw,relatime shared:1", &l),
	   "parse: the article's line without \" - ...\"");
	ok(l.id == 77 && l.parent == 61 && l.major == 8 && l.minor == 17,
	   "parse: ID, PARENT and MAJ:MIN");
	is_str(l.root, "/", "parse: ROOT");
	is_str(l.mountpoint, "/mntS", "parse: MOUNTPOINT");
	is_str(l.opts, "rw,relatime", "parse: OPTS");
	ok(l.ntags == 1 && l.tags[0].numbered && l.tags[0].group == 1,
	   "parse: shared:1 is a numbered tag");
	is_str(l.tags[0].name, "shared", "parse: its name");
	is_str(l.rest, "", "parse: no rest");
	ns_mi_free(&l);
}

TEST(parse_full_line)
{
	struct ns_mi_line l;

	ok(ns_mi_parse("133 83 8:22 /sub /mntY rw shared:2 master:1 "
		       "propagate_from:3 unbindable - tmpfs /dev/sdb6 rw,size=4k", &l),
	   "parse: a line with every kind of tag and the rest");
	ok(l.ntags == 4, "parse: four optional fields");
	ok(l.tags[1].numbered && strcmp(l.tags[1].name, "master") == 0 &&
	   l.tags[1].group == 1, "parse: master:1");
	ok(l.tags[2].numbered && strcmp(l.tags[2].name, "propagate_from") == 0 &&
	   l.tags[2].group == 3, "parse: propagate_from:3");
	ok(!l.tags[3].numbered, "parse: unbindable is a literal tag");
	is_str(l.tags[3].name, "unbindable", "parse: its text");
	is_str(l.rest, " - tmpfs /dev/sdb6 rw,size=4k", "parse: rest from \" - \" on");
	ns_mi_free(&l);

	ok(ns_mi_parse("83 61 8:15 / /mntP rw,relatime - ext4 /dev/sda rw", &l) &&
	   l.ntags == 0, "parse: the rest right after OPTS");
	is_str(l.rest, " - ext4 /dev/sda rw", "parse: that rest");
	ns_mi_free(&l);
}

TEST(parse_odd_tags)
{
	static const char *const lit[] = { "shared:", "shared:x", "shared:01",
					   "shared:1:2", "slave:3", "Shared:1" };
	struct ns_mi_line l;

	for (size_t i = 0; i < NS_ARRAY_SIZE(lit); i++) {
		char *line = xasprintf("1 2 3:4 / /m rw %s", lit[i]);
		ok(ns_mi_parse(line, &l) && l.ntags == 1 && !l.tags[0].numbered &&
		   strcmp(l.tags[0].name, lit[i]) == 0,
		   "parse: \"%s\" is a literal tag", lit[i]);
		ns_mi_free(&l);
		free(line);
	}
}

TEST(parse_rejects)
{
	static const char *const bad[] = {
		"", "77", "77 61 8:17 / /mntS", "x 61 8:17 / /mntS rw",
		"77 -1 8:17 / /mntS rw", "077 61 8:17 / /mntS rw",
		"77 61 817 / /mntS rw", "77 61 8:x / /mntS rw", "77 61 8: / /m rw",
		"77 61 :17 / /m rw", "77 61 8:17:1 / /m rw", "77 61 8:17 x /m rw",
		"77 61 8:17 / m rw", "77 61 8:17 / /m ", "77  61 8:17 / /m rw",
		" 77 61 8:17 / /m rw", "77 61 8:17 / /m rw ", "77 61 8:17 / /m rw  shared:1",
		"99999999999999999999999 61 8:17 / /m rw", "77 61 8:17 / /m\trw",
		"/dev/sda1 on /", "...",
	};
	struct ns_mi_line l;

	for (size_t i = 0; i < NS_ARRAY_SIZE(bad); i++) {
		ok(!ns_mi_parse(bad[i], &l), "parse: rejects \"%s\"", bad[i]);
		ns_mi_free(&l);
	}
}

/* Mutate the article's lines at random: the parser must not crash, and
 * whatever it accepts must come back byte for byte from rename on an empty
 * matcher (so rename never loses or reformats anything). */
TEST(parse_fuzz)
{
	static const char *const seeds[] = {
		"77 61 8:17 / /mntS rw,relatime shared:1",
		"169 167 8:22 / /mntY rw,relatime master:2",
		"108 83 8:2 / /home/cecilia rw,relatime unbindable",
		"133 83 8:22 /x /mntY rw shared:2 master:1 - tmpfs /dev/sdb6 rw",
	};
	static const char alphabet[] = "0123456789:/ -abshredmt,";
	struct ns_matcher *m = ns_matcher_new();
	unsigned long seed = 42;
	int accepted = 0, bad = 0;

	for (int round = 0; round < 100000; round++) {
		char line[128];
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		strcpy(line, seeds[(seed >> 33) % NS_ARRAY_SIZE(seeds)]);
		for (int k = 0; k < 1 + (int)((seed >> 40) % 4); k++) {
			seed = seed * 6364136223846793005UL + 1442695040888963407UL;
			size_t len = strlen(line), at = (seed >> 33) % (len + 1);
			char c = alphabet[(seed >> 20) % (sizeof(alphabet) - 1)];
			if ((seed >> 50) % 3 == 0 && at < len)
				memmove(line + at, line + at + 1, len - at); /* delete */
			else if ((seed >> 50) % 3 == 1 && len < sizeof(line) - 1)
				memmove(line + at + 1, line + at, len - at + 1), line[at] = c;
			else if (at < len)
				line[at] = c;
		}
		struct ns_mi_line l;
		if (ns_mi_parse(line, &l)) {
			char *back = renamed(m, line);
			accepted++;
			bad += strcmp(back, line) != 0;
			free(back);
		}
		ns_mi_free(&l);
	}
	ok(bad == 0 && accepted > 1000,
	   "parse: 100000 mutated lines, %d accepted, all rename back unchanged (%d bad)",
	   accepted, bad);
	ns_matcher_free(m);
}

/* ---- the article's MS_SHARED demo ---------------------------------------- */

TEST(article_shared_demo)
{
	struct ns_matcher *m = ns_matcher_new();
	char *s;

	ok(run(m, L("77 61 8:17 / /mntS rw,relatime shared:1",
		    "83 61 8:15 / /mntP rw,relatime"), false,
	       "1001 900 0:41 / /mntS rw,relatime shared:501\n"
	       "1002 900 0:42 / /mntP rw,relatime\n", NULL),
	   "article: sh1 sees /mntS shared and /mntP private");
	ok(run(m, L("222 145 8:17 / /mntS rw,relatime shared:1",
		    "225 145 8:15 / /mntP rw,relatime"), false,
	       "2001 2000 0:41 / /mntS rw,relatime shared:501\n"
	       "2002 2000 0:42 / /mntP rw,relatime\n", NULL),
	   "article: sh2's copies: new IDs, same devices and peer group");
	ok(run(m, L("222 145 8:17 / /mntS rw,relatime shared:1",
		    "225 145 8:15 / /mntP rw,relatime",
		    "178 222 8:22 / /mntS/a rw,relatime shared:2",
		    "230 225 8:23 / /mntP/b rw,relatime"), false,
	       "2001 2000 0:41 / /mntS rw,relatime shared:501\n"
	       "2002 2000 0:42 / /mntP rw,relatime\n"
	       "2010 2001 0:43 / /mntS/a rw,relatime shared:502\n"
	       "2011 2002 0:44 / /mntP/b rw,relatime\n", NULL),
	   "article: sh2 mounts under /mntS and /mntP");
	ok(run(m, L("77 61 8:17 / /mntS rw,relatime shared:1",
		    "83 61 8:15 / /mntP rw,relatime",
		    "179 77 8:22 / /mntS/a rw,relatime shared:2"), false,
	       "1001 900 0:41 / /mntS rw,relatime shared:501\n"
	       "1002 900 0:42 / /mntP rw,relatime\n"
	       "1010 1001 0:43 / /mntS/a rw,relatime shared:502", NULL),
	   "article: the mount propagated back to sh1 (no final newline)");

	s = renamed(m, "2010 2001 0:43 / /mntS/a rw,relatime shared:502");
	is_str(s, "178 222 8:22 / /mntS/a rw,relatime shared:2",
	       "rename: every number in its expected name");
	free(s);
	s = renamed(m, "3000 2001 0:99 / /x rw master:502 - tmpfs src rw");
	is_str(s, "3000 222 0:99 / /x rw master:2 - tmpfs src rw",
	       "rename: unbound numbers stay as they are");
	free(s);
	s = renamed(m, "/dev/sdb6 on /mntX 2001");
	is_str(s, "/dev/sdb6 on /mntX 2001", "rename: other lines are copied");
	free(s);
	ns_matcher_free(m);
}

TEST(rest)
{
	ok(run1(L("77 61 8:17 / /mntS rw,relatime shared:1 - tmpfs src rw"), false,
		"5 4 0:41 / /mntS rw,relatime shared:9 - tmpfs src rw\n"),
	   "rest: equal rests match");
	ok(!run1(L("77 61 8:17 / /mntS rw,relatime shared:1 - tmpfs src rw"), false,
		 "5 4 0:41 / /mntS rw,relatime shared:9 - tmpfs src ro\n"),
	   "rest: is compared literally");
	ok(!run1(L("77 61 8:17 / /mntS rw,relatime shared:1"), false,
		 "5 4 0:41 / /mntS rw,relatime shared:9 - tmpfs src rw\n"),
	   "rest: a line without one does not match a line with one");
}

/* ---- each renaming rule fails -------------------------------------------- */

TEST(peer_group_must_be_equal)
{
	const char *const *exp = L("77 61 8:17 / /mntS rw,relatime shared:1",
				   "78 61 8:18 / /mntT rw,relatime shared:1");

	ok(run1(exp, false, "5 4 0:41 / /mntS rw,relatime shared:7\n"
			    "6 4 0:42 / /mntT rw,relatime shared:7\n"),
	   "groups: the same peer group on both lines matches");
	ok(!run1(exp, false, "5 4 0:41 / /mntS rw,relatime shared:7\n"
			     "6 4 0:42 / /mntT rw,relatime shared:8\n"),
	   "groups: two different actual groups for one expected group fail");
	ok(!run1(L("77 61 8:17 / /mntS rw shared:1", "78 61 8:18 / /mntT rw shared:2"),
		 false, "5 4 0:41 / /mntS rw shared:7\n6 4 0:42 / /mntT rw shared:7\n"),
	   "groups: one actual group for two expected groups fails");
	ok(run1(L("77 61 8:17 / /mntS rw shared:1", "78 61 8:18 / /mntT rw master:1"),
		false, "5 4 0:41 / /mntS rw shared:7\n6 4 0:42 / /mntT rw master:7\n"),
	   "groups: shared and master share one renaming");
	ok(!run1(L("77 61 8:17 / /mntS rw shared:1", "78 61 8:18 / /mntT rw master:1"),
		 false, "5 4 0:41 / /mntS rw shared:7\n6 4 0:42 / /mntT rw master:8\n"),
	   "groups: master:N must name the group shared:N named");
}

TEST(wrong_parent)
{
	const char *const *exp = L("222 145 8:17 / /mntS rw shared:1",
				   "225 145 8:15 / /mntP rw",
				   "178 222 8:22 / /mntS/a rw shared:2");

	ok(run1(exp, false, "20 10 0:41 / /mntS rw shared:5\n21 10 0:42 / /mntP rw\n"
			    "30 20 0:43 / /mntS/a rw shared:6\n"),
	   "parent: /mntS/a under /mntS matches");
	ok(!run1(exp, false, "20 10 0:41 / /mntS rw shared:5\n21 10 0:42 / /mntP rw\n"
			     "30 21 0:43 / /mntS/a rw shared:6\n"),
	   "parent: /mntS/a under /mntP fails");
	ok(!run1(L("5 5 0:1 / / rw"), false, "7 8 0:1 / / rw\n"),
	   "parent: ID and PARENT share one renaming");
}

TEST(devices)
{
	const char *const *exp = L("77 61 8:17 / /mntS rw,relatime shared:1",
				   "83 61 8:15 / /mntP rw,relatime");

	ok(!run1(exp, false, "1001 900 0:41 / /mntS rw,relatime shared:501\n"
			     "1002 900 0:41 / /mntP rw,relatime\n"),
	   "devices: two devices mapped to one actual device fail");
	ok(!run1(L("1 9 8:1 / /a rw", "2 9 8:1 / /b rw"), false,
		 "5 4 0:5 / /a rw\n6 4 0:6 / /b rw\n"),
	   "devices: one device mapped to two actual devices fails");
	ok(run1(L("1 9 8:1 / /a rw", "2 9 8:2 / /b rw"), false,
		"5 4 0:5 / /a rw\n6 4 1:5 / /b rw\n"),
	   "devices: MAJ:MIN is renamed as a pair, not per half");
}

TEST(literal_parts)
{
	ok(!run1(L("77 61 8:17 / /mntS rw,relatime shared:1"), false,
		 "5 4 0:41 / /mntS ro,relatime shared:9\n"),
	   "literal: rw,relatime against ro,relatime fails");
	ok(!run1(L("77 61 8:17 / /mntS rw shared:1"), false, "5 4 0:41 / /mntT rw shared:9\n"),
	   "literal: another mountpoint fails");
	ok(!run1(L("77 61 8:17 / /mntS rw shared:1"), false, "5 4 0:41 /x /mntS rw shared:9\n"),
	   "literal: another root fails");
	ok(!run1(L("77 61 8:17 / /mntS rw shared:1"), false, "5 4 0:41 / /mntS rw master:9\n"),
	   "literal: another tag kind fails");
	ok(!run1(L("7 6 8:1 / /m rw shared:1 master:2"), false, "5 4 0:4 / /m rw master:2 shared:1\n"),
	   "literal: tags in another order fail");
	ok(!run1(L("108 83 8:2 / /home/cecilia rw,relatime unbindable"), false,
		 "5 4 0:4 / /home/cecilia rw,relatime\n"),
	   "literal: a missing unbindable tag fails");
	ok(run1(L("/dev/sda1 on /", "/dev/sdb6 on /mntX"), false,
		"/dev/sda1 on /\n/dev/sdb6 on /mntX\n"),
	   "literal: equal non-mountinfo lines match");
	ok(!run1(L("/dev/sda1 on /", "/dev/sdb6 on /mntX"), false,
		 "/dev/sda1 on /\n/dev/sdb6 on /mntY\n"),
	   "literal: a different non-mountinfo line fails");
	ok(!run1(L("16"), false, "17\n"), "literal: a count is not renamed");
	ok(!run1(L("77 61 8:17 / /mntS rw"), false, "77 61 8:17 / /mntS rw \n"),
	   "literal: a record does not match a line that is not one");
}

TEST(line_counts)
{
	const char *const *exp = L("77 61 8:17 / /mntS rw shared:1", "83 61 8:15 / /mntP rw");

	ok(!run1(exp, false, "5 4 0:41 / /mntS rw shared:9\n"), "count: a missing line fails");
	ok(!run1(exp, false, "5 4 0:41 / /mntS rw shared:9\n6 4 0:42 / /mntP rw\n"
			     "7 4 0:43 / /mntQ rw\n"), "count: an extra line fails");
	ok(!run1(exp, false, "6 4 0:42 / /mntP rw\n5 4 0:41 / /mntS rw shared:9\n"),
	   "count: lines in another order fail when ordered");
	ok(run1(L(NULL), false, ""), "count: no lines expected, none printed");
	ok(!run1(L(NULL), false, "\n"), "count: an empty line is a line");
	ok(!run1(L("x"), false, ""), "count: empty output is zero lines");
}

/* ---- bindings across steps ----------------------------------------------- */

TEST(across_steps)
{
	struct ns_matcher *m = ns_matcher_new();

	ok(run(m, L("77 61 8:17 / /mntS rw shared:1"), false,
	       "1001 900 0:41 / /mntS rw shared:501\n", NULL),
	   "steps: the first step binds 77, 61, 8:17 and group 1");
	ok(!run(m, L("77 61 8:17 / /mntS rw shared:1"), false,
		"1005 900 0:41 / /mntS rw shared:501\n", NULL),
	   "steps: a later step contradicting the ID binding fails");
	ok(!run(m, L("80 61 8:17 / /mntT rw shared:1"), false,
		"1006 900 0:45 / /mntT rw shared:501\n", NULL),
	   "steps: a later step contradicting the device binding fails");
	ok(!run(m, L("80 61 8:18 / /mntT rw shared:1"), false,
		"1001 900 0:45 / /mntT rw shared:501\n", NULL),
	   "steps: an actual ID bound to another expected ID fails");
	ok(run(m, L("77 61 8:17 / /mntS rw shared:1"), false,
	       "1001 900 0:41 / /mntS rw shared:501\n", NULL),
	   "steps: the original binding still holds");
	ns_matcher_free(m);
}

TEST(failed_step_leaves_no_trace)
{
	struct ns_matcher *m = ns_matcher_new();
	char *d;

	ok(run(m, L("77 61 8:17 / /mntS rw shared:1"), false,
	       "1001 900 0:41 / /mntS rw shared:501\n", NULL), "undo: first step");
	/* binds 300<->3000, 8:30<->0:30, group 7<->700, then fails on /b */
	ok(!run(m, L("300 77 8:30 / /mntS/a rw shared:7", "301 77 8:31 / /mntS/b rw"),
		false, "3000 1001 0:30 / /mntS/a rw shared:700\n"
		       "3001 1001 0:31 / /mntS/b ro\n", &d),
	   "undo: a step that binds, then fails");
	free(d);
	ok(run(m, L("300 77 8:30 / /mntS/a rw shared:7"), false,
	       "3001 1001 0:32 / /mntS/a rw shared:701\n", NULL),
	   "undo: none of the failed step's bindings remain");
	ok(!run(m, L("77 61 8:17 / /mntS rw shared:1"), false,
		"1001 900 0:41 / /mntS rw shared:502\n", NULL),
	   "undo: the bindings from before it do");
	ns_matcher_free(m);
}

/* ---- numbers freed and given out again ----------------------------------- */

/* The kernel's side of the reuse scenarios: / is 48 on 45; /a is 46 with
 * device 0:41 in group 1, is unmounted, and the next /a gets all three
 * numbers again. */
#define ROOT_A "48 45 0:40 / / rw\n"
#define A_46 "46 48 0:41 / /a rw shared:1\n"

/* The transcript's first /a, and /a after its unmount: both complete. */
static void bind_then_unmount(struct ns_matcher *m, const struct ns_view *v)
{
	ok(runv(m, &P1, L("61 17 8:1 / / rw", "62 61 8:2 / /a rw shared:1"), false,
		ROOT_A A_46, NULL), "reuse: /a is 62 on 8:2 in group 1");
	ok(runv(m, v, L("61 17 8:1 / / rw"), false, ROOT_A, NULL),
	   "reuse: /a unmounted, a view of the same place");
}

static const char *const *NEW_A = L("61 17 8:1 / / rw", "63 61 8:3 / /a rw shared:2");

TEST(reuse_after_complete_view)
{
	struct ns_matcher *m = ns_matcher_new();
	char *s;

	bind_then_unmount(m, &P1);
	ok(runv(m, &P1, NEW_A, false, ROOT_A A_46, NULL),
	   "reuse: after a complete view without it, 46, 0:41 and group 1 may be a new mount");
	s = renamed(m, "46 48 0:41 / /a rw shared:1");
	is_str(s, "63 61 8:3 / /a rw shared:2", "reuse: they now stand for the new names");
	free(s);
	ns_matcher_free(m);

	m = ns_matcher_new();
	bind_then_unmount(m, &P1);
	ok(runv(m, &P1, L("61 17 8:1 / / rw", "62 61 8:2 / /a rw shared:1"), false,
		ROOT_A "50 48 0:44 / /a rw shared:3\n", NULL),
	   "reuse: and the transcript's freed 62, 8:2 and 1 may name other numbers");
	ns_matcher_free(m);

	for (int split = 0; split < 2; split++) {
		m = ns_matcher_new();
		bind_then_unmount(m, &P1);
		ok(runv(m, &P1, L("61 17 8:1 / / rw", "63 61 8:3 / /a rw shared:2",
				  split ? "64 61 8:4 / /b rw shared:2" : "64 61 8:3 / /b rw shared:2"),
			false, ROOT_A A_46 "47 48 0:41 / /b rw shared:1\n", NULL) == !split,
		   "reuse: within a step the renaming stays one-to-one (%s)",
		   split ? "two new devices for one actual device fail" : "one device matches");
		ns_matcher_free(m);
	}
}

/* Each missing piece of evidence keeps today's strict renaming. */
TEST(reuse_needs_evidence)
{
	struct ns_matcher *m;

	m = ns_matcher_new();
	ok(runv(m, &P1, L("61 17 8:1 / / rw", "62 61 8:2 / /a rw shared:1"), false,
		ROOT_A A_46, NULL), "evidence: /a bound");
	ok(!runv(m, &P1, NEW_A, false, ROOT_A A_46, NULL),
	   "evidence: no view between the two mounts, no release");
	ns_matcher_free(m);

	m = ns_matcher_new();
	bind_then_unmount(m, &P1_PART);
	ok(!runv(m, &P1, NEW_A, false, ROOT_A A_46, NULL),
	   "evidence: a view that does not show everything (grep) releases nothing");
	ns_matcher_free(m);

	m = ns_matcher_new();
	ok(runv(m, &P1, L("61 17 8:1 / / rw", "62 61 8:2 / /a rw shared:1"), false,
		ROOT_A A_46, NULL), "evidence: /a bound");
	ok(runv(m, &P1, L("61 17 8:1 / / rw", "..."), false, ROOT_A, NULL),
	   "evidence: a view whose block has \"...\"");
	ok(!runv(m, &P1, NEW_A, false, ROOT_A A_46, NULL),
	   "evidence: a block with \"...\" releases nothing");
	ns_matcher_free(m);

	m = ns_matcher_new();
	ok(runv(m, &P1, L("61 17 8:1 / / rw", "62 61 8:2 / /a rw shared:1"), false,
		ROOT_A A_46, NULL), "evidence: /a bound");
	ok(!runv(m, &P1, L("61 17 8:1 / / ro"), false, ROOT_A, NULL),
	   "evidence: a view that fails to match");
	ok(!runv(m, &P1, NEW_A, false, ROOT_A A_46, NULL),
	   "evidence: a step that failed releases nothing");
	ns_matcher_free(m);

	m = ns_matcher_new();
	bind_then_unmount(m, &NOWHERE);
	ok(!runv(m, &P1, NEW_A, false, ROOT_A A_46, NULL),
	   "evidence: a view of an unknown place releases nothing");
	ns_matcher_free(m);

	m = ns_matcher_new();
	ok(run(m, L("61 17 8:1 / / rw", "62 61 8:2 / /a rw shared:1"), false,
	       ROOT_A A_46, NULL), "evidence: /a bound by a step without a view");
	ok(runv(m, &P1, L("61 17 8:1 / / rw"), false, ROOT_A, NULL),
	   "evidence: then a complete view without it");
	ok(!runv(m, &P1, NEW_A, false, ROOT_A A_46, NULL),
	   "evidence: a pair never seen in a known place is never released");
	ns_matcher_free(m);
}

/* The old mount is still there: the transcript's new number is wrong. */
TEST(reuse_old_mount_alive)
{
	struct ns_matcher *m = ns_matcher_new();

	ok(runv(m, &P1, L("61 17 8:1 / / rw", "62 61 8:2 / /a rw shared:1"), false,
		ROOT_A A_46, NULL), "alive: /a bound");
	ok(runv(m, &P1, L("61 17 8:1 / / rw", "62 61 8:2 / /a rw shared:1",
			  "70 61 8:5 / /b rw"), false,
		ROOT_A A_46 "49 48 0:45 / /b rw\n", NULL),
	   "alive: a complete view that still shows /a");
	ok(!runv(m, &P1, NEW_A, false, ROOT_A A_46, NULL),
	   "alive: a new number for the mount that stayed fails");
	ns_matcher_free(m);
}

/* Terminals in another namespace, or chrooted, see another part of the
 * mounts: their views say nothing about what they cannot see. */
TEST(reuse_other_place)
{
	struct ns_matcher *m = ns_matcher_new();
	char *d;

	ok(runv(m, &P1, L("61 17 8:1 / / rw", "62 61 8:2 / /a rw shared:1"), false,
		ROOT_A A_46, NULL), "place: /a bound in the first place");
	ok(runv(m, &P2, L("90 80 8:7 / / rw"), false, "60 59 0:50 / / rw\n", NULL),
	   "place: a complete view of another place, without /a");
	ok(!runv(m, &P1, NEW_A, false, ROOT_A A_46, &d),
	   "place: is no evidence for what the first place sees");
	ok(strstr(d, "+62 61 8:2 / /a rw shared:1\n") != NULL,
	   "place: the diff still shows 46 as 62");
	free(d);
	ns_matcher_free(m);
}

/* ---- what a place held after a step (ns_matcher_after_step) -------------- */

/* The numbers of mountinfo text, as a backend reports them. */
static struct ns_alive alive_of(const char *table)
{
	struct ns_alive a = { 0 };

	ns_alive_from_mountinfo(table, strlen(table), &a);
	return a;
}

/* A step that printed nothing (umount, say) in v's place, after which
 * that place held a. */
static void silent_step(struct ns_matcher *m, const struct ns_view *v, const struct ns_alive *a)
{
	struct ns_view quiet = *v;

	quiet.complete = 0;
	ok(runv(m, &quiet, (const char *const[]){ NULL }, false, "", NULL),
	   "after: a step that prints nothing");
	ns_matcher_after_step(m, v, a);
}

/* /a bound in P1 by a step that printed it, then an unmount step that
 * printed nothing, after which P1 held `after`. */
static void unmount_silently(struct ns_matcher *m, const struct ns_view *v, const char *after)
{
	struct ns_alive a = alive_of(after);

	ok(runv(m, &P1, L("61 17 8:1 / / rw", "62 61 8:2 / /a rw shared:1"), false,
		ROOT_A A_46, NULL), "after: /a bound");
	ns_matcher_after_step(m, &P1, NULL);
	silent_step(m, v, &a);
	ns_alive_free(&a);
}

TEST(reuse_after_step_table)
{
	struct ns_matcher *m = ns_matcher_new();
	struct ns_alive a;
	char *d;

	unmount_silently(m, &P1, ROOT_A);
	ok(runv(m, &P1, NEW_A, false, ROOT_A A_46, NULL),
	   "after: a place whose table lost /a frees 46, 0:41 and 1 with no view printed");
	ns_matcher_free(m);

	m = ns_matcher_new();
	unmount_silently(m, &P1, ROOT_A A_46);
	ok(!runv(m, &P1, NEW_A, false, ROOT_A A_46, &d),
	   "after: a table that still holds /a keeps its pairs");
	ok(d && strstr(d, "+62 61 8:2 / /a rw shared:1\n") != NULL,
	   "after: and the diff names the kept pair");
	free(d);
	ns_matcher_free(m);

	m = ns_matcher_new();
	unmount_silently(m, &P2, "60 59 0:50 / / rw\n");
	ok(!runv(m, &P1, NEW_A, false, ROOT_A A_46, NULL),
	   "after: another place's table says nothing of P1's pairs");
	ns_matcher_free(m);

	m = ns_matcher_new();
	unmount_silently(m, &NOWHERE, ROOT_A);
	ok(!runv(m, &P1, NEW_A, false, ROOT_A A_46, NULL),
	   "after: the table of an unknown place releases nothing");
	ns_matcher_free(m);

	/* not known: the backend could not read it */
	m = ns_matcher_new();
	ok(runv(m, &P1, L("61 17 8:1 / / rw", "62 61 8:2 / /a rw shared:1"), false,
		ROOT_A A_46, NULL), "after: /a bound");
	a = alive_of(ROOT_A "not a record\n");
	ok(!a.known, "after: a table with a line that is no record is not known");
	ns_matcher_after_step(m, &P1, &a);
	ns_alive_free(&a);
	ok(!runv(m, &P1, NEW_A, false, ROOT_A A_46, NULL),
	   "after: an unknown table releases nothing");
	ns_matcher_free(m);
}

/* What the step printed stays bound through its own table: the output
 * of `nsenter ... cat mountinfo` shows another place's mounts. */
TEST(reuse_after_step_keeps_printed)
{
	struct ns_matcher *m = ns_matcher_new();
	struct ns_alive a = alive_of(ROOT_A);

	ok(runv(m, &P1, L("61 17 8:1 / / rw", "62 61 8:2 / /a rw shared:1"), false,
		ROOT_A A_46, NULL), "printed: /a bound by the step");
	ns_matcher_after_step(m, &P1, &a);
	ok(!runv(m, &P1, NEW_A, false, ROOT_A A_46, NULL),
	   "printed: the step's own table without /a does not free what it printed");
	silent_step(m, &P1, &a);
	ok(runv(m, &P1, NEW_A, false, ROOT_A A_46, NULL),
	   "printed: the next step's table does");
	ns_alive_free(&a);
	ns_matcher_free(m);
}

/* A device or peer group seen from two places stays bound until both
 * places' tables have lost it. */
TEST(reuse_after_step_two_places)
{
	struct ns_matcher *m = ns_matcher_new();
	struct ns_alive copy = alive_of("60 59 0:50 / / rw\n70 60 0:41 / /a rw shared:1\n");
	struct ns_alive none2 = alive_of("60 59 0:50 / / rw\n");

	ok(runv(m, &P1, L("61 17 8:1 / / rw", "62 61 8:2 / /a rw shared:1"), false,
		ROOT_A A_46, NULL), "two: /a bound in P1");
	silent_step(m, &P2, &copy);
	{
		struct ns_alive gone = alive_of(ROOT_A);
		silent_step(m, &P1, &gone);
		ns_alive_free(&gone);
	}
	ok(!runv(m, &P1, L("61 17 8:1 / / rw", "63 61 8:3 / /a rw shared:1"), false,
		ROOT_A "47 48 0:44 / /a rw shared:2\n", NULL),
	   "two: group 1 still held in P2 keeps its name");
	silent_step(m, &P2, &none2);
	ok(runv(m, &P1, L("61 17 8:1 / / rw", "63 61 8:3 / /a rw shared:1"), false,
		ROOT_A "47 48 0:44 / /a rw shared:2\n", NULL),
	   "two: once P2's table lost it too, the name is free");
	ns_alive_free(&copy);
	ns_alive_free(&none2);
	ns_matcher_free(m);
}

/* A peer group (or a device) spans namespaces: it is released only once
 * absent from a complete view of every place it was seen in. */
/* The group's first two sightings, in two places, and its end in the
 * first. */
static void group_in_two_places(struct ns_matcher *m)
{
	ok(runv(m, &P1, L("61 17 8:1 / / rw", "62 61 8:2 / /a rw shared:1"), false,
		ROOT_A A_46, NULL), "groups: group 1 in the first place");
	ok(runv(m, &P2, L("90 80 8:7 / / rw", "91 90 8:2 / /a rw shared:1"), false,
		"60 59 0:50 / / rw\n61 60 0:41 / /a rw shared:1\n", NULL),
	   "groups: and in the second");
	ok(runv(m, &P1, L("61 17 8:1 / / rw"), false, ROOT_A, NULL),
	   "groups: the first place no longer has it");
}

TEST(reuse_group_in_two_places)
{
	struct ns_matcher *m = ns_matcher_new();
	const char *const *new_group = L("61 17 8:1 / / rw", "63 61 8:3 / /a rw shared:2");
	const char *again = ROOT_A "47 48 0:42 / /a rw shared:1\n";

	group_in_two_places(m);
	ok(!runv(m, &P1, new_group, false, again, NULL),
	   "groups: a new name for group 1 fails while the second place may hold it");
	ns_matcher_free(m);

	m = ns_matcher_new();
	group_in_two_places(m);
	ok(runv(m, &P2, L("90 80 8:7 / / rw"), false, "60 59 0:50 / / rw\n", NULL),
	   "groups: the second place no longer has it either");
	ok(runv(m, &P1, new_group, false, again, NULL),
	   "groups: now group 1 may be a new group");
	ns_matcher_free(m);
}

/* A sighting under "..." (or in a failed step) still counts. */
TEST(reuse_seen_below_dots)
{
	for (int failing = 0; failing < 2; failing++) {
		struct ns_matcher *m = ns_matcher_new();

		ok(runv(m, &P1, L("61 17 8:1 / / rw", "62 61 8:2 / /a rw shared:1"), false,
			ROOT_A A_46, NULL), "seen: group 1 in the first place");
		ok(runv(m, &P2, failing ? L("x") : L("90 80 8:7 / / rw", "..."), false,
			"60 59 0:50 / / rw\n61 60 0:41 / /a rw shared:1\n", NULL) == !failing,
		   "seen: the second place shows it %s", failing ? "in a step that fails" : "below \"...\"");
		ok(runv(m, &P1, L("61 17 8:1 / / rw"), false, ROOT_A, NULL),
		   "seen: the first place no longer has it");
		ok(!runv(m, &P1, L("61 17 8:1 / / rw", "63 61 8:3 / /a rw shared:2"), false,
			 ROOT_A "47 48 0:42 / /a rw shared:1\n", NULL),
		   "seen: so group 1 is not free (%s)", failing ? "failed step" : "\"...\"");
		ns_matcher_free(m);
	}
}

/* A view complete for some kinds only releases those. */
TEST(reuse_per_kind)
{
	struct ns_matcher *m = ns_matcher_new();

	bind_then_unmount(m, &P1_IDS);
	ok(!runv(m, &P1, NEW_A, false, ROOT_A A_46, NULL),
	   "kinds: a view complete for IDs only does not free device and group");
	ok(runv(m, &P1, L("61 17 8:1 / / rw", "63 61 8:2 / /a rw shared:1"), false,
		ROOT_A A_46, NULL),
	   "kinds: a new ID with the old device and group matches");
	ns_matcher_free(m);
}

/* The diff of a later step renames with the pairs valid then. */
TEST(reuse_diff)
{
	struct ns_matcher *m = ns_matcher_new();
	char *d;

	bind_then_unmount(m, &P1);
	ok(!runv(m, &P1, L("61 17 8:1 / / rw"), false, ROOT_A A_46, &d),
	   "diff: /a is back where the transcript has nothing");
	is_str(d, "--- expected\n+++ actual\n@@ -1,1 +1,2 @@\n"
		  " 61 17 8:1 / / rw\n+62 61 8:2 / /a rw shared:1\n",
	       "diff: the freed numbers get fresh names, the next above the ones in use");
	free(d);
	ns_matcher_free(m);
}

/* ---- "..." ---------------------------------------------------------------- */

TEST(dots)
{
	ok(run1(L("...", "B"), false, "x\ny\nB\n"), "dots: at the start");
	ok(run1(L("...", "B"), false, "B\n"), "dots: at the start, zero lines");
	ok(run1(L("A", "...", "B"), false, "A\nx\ny\nB\n"), "dots: in the middle");
	ok(run1(L("A", "...", "B"), false, "A\nB\n"), "dots: in the middle, zero lines");
	ok(run1(L("A", "..."), false, "A\nx\ny\n"), "dots: at the end");
	ok(run1(L("A", "..."), false, "A\n"), "dots: at the end, zero lines");
	ok(run1(L("..."), false, ""), "dots: alone against no output");
	ok(run1(L("...", "...", "A"), false, "x\nA\n"), "dots: twice in a row");
	ok(run1(L("...", "A", "...", "B", "..."), false, "A\nq\nB\n"),
	   "dots: three of them");
	ok(!run1(L("A", "...", "B"), false, "B\nx\nA\n"), "dots: order still counts");
	ok(!run1(L("...", "B"), false, "B\nx\n"), "dots: do not cover a line after B");
	ok(!run1(L("A", "...", "B"), false, "A\nx\n"), "dots: B must still appear");
	ok(run1(L("108 83 8:2 / /home/cecilia rw,relatime unbindable", "..."), false,
		"40 30 0:50 / /home/cecilia rw,relatime unbindable\n"
		"41 40 0:51 / /home/cecilia/mntX rw,relatime\n"),
	   "dots: the article's unbindable example");
}

/* The first split binds 10<->500 for /a; /b then needs 10<->501, so the
 * search must undo that and try the next split. */
TEST(dots_backtrack)
{
	struct ns_matcher *m = ns_matcher_new();
	char *s;

	ok(run(m, L("...", "10 1 8:1 / /a rw", "...", "11 10 8:2 / /b rw"), false,
	       "500 100 0:5 / /a rw\n501 100 0:6 / /a rw\n600 501 0:7 / /b rw\n", NULL),
	   "dots: a failed split is undone and the next one tried");
	s = renamed(m, "500 100 0:5 / /a rw");
	is_str(s, "500 1 0:5 / /a rw", "dots: nothing of the failed split is bound");
	free(s);
	s = renamed(m, "501 100 0:6 / /a rw");
	is_str(s, "10 1 8:1 / /a rw", "dots: the split that worked is");
	free(s);
	ns_matcher_free(m);
}

/* ---- unordered blocks ----------------------------------------------------- */

TEST(unordered)
{
	const char *const *exp = L("77 61 8:17 / /mntS rw shared:1",
				   "83 61 8:15 / /mntP rw",
				   "179 77 8:22 / /mntS/a rw shared:2",
				   "/dev/sdb6 on /mntX");

	ok(run1(exp, true, "/dev/sdb6 on /mntX\n10 9 0:22 / /mntS/a rw shared:5\n"
			   "9 8 0:17 / /mntS rw shared:4\n11 8 0:15 / /mntP rw\n"),
	   "unordered: lines in another order match");
	ok(!run1(exp, false, "/dev/sdb6 on /mntX\n10 9 0:22 / /mntS/a rw shared:5\n"
			     "9 8 0:17 / /mntS rw shared:4\n11 8 0:15 / /mntP rw\n"),
	   "unordered: the same lines fail in an ordered block");
	ok(!run1(exp, true, "/dev/sdb6 on /mntX\n10 11 0:22 / /mntS/a rw shared:5\n"
			    "9 8 0:17 / /mntS rw shared:4\n11 8 0:15 / /mntP rw\n"),
	   "unordered: the renaming still applies");
	ok(!run1(L("x", "x"), true, "x\nz\n"),
	   "unordered: one actual line cannot serve two literal lines");
	ok(!run1(L("10 1 8:1 / /a rw", "10 1 8:1 / /a rw", "..."), true,
		 "500 100 0:5 / /a rw\nz\n"),
	   "unordered: one actual record cannot serve two expected records");
	ok(!run1(L("x", "y"), true, "y\nx\nz\n"), "unordered: an extra line fails");
	ok(!run1(L("x", "y"), true, "y\n"), "unordered: a missing line fails");
	ok(run1(L("y", "...", "x"), true, "z\nx\nq\ny\n"),
	   "unordered: with \"...\" extra lines are allowed");
	ok(!run1(L("y", "...", "x"), true, "z\nx\nq\n"),
	   "unordered: with \"...\" every expected line is still needed");
}

/* First fit pairs E1-A1 and E2-A2, and then /b's parent contradicts it. */
TEST(unordered_backtrack)
{
	struct ns_matcher *m = ns_matcher_new();
	char *s;

	ok(run(m, L("10 1 8:1 / /a rw", "11 1 8:1 / /a rw", "20 11 8:2 / /b rw"), true,
	       "500 100 0:5 / /a rw\n501 100 0:5 / /a rw\n600 500 0:6 / /b rw\n", NULL),
	   "unordered: a wrong first pairing is undone");
	s = renamed(m, "500 100 0:5 / /a rw");
	is_str(s, "11 1 8:1 / /a rw", "unordered: the pairing kept is the one that works");
	free(s);
	ns_matcher_free(m);
}

TEST(budget)
{
	struct ns_matcher *m = ns_matcher_new();
	const char *const *exp = L("10 1 8:1 / /a rw", "11 1 8:1 / /a rw",
				   "20 11 8:2 / /b rw");
	const char *act = "500 100 0:5 / /a rw\n501 100 0:5 / /a rw\n600 500 0:6 / /b rw\n";
	char *d;

	ns_matcher_set_budget(m, 3);
	ok(!run(m, exp, true, act, &d), "budget: a search past its budget fails");
	ok(strncmp(d, "# gave up after 3 line comparisons", 34) == 0,
	   "budget: and its diff says so");
	free(d);
	ns_matcher_set_budget(m, 0);
	ok(run(m, exp, true, act, NULL), "budget: the default is enough for it");
	ns_matcher_free(m);
}

/* ---- diffs ---------------------------------------------------------------- */

TEST(diff_renamed)
{
	struct ns_matcher *m = ns_matcher_new();
	const char *const *exp = L("77 61 8:17 / /mntS rw,relatime shared:1",
				   "83 61 8:15 / /mntP rw,relatime");
	char *d;

	run(m, exp, false, "1001 900 0:41 / /mntS rw,relatime shared:501\n"
			   "1002 900 0:42 / /mntP rw,relatime\n", NULL);
	ok(!run(m, exp, false, "1001 900 0:41 / /mntS rw,relatime shared:501\n"
			       "1002 900 0:42 / /mntP ro,relatime\n", &d),
	   "diff: /mntP turned read-only");
	is_str(d, "--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n"
		  " 77 61 8:17 / /mntS rw,relatime shared:1\n"
		  "-83 61 8:15 / /mntP rw,relatime\n"
		  "+83 61 8:15 / /mntP ro,relatime\n",
	       "diff: actual numbers shown in their expected names");
	free(d);
	ns_matcher_free(m);
}

TEST(diff_device_reused)
{
	struct ns_matcher *m = ns_matcher_new();
	char *d;

	ok(!run(m, L("77 61 8:17 / /mntS rw,relatime shared:1",
		     "83 61 8:15 / /mntP rw,relatime"), false,
		"1001 900 0:41 / /mntS rw,relatime shared:501\n"
		"1002 900 0:41 / /mntP rw,relatime\n", &d),
	   "diff: a device reused");
	is_str(d, "--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n"
		  " 77 61 8:17 / /mntS rw,relatime shared:1\n"
		  "-83 61 8:15 / /mntP rw,relatime\n"
		  "+84 61 8:17 / /mntP rw,relatime\n",
	       "diff: the line that breaks the renaming is -/+, the one before is context");
	free(d);
	ok(run(m, L("83 61 8:15 / /mntP rw,relatime"), false,
	       "1002 905 0:42 / /mntP rw,relatime\n", NULL),
	   "diff: the bindings the diff made are gone afterwards");
	ns_matcher_free(m);
}

/* Numbers nothing pairs are named in the file's numbering, above every
 * name in use, in the order they first show: the diff is the same
 * whatever numbers the kernel gave out (another run, another -j). */
TEST(diff_fresh_names)
{
	static const char *const act[2] = {
		"300 200 0:50 / / rw\n301 300 0:51 / /a rw shared:9\n"
		"302 301 0:51 / /a/b rw shared:9\n",
		"41 17 0:77 / / rw\n45 41 0:80 / /a rw shared:3\n"
		"43 45 0:80 / /a/b rw shared:3\n",
	};
	char *d[2];

	for (int k = 0; k < 2; k++) {
		struct ns_matcher *m = ns_matcher_new();

		ok(!run(m, L("61 17 8:1 / / rw", "62 61 8:2 / /a rw"), false, act[k], &d[k]),
		   "fresh: the step fails (kernel numbering %d)", k);
		ns_matcher_free(m);
	}
	is_str(d[0], "--- expected\n+++ actual\n@@ -1,2 +1,3 @@\n"
		     " 61 17 8:1 / / rw\n"
		     "-62 61 8:2 / /a rw\n"
		     "+63 61 8:3 / /a rw shared:1\n"
		     "+64 63 8:3 / /a/b rw shared:1\n",
	       "fresh: unpaired numbers get the next names, the same one each time they show");
	is_str(d[1], d[0], "fresh: another kernel numbering gives the same diff");
	free(d[0]);
	free(d[1]);
}

TEST(diff_peer_group)
{
	char *d;
	struct ns_matcher *m = ns_matcher_new();

	ok(!run(m, L("77 61 8:17 / /mntS rw shared:1", "78 61 8:18 / /mntT rw shared:1"),
		false, "5 4 0:41 / /mntS rw shared:7\n6 4 0:42 / /mntT rw shared:8\n", &d),
	   "diff: a peer group that splits");
	is_str(d, "--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n"
		  " 77 61 8:17 / /mntS rw shared:1\n"
		  "-78 61 8:18 / /mntT rw shared:1\n"
		  "+79 61 8:19 / /mntT rw shared:2\n",
	       "diff: shows the group that differs");
	free(d);
	ns_matcher_free(m);
}

TEST(diff_shapes)
{
	struct ns_matcher *m = ns_matcher_new();
	char *d;

	ok(!run(m, L("A", "...", "B"), false, "A\nx\ny\nB2\n", &d), "diff: dots step fails");
	is_str(d, "--- expected\n+++ actual\n@@ -1,3 +1,4 @@\n A\n ...\n-B\n+B2\n",
	       "diff: \"...\" is context and absorbs the lines it covers");
	free(d);
	ok(!run(m, L("x", "y", "z"), true, "z\nq\nx\n", &d), "diff: unordered step fails");
	is_str(d, "--- expected\n+++ actual\n@@ -1,3 +1,3 @@\n x\n-y\n z\n+q\n",
	       "diff: unordered lines show next to their partners");
	free(d);
	ok(!run(m, L("a", "b"), false, "a\nb\nc\n", &d), "diff: extra line");
	is_str(d, "--- expected\n+++ actual\n@@ -1,2 +1,3 @@\n a\n b\n+c\n",
	       "diff: an extra line is an addition");
	free(d);
	ok(!ns_matcher_step(m, NULL, 0, false, "a\n", NULL),
	   "diff: a NULL diff buffer is allowed");
	ns_matcher_free(m);
}

/* ---- scale ---------------------------------------------------------------- */

static char *big_block(size_t n, unsigned long base, bool reversed,
		       size_t changed, struct ns_expect **exp)
{
	struct ns_buf b = NS_BUF_INIT;

	*exp = xcalloc(n, sizeof(**exp));
	for (size_t k = 0; k < n; k++) {
		size_t i = reversed ? n - 1 - k : k;
		(*exp)[k].text = xasprintf("%zu %zu 8:%zu / /m/%zu rw shared:%zu",
					   k + 2, k / 2 + 1, k, k, k + 1);
		ns_buf_addf(&b, "%lu %lu 0:%lu / /m/%zu %s shared:%lu\n", base + i,
			    base + i / 2 - 1, base + i, i, i == changed ? "ro" : "rw",
			    base + i + 7);
	}
	return ns_buf_detach(&b);
}

static void free_exp(struct ns_expect *exp, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(exp[i].text);
	free(exp);
}

TEST(scale)
{
	const size_t n = 50000;
	struct ns_expect *exp;
	struct ns_matcher *m;
	struct ns_buf d = NS_BUF_INIT;
	char *act;
	clock_t t0;

	m = ns_matcher_new();
	act = big_block(n, 1000000, false, n, &exp);
	t0 = clock();
	ok(ns_matcher_step(m, exp, n, false, act, NULL), "scale: 50k ordered lines match");
	printf("# 50k ordered: %.0f ms\n", 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC);
	free(act);
	free_exp(exp, n);
	ns_matcher_free(m);

	m = ns_matcher_new();
	act = big_block(n, 1000000, true, n, &exp);
	t0 = clock();
	ok(ns_matcher_step(m, exp, n, true, act, NULL), "scale: 50k unordered lines match");
	printf("# 50k unordered: %.0f ms\n", 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC);
	free(act);
	free_exp(exp, n);
	ns_matcher_free(m);

	m = ns_matcher_new();
	act = big_block(n, 1000000, false, 25000, &exp);
	t0 = clock();
	ok(!ns_matcher_step(m, exp, n, false, act, &d), "scale: one changed line in 50k fails");
	printf("# 50k failing, with diff: %.0f ms\n",
	       1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC);
	ok(strstr(ns_buf_str(&d), "\n-25002 12501 8:25000 / /m/25000 rw shared:25001\n"
				  "+50002 12501 8:50000 / /m/25000 ro shared:50001\n") &&
	   d.len < 1000, "scale: its diff is the one line, renamed, in context");
	ns_buf_free(&d);
	free(act);
	free_exp(exp, n);
	ns_matcher_free(m);
}

/* ---- peer groups in lines that are no records ------------------------------ */

/* awk '{print $5, $7}' of mountinfo keeps the optional field: its group
 * is renamed as a record's would be, everything else stays literal. */
TEST(group_tags_in_filtered_lines)
{
	struct ns_matcher *m = ns_matcher_new();
	char *d = NULL, *s;

	ok(run(m, L("/mnt/a shared:1", "/mnt/b master:1 propagate_from:2"), false,
	       "/mnt/a shared:7\n/mnt/b master:7 propagate_from:9\n", NULL),
	   "tags: shared:N, master:N, propagate_from:N are renamed in any line");
	ok(run(m, L("61 17 8:1 / /x rw shared:2"), false, "48 45 0:40 / /x rw shared:9\n", NULL),
	   "tags: one renaming with the records");
	ok(!run(m, L("61 17 8:1 / /x rw shared:1"), false, "48 45 0:40 / /x rw shared:9\n", &d),
	   "tags: a group named otherwise in a record fails");
	ok(d && strstr(d, "+61 17 8:1 / /x rw shared:2") != NULL,
	   "tags: its diff writes the line's groups in the file's names");
	free(d);
	ok(!run(m, L("/mnt/a shared:1"), false, "/mnt/a shared:9\n", NULL),
	   "tags: two groups cannot take one name");
	ok(!run(m, L("/mnt/b shared:1"), false, "/mnt/a shared:7\n", NULL),
	   "tags: the text around them is literal");
	s = renamed(m, "/mnt/a master:7 and propagate_from:9");
	is_str(s, "/mnt/a master:1 and propagate_from:2", "tags: renamed for diffs and show");
	free(s);
	ns_matcher_free(m);

	ok(!run1(L("xshared:1"), false, "xshared:2\n"), "tags: not inside a word");
	ok(!run1(L("shared:1x"), false, "shared:2x\n"), "tags: not when the number runs on");
	ok(!run1(L("shared:"), false, "shared:2\n"), "tags: not without a number");
	ok(!run1(L("unbindable:1"), false, "unbindable:2\n"), "tags: only the three numbered fields");
	ok(run1(L("shared:1 shared:1"), false, "shared:4 shared:4\n") &&
	   !run1(L("shared:1 shared:1"), false, "shared:4 shared:5\n"),
	   "tags: one line, one renaming");
}

/* ---- a failed step's diff says where a name it meets was fixed ----------- */

TEST(diff_names_where_a_name_was_fixed)
{
	struct ns_matcher *m = ns_matcher_new();
	char *d = NULL;

	ok(run(m, L("20 19 0:1 / / rw", "21 20 0:2 / /a rw shared:1"), false,
	       "48 45 0:40 / / rw\n49 48 0:41 / /a rw shared:7\n", NULL),
	   "origin: / and /a bound (expected lines 1 and 2)");
	/* /b written with /a's ID: 21 is taken, for a reason line 2 gives */
	ok(!run(m, L("20 19 0:1 / / rw", "22 20 0:2 / /a rw shared:1", "21 20 0:3 / /b rw"),
		false, "48 45 0:40 / / rw\n49 48 0:41 / /a rw shared:7\n50 48 0:42 / /b rw\n", &d),
	   "origin: /b written with /a's mount ID fails");
	ok(d && strstr(d, "# mount ID 21 stands for the one line 2 showed\n") != NULL,
	   "origin: the diff names the line that fixed 21");
	ok(d && !strstr(d, "# mount ID 20 ") && !strstr(d, "# device 0:2 ") && !strstr(d, "peer group 1 "),
	   "origin: names used alike on both sides get no note");
	free(d);
	ns_matcher_free(m);

	m = ns_matcher_new();
	ok(!run(m, L("20 19 0:1 / / rw"), false, "48 45 0:40 / / ro\n", &d),
	   "origin: a first step that fails");
	ok(d && !strchr(d, '#'), "origin: names fixed by no step get no note");
	free(d);
	ns_matcher_free(m);
}
