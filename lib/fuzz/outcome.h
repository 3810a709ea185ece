/* outcome.h - what one side made of one fuzz case, kept after the
 * runner has let go of the run: per step whether it ran, its errno, what
 * it printed, and for observation steps the table's canonical form and
 * its order (canon.h). */
#ifndef NS_FUZZ_OUTCOME_H
#define NS_FUZZ_OUTCOME_H

#include <stdbool.h>
#include <stddef.h>

#include "fuzz/case.h"
#include "run/result.h"

struct ns_fuzz_step {
	bool ran;
	int err;
	char *out;              /* as printed */
	char *canon;            /* observation steps: canonical table; else NULL */
	char *order;            /* observation steps: its lines' order (canon.h) */
};

struct ns_fuzz_outcome {
	struct ns_fuzz_step *s;
	size_t n;               /* steps of the scenario */
	bool skipped;           /* the runner skipped it (a requirement unmet) */
	bool setup_failed, timed_out;
	bool unparsed;          /* the case's text did not parse: aborted says why */
	char *aborted;          /* why steps are missing, or NULL */
};

/* Keep run (NULL when skipped) of the scenario of plan p (case.h): its
 * observations canonical, with one renaming per round. */
void ns_fuzz_outcome_take(struct ns_fuzz_outcome *o, const struct ns_run *run,
			  const struct ns_fuzz_plan *p);
void ns_fuzz_outcome_free(struct ns_fuzz_outcome *o);

/* The text a step is compared by: the canonical table, or the output. */
const char *ns_fuzz_step_text(const struct ns_fuzz_step *s);

#endif
