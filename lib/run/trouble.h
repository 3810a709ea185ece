/* trouble.h - telling nstest's own trouble from the kernel's answer.
 *
 * A scenario's verdict is about the kernel: what mount(2) and its kin did
 * to the mount tree. When nstest's own plumbing runs out of a resource (a
 * file descriptor, memory, a process: the fork, pipe, socketpair, memfd
 * and malloc around the calls under test), the run says nothing about the
 * kernel, and `run --bisect` must answer 125 ("cannot judge"), never 1
 * ("bad"): a bisect would otherwise blame the commit for the machine's
 * limits. These functions draw that line; the judge (run/verdict.c) and
 * the runner use them, and nstest(1), "EXIT STATUS", documents it. */
#ifndef NS_TROUBLE_H
#define NS_TROUBLE_H

#include <stdbool.h>

/* Is err one of the errno values that say a resource of the process or
 * of the machine ran out: EMFILE, ENFILE, ENOMEM, EAGAIN? */
bool ns_trouble_errno(int err);

/* Is a step that failed in syscall (struct ns_cmd_result's name for it)
 * with err nstest's own trouble, not the kernel's answer under test? */
bool ns_trouble_step(const char *syscall, int err);

/* What ran out for err, and the limit this process has for it, for a
 * message: "file descriptors (the open-file limit, ulimit -n, is 8)".
 * Heap; NULL when err is not a resource errno. */
char *ns_trouble_what(int err);

#endif
