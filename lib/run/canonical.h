/* canonical.h - a run's outputs in nstest's canonical form
 * (match/canonical.h), each step read as the judge reads it: the shape
 * ns_judge_shape gives, and the findmnt tree it draws. For the JSON
 * report, which ci/ compares across kernels. */
#ifndef NS_RUN_CANONICAL_H
#define NS_RUN_CANONICAL_H

#include <stdbool.h>

#include "run/result.h"
#include "scenario/scenario.h"

/* One string per step of sc: the canonical form of what it printed in
 * run, or NULL for a step that did not run; one numbering for the whole
 * scenario. sorted: the sorted form (each step's lines sorted before they
 * are named). Heap: free with ns_judge_canonical_free(v, sc->nsteps). */
char **ns_judge_canonical(const struct ns_scenario *sc, const struct ns_run *run,
			  bool sorted);
void ns_judge_canonical_free(char **v, size_t n);

#endif
