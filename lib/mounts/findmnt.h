/* findmnt.h - a mount table as findmnt(8) prints it, for any backend: the
 * mounts come as snapshot entries (snapshot.h), the choices as the parsed
 * findmnt arguments (commands/args.h), and libsmartcols, the library
 * findmnt itself prints with, lays out the table, tree or JSON. */
#ifndef NS_FINDMNT_H
#define NS_FINDMNT_H

#include <stddef.h>

#include "base/util.h"
#include "commands/args.h"
#include "mounts/snapshot.h"

/* Append what `findmnt ARGS` prints for the mounts v[0..n) (in mountinfo
 * order) to out. The backend resolves the path argument as findmnt's
 * libmount cache does, by realpath(3) in the terminal (from its working
 * directory, symbolic links followed): `canon` is that path, NULL when
 * it does not resolve. A mount's target matches the path as typed (up
 * to trailing slashes) or canon; a bare argument is a source, as typed,
 * before it is a target. `resolved` serves -T PATH when PATH itself is
 * no mount point: the mount point that holds canon, as the backend finds
 * it (findmnt asks stat(2)); NULL when there is none. `use` is statvfs(2)
 * of each mount's target, v's parallel, for the columns of
 * ns_findmnt_wants_usage() (NULL otherwise: their cells are empty).
 * Returns how many mounts were printed; 0 means findmnt would print
 * nothing and exit 1. */
size_t ns_findmnt_render(const struct ns_mount_entry *v, size_t n,
			 const struct ns_findmnt_args *a, const char *canon,
			 const char *resolved, const struct ns_fs_usage *use, struct ns_buf *out);

/* Load the UTF-8 locale findmnt prints in, once per process; call it
 * while the host's locale files are still reachable (the runner does,
 * before it forks workers that leave the host's tree, for a run that has
 * a findmnt).
 * Rendering calls it too, for processes that never leave. Without the locale the tree
 * is drawn in ASCII ("|-", "`-"), as findmnt draws it in the C locale. */
void ns_findmnt_prepare(void);

#endif
