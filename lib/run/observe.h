/* observe.h - every live terminal's mount table at chosen points of a
 * scenario, read the way a reader would read it: a plan is made from the
 * parsed scenario as data (scenario/plan.h), its steps up to the last
 * point, and at each point one `cat /proc/self/mountinfo` step per live
 * terminal put in, parsed by the parser's own code; the plan runs once
 * on the chosen backend (ns_runner_run), with the file's stand-ins and
 * mode, and those steps' outputs are the tables.
 *
 * A terminal is live at a point when its prompt has appeared in an
 * earlier step and it has not ended: `exit` at its first shell ends it.
 * `unshare`, `chroot` and `capsh` start an inner shell when their
 * transcript shows no output (they print nothing when they work), and
 * `exit` leaves one. At a point where no terminal is live yet (the
 * start), the terminal of the next step is read. */
#ifndef NS_OBSERVE_H
#define NS_OBSERVE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"
#include "run/result.h"
#include "run/runner.h"
#include "scenario/scenario.h"

/* The tables after `step` steps of the scenario. */
struct ns_observation {
	size_t step;
	size_t n;
	char **terms;          /* terminal names, "" for the bare prompt, in order of first prompt */
	char **tables;         /* mountinfo text, one per terminal */
};

struct ns_observe {
	struct ns_observation *at;   /* one per point, in the order asked */
	size_t n;
	/* The file's own steps (up to the last point) as this same run
	 * played them, the cat steps left out, for a page that prints their
	 * output beside the pictures in one numbering; ns_judge() judges it
	 * as the runner would. run.n is 0 when the scenario did not run. */
	struct ns_run run;
	double seconds;
	const char *devices;         /* "tmpfs" or "loop" as it ran */
};

/* Observe sc after each of points[0..n) steps (each at most sc->nsteps,
 * increasing). On the backend o names. 0, or -1 with err holding a
 * message for the user ("FILE:LINE: ..."), when a step before the last
 * point failed in a way its transcript does not show, did not run, or
 * the scenario was skipped. With lenient, such steps are no error: an
 * observation some table of which could not be read gets n = 0. */
int ns_observe_run(const struct ns_scenario *sc, const size_t *points, size_t n,
		   const struct ns_runner_opts *o, bool lenient, struct ns_observe *out,
		   struct ns_buf *err);
void ns_observe_free(struct ns_observe *ob);

#endif
