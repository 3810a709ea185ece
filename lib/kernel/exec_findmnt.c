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

#include "commands/args.h"
#include "kernel/mountinfo.h"
#include "kernel/terminal.h"
#include "mounts/findmnt.h"

int ns_kexec_findmnt(struct ns_term *t, const void *args, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	const struct ns_findmnt_args *a = args;
	struct ns_snapshot *snap;
	char *canon = NULL, *resolved = NULL;
	int r = ns_snapshot_read(t->procfd, &snap);

	if (r < 0)
		return ns_cmd_fail(res, "read mountinfo", -r);
	if (a->path)
		canon = realpath(a->path, NULL);
	if (a->select == NS_FINDMNT_TARGET_PATH && canon)
		resolved = mnt_get_mountpoint(canon);
	/* findmnt(8) exits 1, printing nothing, when no mount matches */
	if (!ns_findmnt_render(ns_snapshot_entries(snap), ns_snapshot_count(snap), a, canon,
			       resolved, out)) {
		res->status = 1;
		res->silent = true;
	}
	free(resolved);
	free(canon);
	ns_snapshot_free(snap);
	return 0;
}
