/* exec_mount.c - mount(8) and umount(8) on the kernel: mount(2),
 * umount2(2) and the stand-in devices. */
#include "kernel/exec.h"

#include <errno.h>
#include <libmount.h>
#include <linux/mount.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include "commands/args.h"
#include "kernel/device.h"
#include "kernel/mountinfo.h"
#include "kernel/terminal.h"
#include "mounts/umount_plan.h"

/* Each --make-* is a mount(2) call of its own, in the order typed. */
static int apply_propagation(const struct ns_mount_args *a, struct ns_cmd_result *res)
{
	for (size_t i = 0; i < a->nprop; i++)
		if (mount(NULL, a->dst, NULL, a->prop[i], NULL) < 0)
			return ns_cmd_fail(res, "mount", errno);
	return 0;
}

static int bind_mount(const struct ns_mount_args *a, struct ns_cmd_result *res)
{
	unsigned long rec = a->recursive ? MS_REC : 0;

	if (mount(a->src, a->dst, NULL, MS_BIND | rec, NULL) < 0)
		return ns_cmd_fail(res, "mount", errno);
	/* As mount(8) does: per-mount flags need a second call. */
	if (a->flags && mount(NULL, a->dst, NULL, MS_REMOUNT | MS_BIND | a->flags, NULL) < 0)
		return ns_cmd_fail(res, "mount", errno);
	return apply_propagation(a, res);
}

static int new_mount(struct ns_term *t, const struct ns_mount_args *a,
		     struct ns_cmd_result *res)
{
	const char *sys = "mount";
	int idx;

	if (!a->standin) {
		if (mount(a->src, a->dst, a->type, a->flags, a->data) < 0)
			return ns_cmd_fail(res, "mount", errno);
		return apply_propagation(a, res);
	}
	idx = ns_scenario_devindex(t->sc, a->src);
	if (idx < 0)
		return ns_cmd_fail(res, "stand-in lookup", ENODEV);
	if (ns_devices_mount(t->devs, (size_t)idx, a->dst, ns_mount_attrs(a->flags), &sys) < 0)
		return ns_cmd_fail(res, sys, errno);
	return apply_propagation(a, res);
}

/* The entry mount(8) merges a remount's options with: the last one
 * mounted at the target's canonical path (libmount searches the table
 * backwards), or NULL. */
static const struct ns_mount_entry *table_entry(const struct ns_snapshot *s, const char *path)
{
	const struct ns_mount_entry *found = NULL;

	for (size_t i = 0; path && i < ns_snapshot_count(s); i++)
		if (!strcmp(ns_snapshot_entries(s)[i].target, path))
			found = &ns_snapshot_entries(s)[i];
	return found;
}

/* -o remount[,bind]: one mount(2) call with MS_REMOUNT (| MS_BIND), made
 * as util-linux 2.38's mount(8) makes it (observed with strace). With one
 * operand it starts from the mount's options as the table shows them,
 * per-mount and superblock ones merged, applies -o's words to them, and
 * passes the filesystem's own options back as data, with the source and
 * type the table names; with none there (not a mount point, no such
 * path) the call has -o's flags alone, on source "none". The --make-*
 * changes follow, a call each. */
static int remount(struct ns_term *t, const struct ns_mount_args *a, struct ns_cmd_result *res)
{
	const struct ns_mount_entry *e = NULL;
	struct ns_snapshot *s = NULL;
	char *path = a->merge ? realpath(a->dst, NULL) : NULL;
	char *vfs = NULL, *fs = NULL;
	unsigned long flags = a->flags;
	int r = 0;

	if (path && ns_snapshot_read(t->procfd, &s) == 0)
		e = table_entry(s, path);
	if (e) {
		unsigned long cur = 0;

		if (mnt_optstr_get_flags(e->mount_options, &cur, mnt_get_builtin_optmap(MNT_LINUX_MAP)) < 0 ||
		    mnt_split_optstr(e->mount_options, NULL, &vfs, &fs, 0, 0) < 0)
			r = ns_cmd_fail(res, "read mountinfo", EINVAL);
		flags = ns_remount_flags(a, cur);
	}
	if (r == 0 && mount(e ? e->source : a->src ? a->src : "none", a->dst, e ? e->fstype : NULL,
			    flags, fs && *fs ? fs : NULL) < 0)
		r = ns_cmd_fail(res, "mount", errno);
	free(vfs);
	free(fs);
	free(path);
	if (s)
		ns_snapshot_free(s);
	return r < 0 ? r : apply_propagation(a, res);
}

static int mount_op(struct ns_term *t, const struct ns_mount_args *a, struct ns_buf *out,
		    struct ns_cmd_result *res)
{
	switch (a->op) {
	case NS_MOUNT_LIST:
		return ns_term_list_mounts(t, NS_RENDER_MOUNT, out, res);
	case NS_MOUNT_PROPAGATION:
		return apply_propagation(a, res);
	case NS_MOUNT_BIND:
		return bind_mount(a, res);
	case NS_MOUNT_MOVE:
		if (mount(a->src, a->dst, NULL, MS_MOVE, NULL) < 0)
			return ns_cmd_fail(res, "mount", errno);
		return 0;
	case NS_MOUNT_REMOUNT:
		return remount(t, a, res);
	case NS_MOUNT_NEW:
		break;
	}
	return new_mount(t, a, res);
}

/* The paths of a --bind or --move (source and target), or a target
 * alone, may name places in handles' trees (kernel/handles.h); the
 * parser refuses a handle for a remount. */
int ns_kexec_mount(struct ns_term *t, const void *args, struct ns_buf *out,
		   struct ns_cmd_result *res)
{
	const struct ns_mount_args *a = args;
	bool two = a->op == NS_MOUNT_BIND || a->op == NS_MOUNT_MOVE;
	const char *w[2] = { a->src, a->dst }, *p[2] = { a->src, a->dst };
	struct ns_mount_args via = *a;
	struct ns_via_proc vp;
	int r;

	if (a->op == NS_MOUNT_LIST || a->op == NS_MOUNT_REMOUNT)
		return mount_op(t, a, out, res);
	if (ns_via_proc_begin(&t->handles, t->procfd, two ? w : w + 1, two ? 2 : 1,
			      two ? p : p + 1, &vp) < 0)
		return ns_cmd_fail(res, "mount", errno);
	via.src = p[0];
	via.dst = p[1];
	r = mount_op(t, &via, out, res);
	if (ns_via_proc_end(&vp) < 0 && r == 0)
		r = ns_cmd_fail(res, "fchdir", errno);
	return r;
}

static bool still_mounted(struct ns_term *t, unsigned id)
{
	struct ns_snapshot *s;
	bool there = false;

	if (ns_snapshot_read(t->procfd, &s) < 0)
		return true; /* let umount2 say what is wrong */
	for (size_t i = 0; i < ns_snapshot_count(s) && !there; i++)
		there = ns_snapshot_entries(s)[i].id == id;
	ns_snapshot_free(s);
	return there;
}

/* umount -R: util-linux's umount_do_recurse() on the topmost mount at the
 * target, each mount by its own umount2(2); one that an earlier one's
 * propagation took already is skipped, as umount_one_if_mounted() does.
 * A target that is no mount point fails as umount2(2) would. */
static int umount_recursive(struct ns_term *t, const char *target, int flags,
			    struct ns_cmd_result *res)
{
	struct ns_umount_plan p;
	struct ns_snapshot *s;
	char *path = realpath(target, NULL);
	bool found;
	int r = 0;

	if (!path)
		return ns_cmd_fail(res, "umount2", errno);
	r = ns_snapshot_read(t->procfd, &s);
	if (r < 0) {
		free(path);
		return ns_cmd_fail(res, "read mountinfo", -r);
	}
	found = ns_umount_plan(s, path, &p);
	ns_snapshot_free(s);
	if (!found)
		r = umount2(path, flags) < 0 ? ns_cmd_fail(res, "umount2", errno) : 0;
	for (size_t i = 0; i < p.n && r == 0; i++)
		if ((i == 0 || still_mounted(t, p.v[i].id)) && umount2(p.v[i].path, flags) < 0)
			r = ns_cmd_fail(res, "umount2", errno);
	ns_umount_plan_free(&p);
	free(path);
	return r;
}

int ns_kexec_umount(struct ns_term *t, const void *args, struct ns_buf *out,
		    struct ns_cmd_result *res)
{
	const struct ns_umount_args *a = args;
	int flags = (a->lazy ? MNT_DETACH : 0) | (a->force ? MNT_FORCE : 0) |
		    (a->nofollow ? UMOUNT_NOFOLLOW : 0) | (a->expire ? MNT_EXPIRE : 0);

	(void)out;
	for (size_t i = 0; i < a->ntargets; i++) {
		if (a->recursive) {
			if (umount_recursive(t, a->targets[i], flags, res) < 0)
				return -1;
		} else {
			struct ns_via_proc vp;
			const char *path;
			int r, e;

			if (ns_via_proc_begin(&t->handles, t->procfd, &a->targets[i], 1, &path, &vp) < 0)
				return ns_cmd_fail(res, "umount2", errno);
			r = umount2(path, flags);
			e = errno;
			if (ns_via_proc_end(&vp) < 0)
				return ns_cmd_fail(res, "fchdir", errno);
			if (r < 0)
				return ns_cmd_fail(res, "umount2", e);
		}
	}
	return 0;
}
