/* exec_list.c - the commands that list mounts on the model: mount with no
 * arguments and cat /proc/self/mountinfo (through m_list_mounts), findmnt,
 * statmount, and listmount, which only the kernel can answer. */
#include "model/shell.h"

#include <errno.h>

#include "commands/statmount.h"
#include "mounts/findmnt.h"

int m_list_mounts(struct m_shell *sh, enum ns_render how, struct ns_buf *out,
		  struct ns_cmd_result *res)
{
	struct m_level *lv = m_cur(sh);
	struct ns_snapshot *snap;
	int r = m_render(&sh->sb->w, lv->ns, lv->root, &snap);

	if (r < 0)
		return ns_cmd_fail(res, "read mountinfo", -r);
	ns_snapshot_render(snap, how, out);
	ns_snapshot_free(snap);
	return 0;
}

int m_exec_findmnt(struct m_shell *sh, const void *args, struct ns_buf *out,
		   struct ns_cmd_result *res)
{
	const struct ns_findmnt_args *a = args;
	struct m_level *lv = m_cur(sh);
	struct ns_buf canon = NS_BUF_INIT, where = NS_BUF_INIT;
	const char *canon_s = NULL, *resolved = NULL;
	struct ns_snapshot *snap;
	struct m_path at;
	int r = m_render(&sh->sb->w, lv->ns, lv->root, &snap);

	if (r < 0)
		return ns_cmd_fail(res, "read mountinfo", -r);
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
			       resolved, out)) {
		res->status = 1;
		res->silent = true;
	}
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
	[NS_CMD_READLINK] = m_exec_readlink, [NS_CMD_REALPATH] = m_exec_realpath,
	[NS_CMD_PIVOT_ROOT] = m_exec_pivot_root,
};
