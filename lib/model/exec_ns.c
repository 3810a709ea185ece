/* exec_ns.c - shells on the model: `unshare` (unshare(2) and unshare(1)'s
 * propagation change), `exit`, `capsh --drop`, and `sleep`, which has
 * nothing to wait for in a model. */
#include "model/shell.h"

#include <errno.h>
#include <linux/capability.h>
#include <sys/mount.h>

int m_exec_unshare(struct m_shell *sh, const void *args, struct ns_buf *out,
		   struct ns_cmd_result *res)
{
	const struct ns_unshare_args *a = args;
	struct m_world *w = &sh->sb->w;
	struct m_level *outer = m_cur(sh), *lv;
	struct m_userns *user = outer->user;
	bool admin = outer->sys_admin;

	(void)out;
	if (a->user) {
		/* not from a chroot: the shell's root must be its mount
		 * namespace's (unshare(2), EPERM) */
		struct m_path top = { outer->ns->root, outer->ns->root->root };
		m_follow(&top);
		if (top.mnt != outer->root.mnt || top.d != outer->root.d)
			return ns_cmd_fail(res, "unshare", EPERM);
		/* a new user namespace: every capability in it */
		user = m_userns_new(w, outer->user);
		admin = true;
	}
	if (a->mnt && !admin)
		return ns_cmd_fail(res, "unshare", EPERM);
	lv = m_shell_push(sh);
	lv->user = user;
	if (a->user) {
		lv->sys_admin = true;
		lv->sys_chroot = true;
	}
	if (a->mnt) {
		struct m_ns *old = lv->ns;
		struct m_ns *ns = m_ns_copy(w, old, user);
		struct m_path root = lv->root, cwd = lv->cwd;

		/* the shell moves to the copies of its root and directory */
		if (root.mnt->ns == old)
			root.mnt = root.mnt->copy;
		if (cwd.mnt->ns == old)
			cwd.mnt = cwd.mnt->copy;
		m_level_set(w, &lv->root, root);
		m_level_set(w, &lv->cwd, cwd);
		old->refs--;
		lv->ns = ns;
		ns->refs++;
		/* handles keep their mounts: they were opened before */
		if (a->propagation &&
		    m_change_propagation(sh, "/", a->propagation, res, "mount") < 0) {
			/* unshare(1) reports and the new shell never starts */
			m_shell_pop(sh);
			return -1;
		}
	}
	return 0;
}

int m_exec_exit(struct m_shell *sh, const void *args, struct ns_buf *out,
		struct ns_cmd_result *res)
{
	(void)args, (void)out, (void)res;
	sh->closing = true;
	return 0;
}

int m_exec_capsh(struct m_shell *sh, const void *args, struct ns_buf *out,
		 struct ns_cmd_result *res)
{
	const struct ns_capsh_args *a = args;
	struct m_level *lv = m_shell_push(sh);

	(void)out, (void)res;
	for (size_t i = 0; i < a->n; i++) {
		if (a->drop[i] == CAP_SYS_ADMIN)
			lv->sys_admin = false;
		if (a->drop[i] == CAP_SYS_CHROOT)
			lv->sys_chroot = false;
	}
	return 0;
}

int m_exec_sleep(struct m_shell *sh, const void *args, struct ns_buf *out,
		 struct ns_cmd_result *res)
{
	(void)sh, (void)args, (void)out, (void)res;
	return 0;
}
