/* repeat.c - `nstest run --repeat N`, the flake detector (issue 28): the
 * scenarios run N times in all, and any whose verdict is not the same in
 * every run is named with the runs that differed. A verdict is its status
 * and the first step that failed, so that a scenario failing at another
 * step counts as a change too. */
#include "harness.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "run/runner.h"
#include "run/verdict.h"
#include "scenario/scenario.h"

void vsig_of(const struct ns_result *r, struct vsig *s)
{
	s->status = r->v->status;
	s->step = SIZE_MAX;
	for (size_t i = 0; i < r->v->n; i++)
		if (r->v->steps[i].ran && !r->v->steps[i].ok) {
			s->step = i;
			break;
		}
	/* steps that did not run fail the scenario too (verdict.c) */
	if (s->step == SIZE_MAX && r->v->status == NS_FAIL)
		for (size_t i = 0; i < r->v->n; i++)
			if (!r->v->steps[i].ran) {
				s->step = i;
				break;
			}
}

static bool vsig_eq(const struct vsig *a, const struct vsig *b)
{
	return a->status == b->status && a->step == b->step;
}

#define RUNS_NAMED 10 /* the differing runs a message lists */

struct tally {
	const struct vsig *first;
	unsigned round;
	struct ns_scenario *const *sc;
	/* per scenario: runs that differed from the first, and which */
	unsigned *ndiff;
	unsigned (*which)[RUNS_NAMED];
	struct vsig (*seen)[RUNS_NAMED];
	unsigned (*count)[5]; /* per status */
};

static void on_repeat(void *p, size_t i, const struct ns_result *r)
{
	struct tally *t = p;
	struct vsig s;

	vsig_of(r, &s);
	t->count[i][s.status]++;
	if (vsig_eq(&s, &t->first[i]))
		return;
	if (t->ndiff[i] < RUNS_NAMED) {
		t->which[i][t->ndiff[i]] = t->round;
		t->seen[i][t->ndiff[i]] = s;
	}
	t->ndiff[i]++;
}

static void describe(FILE *out, const struct ns_scenario *sc, const struct vsig *s)
{
	fputs(ns_status_name(s->status), out);
	if (s->step < sc->nsteps)
		fprintf(out, " at line %d", sc->steps[s->step].line);
}

/* One line for a scenario whose verdict changed. */
static void report(FILE *out, const struct tally *t, size_t i, unsigned rounds)
{
	const struct ns_scenario *sc = t->sc[i];
	unsigned shown = t->ndiff[i] < RUNS_NAMED ? t->ndiff[i] : RUNS_NAMED;

	fprintf(out, "nstest: flaky: %s: %u runs:", sc->path, rounds);
	for (int k = 0; k < 5; k++)
		if (t->count[i][k])
			fprintf(out, " %s %u", ns_status_name((enum ns_status)k), t->count[i][k]);
	fputs("; run 1 ", out);
	describe(out, sc, &t->first[i]);
	for (unsigned d = 0; d < shown; d++) {
		fprintf(out, ", run %u ", t->which[i][d]);
		describe(out, sc, &t->seen[i][d]);
	}
	if (t->ndiff[i] > shown)
		fprintf(out, ", and %u more", t->ndiff[i] - shown);
	fputc('\n', out);
}

size_t repeat_rounds(struct ns_scenario *const *sc, size_t n, const struct ns_runner_opts *o,
		     unsigned rounds, const struct vsig *first, FILE *out)
{
	struct ns_runner_opts ro = *o;
	struct tally t = { first, 0, sc, NULL, NULL, NULL, NULL };
	struct ns_runner_hooks h = { &t, NULL, on_repeat, NULL, NULL };
	size_t flaky = 0;

	ro.stop_on_fail = false; /* every round runs everything */
	t.ndiff = xcalloc(n + 1, sizeof(*t.ndiff));
	t.which = xcalloc(n + 1, sizeof(*t.which));
	t.seen = xcalloc(n + 1, sizeof(*t.seen));
	t.count = xcalloc(n + 1, sizeof(*t.count));
	for (size_t i = 0; i < n; i++)
		t.count[i][first[i].status]++;
	/* a signal (cmd_run.c) stops the rounds too */
	for (t.round = 2; t.round <= rounds && !(ro.stop && ro.stop->sig); t.round++)
		ns_runner_run(sc, n, &ro, &h);
	for (size_t i = 0; i < n; i++)
		if (t.ndiff[i]) {
			report(out, &t, i, rounds);
			flaky++;
		}
	free(t.ndiff);
	free(t.which);
	free(t.seen);
	free(t.count);
	return flaky;
}
