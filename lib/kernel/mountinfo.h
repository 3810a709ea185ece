/* mountinfo.h - the kernel backend reads a mount table: the calling
 * process's /proc/self/mountinfo, through a procfs handle. */
#ifndef NS_MOUNTINFO_H
#define NS_MOUNTINFO_H

#include <stddef.h>

#include "mounts/snapshot.h"

/* Read <procfd>/self/mountinfo (procfd is a directory fd on a procfs) into
 * a snapshot. Returns 0 or -errno. */
int ns_snapshot_read(int procfd, struct ns_snapshot **out);

/* The text of <procfd>/self/mountinfo (heap, in *text). 0 or -errno. */
int ns_mountinfo_text(int procfd, char **text, size_t *len);

#endif
