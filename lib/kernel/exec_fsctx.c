/* exec_fsctx.c - fsopen, fsconfig, fsmount and fspick on the kernel. A
 * filesystem context is an fd kept as a handle, as a mount is
 * (kernel/handles.h); fsmount keeps the detached mount it makes as
 * another. A handle that is not open is passed as an fd number no
 * process has open (INT_MAX, past any RLIMIT_NOFILE), so that the kernel
 * checks everything it checks first before its EBADF, as for a program
 * that passes an fd it closed; -1 would be EINVAL to fsconfig(2). */
#include "kernel/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/mount.h>
#include <string.h>
#include <unistd.h>

#include "commands/args.h"
#include "kernel/mountapi.h"
#include "kernel/terminal.h"

static int handle_fd(struct ns_term *t, const char *name)
{
	struct ns_handle *h = ns_handles_find(&t->handles, name, strlen(name));

	return h ? h->fd : INT_MAX;
}

int ns_kexec_fsopen(struct ns_term *t, const void *args, struct ns_buf *out,
		    struct ns_cmd_result *res)
{
	const struct ns_fsopen_args *a = args;
	int fd;

	(void)out;
	fd = ns_fsopen(a->type, FSOPEN_CLOEXEC);
	if (fd < 0)
		return ns_cmd_fail(res, "fsopen", errno);
	ns_handles_keep(&t->handles, a->handle, fd);
	return 0;
}

int ns_kexec_fsconfig(struct ns_term *t, const void *args, struct ns_buf *out,
		      struct ns_cmd_result *res)
{
	static const unsigned cmds[] = {
		[NS_FSCONFIG_SET_FLAG] = FSCONFIG_SET_FLAG,
		[NS_FSCONFIG_SET_STRING] = FSCONFIG_SET_STRING,
		[NS_FSCONFIG_CREATE] = FSCONFIG_CMD_CREATE,
		[NS_FSCONFIG_RECONFIGURE] = FSCONFIG_CMD_RECONFIGURE,
	};
	const struct ns_fsconfig_args *a = args;

	(void)out;
	if (ns_fsconfig(handle_fd(t, a->handle), cmds[a->cmd], a->key, a->value, 0) < 0)
		return ns_cmd_fail(res, "fsconfig", errno);
	return 0;
}

int ns_kexec_fsmount(struct ns_term *t, const void *args, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	const struct ns_fsmount_args *a = args;
	int fd;

	(void)out;
	fd = ns_fsmount(handle_fd(t, a->context), FSMOUNT_CLOEXEC, (unsigned)a->attr);
	if (fd < 0)
		return ns_cmd_fail(res, "fsmount", errno);
	ns_handles_keep(&t->handles, a->handle, fd);
	return 0;
}

int ns_kexec_fspick(struct ns_term *t, const void *args, struct ns_buf *out,
		    struct ns_cmd_result *res)
{
	const struct ns_fspick_args *a = args;
	const char *path;
	int dfd, fd;

	(void)out;
	if (ns_handle_at(&t->handles, a->path, &dfd, &path) < 0)
		return ns_cmd_fail(res, "fspick", errno);
	fd = ns_fspick(dfd, path, FSPICK_CLOEXEC | (*path ? 0 : FSPICK_EMPTY_PATH));
	if (fd < 0)
		return ns_cmd_fail(res, "fspick", errno);
	ns_handles_keep(&t->handles, a->handle, fd);
	return 0;
}
