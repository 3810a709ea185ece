/* record_sandbox.h - the sandbox `nstest record` gives its shells: a
 * mount namespace of its own, made private before anything is mounted,
 * whose root is the root stand-in replay uses (a tmpfs named /dev/sda1),
 * with what a real shell needs to run the real tools: the host's /usr
 * bound read-only (not recursively), the merged-usr links bin, lib,
 * lib64 and sbin as the host has them, a procfs on /proc (source
 * "nstest-proc"), the character devices of /dev a shell reaches for
 * (null, zero, full, random, urandom, tty: nodes, no mount), and an
 * /etc with root's passwd and group lines (for ls -l's owner names).
 * The /usr and /proc mounts are the tools', not the session's: their
 * devices and sources are handed back (struct ns_hide) so that the
 * recording leaves them out of every view. */
#ifndef NS_RECORD_SANDBOX_H
#define NS_RECORD_SANDBOX_H

#include <sys/types.h>

#include "base/util.h"
#include "scenario/hide.h"

struct ns_record_sandbox {
	int mntns;              /* the sandbox's mount namespace */
	struct ns_hide hide;    /* the tools' mounts */
};

/* Make the sandbox (in a child process that is gone when this returns;
 * the namespace lives while mntns or a shell in it does). 0, or -1 with
 * a message in err. */
int ns_record_sandbox_new(struct ns_record_sandbox *rs, struct ns_buf *err);

/* In a process about to run a shell: move into the sandbox, at its root.
 * 0, or -1 with errno set. */
int ns_record_sandbox_enter(const struct ns_record_sandbox *rs);

/* The tools' mounts as process pid sees them now (a shell of the
 * sandbox, in whatever namespace it moved to): their mount points are
 * added to rs->hide.targets, for findmnt tables that show neither a
 * source nor a device. */
void ns_record_sandbox_note(struct ns_record_sandbox *rs, pid_t pid);

void ns_record_sandbox_free(struct ns_record_sandbox *rs);

#endif
