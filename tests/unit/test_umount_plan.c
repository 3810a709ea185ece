/* test_umount_plan.c - the order umount -R unmounts in (mounts/
 * umount_plan.h): each submount before its parent, children in the
 * table's order whatever their mount IDs (the kernel reuses IDs, so an
 * ID order would depend on the machine's other mounts), the topmost
 * mount of a stack at the target. */
#include <stdlib.h>
#include <string.h>

#include "mounts/umount_plan.h"
#include "tap.h"

/* The plan's paths, joined by ' '. */
static char *plan_of(const char *table, const char *path)
{
	struct ns_snapshot *s = NULL;
	struct ns_umount_plan p;
	struct ns_buf b = NS_BUF_INIT;

	if (ns_snapshot_parse(table, strlen(table), &s) < 0)
		return xstrdup("(no table)");
	if (!ns_umount_plan(s, path, &p))
		ns_buf_adds(&b, "(none)");
	for (size_t i = 0; i < p.n; i++)
		ns_buf_addf(&b, "%s%s", i ? " " : "", p.v[i].path);
	ns_umount_plan_free(&p);
	ns_snapshot_free(s);
	return ns_buf_detach(&b);
}

TEST(children_in_table_order)
{
	/* /b/x was mounted before /b covered it; the IDs say otherwise, as
	 * after the kernel gave /b a freed, lower ID */
	static const char reused[] =
		"101 100 8:1 / / rw - tmpfs /dev/sda1 rw\n"
		"130 101 8:1 /b/x /a/x rw - tmpfs /dev/sda1 rw\n"
		"131 130 8:2 / /a/x rw - tmpfs /dev/sdb4 rw\n"
		"132 101 8:2 / /b/x rw - tmpfs /dev/sdb4 rw\n"
		"120 101 8:2 / /b rw - tmpfs /dev/sdb4 rw\n";
	static const char in_order[] =
		"101 100 8:1 / / rw - tmpfs /dev/sda1 rw\n"
		"102 101 8:1 /b/x /a/x rw - tmpfs /dev/sda1 rw\n"
		"106 102 8:2 / /a/x rw - tmpfs /dev/sdb4 rw\n"
		"107 101 8:2 / /b/x rw - tmpfs /dev/sdb4 rw\n"
		"110 101 8:2 / /b rw - tmpfs /dev/sdb4 rw\n";
	char *a = plan_of(reused, "/"), *b = plan_of(in_order, "/");

	is_str(b, "/a/x /a/x /b/x /b /", "plan: submounts first, children in the table's order");
	is_str(a, b, "plan: the same order when a later mount got a lower, reused ID");
	free(a);
	free(b);
	a = plan_of(in_order, "/b");
	is_str(a, "/b", "plan: a mount without submounts is the whole plan");
	free(a);
	a = plan_of(in_order, "/nowhere");
	is_str(a, "(none)", "plan: no mount at the path, no plan");
	free(a);
}
