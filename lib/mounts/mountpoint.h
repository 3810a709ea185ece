/* mountpoint.h - mountpoint(1)'s answer from a terminal's mount entries,
 * which both backends hand it (kernel/exec_inspect.c, model/exec_inspect.c). */
#ifndef NS_MOUNTPOINT_H
#define NS_MOUNTPOINT_H

#include <stddef.h>

#include "base/util.h"
#include "commands/args.h"
#include "mounts/snapshot.h"

/* mountpoint's answer as util-linux gives it: the last of the n entries
 * whose mount point is canon (the path made canonical) decides; what it
 * prints goes to out. Returns the exit status: 0, or NS_MOUNTPOINT_NOT. */
int ns_mountpoint_answer(const struct ns_mountpoint_args *a, const struct ns_mount_entry *v,
			 size_t n, const char *canon, struct ns_buf *out);

#endif
