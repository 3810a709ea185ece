/* report_human.c - the report for people: one line per scenario, the
 * failing steps with their diffs, and with --verbose the whole transcript
 * as it ran. */
#include "reporter.h"

#include <string.h>

static const char *prompt_of(const struct ns_step *st, char *buf, size_t n)
{
	snprintf(buf, n, "%s%c", st->terminal, st->prompt);
	return buf;
}

static void print_indented(FILE *f, const char *text, const char *indent)
{
	const char *s = text;

	while (*s) {
		size_t n = strcspn(s, "\n");
		fprintf(f, "%s%.*s\n", indent, (int)n, s);
		s += n + (s[n] == '\n');
	}
}

/* The first step without a result is the one that was running when the
 * run stopped: name what stopped it. */
static const char *not_run_reason(const struct ns_run *run, const struct ns_verdict *v,
				  size_t i)
{
	if (i > 0 && !v->steps[i - 1].ran)
		return "not run";
	return run->timed_out ? "killed by the watchdog" : run->aborted ? "interrupted" : "not run";
}

static void report_step(FILE *f, const struct ns_scenario *sc, size_t i,
			const struct ns_run *run, const struct ns_verdict *v,
			bool verbose)
{
	const struct ns_step *st = &sc->steps[i];
	const struct ns_obs *o = &run->obs[i];
	const struct ns_step_verdict *sv = &v->steps[i];
	char p[64];

	if (!sv->ran) {
		if (verbose)
			fprintf(f, "  --  %s %s   (%s)\n", prompt_of(st, p, sizeof(p)), st->cmdline,
				not_run_reason(run, v, i));
		return;
	}
	if (sv->ok && !verbose)
		return;
	if (verbose) {
		fprintf(f, "  %s  %s %s\n", sv->ok ? "ok" : "XX", prompt_of(st, p, sizeof(p)), st->cmdline);
		if (sv->ok)
			print_indented(f, o->out.output, "          ");
		else
			fprintf(f, "    at %s:%d\n", sc->path, st->line);
	} else {
		fprintf(f, "%s:%d: %s %s\n", sc->path, st->line, prompt_of(st, p, sizeof(p)), st->cmdline);
	}
	if (sv->ok)
		return;
	if (o->out.err)
		fprintf(f, "    system call failed: %s: %s\n", o->out.syscall, ns_errname(o->out.err));
	print_indented(f, sv->diff ? sv->diff : "", "    ");
}

static void human_scenario(const struct ns_report_ctx *c, size_t index,
			   const struct ns_result *r)
{
	FILE *f = c->out;
	const struct ns_scenario *sc = r->sc;
	const struct ns_run *run = r->run;
	const struct ns_verdict *v = r->v;
	bool verbose = c->verbose;

	(void)index;
	if (verbose && v->status != NS_SKIP)
		fprintf(f, "=== %s%s%s\n", sc->path, sc->title ? ": " : "",
			sc->title ? sc->title : "");
	for (size_t i = 0; run && i < v->n; i++)
		report_step(f, sc, i, run, v, verbose);
	fprintf(f, "%-5s %s", ns_status_name(v->status), sc->path);
	if (v->reason)
		fprintf(f, " (%s)", v->reason);
	fputc('\n', f);
	if (verbose)
		fputc('\n', f);
	fflush(f);
}

static void human_end(const struct ns_report_ctx *c, const struct ns_tally *t)
{
	ns_tally_print(c->out, t);
}

const struct ns_reporter ns_reporter_human = {
	.name = "human",
	.scenario = human_scenario,
	.end = human_end,
};
