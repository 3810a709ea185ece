/* test_ls_form.c - an ls listing written one name a line (run/ls_form.h):
 * the judge takes it when its lines are the names cut out of the columns
 * ls printed (which lay out again to exactly them), and only for an
 * unpiped ls in columns with a plain block; the diff and --update keep
 * the form the file uses. No kernel: each "run" is made in memory. */
#include <stdlib.h>
#include <string.h>

#include "commands/ls_layout.h"
#include "run/ls_form.h"
#include "run/verdict.h"
#include "scn.h"
#include "tap.h"
#include "update_run.h"

/* A run of sc where step i printed outs[i] (NULL past the list's end:
 * nothing). */
static void make_run(struct ns_run *run, const struct ns_scenario *sc,
		     const char *const *outs)
{
	bool more = true;

	memset(run, 0, sizeof(*run));
	run->n = sc->nsteps;
	run->obs = xcalloc(sc->nsteps, sizeof(*run->obs));
	for (size_t i = 0; i < sc->nsteps; i++) {
		more = more && outs[i];
		run->obs[i].ran = true;
		run->obs[i].out.output = xstrdup(more ? outs[i] : "");
	}
}

/* Whether text passes when its steps print outs; the first failed
 * step's diff goes to *diff when diff is not NULL. -1: no parse. */
static int judge_diff(const char *text, const char *const *outs, char **diff)
{
	struct ns_scenario *sc = parse(text);
	struct ns_run run;
	struct ns_verdict v;
	int pass;

	if (!sc)
		return -1;
	make_run(&run, sc, outs);
	ns_judge(sc, &run, NULL, &v);
	pass = v.status == NS_PASS;
	for (size_t i = 0; diff && i < v.n; i++)
		if (v.steps[i].diff) {
			*diff = xstrdup(v.steps[i].diff);
			diff = NULL;
		}
	if (diff)
		*diff = NULL;
	ns_verdict_free(&v);
	ns_run_free(&run);
	ns_scenario_free(sc);
	return pass;
}

static int judge1(const char *text, const char *out)
{
	const char *outs[] = { out, NULL };

	return judge_diff(text, outs, NULL);
}

/* 26 names of 10 characters, as ls lays them out: six columns of five
 * rows, the last with one; and the same names one a line. */
static void twenty_six(struct ns_buf *cols, struct ns_buf *lines)
{
	struct ns_lines l = NS_LINES_INIT;

	for (int i = 0; i < 26; i++) {
		char name[16];

		snprintf(name, sizeof(name), "name%06d", i);
		ns_lines_push(&l, name);
		ns_buf_addf(lines, "    %s\n", name);
	}
	ns_ls_render(&l, false, cols);
	ns_lines_free(&l);
}

TEST(forms)
{
	struct ns_buf cols = NS_BUF_INIT, lines = NS_BUF_INIT;
	char *text;

	ok(judge1("    # ls /d\n    alpha  beta  gamma\n", "alpha  beta  gamma\n") == 1,
	   "columns, as nstest prints them, pass");
	ok(judge1("    # ls /d\n    alpha\n    beta\n    gamma\n", "alpha  beta  gamma\n") == 1,
	   "one name a line, as a recorded session shows them, passes");
	ok(judge1("    # unshare -m ls /d\n    alpha\n    beta\n", "alpha  beta\n") == 1,
	   "an ls a wrapper runs: one name a line passes");
	ok(judge1("    # ls -a /d\n    .\n    ..\n    alpha\n", ".  ..  alpha\n") == 1,
	   "ls -a: one name a line passes");
	twenty_six(&cols, &lines);
	text = xasprintf("    # ls /d\n%s", ns_buf_str(&lines));
	ok(strchr(ns_buf_str(&cols), '\n') != strrchr(ns_buf_str(&cols), '\n'),
	   "26 names take several rows");
	ok(judge1(text, ns_buf_str(&cols)) == 1, "26 names one a line, printed in rows and columns, pass");
	free(text);
	ns_buf_free(&cols);
	ns_buf_free(&lines);
	ok(judge1("    # ls /d\n", "") == 1, "an empty directory: no lines");
}

/* Everything but the same names in the same order fails. */
TEST(exact)
{
	const char *out = "alpha  beta  gamma\n";

	ok(judge1("    # ls /d\n    alpha\n    gamma\n", out) == 0, "a name missing fails");
	ok(judge1("    # ls /d\n    alpha\n    beta\n    delta\n    gamma\n", out) == 0,
	   "a name too many fails");
	ok(judge1("    # ls /d\n    alpha\n    beta\n    gama\n", out) == 0, "a wrong name fails");
	ok(judge1("    # ls /d\n    alpha\n    gamma\n    beta\n", out) == 0, "a wrong order fails");
	ok(judge1("    # ls /d\n    alpha  beta\n    gamma\n", out) == 0,
	   "lines that are neither form fail");
	ok(judge1("    # ls /d\n    alpha\n    beta\n    gamma\n", "alpha\nbeta\ngamma\n") == 1 &&
	   judge1("    # ls /d\n    alpha  beta  gamma\n", "alpha\nbeta\ngamma\n") == 0,
	   "printed one a line, only that form passes");
}

/* The rule is for an unpiped ls in columns, a plain block, a success. */
TEST(where)
{
	/* a directory named "...": its block read as names would pass */
	ok(judge1("    # ls /d\n    ...\n    a\n", "...  a\n") == 0,
	   "a block with a ... line is matched as written only");
	ok(judge1("    # ls /d | grep a\n    a\n    ab\n", "a  ab\n") == 0,
	   "a piped ls is matched as written only");
	ok(judge1("    # ls -1 /d\n    a\n    b\n", "a  b\n") == 0,
	   "ls -1 is matched as written only");
	ok(judge1("    # ls /d\n    [unordered]\n    a\n    b\n", "a  b\n") == 0,
	   "an unordered block is matched as written only");
	ok(judge1("    # cat /f\n    a\n    b\n", "a  b\n") == 0,
	   "another command is matched as written only");
}

/* A failed block one name a line is diffed against the names one a
 * line; a block in columns against the columns. */
TEST(diff)
{
	const char *outs[] = { "alpha  beta  gamma\n", NULL };
	char *d = NULL;

	ok(judge_diff("    # ls /d\n    alpha\n    gamma\n", outs, &d) == 0 && d &&
	   strstr(d, "\n+beta\n") && !strstr(d, "+alpha  beta"),
	   "one a line: the diff shows the printed names one a line");
	printf("# %s", d ? d : "(none)\n");
	free(d);
	ok(judge_diff("    # ls /d\n    alpha  gamma\n", outs, &d) == 0 && d &&
	   strstr(d, "+alpha  beta  gamma\n"), "columns: the diff shows the columns");
	free(d);
	/* a name ending in a blank cannot be cut out of the columns again */
	outs[0] = "a    b\n";
	ok(judge_diff("    # ls /d\n    a\n    c\n", outs, &d) == 0 && d &&
	   strstr(d, "+a    b\n"), "columns that do not split back: the diff shows them as printed");
	free(d);
}

/* --update: every step prints outs[i]; the rewritten file, or NULL. */
static char *update(const char *text, const char *const *outs)
{
	struct ns_scenario *sc = parse(text);
	struct ns_run run;
	char *res;

	if (!sc)
		return NULL;
	make_run(&run, sc, outs);
	res = update_run(sc, &run, true, NULL, NULL);
	ns_run_free(&run);
	ns_scenario_free(sc);
	return res;
}

TEST(update)
{
	const char *outs[] = { "a  b  c\n", "a  b\n", NULL };
	char *r;

	r = update("    # ls /d\n    a\n    c\n    # ls /e\n    a\n    b\n", outs);
	is_str(r, "    # ls /d\n    a\n    b\n    c\n    # ls /e\n    a\n    b\n",
	       "a block one a line is rewritten one a line");
	free(r);
	r = update("    # ls /d\n    a  c\n    # ls /e\n    a\n    b\n", outs);
	is_str(r, "    # ls /d\n    a  b  c\n    # ls /e\n    a\n    b\n",
	       "a block in columns stays in columns");
	free(r);
	r = update("    # ls /d\n    x\n    # ls /e\n    a\n    b\n", outs);
	is_str(r, "    # ls /d\n    a\n    b\n    c\n    # ls /e\n    a\n    b\n",
	       "a block that shows no form takes the file's: one a line");
	free(r);
	r = update("    # ls /d\n    x\n    # ls /e\n    a  b\n", outs);
	is_str(r, "    # ls /d\n    a  b  c\n    # ls /e\n    a  b\n",
	       "a block that shows no form takes the file's: columns");
	free(r);
}

/* ls_layout.h's split: names back from columns, or false. */
TEST(split)
{
	struct ns_lines l = NS_LINES_INIT;
	struct ns_buf cols = NS_BUF_INIT, lines = NS_BUF_INIT;

	twenty_six(&cols, &lines);
	ok(ns_ls_split(ns_buf_str(&cols), &l) && l.n == 26 && !strcmp(l.v[0], "name000000") &&
	   !strcmp(l.v[5], "name000005") && !strcmp(l.v[25], "name000025"),
	   "26 names in columns come back in order");
	ns_lines_free(&l);
	ok(ns_ls_split("", &l) && l.n == 0, "no lines, no names");
	ns_lines_free(&l);
	ok(ns_ls_split("a b\n", &l) && l.n == 1, "one blank is part of a name");
	ns_lines_free(&l);
	ok(!ns_ls_split("a   b\n", &l), "three blanks between two names are no ls layout");
	ns_lines_free(&l);
	ok(!ns_ls_split("a\nb\n", &l), "two short names one a line are no ls layout");
	ns_lines_free(&l);
	ns_buf_free(&cols);
	ns_buf_free(&lines);
}

/* ls_layout.h's untab: a tab goes to the next stop of 8 columns, as a
 * terminal shows GNU ls's padding (coreutils ls.c, indent()). */
TEST(untab)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "a\tb", "a       b" },
		{ "abcdefgh\tx", "abcdefgh        x" },
		{ "abcdefg\tx", "abcdefg x" },
		{ "b\t\t\t\t  e", "b                                 e" },
		{ "no tab", "no tab" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ns_buf b = NS_BUF_INIT;

		ns_ls_untab(cases[i].in, &b);
		is_str(ns_buf_str(&b), cases[i].want, "untab: tab stops every 8 columns");
		ns_buf_free(&b);
	}
}
