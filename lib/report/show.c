/* show.c - see show.h.
 *
 * The scenario's raw lines are printed back as they are, except that each
 * command's expected block gives way to the output this kernel printed:
 * the reader sees the article with their own machine's numbers, and a
 * marked diff wherever their kernel disagrees with it. */
#include "report/show.h"

#include "report/report_text.h"
#include "run/verdict.h"

#include <string.h>

#define MARK_DIFF "!!  "
#define MARK_NOT_RUN "--  "
#define MARK_WHY "##  "
#define MARK_MODEL "=>  "

static void put_lines(FILE *f, const char *prefix, const char *text)
{
	const char *s = text ? text : "";

	while (*s) {
		size_t n = strcspn(s, "\n");
		fprintf(f, "%s%.*s\n", prefix, (int)n, s);
		s += n + (s[n] == '\n');
	}
}

/* The first step without a result is the one that was running when the
 * run stopped: name what stopped it (as the run report does). */
static const char *not_run_reason(const struct ns_result *r, size_t i)
{
	if (i > 0 && !r->v->steps[i - 1].ran)
		return "not run";
	if (r->run->timed_out)
		return "not run: killed by the watchdog";
	return r->run->aborted ? "not run: interrupted" : "not run";
}

/* What this kernel made of step i, below its command (raw line r). */
static void show_notes(FILE *f, const struct ns_result *r, size_t i,
		       const struct ns_show_notes *x)
{
	bool ok = r->v->steps[i].ok;

	if (!x || i >= x->n)
		return;
	if (x->model && x->model[i] && !ok) {
		fprintf(f, MARK_MODEL "the model (the documented rules) prints:\n");
		put_lines(f, MARK_MODEL "  ", x->model[i]);
	}
	/* the causes: always for the model's own run, else where a step
	 * differs */
	if (x->why && x->why[i] && (!x->model || !ok))
		put_lines(f, MARK_WHY, x->why[i]);
}

static void show_step(FILE *f, const struct ns_result *r, size_t i, size_t raw)
{
	const struct ns_scenario *sc = r->sc;
	const struct ns_step_verdict *sv = &r->v->steps[i];
	const struct ns_obs *o = &r->run->obs[i];
	char *out;

	if (!sv->ran) {
		fprintf(f, MARK_NOT_RUN "(%s)\n", not_run_reason(r, i));
		return;
	}
	/* in the forms the file uses: error lines, ls listings (verdict.h) */
	out = ns_judge_output(sc, &sc->steps[i], o->out.err, o->out.output);
	put_lines(f, ns_scenario_block_indent(sc, raw), out);
	free(out);
	if (sv->ok)
		return;
	fprintf(f, MARK_DIFF "%s:%d: this kernel differs from the transcript\n", sc->path,
		sc->steps[i].line);
	if (o->out.err) {
		struct ns_buf b = NS_BUF_INIT;
		ns_report_syscall(&b, &o->out);
		fprintf(f, MARK_DIFF "%s\n", ns_buf_str(&b));
		ns_buf_free(&b);
	}
	put_lines(f, MARK_DIFF, sv->diff);
}

static void show_result(FILE *f, const struct ns_result *r, const char *about)
{
	const struct ns_verdict *v = r->v;
	const char *sep = " (";

	fprintf(f, "%-5s %s", ns_status_name(v->status), r->sc->path);
	if (v->reason) {
		fprintf(f, "%s%s", sep, v->reason);
		sep = "; ";
	}
	if (v->failed) {
		fprintf(f, "%s%zu of %zu steps differ from the transcript", sep, v->failed, v->n);
		sep = "; ";
	}
	if (about && v->status != NS_SKIP) {
		fprintf(f, "%s%s", sep, about);
		sep = "; ";
	}
	fputs(*sep == ';' ? ")\n" : "\n", f);
}

void ns_show(FILE *f, const struct ns_result *r, const char *about,
	     const struct ns_show_notes *notes)
{
	const struct ns_scenario *sc = r->sc;

	for (size_t k = 0; r->run && k < sc->nraw; k++) {
		const struct ns_raw_line *l = &sc->raw[k];

		if (l->kind == NS_LINE_EXPECT)
			continue;
		fprintf(f, "%s\n", l->text);
		if (l->kind == NS_LINE_COMMAND && l->step < r->v->n) {
			show_step(f, r, l->step, k);
			if (r->v->steps[l->step].ran)
				show_notes(f, r, l->step, notes);
		}
	}
	if (r->run)
		fputc('\n', f);
	show_result(f, r, about);
	fflush(f);
}
