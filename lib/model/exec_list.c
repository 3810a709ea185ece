/* exec_list.c - the commands that list mounts on the model: mount with no
 * arguments and cat /proc/self/mountinfo (through m_list_mounts), findmnt,
 * statmount, and listmount, which only the kernel can answer. */
#include "model/shell.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/sysmacros.h>

#include "commands/statmount.h"
#include "mounts/findmnt.h"

int m_list_mounts(struct m_shell *sh, enum ns_render how, struct ns_buf *out,
		  struct ns_cmd_result *res)
{
	struct m_level *lv = m_cur(sh);
	int r = m_render_text(&sh->sb->w, lv->ns, lv->root, how, out);

	if (r < 0)
		return ns_cmd_fail(res, "read mountinfo", -r);
	return 0;
}

/* the 4096-byte pages the files under d fill */
static unsigned long long pages_under(const struct m_node *d)
{
	unsigned long long n = d->dir || d->link ? 0 : (d->len + 4095) / 4096;

	for (const struct m_node *k = d->kids; k; k = k->next)
		n += pages_under(k);
	return n;
}

void m_sb_usage(const struct m_sb *sb, struct ns_fs_usage *u)
{
	unsigned long long used;

	*u = (struct ns_fs_usage){ .ok = true, .frsize = 4096 };
	if (sb->opts.kind != M_FS_TMPFS)
		return; /* ramfs and the rest: no blocks, as statfs(2) says */
	used = pages_under(sb->root);
	u->blocks = sb->opts.blocks;
	u->bfree = u->bavail = used < u->blocks ? u->blocks - used : 0;
}

/* statvfs(2) of each entry's target, where the shell's lookup ends */
static struct ns_fs_usage *usage_of(struct m_shell *sh, const struct ns_snapshot *snap)
{
	const struct ns_mount_entry *v = ns_snapshot_entries(snap);
	size_t n = ns_snapshot_count(snap);
	struct ns_fs_usage *u = xcalloc(n + 1, sizeof(*u));

	for (size_t i = 0; i < n; i++) {
		struct m_path at;

		if (v[i].target && m_lookup(sh, v[i].target, &at) == 0)
			m_sb_usage(at.mnt->sb, &u[i]);
	}
	return u;
}

int m_exec_findmnt(struct m_shell *sh, const void *args, struct ns_buf *out,
		   struct ns_cmd_result *res)
{
	const struct ns_findmnt_args *a = args;
	struct m_level *lv = m_cur(sh);
	struct ns_buf canon = NS_BUF_INIT, where = NS_BUF_INIT;
	const char *canon_s = NULL, *resolved = NULL;
	struct ns_fs_usage *use = NULL;
	struct ns_snapshot *snap;
	struct m_path at;
	int r = m_render(&sh->sb->w, lv->ns, lv->root, &snap);

	if (r < 0)
		return ns_cmd_fail(res, "read mountinfo", -r);
	if (ns_findmnt_wants_usage(a))
		use = usage_of(sh, snap);
	/* the path as realpath(3) resolves it in the terminal (from its
	 * working directory, links followed), as findmnt's cache does */
	if (a->path && m_lookup(sh, a->path, &at) == 0 && m_path_string(at, lv->root, &canon)) {
		canon_s = ns_buf_str(&canon);
		/* -T: the mount point that holds it, as findmnt finds it by
		 * walking up from it */
		at.d = at.mnt->root;
		if (a->select == NS_FINDMNT_TARGET_PATH && m_path_string(at, lv->root, &where))
			resolved = ns_buf_str(&where);
	}
	/* findmnt(8) exits 1, printing nothing, when no mount matches */
	if (!ns_findmnt_render(ns_snapshot_entries(snap), ns_snapshot_count(snap), a, canon_s,
			       resolved, use, out)) {
		res->status = 1;
		res->silent = true;
	}
	free(use);
	ns_buf_free(&where);
	ns_buf_free(&canon);
	ns_snapshot_free(snap);
	return 0;
}

int m_exec_listmount(struct m_shell *sh, const void *args, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	(void)sh, (void)args, (void)out;
	/* listmount --check compares the kernel's two views of itself;
	 * a scenario with it requires listmount, which the model lacks */
	return ns_cmd_fail(res, "listmount", ENOSYS);
}

/* statmount(2) of the mount PATH is on, found by the unique ID statx(2)
 * gives: a mount of another namespace, a detached tree's included, or
 * one unmounted, is no mount of the caller's namespace (ENOENT, the
 * kernel's lookup_mnt_in_ns()). */
int m_exec_statmount(struct m_shell *sh, const void *args, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	const struct ns_statmount_args *a = args;
	struct m_level *lv = m_cur(sh);
	struct ns_buf root_s = NS_BUF_INIT, point_s = NS_BUF_INIT;
	struct ns_statmount_vals v;
	struct m_path at;
	int r = m_lookup(sh, a->path, &at);

	if (r < 0)
		return ns_cmd_fail(res, "statx", -r);
	if (at.mnt->dead || at.mnt->ns != lv->ns)
		return ns_cmd_fail(res, "statmount", ENOENT);
	/* a mount whose root the shell's root cannot reach (outside a
	 * chroot) is described only to a caller with CAP_SYS_ADMIN over the
	 * namespace's owner: the kernel's do_statmount() checks
	 * is_path_reachable() and ns_capable_noaudit(ns->user_ns,
	 * CAP_SYS_ADMIN) before filling anything (statmount(2), EPERM) */
	if (!m_path_string((struct m_path){ at.mnt, at.mnt->root }, lv->root, &root_s) &&
	    !m_capable(lv, lv->ns->owner, lv->sys_admin)) {
		ns_buf_free(&root_s);
		return ns_cmd_fail(res, "statmount", EPERM);
	}
	ns_buf_reset(&root_s);
	m_statmount(&sh->sb->w, at.mnt, lv->root, &v, &root_s, &point_s);
	/* a mount point the shell's root cannot reach (the mount of a
	 * chroot's own directory): the kernel's statmount(2) gives no path
	 * but EOPNOTSUPP, measured on 6.18 */
	for (size_t i = 0; i < a->nfields; i++)
		if (a->fields[i] == NS_SM_POINT && !point_s.len) {
			ns_buf_free(&root_s);
			ns_buf_free(&point_s);
			return ns_cmd_fail(res, "statmount", EOPNOTSUPP);
		}
	ns_statmount_format(a, &v, out);
	ns_buf_free(&root_s);
	ns_buf_free(&point_s);
	return 0;
}

m_exec_fn *const m_exec[NS_CMD__COUNT] = {
	[NS_CMD_MKDIR] = m_exec_mkdir,
	[NS_CMD_TOUCH] = m_exec_touch,
	[NS_CMD_LS] = m_exec_ls,
	[NS_CMD_CD] = m_exec_cd,
	[NS_CMD_CAT] = m_exec_cat,
	[NS_CMD_CHROOT] = m_exec_chroot,
	[NS_CMD_MOUNT] = m_exec_mount,
	[NS_CMD_UMOUNT] = m_exec_umount,
	[NS_CMD_UNSHARE] = m_exec_unshare,
	[NS_CMD_EXIT] = m_exec_exit,
	[NS_CMD_VARIABLE] = m_exec_variable,
	[NS_CMD_SLEEP] = m_exec_sleep,
	[NS_CMD_CAPSH] = m_exec_capsh,
	[NS_CMD_OPEN_TREE] = m_exec_open_tree,
	[NS_CMD_MOVE_MOUNT] = m_exec_move_mount,
	[NS_CMD_MOUNT_SETATTR] = m_exec_mount_setattr,
	[NS_CMD_LISTMOUNT] = m_exec_listmount,
	[NS_CMD_STATMOUNT] = m_exec_statmount,
	[NS_CMD_WATCH] = m_exec_watch,
	[NS_CMD_EXEC] = m_exec_exec,
	[NS_CMD_FINDMNT] = m_exec_findmnt,
	[NS_CMD_NSENTER] = m_exec_nsenter,
	[NS_CMD_CLOSE] = m_exec_close,
	[NS_CMD_FSOPEN] = m_exec_fsopen, [NS_CMD_FSCONFIG] = m_exec_fsconfig,
	[NS_CMD_FSMOUNT] = m_exec_fsmount, [NS_CMD_FSPICK] = m_exec_fspick,
	[NS_CMD_RMDIR] = m_exec_rmdir, [NS_CMD_MV] = m_exec_mv, [NS_CMD_LN] = m_exec_ln,
	[NS_CMD_PWD] = m_exec_pwd, [NS_CMD_ECHO] = m_exec_echo, [NS_CMD_STAT] = m_exec_stat,
	[NS_CMD_MOUNTPOINT] = m_exec_mountpoint, [NS_CMD_DIFF] = m_exec_diff,
	[NS_CMD_DF] = m_exec_df,
	[NS_CMD_READLINK] = m_exec_readlink, [NS_CMD_REALPATH] = m_exec_realpath,
	[NS_CMD_PIVOT_ROOT] = m_exec_pivot_root,
};

/* ---- df ---------------------------------------------------------------------- */

static void df_mount(struct m_shell *sh, const struct ns_mount_entry *e, struct ns_df_mount *m)
{
	struct m_path at;

	*m = (struct ns_df_mount){
		.source = e->source ? e->source : "none", .target = e->target,
		.fstype = e->fstype ? e->fstype : "", .root = e->root ? e->root : "/",
		.dev = makedev(e->major, e->minor),
	};
	/* stat(2) and statvfs(2) of the mount point: what is on top there */
	if (e->target && m_lookup(sh, e->target, &at) == 0) {
		m->reached = true;
		m->st_dev = makedev(0, at.mnt->sb->minor);
		m_sb_usage(at.mnt->sb, &m->use);
	}
}

/* df: the shell's mount table, stat(2), statvfs(2) and realpath(3) as
 * the shell's lookups answer them; commands/df.c picks and prints */
int m_exec_df(struct m_shell *sh, const void *args, struct ns_buf *out,
	      struct ns_cmd_result *res)
{
	const struct ns_df_args *a = args;
	struct m_level *lv = m_cur(sh);
	struct ns_df_file *f = xcalloc(a->nfiles + 1, sizeof(*f));
	struct ns_buf *canon = xcalloc(a->nfiles + 1, sizeof(*canon));
	struct ns_df_mount *m = NULL;
	struct ns_snapshot *snap = NULL;
	int r = 0;

	for (size_t i = 0; i < a->nfiles && r == 0; i++) {
		struct m_path at;
		int e = m_lookup(sh, a->files[i], &at);

		f[i].name = a->files[i];
		if (e < 0) {
			r = ns_cmd_fail(res, "stat", -e);
			break;
		}
		f[i].st_dev = makedev(0, at.mnt->sb->minor);
		if (m_path_string(at, lv->root, &canon[i]))
			f[i].canon = ns_buf_str(&canon[i]);
		m_sb_usage(at.mnt->sb, &f[i].use);
	}
	if (r == 0 && (r = m_render(&sh->sb->w, lv->ns, lv->root, &snap)) < 0)
		r = ns_cmd_fail(res, "read mountinfo", -r);
	if (r == 0) {
		const struct ns_mount_entry *v = ns_snapshot_entries(snap);
		size_t n = ns_snapshot_count(snap);

		m = xcalloc(n + 1, sizeof(*m));
		for (size_t i = 0; i < n; i++)
			df_mount(sh, &v[i], &m[i]);
		ns_df_render(a, m, n, f, a->nfiles, out);
	}
	for (size_t i = 0; i < a->nfiles; i++)
		ns_buf_free(&canon[i]);
	free(canon);
	free(f);
	free(m);
	if (snap)
		ns_snapshot_free(snap);
	return r;
}
