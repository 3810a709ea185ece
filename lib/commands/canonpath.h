/* canonpath.h - a name made canonical as coreutils 9.1's realpath(1) and
 * readlink -f make it (canonicalize_filename_mode() with
 * CAN_ALL_BUT_LAST): component by component, from the working directory
 * or "/"; each symbolic link is read and its target put in front of what
 * is left of the name, ".." takes the last component off the name built
 * so far, and every component must exist but the last. The tool reads
 * the links itself, one readlink(2) each, so the kernel never follows
 * one: a nosymfollow mount does not stop it (mount(8), nosymfollow).
 * What a name is, a link with its target or a directory, is the
 * backend's (struct ns_cp_ops). */
#ifndef NS_CANONPATH_H
#define NS_CANONPATH_H

#include <stdbool.h>

struct ns_cp_ops {
	/* lstat(2) of an absolute name: 0 with *link and *dir set, or
	 * -errno */
	int (*lstat)(void *ctx, const char *path, bool *link, bool *dir);
	/* readlink(2): 0 with *target the link's text (heap), or -errno */
	int (*readlink)(void *ctx, const char *path, char **target);
};

/* path made canonical from the working directory cwd (absolute): 0 with
 * *out (heap), or -errno (ENOENT for a missing component but the last,
 * ENOTDIR, ELOOP past 40 links). */
int ns_canonicalize(const struct ns_cp_ops *ops, void *ctx, const char *cwd,
		    const char *path, char **out);

#endif
