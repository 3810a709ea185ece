/* exec_findmnt.c - findmnt on the kernel: the terminal's mount table, read
 * as `cat /proc/self/mountinfo` reads it, rendered by the backend-neutral
 * findmnt renderer (mounts/findmnt.c). The one thing findmnt asks the
 * filesystem is where -T's path is mounted when it is no mount point:
 * libmount's mnt_get_mountpoint() walks up the path by stat(2), as
 * findmnt does. A relative path is made absolute first, as findmnt's
 * canonicalizing makes it. */
#include "kernel/exec.h"

#include <libmount.h>
#include <stdlib.h>
#include <unistd.h>

#include "commands/args.h"
#include "kernel/mountinfo.h"
#include "kernel/terminal.h"
#include "mounts/findmnt.h"

int ns_kexec_findmnt(struct ns_term *t, const void *args, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	struct ns_findmnt_args abs = *(const struct ns_findmnt_args *)args;
	struct ns_snapshot *snap;
	char *resolved = NULL, *path = NULL;
	int r = ns_snapshot_read(t->procfd, &snap);

	if (r < 0)
		return ns_cmd_fail(res, "read mountinfo", -r);
	/* a relative path is the working directory's (the process is in
	 * the terminal's root and working directory) */
	if (abs.path && abs.path[0] != '/') {
		char *cwd = getcwd(NULL, 0);

		path = ns_findmnt_absolute(cwd ? cwd : "/", abs.path);
		free(cwd);
		abs.path = path;
	}
	if (abs.select == NS_FINDMNT_TARGET_PATH)
		resolved = mnt_get_mountpoint(abs.path);
	ns_findmnt_render(ns_snapshot_entries(snap), ns_snapshot_count(snap), &abs,
			  resolved, out);
	free(resolved);
	free(path);
	ns_snapshot_free(snap);
	return 0;
}
