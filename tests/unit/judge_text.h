/* judge_text.h - the judge on a scenario given as text whose last step
 * printed a given output (every step before it ran and printed nothing),
 * for the unit tests of what the judge accepts. */
#ifndef NS_TEST_JUDGE_TEXT_H
#define NS_TEST_JUDGE_TEXT_H

#include <stdbool.h>
#include <stdlib.h>

#include "run/verdict.h"
#include "scn.h"

/* Whether text passes; with diff, the last step's diff (heap) or NULL. */
static inline bool judge_text(const char *text, const char *actual, char **diff)
{
	struct ns_scenario *sc = parse(text);
	struct ns_run run = { 0 };
	struct ns_verdict v;
	bool pass;

	if (!sc)
		return false;
	run.n = sc->nsteps;
	run.obs = xcalloc(run.n, sizeof(*run.obs));
	for (size_t i = 0; i < run.n; i++) {
		run.obs[i].ran = true;
		run.obs[i].out.output = xstrdup(i + 1 == run.n ? actual : "");
	}
	ns_judge(sc, &run, NULL, &v);
	pass = v.status == NS_PASS;
	if (diff)
		*diff = v.n && v.steps[v.n - 1].diff ? xstrdup(v.steps[v.n - 1].diff) : NULL;
	ns_verdict_free(&v);
	ns_run_free(&run);
	ns_scenario_free(sc);
	return pass;
}

#endif
