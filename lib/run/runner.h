/* runner.h - run a list of scenarios, up to N at once in as many worker
 * processes, each in a sandbox of its own, and hand back the results in
 * list order. */
#ifndef NS_RUNNER_H
#define NS_RUNNER_H

#include <signal.h>
#include <stdbool.h>

#include "run/backend.h"
#include "run/result.h"
#include "scenario/scenario.h"

/* A request to stop a run, made by a signal handler (nstest run's, for
 * SIGINT, SIGTERM and SIGHUP): sig is set first, then a byte is written
 * to the pipe whose read end is fd, which wakes the runner wherever it
 * waits for its workers. */
struct ns_runner_stop {
	volatile sig_atomic_t sig;
	int fd;
};

struct ns_runner_opts {
	const struct ns_backend *backend;
	struct ns_run_opts run;    /* devices, timeout */
	unsigned jobs;             /* scenarios at once, >= 1 */
	bool stop_on_fail;         /* -x: no new scenario after a failure */
	/* NULL: never stopped. Once stop->sig is set, no scenario starts,
	 * the workers of the running ones are killed (their sandboxes go
	 * with them), and every scenario that had ended is handed out. */
	const struct ns_runner_stop *stop;
};

struct ns_runner_hooks {
	void *ctx;
	/* A scenario's worker started (may be NULL). */
	void (*started)(void *ctx, size_t index);
	/* The result of scenario index, in list order. */
	void (*result)(void *ctx, size_t index, const struct ns_result *r);
	/* After a stop request: scenario index gets no result; playing: a
	 * worker was playing it, and is killed. Called in list order, among
	 * the results of the scenarios that had ended (may be NULL). */
	void (*unfinished)(void *ctx, size_t index, bool playing);
	/* Time passes: called at least once a second while scenarios run,
	 * for a progress line that must not fall silent during a long one
	 * (may be NULL). */
	void (*tick)(void *ctx);
};

/* Run sc[0..n). Returns the number of results handed out (fewer than n
 * when stop_on_fail or a stop request cut the run short). */
size_t ns_runner_run(struct ns_scenario *const *sc, size_t n,
		     const struct ns_runner_opts *o, const struct ns_runner_hooks *h);

#endif
