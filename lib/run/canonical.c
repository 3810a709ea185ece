/* canonical.c - see canonical.h. */
#include "run/canonical.h"

#include <stdlib.h>

#include "match/canonical.h"
#include "run/verdict.h"

char **ns_judge_canonical(const struct ns_scenario *sc, const struct ns_run *run,
			  bool sorted)
{
	char **v = xcalloc(sc->nsteps + 1, sizeof(*v));
	struct ns_canon *c = ns_canon_new(sorted);
	struct ns_buf b = NS_BUF_INIT;

	for (size_t i = 0; i < sc->nsteps && i < run->n; i++) {
		const struct ns_obs *o = &run->obs[i];
		struct ns_match_shape shape = { 0 };
		const struct ns_match_shape *sh;

		if (!o->ran)
			continue;
		/* as judge_step reads it: rows when the columns hold numbers,
		 * siblings sorted whenever findmnt draws a tree */
		sh = ns_judge_shape(&sc->steps[i], &shape) ? &shape : NULL;
		ns_buf_reset(&b);
		ns_canon_step(c, o->out.output, sh, shape.tree ? &shape : NULL, &o->out.view, &b);
		ns_canon_after_step(c, &o->out.view, &o->out.alive);
		v[i] = xstrdup(ns_buf_str(&b));
	}
	ns_buf_free(&b);
	ns_canon_free(c);
	return v;
}

void ns_judge_canonical_free(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
