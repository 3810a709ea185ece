/* snapshot.h - a terminal's view of its mount table, read from
 * /proc/self/mountinfo through libmount, and rendered back into the text
 * the kernel prints (mountinfo) or mount(8) prints. */
#ifndef NS_SNAPSHOT_H
#define NS_SNAPSHOT_H

#include <stddef.h>

#include "base/util.h"

struct ns_snapshot;

/* Read <procfd>/self/mountinfo (procfd is a directory fd on a procfs).
 * Returns 0 or -errno. */
int ns_snapshot_read(int procfd, struct ns_snapshot **out);
/* Parse mountinfo text (for tests and fuzzing). Returns 0 or -errno. */
int ns_snapshot_parse(const char *text, size_t len, struct ns_snapshot **out);
void ns_snapshot_free(struct ns_snapshot *s);
size_t ns_snapshot_count(const struct ns_snapshot *s);

/* Byte-for-byte what the kernel printed: "ID PARENT MAJ:MIN ROOT
 * MOUNTPOINT OPTS [FIELDS...] - FSTYPE SOURCE SUPEROPTS\n" per mount. */
void ns_snapshot_render_mountinfo(const struct ns_snapshot *s, struct ns_buf *out);
/* What mount(8) prints with no arguments: "SOURCE on TARGET type FSTYPE (OPTS)\n". */
void ns_snapshot_render_mount(const struct ns_snapshot *s, struct ns_buf *out);

#endif
