/* umount_plan.c - see umount_plan.h. */
#include "mounts/umount_plan.h"

#include <string.h>

static void post_order(const struct ns_mount_entry *v, size_t n, size_t at,
		       struct ns_umount_plan *p)
{
	unsigned last = 0;

	for (;;) {
		size_t next = n;

		for (size_t i = 0; i < n; i++)
			if (v[i].parent == v[at].id && i != at && v[i].id > last &&
			    (next == n || v[i].id < v[next].id))
				next = i;
		if (next == n)
			break;
		last = v[next].id;
		post_order(v, n, next, p);
	}
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
