/* umount_plan.h - the order util-linux's umount -R unmounts in
 * (umount_do_recurse()), over a mount table: both backends follow it,
 * each unmounting every step by its path. */
#ifndef NS_UMOUNT_PLAN_H
#define NS_UMOUNT_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "mounts/snapshot.h"

struct ns_umount_plan {
	struct ns_umount_step {
		unsigned id;            /* the mount, to skip it once gone */
		char *path;             /* its mount point, as the table names it */
	} *v;
	size_t n, cap;
};

/* The plan for the mount point `path` (canonical): the last line of the
 * table with that mount point (libmount searches backwards, so the
 * table's order decides which of a stack it is), its submounts, each
 * child's own before it and children in the table's order (where
 * libmount's mnt_table_next_child_fs() takes them by mount ID, which
 * the kernel's reuse of IDs makes a matter of luck), then itself.
 * False, with an empty plan, when no line has that mount point. */
bool ns_umount_plan(const struct ns_snapshot *s, const char *path, struct ns_umount_plan *p);
void ns_umount_plan_free(struct ns_umount_plan *p);

#endif
