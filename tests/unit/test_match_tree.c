/* test_match_tree.c - findmnt trees whose siblings come in another order
 * (match/match_tree.c): findmnt orders a mount's children by mount ID, the
 * kernel hands out the lowest free ID, and IDs are renamed, so the judge
 * accepts siblings in any order; everything else about the tree (rows,
 * depths, parents, glyphs that agree with the tree) is still checked.
 * The same holds for the tree printed flat: findmnt -l, -r and -J -l
 * with -R and a selection. */
#include <stdlib.h>
#include <string.h>

#include "match/match_tree.h"
#include "run/verdict.h"
#include "judge_text.h"
#include "scn.h"
#include "tap.h"

#define L(...) ((const char *const[]){ __VA_ARGS__ })
#define N(a) (sizeof(a) / sizeof((a)[0]))

static struct ns_match_shape tree_shape(void)
{
	struct ns_match_shape s = { .form = NS_MATCH_TABLE, .tree = true, .ncols = 2,
				    .cols = { NS_MATCH_COL_TEXT, NS_MATCH_COL_ID } };
	return s;
}

/* The canonical form of lines, joined with '|' between them; NULL if none. */
static char *canon(const char *const *lines, size_t n, const struct ns_match_shape *sh)
{
	struct ns_lines out = NS_LINES_INIT;
	struct ns_buf b = NS_BUF_INIT;

	if (!ns_match_tree_canon(lines, n, sh, &out))
		return NULL;
	for (size_t i = 0; i < out.n; i++) {
		if (i)
			ns_buf_addc(&b, '|');
		ns_buf_adds(&b, out.v[i]);
	}
	ns_lines_free(&out);
	return ns_buf_detach(&b);
}

static void is_canon(const char *const *lines, size_t n, const char *want, const char *what)
{
	struct ns_match_shape sh = tree_shape();
	char *got = canon(lines, n, &sh);

	ok(got && !strcmp(got, want), "%s", what);
	if (got && strcmp(got, want))
		printf("#   got:  %s\n#   want: %s\n", got, want);
	free(got);
}

TEST(canon)
{
	struct ns_match_shape sh = tree_shape(), list = sh;
	char *c;

	is_canon(L("TARGET ID", "/      20", "├─/b   22", "│ └─/b/x 24", "└─/a   21"), 5,
		 "TARGET ID|/      20|├─/a   21|└─/b   22|  └─/b/x 24",
		 "siblings sorted by their text, a subtree moves with its root, glyphs redrawn");
	is_canon(L("/ 1", "|-/b 3", "| `-/b/x 4", "`-/a 2"), 4,
		 "/ 1||-/a 2|`-/b 3|  `-/b/x 4",
		 "... also in ASCII");
	is_canon(L("/ 1", "├─/c 9", "├─/a 8", "└─/b 7"), 4, "/ 1|├─/a 8|├─/b 7|└─/c 9",
		 "numbers of renamed columns do not decide the order");
	is_canon(L("/ 1", "└─/a 2", "/x 5", "└─/y 6"), 4, "/ 1|└─/a 2|/x 5|└─/y 6",
		 "top lines keep their order");
	c = canon(L("/ 1", "  /a 2"), 2, &sh);
	ok(!c, "blanks with no glyph after them: no tree");
	free(c);
	c = canon(L("/ 1", "│ └─/a 2"), 2, &sh);
	ok(!c, "a line two levels below its parent: no tree");
	free(c);
	c = canon(L("└─/a 2"), 1, &sh);
	ok(!c, "a nested line before any top line: no tree");
	free(c);
	c = canon(L("TARGET ID", "/ 1"), 2, &sh);
	ok(!c, "nothing nested: nothing to sort");
	free(c);
	list.tree = false;
	c = canon(L("/ 1", "├─/b 3", "└─/a 2"), 3, &list);
	ok(!c, "not a tree shape: left alone");
	free(c);
	is_canon(L("/ 1", "├─/b 3", "│ └─/b/y 5", "└─/b 2", "  └─/b/x 4"), 5,
		 "/ 1|├─/b 2|│ └─/b/x 4|└─/b 3|  └─/b/y 5",
		 "siblings of the same text are ordered by their subtrees");
	is_canon(L("/ 1", "├─/b 2", "│ └─/b/x 4", "└─/b 3", "  └─/b/y 5"), 5,
		 "/ 1|├─/b 2|│ └─/b/x 4|└─/b 3|  └─/b/y 5",
		 "... the same from the other order");
}

/* Whether the glyphs of lines are found to agree with their tree. */
static bool agree(const char *const *lines, size_t n)
{
	struct ns_match_shape sh = tree_shape();
	char *c = canon(lines, n, &sh);
	bool a = ns_match_tree_glyphs_agree(lines, n, &sh);

	ok(a == (c != NULL), "... canon and the check say the same");
	free(c);
	return a;
}

TEST(glyphs)
{
	struct ns_match_shape sh = tree_shape();

	ok(agree(L("TARGET ID", "/ 1", "├─/a 2", "│ └─/a/x 4", "├─/b 3", "└─/c 5", "  └─/c/y 6"), 7),
	   "glyphs: findmnt's own tree agrees");
	ok(agree(L("/ 1", "|-/a 2", "| `-/a/x 4", "`-/b 3"), 4), "glyphs: ... in ASCII too");
	ok(!agree(L("/ 1", "└─/a 2", "└─/b 3", "└─/c 4"), 4),
	   "glyphs: three siblings each drawn └─ disagree");
	ok(!agree(L("/ 1", "├─/a 2", "├─/b 3"), 3), "glyphs: ├─ on the last child disagrees");
	ok(!agree(L("/ 1", "├─/a 2", "│ └─/a/x 4", "└─/b 3", "│ └─/b/y 5"), 5),
	   "glyphs: │ where the ancestor has no later sibling disagrees");
	ok(!agree(L("/ 1", "├─/a 2", "  └─/a/x 4", "└─/b 3"), 4),
	   "glyphs: a blank where the ancestor has a later sibling disagrees");
	ok(!agree(L("/ 1", "├─/a 2", "│ └─/a/x 4", "└─/b 3", "/x 7", "└─/x/y 8"), 6) == false,
	   "glyphs: a top line ends the siblings before it");
	ok(!agree(L("/ 1", "|-/a 2", "└─/b 3"), 3), "glyphs: ASCII and UTF-8 mixed disagree");
	ok(agree(L("/ 1", "├─/a 2", "...", "└─/c 5"), 4),
	   "glyphs: ├─ before a \"...\" may have its later sibling there");
	ok(!agree(L("/ 1", "└─/a 2", "├─/b 3", "..."), 4),
	   "glyphs: ... but └─ before a visible sibling still disagrees");
	sh.piped = true;
	ok(ns_match_tree_glyphs_agree(L("/ 1", "├─/a 2", "├─/b 3"), 3, &sh),
	   "glyphs: after a filter, lines may be missing anywhere: not checked");
}

#define IDS "    # findmnt -o TARGET,ID,PARENT\n" \
	    "    TARGET    ID PARENT\n"             \
	    "    /         20     19\n"             \
	    "    ├─/mntS   21     20\n"             \
	    "    │ └─/mntS/x 23   21\n"             \
	    "    └─/mntB   22     20\n"

TEST(judge)
{
	char *diff = NULL;

	ok(judge_text(IDS, "TARGET    ID PARENT\n/         30     29\n├─/mntB   31     30\n"
		      "└─/mntS   32     30\n  └─/mntS/x 33   32\n", NULL),
	   "judge: siblings in the other order, as findmnt prints them when IDs come out so");
	ok(judge_text(IDS, "TARGET    ID PARENT\n/         30     29\n├─/mntS   31     30\n"
		      "│ └─/mntS/x 33   31\n└─/mntB   32     30\n", NULL),
	   "judge: the order as written still passes");
	ok(!judge_text(IDS, "TARGET    ID PARENT\n/         30     29\n├─/mntB   31     30\n"
		       "│ └─/mntS/x 33   31\n└─/mntS   32     30\n", &diff),
	   "judge: a submount under the other sibling fails");
	ok(diff && strstr(diff, "+├─/mntB") && strstr(diff, "-├─/mntS"),
	   "... and its diff shows the tree as printed, not re-sorted");
	free(diff);
	ok(!judge_text(IDS, "TARGET    ID PARENT\n/         30     29\n├─/mntB   31     30\n"
		       "└─/mntS   32     30\n  └─/mntS/x 33   31\n", NULL),
	   "judge: a PARENT that names the wrong sibling fails");
	ok(!judge_text(IDS, "TARGET    ID PARENT\n/         30     29\n├─/mntB   31     30\n"
		       "├─/mntS   32     30\n└─/mntS/x 33   30\n", NULL),
	   "judge: a submount at the wrong depth fails");
	ok(judge_text("    # findmnt -o TARGET,PROPAGATION\n    TARGET PROPAGATION\n"
		 "    /      private\n    ├─/a   shared\n    └─/b   private\n",
		 "TARGET PROPAGATION\n/      private\n├─/b   private\n└─/a   shared\n", NULL),
	   "judge: a tree with no number column is compared the same way");
	ok(!judge_text("    # findmnt -o TARGET,PROPAGATION\n    TARGET PROPAGATION\n"
		  "    /      private\n    ├─/a   shared\n    └─/b   private\n",
		  "TARGET PROPAGATION\n/      private\n├─/b   shared\n└─/a   private\n", NULL),
	   "judge: ... and a row's text must still be right");
	ok(!judge_text("    # findmnt -l -o TARGET,ID\n    TARGET ID\n    /a     21\n    /b     22\n",
		  "TARGET ID\n/b     22\n/a     21\n", NULL),
	   "judge: a list (findmnt -l, mountinfo order) keeps its order");
	ok(!judge_text("    # findmnt -o TARGET,PROPAGATION\n    TARGET PROPAGATION\n"
		       "    /      private\n    └─/a   shared\n    └─/b   private\n",
		       "TARGET PROPAGATION\n/      private\n├─/b   private\n└─/a   shared\n", NULL),
	   "judge: two └─ among siblings fail, in any order");
	ok(!judge_text("    # findmnt -o TARGET,PROPAGATION\n    TARGET PROPAGATION\n"
		       "    /      private\n    ├─/a   shared\n    ├─/b   private\n",
		       "TARGET PROPAGATION\n/      private\n├─/b   private\n└─/a   shared\n", NULL),
	   "judge: ├─ on the last child fails");
	ok(judge_text("    # findmnt -o TARGET,PROPAGATION | grep -v /c\n    TARGET PROPAGATION\n"
		      "    /      private\n    ├─/a   shared\n    ├─/b   private\n",
		      "TARGET PROPAGATION\n/      private\n├─/b   private\n├─/a   shared\n", NULL),
	   "judge: after a filter, a ├─ may stand for a line it took out");
}

/* ---- a flat tree: -l, -r, -J -l with -R ---- */

#define LIST_R "    # findmnt -l -R -o TARGET,SOURCE /m\n    TARGET SOURCE\n" \
	       "    /m     A\n    /m/a   B\n    /m/a/x C\n    /m/b   D\n"

TEST(flat)
{
	ok(judge_text(LIST_R, "TARGET SOURCE\n/m     A\n/m/b   D\n/m/a   B\n/m/a/x C\n", NULL),
	   "flat: -l -R with siblings in the other order passes, a subtree moving with its root");
	ok(!judge_text(LIST_R, "TARGET SOURCE\n/m     A\n/m/a   B\n/m/b   D\n/m/a/x C\n", NULL),
	   "flat: a submount away from its parent's subtree fails");
	ok(!judge_text(LIST_R, "TARGET SOURCE\n/m/a   B\n/m     A\n/m/a/x C\n/m/b   D\n", NULL),
	   "flat: the selected mount after its submount fails");
	ok(!judge_text(LIST_R, "TARGET SOURCE\n/m     A\n/m/b   B\n/m/a   D\n/m/a/x C\n", NULL),
	   "flat: a row's text must still be right");
	ok(judge_text("    # findmnt -r -R -o ID,PARENT,SOURCE /m\n    ID PARENT SOURCE\n"
		      "    30 29 A\n    31 30 B\n    33 31 C\n    32 30 D\n",
		      "ID PARENT SOURCE\n40 39 A\n41 40 D\n42 40 B\n43 42 C\n", NULL),
	   "flat: -r -R placed by ID and PARENT passes in the other order");
	ok(!judge_text("    # findmnt -r -R -o ID,PARENT,SOURCE /m\n    ID PARENT SOURCE\n"
		       "    30 29 A\n    31 30 B\n    33 31 C\n    32 30 D\n",
		       "ID PARENT SOURCE\n40 39 A\n41 40 D\n43 41 C\n42 40 B\n", NULL),
	   "flat: ... and a row under the wrong parent fails");
	ok(!judge_text("    # findmnt -l -o TARGET,SOURCE /m/a\n    TARGET SOURCE\n"
		       "    /m/a   B\n    /m/a   E\n",
		       "TARGET SOURCE\n/m/a   E\n/m/a   B\n", NULL),
	   "flat: a list without -R keeps mountinfo's order");
	ok(!judge_text("    # findmnt -l -R -o TARGET,SOURCE\n    TARGET SOURCE\n"
		       "    /      A\n    /a     B\n    /b     C\n",
		       "TARGET SOURCE\n/      A\n/b     C\n/a     B\n", NULL),
	   "flat: -l -R with no selection is findmnt -l: mountinfo's order");
	ok(judge_text("    # findmnt -J -l -R -o TARGET,SOURCE /m\n    {\n"
		      "       \"filesystems\": [\n"
		      "          {\n             \"target\": \"/m\",\n             \"source\": \"A\"\n"
		      "          },{\n             \"target\": \"/m/a\",\n             \"source\": \"B\"\n"
		      "          },{\n             \"target\": \"/m/b\",\n             \"source\": \"D\"\n"
		      "          }\n       ]\n    }\n",
		      "{\n   \"filesystems\": [\n"
		      "      {\n         \"target\": \"/m\",\n         \"source\": \"A\"\n"
		      "      },{\n         \"target\": \"/m/b\",\n         \"source\": \"D\"\n"
		      "      },{\n         \"target\": \"/m/a\",\n         \"source\": \"B\"\n"
		      "      }\n   ]\n}\n", NULL),
	   "flat: -J -l -R with siblings in the other order passes");
}
