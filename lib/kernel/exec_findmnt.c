/* exec_findmnt.c - findmnt on the kernel: the terminal's mount table, read
 * as `cat /proc/self/mountinfo` reads it, rendered by the backend-neutral
 * findmnt renderer (mounts/findmnt.c). What findmnt asks the filesystem
 * is asked here too, in the terminal's process (its root and working
 * directory): its path argument resolved by realpath(3), as findmnt's
 * libmount cache resolves it, and, for -T, where that path is mounted
 * when it is no mount point: libmount's mnt_get_mountpoint() walks up
 * the path by stat(2), as findmnt does. */
#include "kernel/exec.h"

#include <libmount.h>
#include <stdlib.h>
#include <sys/statvfs.h>

#include "commands/args.h"
#include "kernel/mountinfo.h"
#include "kernel/terminal.h"
#include "mounts/findmnt.h"

void ns_kernel_usage(const char *path, struct ns_fs_usage *u)
{
	struct statvfs sv;

	*u = (struct ns_fs_usage){ 0 };
	if (statvfs(path, &sv) < 0)
		return;
	*u = (struct ns_fs_usage){ true, sv.f_frsize, sv.f_blocks, sv.f_bfree, sv.f_bavail };
}

/* statvfs(2) of each mount's target, as findmnt asks it for -D */
static struct ns_fs_usage *usage_of(const struct ns_snapshot *snap)
{
	const struct ns_mount_entry *v = ns_snapshot_entries(snap);
	size_t n = ns_snapshot_count(snap);
	struct ns_fs_usage *u = xcalloc(n + 1, sizeof(*u));

	for (size_t i = 0; i < n; i++)
		if (v[i].target)
			ns_kernel_usage(v[i].target, &u[i]);
	return u;
}

int ns_kexec_findmnt(struct ns_term *t, const void *args, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	const struct ns_findmnt_args *a = args;
	struct ns_snapshot *snap;
	char *canon = NULL, *resolved = NULL;
	struct ns_fs_usage *use = NULL;
	int r = ns_snapshot_read(t->procfd, &snap);

	if (r < 0)
		return ns_cmd_fail(res, "read mountinfo", -r);
	if (a->path)
		canon = realpath(a->path, NULL);
	if (a->select == NS_FINDMNT_TARGET_PATH && canon)
		resolved = mnt_get_mountpoint(canon);
	if (ns_findmnt_wants_usage(a))
		use = usage_of(snap);
	/* findmnt(8) exits 1, printing nothing, when no mount matches */
	if (!ns_findmnt_render(ns_snapshot_entries(snap), ns_snapshot_count(snap), a, canon,
			       resolved, use, out)) {
		res->status = 1;
		res->silent = true;
	}
	free(use);
	free(resolved);
	free(canon);
	ns_snapshot_free(snap);
	return 0;
}
