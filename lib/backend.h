/* backend.h - what carries out a plan. The kernel backend runs each step
 * with real system calls in a sandbox; a model backend can implement the
 * same interface later without touching the parser, matcher or reports. */
#ifndef NS_BACKEND_H
#define NS_BACKEND_H

#include <stdbool.h>

#include "scenario.h"
#include "terminal.h"

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
	/* Run every step in the calling process, a worker the runner forked
	 * for this scenario, and write each step's result to fd as it comes
	 * (wire.h), then an abort frame if the run stops early. Never
	 * returns. The runner rebuilds the run from the frames; its watchdog
	 * kills the worker's process group at the deadline. */
	void (*play)(const struct ns_scenario *sc, const struct ns_run_opts *o,
		     int fd) __attribute__((noreturn));
};

extern const struct ns_backend ns_backend_kernel;

void ns_run_free(struct ns_run *r);

#endif
