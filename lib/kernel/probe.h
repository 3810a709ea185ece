/* probe.h - asking the running kernel what it can do, without changing
 * anything: each probe runs in a child process that is thrown away. */
#ifndef NS_PROBE_H
#define NS_PROBE_H

#include <stdbool.h>

/* Whether test(arg) returns true when run in a child process, so that a
 * probe of the kernel leaves the caller as it was: 1 or 0, or -1 with
 * errno when the probe could not run (no process for it: EAGAIN under
 * `ulimit -u`; no namespace to probe in; the child killed: ECHILD). A
 * probe that could not run is no answer about the kernel. With
 * private_ns the child first gets a mount namespace of its own (in a
 * user namespace of its own too when it lacks the privilege). */
int ns_probe_in_child(bool (*test)(void *), void *arg, bool private_ns);

/* Does move_mount(2) accept this flag? (MOVE_MOUNT_BENEATH, ...; 0 asks
 * whether move_mount can be probed at all.) 1, 0, or -1 with errno as
 * ns_probe_in_child. Each answer is asked once per flag. */
int ns_move_mount_knows(unsigned flag);

#endif
