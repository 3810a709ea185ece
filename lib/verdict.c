/* verdict.c - see verdict.h */
#include "verdict.h"

#include <string.h>

#include "match.h"

const char *ns_status_name(enum ns_status s)
{
	static const char *const names[] = { "PASS", "FAIL", "SKIP", "XFAIL", "XPASS" };

	return names[s];
}

void ns_judge(const struct ns_scenario *sc, const struct ns_run *run,
	      struct ns_verdict *v)
{
	struct ns_matcher *m = ns_matcher_new();

	memset(v, 0, sizeof(*v));
	v->n = sc->nsteps;
	v->steps = xcalloc(sc->nsteps, sizeof(*v->steps));
	for (size_t i = 0; i < sc->nsteps; i++) {
		const struct ns_step *st = &sc->steps[i];
		const struct ns_obs *o = &run->obs[i];
		struct ns_buf diff = NS_BUF_INIT;

		v->steps[i].ran = o->ran;
		if (!o->ran)
			continue;
		v->steps[i].ok = ns_matcher_step(m, st->expect, st->nexpect,
						 st->unordered, o->out.output, &diff);
		if (!v->steps[i].ok) {
			v->failed++;
			v->steps[i].diff = ns_buf_detach(&diff);
		}
		ns_buf_free(&diff);
	}
	ns_matcher_free(m);
	if (run->aborted)
		v->reason = xstrdup(run->aborted);
	v->status = v->failed || run->aborted ? NS_FAIL : NS_PASS;
}

void ns_verdict_skip(struct ns_verdict *v, char *reason)
{
	memset(v, 0, sizeof(*v));
	v->status = NS_SKIP;
	v->reason = reason;
}

void ns_verdict_free(struct ns_verdict *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->steps[i].diff);
	free(v->steps);
	free(v->reason);
	memset(v, 0, sizeof(*v));
}
