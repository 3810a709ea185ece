/* result.h - what carrying out a scenario yields, whatever backend did it:
 * per command, how it failed; per step, what it printed; per scenario,
 * the steps' observations and why any are missing; per finished
 * scenario, that with its verdict. The matcher, the verdict, the wire and
 * the reporters read these and nothing of a backend's own state. */
#ifndef NS_RESULT_H
#define NS_RESULT_H

#include <stdbool.h>
#include <stddef.h>

#include "match/view.h"       /* struct ns_view */

/* How one command failed: an errno value, and the system call (or the
 * model's name for the operation) that gave it, for reports. */
struct ns_cmd_result {
	int err;
	const char *syscall;
	/* the command that failed when it is not the stage's own: the one
	 * a wrapper ran (unshare -m mount ...), which names its own errors */
	const char *cmd;
	/* A command that succeeded as far as errno goes may still end with
	 * a non-zero exit status, as its tool would: mountpoint's 32 for "not
	 * a mountpoint", diff's 1 for "they differ". 0 otherwise. */
	int status;
	/* The tool prints nothing for that status, and a terminal shows
	 * nothing (findmnt's 1 for "no such mount"): no status line is
	 * added; a list's && and || still see it. */
	bool silent;
};

/* Fill *res and return -1: `return ns_cmd_fail(res, "mount", errno);` */
int ns_cmd_fail(struct ns_cmd_result *res, const char *syscall, int err);

/* The most a step may print: 64 MiB, at every stage of its pipeline (the
 * command's output and each filter's, run/pipeline.c) and on the wire
 * (run/wire.c). A step that passes it is cut: its output is replaced by
 * NS_STEP_CUT_LINE and it fails, whatever the transcript expects. Why 64
 * MiB: no transcript can expect more, since nstest reads no scenario
 * file larger than that (scenario_parse.c); the largest output a
 * scenario can mean is a whole mount table at fs.mount-max's 100000
 * mounts, some 15 MiB as mountinfo and well under 64 MiB as findmnt -J;
 * and a step's output is held a few times over on its way to the judge
 * (the pipeline's two buffers, the frame, the runner's copies, the
 * matcher's lines), so a cap a few times larger would let one scenario
 * of `sed p` stages take gigabytes of every worker, and the runner's
 * copy of it abort the whole run (issue 28: SIGABRT, every result lost). */
#define NS_STEP_OUTPUT_MAX ((size_t)64 << 20)
/* The output of a step that passed NS_STEP_OUTPUT_MAX, in full. */
#define NS_STEP_CUT_LINE "nstest: output of this step passed 64 MiB: cut\n"

/* The result of one step. */
struct ns_step_out {
	int err;                /* 0, or the errno of the failing command */
	char syscall[32];       /* the system call that failed */
	char *output;           /* all output lines, error line last */
	bool closed;            /* the terminal ended after this step */
	/* its output passed NS_STEP_OUTPUT_MAX: output is NS_STEP_CUT_LINE,
	 * and nstest, not the kernel, is why the step cannot match */
	bool cut;
	struct ns_view view;    /* where the terminal was after the step */
	struct ns_alive alive;  /* what that place held then (view.h) */
	/* The working directory the step ran in, as the terminal's root
	 * sees it (what getcwd(3) said before the step), for the paths
	 * util-linux's messages name (run/ulmsg.h); NULL when unknown. */
	char *cwd;
};

/* Free what o holds (its output and alive numbers) and clear it. */
void ns_step_out_free(struct ns_step_out *o);

struct ns_obs {
	bool ran;
	struct ns_step_out out;
};

/* One scenario, as the runner rebuilt it from a worker's frames. */
struct ns_run {
	struct ns_obs *obs;             /* one per step */
	size_t n;
	char *aborted;                  /* why steps are missing, or NULL */
	bool timed_out;
	/* nstest could not judge the run: the sandbox could not be built,
	 * or a step's output passed NS_STEP_OUTPUT_MAX (run/wire.c says
	 * why that is no verdict on the kernel); `run --bisect` answers 125 */
	bool setup_failed;
	/* the errno of the failure behind aborted, or 0: a resource errno
	 * (no descriptor, memory or process for nstest's own plumbing) makes
	 * the run one nstest cannot judge (run/trouble.h); last, after the
	 * fields that positional initializers set */
	int abort_err;
};

void ns_run_free(struct ns_run *r);

struct ns_scenario;
struct ns_verdict;

/* One finished scenario, as the runner hands it out (run/runner.h) and
 * the reporters take it: the plan, what ran, and its verdict
 * (run/verdict.h). run is NULL for a scenario that did not run
 * (skipped). */
struct ns_result {
	const struct ns_scenario *sc;
	const struct ns_run *run;
	const struct ns_verdict *v;
	double seconds;            /* wall time of the scenario */
	const char *devices;       /* "tmpfs" or "loop" as it ran */
};

#endif
