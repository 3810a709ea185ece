/* test_match_findmnt.c - the matcher on findmnt's tables (match_table.c):
 * ID, PARENT and MAJ:MIN renamed under the same bijections as mountinfo
 * lines, blanks loose only next to them, raw and JSON forms, the diff,
 * and the shape the judge reads off a step. Every rule has a test that
 * makes it fail. */
#include <stdlib.h>
#include <string.h>

#include "match/match.h"
#include "run/verdict.h"
#include "step.h"
#include "tap.h"

#define L(...) ((const char *const[]){ __VA_ARGS__, NULL })

enum { C_T = NS_MATCH_COL_TEXT, C_ID = NS_MATCH_COL_ID,
       C_PA = NS_MATCH_COL_PARENT, C_DEV = NS_MATCH_COL_DEV };

/* A shape of form with the columns given, -1 ending the list. */
static struct ns_match_shape shape(enum ns_match_form form, bool tree, const int *cols)
{
	struct ns_match_shape s;

	memset(&s, 0, sizeof(s));
	s.form = form;
	s.tree = tree;

	for (; *cols >= 0; cols++)
		s.cols[s.ncols++] = (enum ns_match_col)*cols;
	return s;
}

/* One step (step.h); sh NULL for mountinfo. */
static bool run(struct ns_matcher *m, const struct ns_match_shape *sh,
		const char *const *exp, const char *actual, char **diff)
{
	return match_step(m, sh, exp, false, actual, diff);
}

static bool run1(const struct ns_match_shape *sh, const char *const *exp,
		 const char *actual)
{
	struct ns_matcher *m = ns_matcher_new();
	bool ok = run(m, sh, exp, actual, NULL);

	ns_matcher_free(m);
	return ok;
}

static const int list_cols[] = { C_ID, C_PA, C_DEV, C_T, -1 };
static const int tree_cols[] = { C_T, C_ID, C_PA, C_DEV, -1 };

/* ---- a list ---------------------------------------------------------------- */

TEST(list_renamed)
{
	struct ns_match_shape sh = shape(NS_MATCH_TABLE, false, list_cols);
	const char *const *exp = L("ID PARENT MAJ:MIN TARGET",
				   "21      1   8:1   /",
				   "22     21   8:2   /a",
				   "23     21   8:2   /b");

	ok(run1(&sh, exp,
		"ID PARENT MAJ:MIN TARGET\n"
		"65     45   0:39  /\n"
		"66     65   0:40  /a\n"
		"67     65   0:40  /b\n"),
	   "list: IDs, parents and devices consistently renamed match");
	ok(!run1(&sh, exp,
		 "ID PARENT MAJ:MIN TARGET\n"
		 "65     45   0:39  /\n"
		 "66     65   0:40  /a\n"
		 "67     66   0:40  /b\n"),
	   "list: a PARENT that points at another mount fails");
	ok(!run1(&sh, exp,
		 "ID PARENT MAJ:MIN TARGET\n"
		 "65     45   0:39  /\n"
		 "66     65   0:40  /a\n"
		 "67     65   0:41  /b\n"),
	   "list: one expected device for two actual ones fails");
	ok(!run1(&sh, exp,
		 "ID PARENT MAJ:MIN TARGET\n"
		 "65     45   0:39  /\n"
		 "66     65   0:40  /a\n"
		 "66     65   0:40  /b\n"),
	   "list: two expected IDs for one actual ID fails");
	ok(!run1(&sh, exp,
		 "ID PARENT MAJ:MIN TARGET\n"
		 "65     45   0:39  /\n"
		 "66     65   0:40  /a\n"
		 "67     65   0:40  /c\n"),
	   "list: a literal field that differs fails");
	ok(!run1(&sh, L("ID PARENT MAJ:MIN TARGET"), "ID PARENT MAJ:MIN SOURCE\n"),
	   "list: the heading's words are literal");
}

TEST(blanks)
{
	struct ns_match_shape sh = shape(NS_MATCH_TABLE, false,
					 (const int[]){ C_T, C_ID, C_T, -1 });

	ok(run1(&sh, L("PROPAGATION ID TARGET", "shared      21 /a"),
		"PROPAGATION   ID TARGET\nshared      1021 /a\n"),
	   "blanks: next to a renamed field, any width matches");
	ok(!run1(&sh, L("a  b 21 c"), "a b 21 c\n"),
	   "blanks: between two literal fields, the width is literal");
	ok(!run1(&sh, L("shared 21 /a"), "shared21 /a\n"),
	   "blanks: a field run into its neighbour is no row");
	ok(!run1(&sh, L("shared 21 /a"), "shared 21 /a x\n"),
	   "blanks: a row with a field more does not match");
	ok(!run1(&sh, L("x 021 /a"), "x 21 /a\n"),
	   "blanks: a number with a leading zero is literal");
}

TEST(tree_widths)
{
	struct ns_match_shape sh = shape(NS_MATCH_TABLE, true, tree_cols);
	const char *const *exp = L(
		"TARGET      ID PARENT MAJ:MIN",
		"/           21      1   8:1",
		"├─/mntS     22     21   8:2",
		"│ └─/mntS/x 24     22   8:3",
		"└─/mntB     23     21   8:2");

	ok(run1(&sh, exp,
		"TARGET       ID PARENT MAJ:MIN\n"
		"/            99     45 259:0  \n"
		"├─/mntS     100     99 259:1  \n"
		"│ └─/mntS/x 102    100 259:12 \n"
		"└─/mntB     101     99 259:1  \n"),
	   "tree: numbers of other widths move only their own blanks");
	ok(!run1(&sh, exp,
		 "TARGET       ID PARENT MAJ:MIN\n"
		 "/            99     45 259:0  \n"
		 "├─/mntS     100     99 259:1  \n"
		 "│ └─/mntS/x 102    101 259:12 \n"
		 "└─/mntB     101     99 259:1  \n"),
	   "tree: a wrong parent fails whatever the widths");
	ok(!run1(&sh, exp,
		 "TARGET       ID PARENT MAJ:MIN\n"
		 "/            99     45 259:0  \n"
		 "├─/mntS     100     99 259:1  \n"
		 "│   └─/mntS/x 102    100 259:12 \n"
		 "└─/mntB     101     99 259:1  \n"),
	   "tree: the blanks of the tree prefix are literal");
}

/* ---- one renaming across shapes -------------------------------------------- */

static const char *const mi_block[] = {
	"21 1 8:1 / / rw - tmpfs r rw",
	"22 21 8:2 / /a rw shared:1 - tmpfs a rw",
	NULL,
};
static const char mi_actual[] =
	"65 45 0:39 / / rw - tmpfs r rw\n"
	"66 65 0:40 / /a rw shared:7 - tmpfs a rw\n";

TEST(across_shapes)
{
	struct ns_match_shape sh = shape(NS_MATCH_TABLE, false, list_cols);
	struct ns_matcher *m = ns_matcher_new();

	ok(run(m, NULL, mi_block, mi_actual, NULL), "shapes: the mountinfo step matches");
	ok(run(m, &sh, L("ID PARENT MAJ:MIN TARGET", "22     21   8:2   /a"),
	       "ID PARENT MAJ:MIN TARGET\n66     65   0:40  /a\n", NULL),
	   "shapes: a row under the names the mountinfo step fixed matches");
	ok(!run(m, &sh, L("ID PARENT MAJ:MIN TARGET", "22     21   8:1   /a"),
		"ID PARENT MAJ:MIN TARGET\n66     65   0:40  /a\n", NULL),
	   "shapes: MAJ:MIN renamed against the mountinfo line's device fails");
	ok(!run(m, &sh, L("ID PARENT MAJ:MIN TARGET", "22     21   8:2   /a"),
		"ID PARENT MAJ:MIN TARGET\n67     65   0:40  /a\n", NULL),
	   "shapes: an ID bound to another mount in mountinfo fails");
	ok(!run(m, &sh, L("ID PARENT MAJ:MIN TARGET", "23     21   8:2   /a"),
		"ID PARENT MAJ:MIN TARGET\n66     65   0:40  /a\n", NULL),
	   "shapes: a new name for a mount mountinfo already named fails");
	ns_matcher_free(m);

	m = ns_matcher_new();
	ok(run(m, &sh, L("ID PARENT MAJ:MIN TARGET", "22     21   8:2   /a"),
	       "ID PARENT MAJ:MIN TARGET\n66     65   0:40  /a\n", NULL),
	   "shapes: a row first");
	ok(!run(m, NULL, L("22 21 8:2 / /a rw - tmpfs a rw"),
		"67 65 0:40 / /a rw - tmpfs a rw\n", NULL),
	   "shapes: then a mountinfo line must keep the row's names");
	ns_matcher_free(m);
}

/* ---- raw and JSON ---------------------------------------------------------- */

TEST(raw)
{
	struct ns_match_shape sh = shape(NS_MATCH_RAW, false,
					 (const int[]){ C_DEV, C_ID, C_T, C_PA, -1 });
	const char *const *exp = L("MAJ:MIN ID FSROOT PARENT", "8:1 21 / 1", "8:2 22 /dir 21");

	ok(run1(&sh, exp, "MAJ:MIN ID FSROOT PARENT\n0:39 65 / 45\n0:40 66 /dir 65\n"),
	   "raw: renamed fields match");
	ok(!run1(&sh, exp, "MAJ:MIN ID FSROOT PARENT\n0:39 65 / 45\n0:40 66 /dir 45\n"),
	   "raw: a wrong parent fails");
	ok(!run1(&sh, exp, "MAJ:MIN ID FSROOT PARENT\n0:39 65 / 45\n0:40 66  /dir 65\n"),
	   "raw: spaces are literal");
	ok(!run1(&sh, L("8:1 21 a\\x20b 1"), "0:39 65 a\\x20c 45\n"),
	   "raw: other fields are literal");
}

TEST(json)
{
	struct ns_match_shape sh = shape(NS_MATCH_JSON, true, tree_cols);
	const char *const *exp = L("{", "   \"filesystems\": [", "      {",
				   "         \"target\": \"/\",",
				   "         \"id\": 21,",
				   "         \"parent\": 1,",
				   "         \"maj:min\": \"8:1\"",
				   "      },", "      {",
				   "         \"target\": \"/a\",",
				   "         \"id\": 22,",
				   "         \"parent\": 21,",
				   "         \"maj:min\": \"8:2\"",
				   "      }", "   ]", "}");
	const char *good =
		"{\n   \"filesystems\": [\n      {\n"
		"         \"target\": \"/\",\n"
		"         \"id\": 65,\n"
		"         \"parent\": 45,\n"
		"         \"maj:min\": \"0:39\"\n"
		"      },\n      {\n"
		"         \"target\": \"/a\",\n"
		"         \"id\": 166,\n"
		"         \"parent\": 65,\n"
		"         \"maj:min\": \"0:40\"\n"
		"      }\n   ]\n}\n";
	char *bad = xstrdup(good), *p;

	ok(run1(&sh, exp, good), "json: id, parent and maj:min renamed match");
	p = strstr(bad, "\"parent\": 65");
	memcpy(p, "\"parent\": 66", 12);
	ok(!run1(&sh, exp, bad), "json: a wrong parent fails");
	free(bad);
	bad = xstrdup(good);
	p = strstr(bad, "\"0:40\"");
	memcpy(p, "\"0:39\"", 6);
	ok(!run1(&sh, exp, bad), "json: two expected devices for one fails");
	free(bad);
	ok(!run1(&sh, L("   \"target\": \"21\","), "   \"target\": \"65\",\n"),
	   "json: other keys are literal");
}

/* ---- the diff and the shape ------------------------------------------------ */

TEST(diff)
{
	struct ns_match_shape sh = shape(NS_MATCH_TABLE, false, list_cols);
	struct ns_matcher *m = ns_matcher_new();
	char *d = NULL;

	ok(!run(m, &sh, L("ID PARENT MAJ:MIN TARGET", "21      1   8:1   /", "22     21   8:1   /a"),
		"ID PARENT MAJ:MIN TARGET\n65     45   0:39  /\n66     45   0:39  /a\n", &d),
	   "diff: the step fails");
	/* 66 has no name yet, and gets the next after 22; the actual
	 * blanks stay as they were */
	ok(d && strstr(d, "+23     1   8:1  /a\n") && strstr(d, " 21      1   8:1   /\n"),
	   "diff: actual numbers are shown in the expected names");
	free(d);
	ns_matcher_free(m);
}

static struct ns_step *first_step(struct ns_scenario **sc, const char *text)
{
	struct ns_diag dg = { NULL, 0 };

	*sc = ns_scenario_parse("t.scn", text, strlen(text), &dg);
	ns_diag_free(&dg);
	return *sc ? &(*sc)->steps[0] : NULL;
}

TEST(judge_shape)
{
	struct ns_match_shape s;
	struct ns_scenario *sc;
	struct ns_step *st;

	st = first_step(&sc, "    # findmnt -o TARGET,ID,PARENT,MAJ:MIN\n");
	ok(st && ns_judge_shape(st, &s) && s.form == NS_MATCH_TABLE && s.tree &&
	   s.ncols == 4 && s.cols[0] == NS_MATCH_COL_TEXT && s.cols[1] == NS_MATCH_COL_ID &&
	   s.cols[2] == NS_MATCH_COL_PARENT && s.cols[3] == NS_MATCH_COL_DEV,
	   "shape: a tree with its columns");
	ns_scenario_free(sc);
	st = first_step(&sc, "    # findmnt -rno ID,TARGET /a\n");
	ok(st && ns_judge_shape(st, &s) && s.form == NS_MATCH_RAW && !s.tree && s.ncols == 2,
	   "shape: raw");
	ns_scenario_free(sc);
	st = first_step(&sc, "    # findmnt -l -o +ID | grep -v /a\n");
	ok(st && ns_judge_shape(st, &s) && s.form == NS_MATCH_TABLE && !s.tree && s.ncols == 5,
	   "shape: +ID adds to the default columns; grep keeps rows");
	ns_scenario_free(sc);
	st = first_step(&sc, "    # findmnt -J -o ID\n");
	ok(st && ns_judge_shape(st, &s) && s.form == NS_MATCH_JSON, "shape: JSON");
	ns_scenario_free(sc);
	st = first_step(&sc, "    # findmnt\n");
	ok(st && !ns_judge_shape(st, &s), "shape: none without a number column");
	ns_scenario_free(sc);
	st = first_step(&sc, "    # findmnt -o ID | grep -c 1\n");
	ok(st && !ns_judge_shape(st, &s), "shape: none when grep counts");
	ns_scenario_free(sc);
	st = first_step(&sc, "    # findmnt -o ID | sed s/1/2/\n");
	ok(st && !ns_judge_shape(st, &s), "shape: none after sed");
	ns_scenario_free(sc);
	st = first_step(&sc, "    # cat /proc/self/mountinfo\n");
	ok(st && !ns_judge_shape(st, &s), "shape: none for other commands");
	ns_scenario_free(sc);
}
