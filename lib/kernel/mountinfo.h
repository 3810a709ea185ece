/* mountinfo.h - the kernel backend reads a mount table: the calling
 * process's /proc/self/mountinfo, through a procfs handle. */
#ifndef NS_MOUNTINFO_H
#define NS_MOUNTINFO_H

#include "mounts/snapshot.h"

/* Read <procfd>/self/mountinfo (procfd is a directory fd on a procfs) into
 * a snapshot. Returns 0 or -errno. */
int ns_snapshot_read(int procfd, struct ns_snapshot **out);

#endif
