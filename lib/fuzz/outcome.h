/* outcome.h - what one side made of one fuzz case, kept after the
 * runner has let go of the run: per step whether it ran, its errno, what
 * it printed, and for observation steps the table's canonical form
 * (canon.h). */
#ifndef NS_FUZZ_OUTCOME_H
#define NS_FUZZ_OUTCOME_H

#include <stdbool.h>
#include <stddef.h>

#include "run/result.h"

struct ns_fuzz_step {
	bool ran;
	int err;
	char *out;              /* as printed */
	char *canon;            /* observation steps: canonical table; else NULL */
};

struct ns_fuzz_outcome {
	struct ns_fuzz_step *s;
	size_t n;               /* steps of the scenario */
	size_t nops;            /* of which operations; the rest observe */
	bool skipped;           /* the runner skipped it (a requirement unmet) */
	bool setup_failed, timed_out;
	char *aborted;          /* why steps are missing, or NULL */
};

/* Keep run (NULL when skipped) of a scenario of nsteps steps whose first
 * nops are operations. */
void ns_fuzz_outcome_take(struct ns_fuzz_outcome *o, const struct ns_run *run,
			  size_t nsteps, size_t nops);
void ns_fuzz_outcome_free(struct ns_fuzz_outcome *o);

/* The text a step is compared by: the canonical table, or the output. */
const char *ns_fuzz_step_text(const struct ns_fuzz_step *s);

#endif
