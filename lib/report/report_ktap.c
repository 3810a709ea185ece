/* report_ktap.c - KTAP version 1, as Documentation/dev-tools/ktap.rst
 * defines it and the kselftest runner and KernelCI read it: a scenario
 * is a test whose subtests are its steps, each subtest block indented by
 * two spaces, a step's diff in diagnostic lines right before its result:
 *
 *     KTAP version 1
 *     # nstest 0.1.0: kernel backend, Linux 6.18.44, tmpfs stand-ins
 *     1..2
 *       KTAP version 1
 *       # Subtest: scenarios/article/02-slave.scn
 *       1..3
 *       ok 1 line 4: # mount --make-shared /mntX
 *       # --- expected
 *       # ...
 *       not ok 2 line 6: sh2# cat /proc/self/mountinfo
 *       ok 3 line 9: sh1# umount /mntX
 *     not ok 1 scenarios/article/02-slave.scn
 *     ok 2 scenarios/article/03-bind.scn # SKIP needs loop devices
 *     # 1 passed, 1 failed, 1 skipped
 *
 * An expected failure (xfail:) is "ok N NAME # XFAIL reason", as
 * kselftest's ksft_test_result_xfail() writes it; an XPASS is a plain
 * "not ok", since nstest counts it a failure (the marker has to go).
 * A step that did not run has no subtest line (its scenario's reason
 * says why, in a diagnostic line). A run cut short ends with
 * "Bail out!", as the TAP form does. */
#include "report/reporter.h"

#include <string.h>

#include "report/report_text.h"
#include "run/verdict.h"

static void ktap_begin(struct ns_report_ctx *c)
{
	struct ns_buf head = NS_BUF_INIT;

	c->state.tap.reported = 0;
	ns_report_header(&head, c);
	fprintf(c->out, "KTAP version 1\n# %s\n", ns_buf_str(&head));
	if (!c->total && c->shard)
		fprintf(c->out, "1..0 # SKIP shard %s has no scenarios\n", c->shard);
	else
		fprintf(c->out, "1..%zu\n", c->total);
	ns_buf_free(&head);
	fflush(c->out);
}

/* The steps that ran, as the scenario's subtests. */
static void put_steps(FILE *f, const struct ns_result *r)
{
	const struct ns_scenario *sc = r->sc;
	size_t ran = 0, k = 0;

	for (size_t i = 0; i < r->v->n; i++)
		ran += r->v->steps[i].ran;
	fputs("  KTAP version 1\n  # Subtest: ", f);
	ns_tap_description(f, sc->path);
	fprintf(f, "\n  1..%zu\n", ran);
	for (size_t i = 0; i < r->v->n; i++) {
		const struct ns_step_verdict *sv = &r->v->steps[i];
		const struct ns_step *st = &sc->steps[i];
		char desc[64];

		if (!sv->ran)
			continue;
		if (!sv->ok && sv->diff)
			ns_tap_comment(f, "  ", sv->diff);
		snprintf(desc, sizeof(desc), "line %d: ", st->line);
		fprintf(f, "  %sok %zu %s", sv->ok ? "" : "not ", ++k, desc);
		ns_tap_description(f, st->terminal);
		ns_tap_description(f, st->prompt == '$' ? "$ " : "# ");
		ns_tap_description(f, st->cmdline ? st->cmdline : "");
		fputc('\n', f);
	}
}

static void ktap_scenario(struct ns_report_ctx *c, size_t index, const struct ns_result *r)
{
	FILE *f = c->out;
	enum ns_status s = r->v->status;

	(void)index;
	if (s != NS_SKIP && r->run)
		put_steps(f, r);
	if (s == NS_FAIL && r->v->reason)
		ns_tap_comment(f, "", r->v->reason);
	if (s == NS_XPASS)
		ns_tap_comment(f, "", r->v->reason ? r->v->reason : "XPASS: passed although marked xfail");
	fprintf(f, "%sok %zu ", s == NS_PASS || s == NS_SKIP || s == NS_XFAIL ? "" : "not ",
		++c->state.tap.reported);
	ns_tap_description(f, r->sc->path);
	if (s == NS_SKIP || s == NS_XFAIL) {
		fputs(s == NS_SKIP ? " # SKIP " : " # XFAIL ", f);
		for (const char *p = r->v->reason ? r->v->reason : (s == NS_SKIP ? "skipped" : "expected failure"); *p; p++)
			fputc(*p == '\n' ? ' ' : *p, f);
	}
	fputc('\n', f);
	fflush(f);
}

static void ktap_end(struct ns_report_ctx *c, const struct ns_tally *t)
{
	ns_tap_end(c->out, c, t, c->state.tap.reported);
}

const struct ns_reporter ns_reporter_ktap = {
	.name = "ktap",
	.begin = ktap_begin,
	.scenario = ktap_scenario,
	.end = ktap_end,
};
