/* test_canonical.c - the canonical form of what steps printed
 * (match/canonical.c, run/canonical.c), which the JSON report carries and
 * ci/ compares across kernels: the same kernel twice, or two kernels that
 * agree up to the judge's renaming, give the same text; outputs that
 * differ give different text. Also the findmnt tree whose TARGET column is
 * not the first, which the judge and the canonical form sort alike
 * (match/match_tree.c). */
#include <stdlib.h>
#include <string.h>

#include "match/canonical.h"
#include "match/match_tree.h"
#include "run/canonical.h"
#include "run/verdict.h"
#include "judge_text.h"
#include "scn.h"
#include "tap.h"

enum { C_T = NS_MATCH_COL_TEXT, C_ID = NS_MATCH_COL_ID,
       C_PA = NS_MATCH_COL_PARENT, C_DEV = NS_MATCH_COL_DEV };

/* A findmnt shape of form with the columns given, -1 ending the list;
 * tree_col: the column of a tree, or -1 for a list. */
static struct ns_match_shape shape(enum ns_match_form form, int tree_col, const int *cols)
{
	struct ns_match_shape s;

	memset(&s, 0, sizeof(s));
	s.form = form;
	for (; *cols >= 0; cols++)
		s.cols[s.ncols++] = (enum ns_match_col)*cols;
	s.tree = tree_col >= 0;
	s.tree_col = tree_col >= 0 ? (size_t)tree_col : s.ncols;
	return s;
}

/* One step of a scenario's numbering. */
struct step {
	const char *output;
	const struct ns_match_shape *shape; /* NULL: mountinfo */
	const struct ns_view *view;         /* NULL: none */
};

/* The canonical form of steps[0..n), one numbering, the steps' texts
 * joined with "|" after each. */
static char *canon_of(const struct step *steps, size_t n, bool sorted)
{
	struct ns_canon *c = ns_canon_new(sorted);
	struct ns_buf b = NS_BUF_INIT;

	for (size_t i = 0; i < n; i++) {
		const struct ns_match_shape *sh = steps[i].shape;

		ns_canon_step(c, steps[i].output, sh, sh && sh->tree ? sh : NULL, steps[i].view, &b);
		ns_buf_addc(&b, '|');
	}
	ns_canon_free(c);
	return ns_buf_detach(&b);
}

static char *canon1(const char *output, const struct ns_match_shape *sh)
{
	struct step s = { output, sh, NULL };

	return canon_of(&s, 1, false);
}

#define IS_CANON(got_expr, want, ...)          \
	do {                                    \
		char *got_ = (got_expr);        \
		is_str(got_, want, __VA_ARGS__); \
		free(got_);                     \
	} while (0)

/* Whether two outputs of one shape have the same canonical form. */
static bool same(const char *a, const char *b, const struct ns_match_shape *sh)
{
	char *x = canon1(a, sh), *y = canon1(b, sh);
	bool eq = !strcmp(x, y);

	free(x);
	free(y);
	return eq;
}

/* ---- mountinfo -------------------------------------------------------------- */

#define MI_A "20 19 0:40 / / rw,relatime - tmpfs sda2 rw\n" \
	     "21 20 0:41 / /a rw,relatime shared:1 - tmpfs sdb1 rw\n" \
	     "22 20 0:41 / /b rw,relatime shared:1 master:3 - tmpfs sdb1 rw\n"
/* the same table, other numbers */
#define MI_B "48 45 0:52 / / rw,relatime - tmpfs sda2 rw\n" \
	     "46 48 0:60 / /a rw,relatime shared:7 - tmpfs sdb1 rw\n" \
	     "49 48 0:60 / /b rw,relatime shared:7 master:2 - tmpfs sdb1 rw\n"
/* /b under /a: another tree */
#define MI_C "48 45 0:52 / / rw,relatime - tmpfs sda2 rw\n" \
	     "46 48 0:60 / /a rw,relatime shared:7 - tmpfs sdb1 rw\n" \
	     "49 46 0:60 / /b rw,relatime shared:7 master:2 - tmpfs sdb1 rw\n"

TEST(mountinfo)
{
	IS_CANON(canon1(MI_A, NULL),
		 "M2 M1 D1 / / rw,relatime - tmpfs sda2 rw\n"
		 "M3 M2 D2 / /a rw,relatime shared:P1 - tmpfs sdb1 rw\n"
		 "M4 M2 D2 / /b rw,relatime shared:P1 master:P2 - tmpfs sdb1 rw\n|",
		 "mountinfo: IDs, devices and peer groups named by first appearance, PARENT first");
	ok(same(MI_A, MI_B, NULL), "mountinfo: the same table with other numbers: the same text");
	ok(!same(MI_A, MI_C, NULL), "mountinfo: a mount under another parent: another text");
	ok(!same(MI_A, "20 19 0:40 / / rw,relatime - tmpfs sda2 rw\n"
		       "21 20 0:41 / /a rw,relatime shared:1 - tmpfs sdb1 rw\n"
		       "22 20 0:42 / /b rw,relatime shared:1 master:3 - tmpfs sdb1 rw\n", NULL),
	   "mountinfo: a device of its own: another text");
	ok(!same(MI_A, "20 19 0:40 / / rw,relatime - tmpfs sda2 rw\n"
		       "21 20 0:41 / /a rw,relatime shared:1 - tmpfs sdb1 rw\n"
		       "22 20 0:41 / /b rw,relatime shared:2 master:3 - tmpfs sdb1 rw\n", NULL),
	   "mountinfo: a peer group of its own: another text");
	ok(!same(MI_A, "20 19 0:40 / / rw,relatime - tmpfs sda2 rw\n"
		       "21 20 0:41 / /a rw,relatime shared:1 - tmpfs sdb1 rw\n"
		       "22 20 0:41 / /b ro,relatime shared:1 master:3 - tmpfs sdb1 rw\n", NULL),
	   "mountinfo: other text: another text");
	IS_CANON(canon1("mount: ENOENT (No such file or directory)\n42 is no record\n", NULL),
		 "mount: ENOENT (No such file or directory)\n42 is no record\n|",
		 "lines that are no record stay as they are");
	IS_CANON(canon1("21 20 0:41 / /a rw - tmpfs a rw", NULL), "M2 M1 D1 / /a rw - tmpfs a rw|",
		 "no final newline: none added");
	IS_CANON(canon1("", NULL), "|", "no output: no text");
	IS_CANON(canon1(NULL, NULL), "|", "... nor for NULL");
}

/* ---- findmnt ---------------------------------------------------------------- */

static const int list_cols[] = { C_ID, C_PA, C_DEV, C_T, -1 };
static const int target_first[] = { C_T, C_ID, C_PA, C_DEV, -1 };

TEST(findmnt)
{
	struct ns_match_shape list = shape(NS_MATCH_TABLE, -1, list_cols);
	struct ns_match_shape last = shape(NS_MATCH_TABLE, 3, list_cols);
	struct ns_match_shape first = shape(NS_MATCH_TABLE, 0, target_first);
	struct ns_match_shape raw = shape(NS_MATCH_RAW, -1, list_cols);
	struct ns_match_shape json = shape(NS_MATCH_JSON, -1, target_first);

	IS_CANON(canon1("ID PARENT MAJ:MIN TARGET\n"
			"48     45   0:40  /\n"
			"46     48   0:41  /a\n", &list),
		 "ID PARENT MAJ:MIN TARGET\nM2 M1 D1 /\nM3 M2 D2 /a\n|",
		 "list: numbers named, the blanks next to them one blank, none at the ends");
	ok(same("ID PARENT MAJ:MIN TARGET\n 99     45   0:40  /\n100     99   0:41  /a\n",
		"ID PARENT MAJ:MIN TARGET\n48     45   0:40  /\n46     48   0:41  /a\n", &list),
	   "list: numbers of other widths pad otherwise: the same text");
	ok(!same("48 45 0:40 /\n46 48 0:41 /a\n47 48 0:41 /b\n",
		 "48 45 0:40 /\n46 48 0:41 /a\n47 46 0:41 /b\n", &list),
	   "list: another PARENT: another text");

	/* findmnt hangs children in the order of their IDs */
	IS_CANON(canon1("48     45   0:40  /\n"
			"50     48   0:41  ├─/b\n"
			"51     50   0:41  │ └─/b/x\n"
			"52     48   0:42  └─/a\n", &last),
		 "M2 M1 D1 /\nM3 M2 D2 ├─/a\nM4 M2 D3 └─/b\nM5 M4 D3   └─/b/x\n|",
		 "tree, TARGET last: siblings sorted by their text, subtrees with them, then named");
	ok(same("48     45   0:40  /\n46     48   0:41  ├─/a\n49     48   0:42  └─/b\n",
		"48     45   0:40  /\n50     48   0:42  ├─/b\n51     48   0:41  └─/a\n", &last),
	   "tree, TARGET last: siblings in the order of other IDs: the same text");
	ok(!same("48     45   0:40  /\n46     48   0:41  ├─/a\n49     48   0:42  └─/b\n",
		 "48     45   0:40  /\n50     48   0:42  └─/b\n51     50   0:41    └─/b/a\n", &last),
	   "tree, TARGET last: a mount under its sibling: another text");
	ok(same("TARGET ID PARENT MAJ:MIN\n/      20     19   0:1\n├─/a   21     20   0:2\n"
		"└─/b   22     20   0:3\n",
		"TARGET ID PARENT MAJ:MIN\n/      120    119  0:1\n├─/b   121    120  0:3\n"
		"└─/a   122    120  0:2\n", &first),
	   "tree, TARGET first: the same");
	IS_CANON(canon1("48 45 0:40 /\n46 48 0:41 /a\n", &raw), "M2 M1 D1 /\nM3 M2 D2 /a\n|",
		 "raw: numbers named, single spaces kept");
	IS_CANON(canon1("{\n   \"filesystems\": [\n      {\n         \"target\": \"/a\",\n"
			"         \"id\": 46,\n         \"parent\": 48,\n"
			"         \"maj:min\": \"0:41\"\n      }\n   ]\n}\n", &json),
		 "{\n   \"filesystems\": [\n      {\n         \"target\": \"/a\",\n"
		 "         \"id\": M1,\n         \"parent\": M2,\n"
		 "         \"maj:min\": \"D1\"\n      }\n   ]\n}\n|",
		 "JSON: id, parent and maj:min named");
}

/* ---- one numbering for a scenario -------------------------------------------- */

TEST(scenario)
{
	struct ns_match_shape list = shape(NS_MATCH_TABLE, -1, list_cols);
	struct ns_match_shape stat = { .form = NS_MATCH_FIELDS, .ncols = 5,
				       .cols = { NS_MATCH_COL_DEV_DEC, NS_MATCH_COL_TEXT,
						 NS_MATCH_COL_DEV_HEX, NS_MATCH_COL_TEXT,
						 NS_MATCH_COL_INO },
				       .lit = { NULL, " ", NULL, " ", NULL },
				       .litlen = { 0, 1, 0, 1, 0 } };
	struct ns_match_shape devno = { .form = NS_MATCH_FIELDS, .ncols = 1,
					.cols = { NS_MATCH_COL_DEV } };
	struct step a[] = {
		{ MI_A, NULL, NULL },
		{ "22     20   0:41  /b\n", &list, NULL },
		{ "41 29 7\n", &stat, NULL },
		{ "0:41\n", &devno, NULL },
	};
	struct step b[] = {
		{ MI_B, NULL, NULL },
		{ "49     48   0:60  /b\n", &list, NULL },
		{ "60 3c 9\n", &stat, NULL },
		{ "0:60\n", &devno, NULL },
	};

	IS_CANON(canon_of(a, 4, false),
		 "M2 M1 D1 / / rw,relatime - tmpfs sda2 rw\n"
		 "M3 M2 D2 / /a rw,relatime shared:P1 - tmpfs sdb1 rw\n"
		 "M4 M2 D2 / /b rw,relatime shared:P1 master:P2 - tmpfs sdb1 rw\n|"
		 "M4 M2 D2 /b\n|D2 D2 I1\n|D2\n|",
		 "one numbering across steps: findmnt's IDs are mountinfo's, stat's %%d and %%D "
		 "and mountpoint -d the same device as MAJ:MIN");
	{
		char *x = canon_of(a, 4, false), *y = canon_of(b, 4, false);

		is_str(x, y, "the same scenario with the other kernel's numbers: byte for byte the same");
		free(x);
		free(y);
	}
	b[2].output = "61 3c 9\n";
	{
		char *x = canon_of(a, 4, false), *y = canon_of(b, 4, false);

		ok(strcmp(x, y), "a stat whose two device fields disagree: another text");
		free(x);
		free(y);
	}
}

/* ---- numbers given out again ------------------------------------------------ */

TEST(reused)
{
	struct ns_view all = { { 1, 2, 3 }, NS_VIEW_ALL }, part = { { 1, 2, 3 }, 0 };
	const char *before = "20 19 0:40 / / rw - tmpfs r rw\n30 20 0:41 / /a rw - tmpfs a rw\n";
	const char *gone = "20 19 0:40 / / rw - tmpfs r rw\n";
	/* a new mount at /b: the kernel gave it /a's old ID, or another one */
	const char *again = "20 19 0:40 / / rw - tmpfs r rw\n30 20 0:42 / /b rw - tmpfs b rw\n";
	const char *other = "20 19 0:40 / / rw - tmpfs r rw\n31 20 0:42 / /b rw - tmpfs b rw\n";
	struct step x[] = { { before, NULL, &all }, { gone, NULL, &all }, { again, NULL, &all } };
	struct step y[] = { { before, NULL, &all }, { gone, NULL, &all }, { other, NULL, &all } };
	char *cx = canon_of(x, 3, false), *cy = canon_of(y, 3, false);

	is_str(cx, "M2 M1 D1 / / rw - tmpfs r rw\nM3 M2 D2 / /a rw - tmpfs a rw\n|"
		   "M2 M1 D1 / / rw - tmpfs r rw\n|"
		   "M2 M1 D1 / / rw - tmpfs r rw\nM4 M2 D3 / /b rw - tmpfs b rw\n|",
	       "an ID a whole table showed gone, given out again: a new name");
	is_str(cx, cy, "... the same text as a kernel that gave out another ID");
	free(cx);
	free(cy);
	x[1].view = y[1].view = &part;
	cx = canon_of(x, 3, false);
	cy = canon_of(y, 3, false);
	ok(strstr(cx, "M3 M2 D3 / /b") && strcmp(cx, cy),
	   "a view that does not show every mount releases nothing: the old name, as the judge "
	   "keeps the pair");
	free(cx);
	free(cy);
}

/* ---- the sorted form -------------------------------------------------------- */

TEST(sorted)
{
	const char *created = "20 19 0:40 / / rw - tmpfs r rw\n21 20 0:41 / /a rw - tmpfs a rw\n"
			      "22 21 0:42 / /a/x rw - tmpfs x rw\n";
	const char *attached = "20 19 0:40 / / rw - tmpfs r rw\n22 21 0:42 / /a/x rw - tmpfs x rw\n"
			       "21 20 0:41 / /a rw - tmpfs a rw\n";
	const char *moved = "20 19 0:40 / / rw - tmpfs r rw\n22 20 0:42 / /a/x rw - tmpfs x rw\n"
			    "21 20 0:41 / /a rw - tmpfs a rw\n";
	struct step s1 = { created, NULL, NULL }, s2 = { attached, NULL, NULL },
		    s3 = { moved, NULL, NULL };
	char *c1 = canon_of(&s1, 1, false), *c2 = canon_of(&s2, 1, false);
	char *o1 = canon_of(&s1, 1, true), *o2 = canon_of(&s2, 1, true), *o3 = canon_of(&s3, 1, true);

	ok(strcmp(c1, c2), "the same lines in another order: another canonical text");
	is_str(o1, o2, "... and the same sorted text");
	is_str(o1, "M2 M1 D1 / / rw - tmpfs r rw\nM3 M2 D2 / /a rw - tmpfs a rw\n"
		   "M4 M3 D3 / /a/x rw - tmpfs x rw\n|",
	       "sorted: by the text without names, then named in that order");
	ok(strcmp(o1, o3), "a mount under another parent: another sorted text too");
	free(c1);
	free(c2);
	free(o1);
	free(o2);
	free(o3);
}

/* ---- a run, read as the judge reads it -------------------------------------- */

#define SCN "root: /dev/sda2\n\n" \
	    "    # mkdir /a /b\n" \
	    "    # cat /proc/self/mountinfo\n" \
	    "    # findmnt -n -o ID,PARENT,MAJ:MIN,TARGET\n" \
	    "    # stat -c '%d %n' /a\n" \
	    "    # mount --bind /nowhere /a\n"

static char **run_canon(struct ns_scenario *sc, const char *const *outputs, bool sorted)
{
	struct ns_run run = { 0 };
	char **v;

	run.n = sc->nsteps;
	run.obs = xcalloc(run.n, sizeof(*run.obs));
	for (size_t i = 0; i < run.n; i++) {
		run.obs[i].ran = outputs[i] != NULL;
		run.obs[i].out.output = outputs[i] ? xstrdup(outputs[i]) : NULL;
	}
	v = ns_judge_canonical(sc, &run, sorted);
	ns_run_free(&run);
	return v;
}

TEST(run)
{
	struct ns_scenario *sc = parse(SCN);
	const char *one[] = { "", "48 45 0:40 / / rw - tmpfs sda2 rw\n",
			      "48     45   0:40  /\n46     48   0:41  ├─/a\n49     48   0:42  └─/b\n",
			      "41 /a\n", NULL };
	const char *two[] = { "", "69 66 0:50 / / rw - tmpfs sda2 rw\n",
			      "69     66   0:50  /\n70     69   0:52  ├─/b\n72     69   0:51  └─/a\n",
			      "51 /a\n", NULL };
	char **a, **b;

	if (!sc) {
		ok(0, "the scenario parses");
		return;
	}
	a = run_canon(sc, one, false);
	b = run_canon(sc, two, false);
	is_str(a[1], "M2 M1 D1 / / rw - tmpfs sda2 rw\n", "run: mountinfo named");
	is_str(a[2], "M2 M1 D1 /\nM3 M2 D2 ├─/a\nM4 M2 D3 └─/b\n",
	       "run: findmnt's columns read from its parsed -o, its tree sorted");
	is_str(a[3], "D2 /a\n", "run: stat's %%d read from its format");
	ok(!a[4], "run: a step that did not run has none");
	for (size_t i = 0; i < 4; i++)
		is_str(a[i], b[i], "run: step %zu the same with the other numbers and order", i + 1);
	ns_judge_canonical_free(a, sc->nsteps);
	ns_judge_canonical_free(b, sc->nsteps);
	ns_scenario_free(sc);
}

/* ---- the judge, on a tree whose TARGET is not the first column --------------- */

#define LAST "    # findmnt -n -o ID,PARENT,MAJ:MIN,TARGET\n" \
	     "    20     19   0:1  /\n"                         \
	     "    21     20   0:2  ├─/a\n"                      \
	     "    23     21   0:2  │ └─/a/x\n"                  \
	     "    22     20   0:3  └─/b\n"

TEST(judge_tree)
{
	struct ns_match_shape last = shape(NS_MATCH_TABLE, 3, list_cols);
	struct ns_lines out = NS_LINES_INIT;
	const char *const rows[] = { "ID PARENT TARGET", "48     45 /", "50     48 ├─/b",
				     "52     50 │ └─/b/x", "51     48 └─/a", "..." };

	last.ncols = 3;
	last.cols[2] = NS_MATCH_COL_TEXT;
	last.tree_col = 2;
	ok(ns_match_tree_canon(rows, 6, &last, &out) && out.n == 6 &&
	   !strcmp(out.v[2], "51     48 ├─/a") && !strcmp(out.v[3], "50     48 └─/b") &&
	   !strcmp(out.v[4], "52     50   └─/b/x") && !strcmp(out.v[5], "..."),
	   "tree sort: the fields before TARGET kept, the prefix redrawn, '...' a top line");
	ns_lines_free(&out);
	ok(judge_text(LAST, "48     45   0:40  /\n50     48   0:42  ├─/b\n51     48   0:41  └─/a\n"
		       "52     51   0:41    └─/a/x\n", NULL),
	   "judge: TARGET last, siblings in the other order: passes");
	ok(judge_text(LAST, "48     45   0:40  /\n49     48   0:41  ├─/a\n52     49   0:41  │ └─/a/x\n"
		       "50     48   0:42  └─/b\n", NULL),
	   "judge: ... and in the order written");
	ok(!judge_text(LAST, "48     45   0:40  /\n50     48   0:42  ├─/b\n52     50   0:41  │ └─/a/x\n"
			"51     48   0:41  └─/a\n", NULL),
	   "judge: a submount under the other sibling fails");
	ok(!judge_text(LAST, "48     45   0:40  /\n50     48   0:42  ├─/b\n51     48   0:41  └─/a\n"
			"52     48   0:41    └─/a/x\n", NULL),
	   "judge: a PARENT that names the wrong mount fails");
}

/* ---- a JSON tree ------------------------------------------------------------- */

/* One element of "children" at depth 1 (findmnt -J -o TARGET,ID): its
 * target and ID, and TARGET/x, ID 30, under it when sub. */
static void element(struct ns_buf *b, const char *target, unsigned id, bool sub)
{
	ns_buf_addf(b, "               \"target\": \"%s\",\n", target);
	ns_buf_addf(b, "               \"id\": %u%s\n", id, sub ? "," : "");
	if (!sub)
		return;
	ns_buf_adds(b, "               \"children\": [\n                  {\n");
	ns_buf_addf(b, "                     \"target\": \"%s/x\",\n", target);
	ns_buf_adds(b, "                     \"id\": 30\n                  }\n               ]\n");
}

/* / with two submounts, in this order, each with its ID and sub. */
static char *json_tree(const char *t1, unsigned id1, bool sub1, const char *t2, unsigned id2,
		       bool sub2)
{
	struct ns_buf b = NS_BUF_INIT;

	ns_buf_adds(&b, "{\n   \"filesystems\": [\n      {\n         \"target\": \"/\",\n"
			"         \"id\": 20,\n         \"children\": [\n            {\n");
	element(&b, t1, id1, sub1);
	ns_buf_adds(&b, "            },{\n");
	element(&b, t2, id2, sub2);
	ns_buf_adds(&b, "            }\n         ]\n      }\n   ]\n}\n");
	return ns_buf_detach(&b);
}

TEST(json_tree)
{
	struct ns_match_shape sh = shape(NS_MATCH_JSON, 0, target_first);
	char *x = json_tree("/a", 21, true, "/b", 22, false);
	char *z = json_tree("/b", 21, false, "/a", 22, true);
	char *y = json_tree("/a", 21, false, "/b", 22, true);
	char *cx, *cz;
	struct ns_lines out = NS_LINES_INIT, lines = NS_LINES_INIT;

	sh.ncols = 2;
	cx = canon1(x, &sh);
	cz = canon1(z, &sh);
	ok(strstr(cx, "\"target\": \"/a\",\n               \"id\": M2,\n"
		      "               \"children\""),
	   "JSON tree: named, /a with its child");
	is_str(cz, cx, "JSON tree: the same tree, its siblings in the order of other IDs: the same text");
	ok(!same(x, y, &sh), "JSON tree: the submount under the other sibling: another text");
	ns_lines_split(&lines, z, strlen(z));
	ok(ns_match_tree_canon((const char *const *)lines.v, lines.n, &sh, &out) &&
	   out.n == lines.n, "JSON tree: sorted, every line kept");
	ns_lines_free(&out);
	ns_lines_free(&lines);
	ns_lines_split(&lines, "{\n   \"children\": [\n      {\n         \"id\": 1\n      }\n",
		       strlen("{\n   \"children\": [\n      {\n         \"id\": 1\n      }\n"));
	ok(!ns_match_tree_canon((const char *const *)lines.v, lines.n, &sh, &out) && !out.n,
	   "JSON tree: an array that does not close: left alone");
	ns_lines_free(&lines);
	ok(judge_text("    # findmnt -J -o TARGET,ID\n"
		 "    {\n       \"filesystems\": [\n          {\n             \"target\": \"/\",\n"
		 "             \"id\": 1,\n             \"children\": [\n"
		 "                {\n                   \"target\": \"/a\",\n"
		 "                   \"id\": 2\n"
		 "                },{\n                   \"target\": \"/b\",\n"
		 "                   \"id\": 3\n                }\n             ]\n"
		 "          }\n       ]\n    }\n",
		 "{\n   \"filesystems\": [\n      {\n         \"target\": \"/\",\n"
		 "         \"id\": 20,\n         \"children\": [\n"
		 "            {\n               \"target\": \"/b\",\n               \"id\": 21\n"
		 "            },{\n               \"target\": \"/a\",\n               \"id\": 22\n"
		 "            }\n         ]\n      }\n   ]\n}\n", NULL),
	   "judge: a JSON tree whose siblings came in the other order passes");
	free(x);
	free(y);
	free(z);
	free(cx);
	free(cz);
}
