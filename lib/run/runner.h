/* runner.h - run a list of scenarios, up to N at once in as many worker
 * processes, each in a sandbox of its own, and hand back the results in
 * list order. */
#ifndef NS_RUNNER_H
#define NS_RUNNER_H

#include <stdbool.h>

#include "run/backend.h"
#include "run/result.h"
#include "scenario/scenario.h"

struct ns_runner_opts {
	const struct ns_backend *backend;
	struct ns_run_opts run;    /* devices, timeout */
	unsigned jobs;             /* scenarios at once, >= 1 */
	bool stop_on_fail;         /* -x: no new scenario after a failure */
};

struct ns_runner_hooks {
	void *ctx;
	/* A scenario's worker started (may be NULL). */
	void (*started)(void *ctx, size_t index);
	/* The result of scenario index, in list order. */
	void (*result)(void *ctx, size_t index, const struct ns_result *r);
};

/* Run sc[0..n). Returns the number of results handed out (fewer than n
 * when stop_on_fail cut the run short). */
size_t ns_runner_run(struct ns_scenario *const *sc, size_t n,
		     const struct ns_runner_opts *o, const struct ns_runner_hooks *h);

#endif
