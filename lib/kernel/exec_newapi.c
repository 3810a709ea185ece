/* exec_newapi.c - open_tree, move_mount, mount_setattr and close on the kernel.
 * A tree opened as @NAME is a mount fd the terminal keeps (ns_handle). */
#include "kernel/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "commands/args.h"
#include "kernel/mountapi.h"
#include "kernel/terminal.h"

static struct ns_handle *find_handle(struct ns_term *t, const char *name)
{
	for (size_t i = 0; i < t->nhandles; i++)
		if (!strcmp(t->handles[i].name, name))
			return &t->handles[i];
	return NULL;
}

/* A path or @NAME as a (dirfd, path) pair for the *at calls; *empty says
 * the pair is a handle (AT_EMPTY_PATH). */
static int resolve(struct ns_term *t, const char *s, int *dfd, const char **path,
		   bool *empty)
{
	struct ns_handle *h;

	*empty = ns_is_handle(s);
	if (!*empty) {
		*dfd = AT_FDCWD;
		*path = s;
		return 0;
	}
	h = find_handle(t, s);
	if (!h) {
		errno = EBADF;
		return -1;
	}
	*dfd = h->fd;
	*path = "";
	return 0;
}

int ns_kexec_open_tree(struct ns_term *t, const void *args, struct ns_buf *out,
		       struct ns_cmd_result *res)
{
	const struct ns_open_tree_args *a = args;
	struct ns_handle *h = find_handle(t, a->handle);
	unsigned flags = OPEN_TREE_CLOEXEC | (a->clone ? OPEN_TREE_CLONE : 0) |
			 (a->recursive ? AT_RECURSIVE : 0);
	int fd;

	(void)out;
	if (!h && t->nhandles == NS_ARRAY_SIZE(t->handles))
		return ns_cmd_fail(res, "open_tree", EMFILE);
	fd = ns_open_tree(AT_FDCWD, a->path, flags);
	if (fd < 0)
		return ns_cmd_fail(res, "open_tree", errno);
	if (h) {
		close(h->fd);
	} else {
		h = &t->handles[t->nhandles++];
		snprintf(h->name, sizeof(h->name), "%s", a->handle);
	}
	h->fd = fd;
	return 0;
}

/* close(2) on each handle's fd; a detached tree goes with its last fd. */
int ns_kexec_close(struct ns_term *t, const void *args, struct ns_buf *out,
		   struct ns_cmd_result *res)
{
	const struct ns_close_args *a = args;

	(void)out;
	for (size_t k = 0; k < a->n; k++) {
		struct ns_handle *h = find_handle(t, a->handles[k]);

		if (!h)
			return ns_cmd_fail(res, "close", EBADF);
		if (close(h->fd) < 0) {
			int err = errno;

			*h = t->handles[--t->nhandles];
			return ns_cmd_fail(res, "close", err);
		}
		*h = t->handles[--t->nhandles];
	}
	return 0;
}

int ns_kexec_move_mount(struct ns_term *t, const void *args, struct ns_buf *out,
			struct ns_cmd_result *res)
{
	const struct ns_move_mount_args *a = args;
	unsigned flags = (a->beneath ? MOVE_MOUNT_BENEATH : 0) |
			 (a->set_group ? MOVE_MOUNT_SET_GROUP : 0);
	bool fe, te;
	const char *fp, *tp;
	int fd, td;

	(void)out;
	if (resolve(t, a->from, &fd, &fp, &fe) < 0 || resolve(t, a->to, &td, &tp, &te) < 0)
		return ns_cmd_fail(res, "move_mount", errno);
	flags |= (fe ? MOVE_MOUNT_F_EMPTY_PATH : 0) | (te ? MOVE_MOUNT_T_EMPTY_PATH : 0);
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
	bool empty;
	const char *path;
	int dfd;

	(void)out;
	if (resolve(t, a->target, &dfd, &path, &empty) < 0)
		return ns_cmd_fail(res, "mount_setattr", errno);
	if (ns_mount_setattr(dfd, path, (a->recursive ? AT_RECURSIVE : 0) | (empty ? AT_EMPTY_PATH : 0),
			     &ma, sizeof(ma)) < 0)
		return ns_cmd_fail(res, "mount_setattr", errno);
	return 0;
}
