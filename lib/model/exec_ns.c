/* exec_ns.c - shells on the model: `unshare` (unshare(2) and unshare(1)'s
 * propagation change), `nsenter` (setns(2) as nsenter(1) makes it),
 * `exit`, `capsh --drop`, and `sleep`, which has nothing to wait for in a
 * model. With a command, `unshare` and `nsenter` run it in the shell they
 * start, which ends with the step. */
#include "model/shell.h"

#include <errno.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/mount.h>

/* The command a wrapper runs, in its new shell, which ends after the
 * step; a failure is named by the command, as the program would name it. */
static int run_inner(struct m_shell *sh, const struct ns_stage *cmd, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	sh->closing = true;
	if (m_exec[cmd->def->id](sh, cmd->args, out, res) == 0)
		return 0;
	if (!res->cmd)
		res->cmd = cmd->argv[0];
	return -1;
}

/* Level lv moves into namespace ns (its references follow). */
static void set_ns(struct m_level *lv, struct m_ns *ns)
{
	lv->ns->refs--;
	lv->ns = ns;
	ns->refs++;
}

/* The maps unshare(1) writes into new namespace u for a caller at level
 * outer, in its order: newuidmap's and newgidmap's from the parent
 * namespace, then its own uid line, and its gid line after setgroups is
 * denied. The model does not track CAP_SETUID and CAP_SETGID (capsh drops
 * only what it models): a writer in the parent holds them. */
static int write_maps(const struct ns_unshare_args *a, const struct m_level *outer,
		      struct m_userns *u, struct ns_cmd_result *res)
{
	struct ns_id_map uids, gids;
	const struct ns_id_map *m[] = { &uids, &gids };
	unsigned kid[] = { outer->uid, outer->gid };
	int r = 0;

	/* the ids it maps are the caller's, as the caller's namespace
	 * names them (geteuid(2), before unshare(2)) */
	ns_unshare_id_maps(a, m_id_shown(&outer->user->uids, outer->uid),
			   m_id_shown(&outer->user->gids, outer->gid), &uids, &gids);
	for (int pass = 0; pass < 2 && r == 0; pass++)
		for (int k = 0; k < 2 && r == 0; k++)
			if (m[k]->n && m[k]->helper == !pass)
				r = m_map_write(u, k, m[k]->v, m[k]->n, m[k]->helper, true, kid[k]);
	return r < 0 ? ns_cmd_fail(res, "write id map", -r) : 0;
}

int m_exec_unshare(struct m_shell *sh, const void *args, struct ns_buf *out,
		   struct ns_cmd_result *res)
{
	const struct ns_unshare_args *a = args;
	struct m_world *w = &sh->sb->w;
	struct m_level *outer = m_cur(sh), *lv;
	struct m_userns *user = outer->user;
	bool admin = outer->sys_admin;

	if (a->user) {
		/* not from a chroot: the shell's root must be its mount
		 * namespace's (unshare(2), EPERM) */
		struct m_path top = { outer->ns->root, outer->ns->root->root };
		m_follow(&top);
		if (top.mnt != outer->root.mnt || top.d != outer->root.d)
			return ns_cmd_fail(res, "unshare", EPERM);
		/* nor with ids its own user namespace does not map (a -U with
		 * no map): the kernel's create_user_ns() needs
		 * kuid_has_mapping() and kgid_has_mapping() of the caller's
		 * effective ids in the parent (unshare(2), EPERM) */
		if (m_id_up(&outer->user->uids, outer->uid) == M_NO_ID ||
		    m_id_up(&outer->user->gids, outer->gid) == M_NO_ID)
			return ns_cmd_fail(res, "unshare", EPERM);
		/* a new user namespace, its creator's: every capability in it */
		user = m_userns_new(w, outer->user);
		user->owner = outer->uid;
		user->group = outer->gid;
		if (write_maps(a, outer, user, res) < 0)
			return -1;
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
		set_ns(lv, ns);
		/* handles keep their mounts: they were opened before */
		if (a->propagation &&
		    m_change_propagation(sh, "/", a->propagation, res, "mount") < 0) {
			/* unshare(1) reports and the new shell never starts */
			m_shell_pop(sh);
			return -1;
		}
	}
	return a->cmd ? run_inner(sh, a->cmd, out, res) : 0;
}

/* What nsenter takes of the target shell, copied before this shell
 * grows a level (the target may be this very terminal). */
struct target {
	struct m_ns *ns;
	struct m_userns *user;
	struct m_path root, cwd;
};

/* nsenter's setns(2) calls and their checks, in its order: every
 * namespace but the user one, then the user namespace and what failed
 * before it (nsenter(1) makes two passes). The mount namespace needs
 * CAP_SYS_ADMIN over its owner and CAP_SYS_CHROOT and CAP_SYS_ADMIN in
 * the caller's own; the user namespace is not the caller's (EINVAL) and
 * needs CAP_SYS_ADMIN in it (setns(2)); then nsenter becomes uid 0
 * there, which must be mapped (EINVAL from setgid(2)). On success *lv
 * holds the user namespace and capabilities the new shell gets. */
static int may_enter(const struct ns_nsenter_args *a, const struct target *t,
		     struct m_level *lv, struct ns_cmd_result *res)
{
	bool mnt_done = false;

	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1 && a->user) {
			if (t->user == lv->user)
				return ns_cmd_fail(res, "setns", EINVAL);
			if (!m_capable(lv, t->user, lv->sys_admin))
				return ns_cmd_fail(res, "setns", EPERM);
			lv->user = t->user;
			lv->sys_admin = lv->sys_chroot = true;
		}
		if (a->mnt && !mnt_done) {
			mnt_done = m_capable(lv, t->ns->owner, lv->sys_admin) &&
				   lv->sys_admin && lv->sys_chroot;
			if (!mnt_done && pass == 1)
				return ns_cmd_fail(res, "setns", EPERM);
		}
	}
	if (a->user) {
		/* setgid(0), then setuid(0): 0 must be mapped there */
		lv->gid = m_id_down(&t->user->gids, 0);
		if (lv->gid == M_NO_ID)
			return ns_cmd_fail(res, "setgid", EINVAL);
		lv->uid = m_id_down(&t->user->uids, 0);
		if (lv->uid == M_NO_ID)
			return ns_cmd_fail(res, "setuid", EINVAL);
	}
	return 0;
}

int m_exec_nsenter(struct m_shell *sh, const void *args, struct ns_buf *out,
		   struct ns_cmd_result *res)
{
	const struct ns_nsenter_args *a = args;
	struct m_world *w = &sh->sb->w;
	struct m_shell *peer = sh->sb->peer && a->target ? sh->sb->peer(sh->sb->peer_ctx, a->target) : NULL;
	struct m_level creds, *lv;
	struct target t;

	if (a->mount_ns) {
		/* setns(2) into a namespace open_tree --namespace made */
		struct m_handle *h = m_handle_find(m_cur(sh), a->mount_ns, strlen(a->mount_ns));
		struct m_path top;

		if (!h || !h->ns)
			return ns_cmd_fail(res, "setns", EBADF);
		if (!m_may_mount(sh))
			return ns_cmd_fail(res, "setns", EPERM);
		top = (struct m_path){ h->ns->root, h->ns->root->root };
		m_follow(&top);
		lv = m_shell_push(sh);
		set_ns(lv, h->ns);
		m_level_set(w, &lv->root, top);
		m_level_set(w, &lv->cwd, top);
		return a->cmd ? run_inner(sh, a->cmd, out, res) : 0;
	}
	if (!peer)
		return ns_cmd_fail(res, "open", ENOENT); /* as /proc/PID of no process */
	lv = m_cur(peer);
	if (!m_may_read_ns(m_cur(sh), lv))
		return ns_cmd_fail(res, "open", EACCES);
	t = (struct target){ lv->ns, lv->user, lv->root, lv->cwd };
	creds = *m_cur(sh);
	if (may_enter(a, &t, &creds, res) < 0)
		return -1;
	lv = m_shell_push(sh);
	lv->user = creds.user;
	lv->uid = creds.uid;
	lv->gid = creds.gid;
	lv->sys_admin = creds.sys_admin;
	lv->sys_chroot = creds.sys_chroot;
	if (a->mnt) {
		/* setns(2) puts root and directory at the top of the
		 * namespace's root */
		struct m_path top = { t.ns->root, t.ns->root->root };

		m_follow(&top);
		set_ns(lv, t.ns);
		m_level_set(w, &lv->root, a->root ? t.root : top);
		m_level_set(w, &lv->cwd, a->wd ? t.cwd : top);
	}
	return a->cmd ? run_inner(sh, a->cmd, out, res) : 0;
}

/* NAME=VALUE, export, unset: the parser's (commands/vars.c). */
int m_exec_variable(struct m_shell *sh, const void *args, struct ns_buf *out,
		    struct ns_cmd_result *res)
{
	(void)sh, (void)args, (void)out, (void)res;
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
