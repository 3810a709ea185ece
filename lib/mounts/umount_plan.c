/* umount_plan.c - see umount_plan.h. */
#include "mounts/umount_plan.h"

#include <string.h>

/* Each child's subtree, then the mount itself. Children come in the
 * table's order (creation order from Linux 6.8, attach order before),
 * not by mount ID as util-linux 2.38's mnt_table_next_child_fs() takes
 * them: the kernel gives a new mount the lowest free ID, which another
 * process may have taken, so an ID order would make the outcome (an
 * over-mounted child's path may not resolve: ENOENT) depend on the
 * machine's other mounts. */
static void post_order(const struct ns_mount_entry *v, size_t n, size_t at,
		       struct ns_umount_plan *p)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].parent == v[at].id && i != at)
			post_order(v, n, i, p);
	if (p->n == p->cap) {
		void *mem = p->v;

		ns_grow(&mem, &p->cap, p->n + 1, sizeof(*p->v));
		p->v = mem;
	}
	p->v[p->n++] = (struct ns_umount_step){ v[at].id, xstrdup(v[at].target) };
}

bool ns_umount_plan(const struct ns_snapshot *s, const char *path, struct ns_umount_plan *p)
{
	const struct ns_mount_entry *v = ns_snapshot_entries(s);
	size_t n = ns_snapshot_count(s), top = n;

	*p = (struct ns_umount_plan){ NULL, 0, 0 };
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].target, path))
			top = i;
	if (top == n)
		return false;
	post_order(v, n, top, p);
	return true;
}

void ns_umount_plan_free(struct ns_umount_plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].path);
	free(p->v);
	*p = (struct ns_umount_plan){ NULL, 0, 0 };
}
