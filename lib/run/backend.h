/* backend.h - what carries out a plan, and what the engine asks of the
 * machine through it. The kernel backend (kernel/) runs each step with
 * real system calls in a sandbox; a model backend implements the same
 * table without the parser, matcher or reports noticing. Nothing outside
 * a backend probes the host: loop devices, the kernel release, privileges,
 * user namespaces and kernel features are all answered here. What a
 * backend can do is said by its fields (is_kernel, needs_privileges,
 * loop_standins, has_quirks, explain, repeatable, fuzz_role), which
 * callers ask instead of its name; which backends there are, only
 * backends/backends.c's table knows. No backend includes or calls another. */
#ifndef NS_BACKEND_H
#define NS_BACKEND_H

#include <stdbool.h>

#include "base/util.h"
#include "run/result.h"
#include "scenario/scenario.h"

/* How a backend that follows documented rules is told to deviate from
 * them (has_quirks below): the harness fills it from --quirk,
 * --quirks=kernel and its test hooks (nstest(1), ENVIRONMENT). A backend
 * without quirks ignores it. An argument, never the environment: lib/
 * reads no variable of its own. */
struct ns_backend_config {
	/* "NAME,..." (known deviations, by name), with "kernel" for every
	 * one known for the running kernel; NULL or "": none */
	const char *quirks;
	/* a rule broken on purpose, for the tests that prove a wrong model
	 * is caught; NULL or "": none */
	const char *broken;
};

struct ns_run_opts {
	enum ns_devices_mode devices;   /* NS_DEVICES_TMPFS or _LOOP */
	unsigned timeout_s;             /* per scenario; 0 = none */
	bool userns;                    /* sandbox inside a new user namespace */
	struct ns_backend_config config;
	/* Leave out what only the judge's renaming reads: the mount table of
	 * each step's place after the step (struct ns_alive). nstest fuzz
	 * compares its own canonical form and sets it. */
	bool no_alive;
};

/* What a backend can be in `nstest fuzz`, which plays generated
 * scenarios on two sides and compares them. A backend with a side may be
 * named by --first and --vs; the roles give the defaults. */
enum ns_fuzz_role {
	NS_FUZZ_NO_SIDE = 0,
	/* the behaviour measured: the first side by default, and what a VM
	 * plays for --vs-kernel (--play-dump) */
	NS_FUZZ_REFERENCE,
	/* what it is measured against: the second side by default */
	NS_FUZZ_MODEL,
};

struct ns_backend {
	const char *name;               /* "kernel", as reports print it */

	/* ---- what it can do: callers ask these, never the name ---- */
	/* Its steps are the running kernel's system calls: what it lacks,
	 * this kernel lacks, and release() is never NULL. */
	bool is_kernel;
	/* Its sandboxes need privileges (root, or a user namespace made for
	 * rootless mode); privilege_problem() says what is missing. Without
	 * it, privilege_problem() is always NULL. */
	bool needs_privileges;
	/* It has loop stand-ins (real block devices, --devices=loop) besides
	 * tmpfs ones; loop_devices() says whether this host can make them.
	 * Without it, loop_devices() is always false. */
	bool loop_standins;
	/* It follows documented rules and takes a configuration (struct
	 * ns_backend_config): quirks, a rule broken on purpose; prepare()
	 * rejects what it does not know. */
	bool has_quirks;
	/* Two runs of one scenario number mounts and peer groups alike, so
	 * the causes explain() traces in one run mark the mounts of another
	 * run's pictures (nstest graph, show --html). */
	bool repeatable;
	/* Which side of `nstest fuzz` it can be. */
	enum ns_fuzz_role fuzz_role;

	/* ---- the host, as this backend sees it (each probed once) ---- */
	/* The kernel release scenarios are judged against (xfail, kernel:
	 * ranges), or NULL when kernel ranges do not apply; it may depend on
	 * the configuration (a model imitating this kernel reports its
	 * release). */
	const char *(*release)(const struct ns_run_opts *o);
	/* NULL when this process can build sandboxes as it is; else what is
	 * missing and what to do about it (heap). */
	char *(*privilege_problem)(void);
	/* Can a user namespace be made here (rootless mode, requires: userns)?
	 * 1 or 0; -1 with errno when the probe could not run (no process
	 * for it: run/trouble.h), which is no answer about the kernel. */
	int (*userns_allowed)(void);
	/* Can loop stand-ins be made (a usable /dev/loop-control)? */
	bool (*loop_devices)(void);
	/* Is a tmpfs stand-in mounted twice one superblock (6.15+)? */
	bool (*tmpfs_remounts)(void);
	/* Does a fresh tmpfs show inode64 or inode32 (a kernel built with
	 * CONFIG_TMPFS_INODE64)? What a model imitating this kernel
	 * (--quirks=kernel) takes as its quirk tmpfs-inode64. NULL: no. */
	bool (*tmpfs_inode64)(void);
	/* Is the NS_FEAT_* feature `bit` present? 1 or 0; -1 with errno when
	 * the probe could not run, as userns_allowed. */
	int (*has_feature)(unsigned bit);

	/* ---- running ---- */
	/* Work done once per process before any scenario, and the check of
	 * o->config (0 or -1 + err). */
	int (*prepare)(const struct ns_run_opts *o, struct ns_buf *err);
	/* Once in each worker process (forked by the runner), before the
	 * first scenario it plays: *worker is what play() gets back (the
	 * worker's own state; it ends with the process). 0, or -1 with a
	 * message in err. */
	int (*worker_init)(const struct ns_run_opts *o, void **worker,
			   struct ns_buf *err);
	/* Play one scenario in the worker: write each step's result to fd as
	 * it comes (wire.h), and an abort frame if the run stops early.
	 * *status is how the scenario's sandbox ended (a wait(2) status; 0
	 * when the worker played it itself). Returns 0 when the worker is
	 * back where it was and can play the next scenario, -1 when it must
	 * end. The runner rebuilds the run from the frames; its watchdog
	 * kills the worker's process group at the deadline. */
	int (*play)(void *worker, const struct ns_scenario *sc,
		    const struct ns_run_opts *o, int fd, int *status);
	/* Optional, for a backend that touches nothing of the machine (the
	 * model): play sc right here, in the calling process, into *run
	 * (free it with ns_run_free), after prepare(o) said yes. No worker,
	 * no wire, no watchdog: what lets the fuzzer play thousands of
	 * scenarios a second. NULL for the kernel, whose scenarios need a
	 * sandbox process. */
	void (*play_here)(const struct ns_scenario *sc, const struct ns_run_opts *o,
			  struct ns_run *run);
	/* Optional (NULL: it cannot say why): play the first n steps of sc
	 * here, traced. why[i] (heap, NULL for nothing) is why the mounts
	 * step i made or removed are there or gone, a line each; out[i],
	 * when out is not NULL, what the step printed (heap). What `show`
	 * prints under a step, `show --explain` beside a kernel's step, and
	 * `graph` marks. 0, or -1 with err (a configuration it refuses). */
	int (*explain)(const struct ns_scenario *sc, const struct ns_run_opts *o, size_t n,
		       char **why, char **out, struct ns_buf *err);
};

/* The table of backends is backends/backends.h: above both backends,
 * since it names each. */

#endif
