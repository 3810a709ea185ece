/* report_tap.c - TAP version 13, read the way KTAP readers (kselftest,
 * KernelCI) and prove read it:
 *
 *     TAP version 13
 *     1..N
 *     ok 1 - FILE
 *     # FILE:LINE: PROMPT COMMAND          diagnostics of a failure come
 *     #     --- expected                   right before its result line,
 *     #     ...                            as KTAP asks
 *     not ok 2 - FILE
 *     ok 3 - FILE # SKIP reason
 *     not ok 4 - FILE # TODO reason        XFAIL: a TODO test that failed
 *     # XPASS: reason
 *     not ok 5 - FILE                      XPASS: a plain failure
 *     # 1 passed, 2 failed, ...
 *
 * An empty shard (--shard K/N with fewer than K scenarios, which needs
 * --allow-empty-shard) has the plan
 * "1..0 # SKIP shard K/N has no scenarios".
 *
 * An XPASS is not written as "ok N # TODO": TAP counts a passing TODO
 * test as a success, while nstest counts XPASS as a failure (the xfail
 * marker has to go). As a plain "not ok" every reader agrees with the
 * exit status. A run cut short by -x ends with "Bail out!", since the
 * plan promised every scenario; so does one a signal stopped, after a
 * "# not run: FILE (why)" line for each scenario without a result:
 *
 *     # not run: FILE (stopped while running)
 *     Bail out! interrupted by SIGINT: 2 of 5 scenarios did not run
 *
 * Test lines are numbered in the order written, which is the list's.
 *
 * Nothing here needs more than TAP 13, and Test::Harness before 3.48 (the
 * prove of Debian 12 and Ubuntu 24.04) rejects a stream that says
 * version 14, also when it reads a report saved to a file, where no
 * environment says which prove will read it. So the stream says 13,
 * which every TAP 14 and KTAP reader also takes. */
#include "report/reporter.h"

#include <stdlib.h>
#include <string.h>

#include "report/report_text.h"

void ns_tap_description(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '#' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
}

/* A directive's reason stays on the test line. */
static void print_reason(FILE *f, const char *s)
{
	for (; s && *s; s++)
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
}

void ns_tap_comment(FILE *f, const char *indent, const char *text)
{
	const char *s = text;

	while (*s) {
		size_t n = strcspn(s, "\n");
		fprintf(f, n ? "%s# %.*s\n" : "%s#\n", indent, (int)n, s);
		s += n + (s[n] == '\n');
	}
}

static void tap_begin(struct ns_report_ctx *c)
{
	struct ns_buf head = NS_BUF_INIT;

	c->state.tap.reported = 0;
	ns_report_header(&head, c);
	/* an empty shard: the plan that says "skip all", which prove shows
	 * as skipped rather than as a run that promised nothing */
	if (!c->total && c->shard)
		fprintf(c->out, "TAP version 13\n1..0 # SKIP shard %s has no scenarios\n# %s\n",
			c->shard, ns_buf_str(&head));
	else
		fprintf(c->out, "TAP version 13\n1..%zu\n# %s\n", c->total,
			ns_buf_str(&head));
	ns_buf_free(&head);
	fflush(c->out);
}

/* What went wrong, as '#' lines before the result line; a report on
 * standard output also writes them to standard error, which is where a
 * harness (prove, Test::Harness) shows a test's diagnostics without -v:
 * the '#' lines of its standard output it keeps for -v. */
static void print_diagnostics(FILE *f, const struct ns_result *r)
{
	struct ns_buf text = NS_BUF_INIT;
	enum ns_status s = r->v->status;

	if (s == NS_FAIL || s == NS_XFAIL) {
		ns_report_failures(&text, r);
		if (s == NS_FAIL && r->v->reason)
			ns_buf_addf(&text, "%s\n", r->v->reason);
	} else if (s == NS_XPASS) {
		ns_buf_addf(&text, "XPASS: %s\n", r->v->reason ? r->v->reason : "passed although marked xfail");
	}
	ns_tap_comment(f, "", ns_buf_str(&text));
	if (f == stdout && text.len) {
		fflush(stdout);
		ns_tap_comment(stderr, "", ns_buf_str(&text));
	}
	ns_buf_free(&text);
}

static void tap_scenario(struct ns_report_ctx *c, size_t index,
			 const struct ns_result *r)
{
	FILE *f = c->out;
	enum ns_status s = r->v->status;

	print_diagnostics(f, r);
	/* numbered as written: the list's own order, and without the holes
	 * of scenarios a signal left without a result */
	(void)index;
	fprintf(f, "%sok %zu - ", s == NS_PASS || s == NS_SKIP ? "" : "not ",
		c->state.tap.reported + 1);
	ns_tap_description(f, r->sc->path);
	if (s == NS_SKIP) {
		fputs(" # SKIP ", f);
		print_reason(f, r->v->reason);
	} else if (s == NS_XFAIL) {
		fputs(" # TODO ", f);
		print_reason(f, r->v->reason ? r->v->reason : "expected failure");
	}
	fputc('\n', f);
	fflush(f);
	c->state.tap.reported++;
}

void ns_tap_end(FILE *f, const struct ns_report_ctx *c, const struct ns_tally *t,
		size_t reported)
{
	fputs("# ", f);
	ns_tally_print(f, t);
	if (c->interrupted) {
		struct ns_buf why = NS_BUF_INIT;

		for (size_t i = 0; i < c->nnot_run; i++) {
			fputs("# not run: ", f);
			print_reason(f, c->not_run[i].sc->path);
			fprintf(f, " (%s)\n", ns_report_not_run_why(&c->not_run[i]));
		}
		ns_report_interrupted(&why, c);
		fprintf(f, "%s%s\n", reported < c->total ? "Bail out! " : "# ", ns_buf_str(&why));
		ns_buf_free(&why);
	} else if (reported < c->total) {
		fprintf(f, "Bail out! stopped after the first failure; %zu of %zu scenarios not run\n",
			c->total - reported, c->total);
	}
	fflush(f);
}

static void tap_end(struct ns_report_ctx *c, const struct ns_tally *t)
{
	ns_tap_end(c->out, c, t, c->state.tap.reported);
}

const struct ns_reporter ns_reporter_tap = {
	.name = "tap",
	.begin = tap_begin,
	.scenario = tap_scenario,
	.end = tap_end,
};
