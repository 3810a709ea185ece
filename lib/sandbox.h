/* sandbox.h - the throwaway world a scenario runs in (design §5): a new
 * mount namespace cut off from the host's propagation, whose root is the
 * root stand-in, with the host's tree detached. */
#ifndef NS_SANDBOX_H
#define NS_SANDBOX_H

#include <stdbool.h>

#include "device.h"
#include "scenario.h"
#include "util.h"

struct ns_sandbox {
	int procfd;               /* the host's procfs, kept before detaching */
	struct ns_devices *devs;
};

/* Turn the calling process into the sandbox; with userns, first into
 * root of a new user namespace mapped to the caller (rootless mode). Returns 0, or -1 with a
 * message in err (the process may then be half-way and must exit). */
int ns_sandbox_enter(const struct ns_scenario *sc, enum ns_devices_mode mode,
		     bool userns, struct ns_sandbox *sb, struct ns_buf *err);

#endif
