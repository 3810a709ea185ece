/* backend.h - what carries out a plan. The kernel backend runs each step
 * with real system calls in a sandbox; a model backend can implement the
 * same interface later without touching the parser, matcher or reports. */
#ifndef NS_BACKEND_H
#define NS_BACKEND_H

#include <stdbool.h>

#include "scenario/scenario.h"
#include "kernel/terminal.h"

struct ns_run_opts {
	enum ns_devices_mode devices;   /* NS_DEVICES_TMPFS or _LOOP */
	unsigned timeout_s;             /* per scenario; 0 = none */
	bool userns;                    /* sandbox inside a new user namespace */
};

struct ns_obs {
	bool ran;
	struct ns_step_out out;
};

struct ns_run {
	struct ns_obs *obs;             /* one per step */
	size_t n;
	char *aborted;                  /* why steps are missing, or NULL */
	bool timed_out;
	bool setup_failed;              /* the sandbox could not be built */
};

struct ns_backend {
	const char *name;
	/* Work done once per process before any scenario (0 or -1 + err). */
	int (*prepare)(const struct ns_run_opts *o, struct ns_buf *err);
	/* Once in each worker process (forked by the runner), before the
	 * first scenario it plays. 0, or -1 with a message in err. */
	int (*worker_init)(const struct ns_run_opts *o, struct ns_buf *err);
	/* Play one scenario in the worker: write each step's result to fd as
	 * it comes (wire.h), and an abort frame if the run stops early.
	 * *status is how the scenario's sandbox ended (a wait(2) status; 0
	 * when the worker played it itself). Returns 0 when the worker is
	 * back where it was and can play the next scenario, -1 when it must
	 * end. The runner rebuilds the run from the frames; its watchdog
	 * kills the worker's process group at the deadline. */
	int (*play)(const struct ns_scenario *sc, const struct ns_run_opts *o,
		    int fd, int *status);
};

extern const struct ns_backend ns_backend_kernel;

void ns_run_free(struct ns_run *r);

#endif
