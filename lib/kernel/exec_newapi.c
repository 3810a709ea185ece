/* exec_newapi.c - open_tree, move_mount, mount_setattr and close on the kernel.
 * A tree opened as @NAME is a mount fd the terminal keeps (kernel/handles.h);
 * each path operand may also be @NAME or @NAME/PATH, walked from it. */
#include "kernel/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "commands/args.h"
#include "kernel/mountapi.h"
#include "kernel/terminal.h"

/* A word as a (dirfd, path) pair for the *at calls, and the AT_EMPTY_PATH
 * (or the call's own flag, empty_flag) that a bare @NAME needs. */
static int resolve(struct ns_term *t, const char *s, int *dfd, const char **path,
		   unsigned *flags, unsigned empty_flag)
{
	if (ns_handle_at(&t->handles, s, dfd, path) < 0)
		return -1;
	if (!**path)
		*flags |= empty_flag;
	return 0;
}

/* --idmap TERM: a descriptor of the user namespace of terminal TERM's
 * innermost shell, opened as nsenter opens it (ns_term_peer_open(): its
 * /proc/PID/ns/user, or the sandbox's when terminals share a process),
 * for mount_attr's userns_fd; -1 without --idmap. 0, or -1 with *res
 * filled. */
static int idmap_fd(struct ns_term *t, const struct ns_mount_setattr_args *a, int *fd,
		    struct ns_cmd_result *res)
{
	struct ns_peer p;

	*fd = -1;
	if (!a->idmap)
		return 0;
	if (ns_term_peer_open(t, a->idmap, &p, res) < 0)
		return -1;
	*fd = p.user;
	p.user = -1;
	ns_peer_close(&p);
	return 0;
}

int ns_kexec_open_tree(struct ns_term *t, const void *args, struct ns_buf *out,
		       struct ns_cmd_result *res)
{
	const struct ns_open_tree_args *a = args;
	unsigned flags = OPEN_TREE_CLOEXEC | (a->clone ? OPEN_TREE_CLONE : 0) |
			 (a->namespace ? NS_OPEN_TREE_NAMESPACE : 0) |
			 (a->recursive ? AT_RECURSIVE : 0);
	const char *path;
	int dfd, fd;

	(void)out;
	if (resolve(t, a->path, &dfd, &path, &flags, AT_EMPTY_PATH) < 0)
		return ns_cmd_fail(res, a->with_attr ? "open_tree_attr" : "open_tree", errno);
	if (a->with_attr) {
		struct mount_attr ma = { .attr_set = a->attr.set, .attr_clr = a->attr.clr,
					 .propagation = a->attr.propagation };
		int userns, e;

		if (idmap_fd(t, &a->attr, &userns, res) < 0)
			return -1;
		ma.userns_fd = (uint64_t)userns;
		fd = ns_open_tree_attr(dfd, path, flags, &ma, sizeof(ma));
		e = errno;
		if (userns >= 0)
			close(userns);
		if (fd < 0)
			return ns_cmd_fail(res, "open_tree_attr", e);
		ns_handles_keep(&t->handles, a->handle, fd);
		return 0;
	}
	fd = ns_open_tree(dfd, path, flags);
	if (fd < 0)
		return ns_cmd_fail(res, "open_tree", errno);
	ns_handles_keep(&t->handles, a->handle, fd);
	return 0;
}

/* close(2) on each handle's fd; a detached tree goes with its last fd. */
int ns_kexec_close(struct ns_term *t, const void *args, struct ns_buf *out,
		   struct ns_cmd_result *res)
{
	const struct ns_close_args *a = args;

	(void)out;
	for (size_t k = 0; k < a->n; k++) {
		struct ns_handle *h = ns_handles_find(&t->handles, a->handles[k],
						      strlen(a->handles[k]));
		int fd;

		if (!h)
			return ns_cmd_fail(res, "close", EBADF);
		fd = h->fd;
		ns_handles_drop(&t->handles, h);
		if (close(fd) < 0)
			return ns_cmd_fail(res, "close", errno);
	}
	return 0;
}

int ns_kexec_move_mount(struct ns_term *t, const void *args, struct ns_buf *out,
			struct ns_cmd_result *res)
{
	const struct ns_move_mount_args *a = args;
	unsigned flags = (a->beneath ? MOVE_MOUNT_BENEATH : 0) |
			 (a->set_group ? MOVE_MOUNT_SET_GROUP : 0);
	const char *fp, *tp;
	int fd, td;

	(void)out;
	if (resolve(t, a->from, &fd, &fp, &flags, MOVE_MOUNT_F_EMPTY_PATH) < 0 ||
	    resolve(t, a->to, &td, &tp, &flags, MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return ns_cmd_fail(res, "move_mount", errno);
	if (ns_move_mount(fd, fp, td, tp, flags) < 0)
		return ns_cmd_fail(res, "move_mount", errno);
	return 0;
}

int ns_kexec_mount_setattr(struct ns_term *t, const void *args, struct ns_buf *out,
			   struct ns_cmd_result *res)
{
	const struct ns_mount_setattr_args *a = args;
	struct mount_attr ma = { .attr_set = a->set, .attr_clr = a->clr,
				 .propagation = a->propagation };
	unsigned flags = a->recursive ? AT_RECURSIVE : 0;
	const char *path;
	int dfd, userns, r, e;

	(void)out;
	if (resolve(t, a->target, &dfd, &path, &flags, AT_EMPTY_PATH) < 0)
		return ns_cmd_fail(res, "mount_setattr", errno);
	if (idmap_fd(t, a, &userns, res) < 0)
		return -1;
	ma.userns_fd = (uint64_t)userns;
	r = ns_mount_setattr(dfd, path, flags, &ma, sizeof(ma));
	e = errno;
	if (userns >= 0)
		close(userns);
	if (r < 0)
		return ns_cmd_fail(res, "mount_setattr", e);
	return 0;
}
