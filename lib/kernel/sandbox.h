/* sandbox.h - the throwaway world a scenario runs in (docs/architecture.md,
 * "Sandboxes"): a new mount namespace cut off from the host's propagation,
 * whose root is the root stand-in, with the host's tree detached. */
#ifndef NS_SANDBOX_H
#define NS_SANDBOX_H

#include <stdbool.h>

#include "kernel/device.h"
#include "run/backend.h"          /* struct ns_run_opts */
#include "scenario/scenario.h"
#include "base/util.h"

struct ns_sandbox {
	int procfd;               /* the host's procfs, kept before detaching */
	struct ns_devices *devs;
	bool alive;               /* terminals read their table after a step */
};

/* Once per worker, before its first sandbox: with userns, become root of
 * a new user namespace mapped to the caller (rootless mode); then move to
 * a mount namespace of its own whose / is rprivate, keep a procfs handle
 * (*procfd) and /dev (for loop devices), and let go of the host's tree
 * for a root with nothing but /tmp. That is the base every sandbox of
 * the worker is made from. 0, or -1 with a message in err. */
int ns_sandbox_base(bool userns, int *procfd, struct ns_buf *err);

/* Turn the calling process into the sandbox, with o's stand-ins and
 * o->no_alive. Returns 0, or -1 with a message in err (the process is
 * then half-way: it must go back to a saved place, or exit). */
int ns_sandbox_enter(const struct ns_scenario *sc, const struct ns_run_opts *o,
		     int procfd, struct ns_sandbox *sb, struct ns_buf *err);

/* What a sandbox is made with, for the recording's (record_sandbox.c):
 * a mount namespace of the caller's own, made rprivate before anything is
 * mounted; the directory a new root waits in before the pivot (NULL for
 * none); the pivot to what is mounted on the current directory, the old
 * root detached. 0, or -1 with a message in err. */
int ns_sandbox_private_ns(struct ns_buf *err);
const char *ns_sandbox_staging_dir(void);
int ns_sandbox_pivot_here(struct ns_buf *err);

/* Let go of the sandbox's fds (its stand-ins, its procfs handle). */
void ns_sandbox_free(struct ns_sandbox *sb);

#endif
