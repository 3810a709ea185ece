/* test_match_tree.c - findmnt trees whose siblings come in another order
 * (match/match_tree.c): findmnt orders a mount's children by mount ID, the
 * kernel hands out the lowest free ID, and IDs are renamed, so the judge
 * accepts siblings in any order; everything else about the tree (rows,
 * depths, parents, the glyphs as printed) is still checked. */
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
}
