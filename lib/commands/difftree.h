/* difftree.h - `diff [-r] A B` as GNU diff 3.8 prints it, over files that
 * a backend names by path: the walk, the messages and the normal-format
 * hunks are here, what a path holds is the backend's (struct ns_dt_ops).
 *
 * One rule differs from GNU diff on purpose: GNU diff takes two paths
 * with the same device and inode for equal without looking, which makes
 * `diff -r /a /b` after `mount --bind /a /b` report nothing whatever is
 * mounted below; this walk always descends and compares. A directory
 * that is its own ancestor on both sides at once (through symbolic
 * links) ends the walk as GNU diff's "recursive directory loop" does,
 * with ELOOP. Names are sorted by byte value, as in the C locale. */
#ifndef NS_DIFFTREE_H
#define NS_DIFFTREE_H

#include <stddef.h>

#include "base/util.h"
#include "commands/args.h"

/* What the walk needs to know of a path, symbolic links followed. */
struct ns_dt_stat {
	unsigned mode;                /* st_mode: S_IFDIR, S_IFREG, ... */
	unsigned long long size;
	unsigned long long dev, ino;  /* the file's identity, for loops */
};

struct ns_dt_ops {
	/* 0 or -errno */
	int (*stat)(void *ctx, const char *path, struct ns_dt_stat *st);
	/* the names in a directory, "." and ".." left out, in any order */
	int (*list)(void *ctx, const char *path, struct ns_lines *names);
	/* a regular file's bytes (heap) */
	int (*read)(void *ctx, const char *path, char **data, size_t *len);
};

/* Compare a->a with a->b, appending what GNU diff prints to out. Returns
 * 0 when they are the same, 1 when they differ (GNU diff's exit
 * statuses), or -errno at the first path that cannot be read, with *call
 * naming the operation ("stat", "opendir", "read"; "diff" for a loop);
 * what was printed before it stays in out. */
int ns_difftree(const struct ns_diff_args *a, const struct ns_dt_ops *ops, void *ctx,
		struct ns_buf *out, const char **call);

#endif
