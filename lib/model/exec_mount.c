/* exec_mount.c - mount(8) and umount(8) on the model, in the order and
 * with the errors of mount(2) and umount(2): the target is looked up
 * first, then the caller's privilege, then what the operation demands. */
#include "model/shell.h"

#include <errno.h>
#include <string.h>
#include <sys/mount.h>

#include "mounts/umount_plan.h"

/* M_* flags from the MS_* flags of -o; no atime flag means relatime,
 * mount(2)'s default. */
static unsigned mount_flags(unsigned long ms)
{
	unsigned f = 0;

	if (ms & MS_RDONLY)
		f |= M_RDONLY;
	if (ms & MS_NOSUID)
		f |= M_NOSUID;
	if (ms & MS_NODEV)
		f |= M_NODEV;
	if (ms & MS_NOEXEC)
		f |= M_NOEXEC;
	if (ms & MS_NODIRATIME)
		f |= M_NODIRATIME;
	if (ms & MS_NOSYMFOLLOW)
		f |= M_NOSYMFOLLOW;
	/* the kernel's path_mount(): relatime unless noatime, and
	 * strictatime clearing both */
	f |= ms & MS_NOATIME ? M_NOATIME : M_RELATIME;
	if (ms & MS_STRICTATIME)
		f &= ~(unsigned)(M_RELATIME | M_NOATIME);
	return f;
}

static bool is_root(struct m_path p)
{
	return p.d == p.mnt->root;
}

/* Can something be mounted on m? Not on a mount that was unmounted (the
 * kernel's lock_mount() says ENOENT for one in no namespace; 6.18). */
static bool attached(const struct m_mount *m)
{
	return m->ns && !m->dead;
}

/* The error for a target in an unmounted tree: ENOENT, or EINVAL where
 * the kernel imitated says so (quirk unmounted-target-einval). */
static int unmounted_target(const struct m_shell *sh)
{
	return sh->sb->w.quirks & (1u << M_QUIRK_UNMOUNTED_TARGET_EINVAL) ? EINVAL : ENOENT;
}

/* Is m in the shell's namespace (the kernel's check_mnt())? */
static bool ours(struct m_shell *sh, const struct m_mount *m)
{
	return m->ns == m_cur(sh)->ns;
}

/* May a bind copy m, or a detached tree be attached onto it (the
 * kernel's may_copy_tree() and may_use_mount(), from 6.15): a mount of
 * the shell's namespace, or of a detached tree that open_tree -c cloned
 * from that namespace (check_anonymous_mnt()). Before 6.15, of the
 * shell's namespace only (quirk detached-ours-only). */
static bool may_use(struct m_shell *sh, const struct m_mount *m)
{
	if (ours(sh, m))
		return true;
	if (sh->sb->w.quirks & (1u << M_QUIRK_DETACHED_OURS_ONLY))
		return false;
	return attached(m) && m->ns->anon && (!m->ns->origin || m->ns->origin == m_cur(sh)->ns->id);
}

static const char *const type_names[] = { "shared", "private", "slave", "unbindable" };

static const char *type_name(unsigned long t)
{
	return t & MS_SHARED ? type_names[0] : t & MS_PRIVATE ? type_names[1]
		: t & MS_SLAVE ? type_names[2] : type_names[3];
}

/* --make-[r]TYPE: mount(2) with a propagation flag (sharedsubtree.rst 2;
 * mount_namespaces(7)); MS_REC changes every mount below as well. */
int m_change_propagation(struct m_shell *sh, const char *target, unsigned long type,
			 struct ns_cmd_result *res, const char *sys)
{
	struct m_world *w = &sh->sb->w;
	unsigned long t = type & ~(unsigned long)(MS_REC | MS_SILENT);
	struct m_path at;
	int r = m_lookup(sh, target, &at);

	if (r < 0)
		return ns_cmd_fail(res, sys, -r);
	if (!m_may_mount(sh))
		return ns_cmd_fail(res, sys, EPERM);
	if (!is_root(at))
		return ns_cmd_fail(res, sys, EINVAL);
	/* one type at a time: the kernel's flags_to_propagation_type() (a
	 * single call with two of them comes from mount2) */
	if (!t || (t & (t - 1)))
		return ns_cmd_fail(res, sys, EINVAL);
	/* a mount of another namespace (a detached tree's, through a
	 * handle) may change like one of ours; the quirk's kernels wanted
	 * ours */
	if (sh->sb->w.quirks & (1u << M_QUIRK_CHANGE_TYPE_OURS_ONLY) && !ours(sh, at.mnt))
		return ns_cmd_fail(res, sys, EINVAL);
	r = m_may_change_propagation(sh, at.mnt);
	if (r)
		return ns_cmd_fail(res, sys, r);
	for (struct m_mount *m = at.mnt; m; m = type & MS_REC ? m_next(m, at.mnt) : NULL) {
		m_change_type(w, m, t);
		m_why(w, m, "made %s by --make-%s%s", type_name(t), type & MS_REC ? "r" : "", type_name(t));
	}
	return 0;
}

static int apply_propagation(struct m_shell *sh, const struct ns_mount_args *a,
			     struct ns_cmd_result *res)
{
	for (size_t i = 0; i < a->nprop; i++)
		if (m_change_propagation(sh, a->dst, a->prop[i], res, "mount") < 0)
			return -1;
	return 0;
}

/* Attach the tree t at the target; on failure t goes. */
static int graft(struct m_shell *sh, struct m_mount *t, struct m_path at, const char *what,
		 struct ns_cmd_result *res)
{
	int r;

	/* on top of whatever is mounted there already: a path that is the
	 * shell's root is not crossed by lookup, but mounting on it goes
	 * to the top of its stack (the kernel's lock_mount()) */
	m_follow(&at);
	if (at.d->dir != t->root->dir) {
		r = ENOTDIR;
	} else {
		r = -m_attach(&sh->sb->w, t, at, false, what);
		if (r == 0)
			return 0;
	}
	/* it never was attached: take it back */
	m_discard(&sh->sb->w, t);
	return ns_cmd_fail(res, "mount", r);
}

/* The per-mount flags a remount's MS_* flags give m: those of a new
 * mount, with m's atime setting kept when none is named (mount(2)). */
static unsigned remount_mnt_flags(unsigned long ms, const struct m_mount *m)
{
	unsigned f = mount_flags(ms);

	if (!(ms & (MS_NOATIME | MS_NODIRATIME | MS_RELATIME | MS_STRICTATIME)))
		f = (f & ~(unsigned)M_ATIME_ALL) | (m->flags & M_ATIME_ALL);
	return f;
}

/* Whether giving m the per-mount flags f keeps its locks: no flag locked
 * in a less privileged namespace cleared, no locked atime setting changed
 * (mount_namespaces(7) [5]; the kernel's can_change_locked_flags()). */
static bool keeps_locks(const struct m_world *w, const struct m_mount *m, unsigned f)
{
	if (w->broken == M_BREAK_REMOUNT_IGNORES_LOCKS)
		return true;
	return !(m->locked_flags & (M_RDONLY | M_NOSUID | M_NODEV | M_NOEXEC) & ~f) &&
	       !((m->locked_flags & M_LOCK_ATIME) &&
		 (m->flags & M_ATIME_ALL) != (f & M_ATIME_ALL));
}

/* The per-mount flags after a bind (`-o ro` with --bind): mount(8)'s
 * second call, MS_REMOUNT | MS_BIND, which sets them all, keeping the
 * atime setting unless one is given (mount(2)). */
static int remount_bind(struct m_shell *sh, const struct ns_mount_args *a,
			struct ns_cmd_result *res)
{
	struct m_path at;
	unsigned f;
	int r = m_lookup(sh, a->dst, &at);

	if (r < 0)
		return ns_cmd_fail(res, "mount", -r);
	f = remount_mnt_flags(a->flags, at.mnt);
	if (!keeps_locks(&sh->sb->w, at.mnt, f))
		return ns_cmd_fail(res, "mount", EPERM);
	at.mnt->flags = f;
	return 0;
}

/* The MS_* flags libmount reads from m's line in the table: its
 * per-mount options, with ro when it or its superblock is read-only
 * (the merged options mount(8) starts a remount from). */
static unsigned long table_flags(const struct m_mount *m)
{
	static const struct {
		unsigned m;
		unsigned long ms;
	} map[] = {
		{ M_NOSUID, MS_NOSUID }, { M_NODEV, MS_NODEV }, { M_NOEXEC, MS_NOEXEC },
		{ M_NOATIME, MS_NOATIME }, { M_NODIRATIME, MS_NODIRATIME },
		{ M_RELATIME, MS_RELATIME }, { M_NOSYMFOLLOW, MS_NOSYMFOLLOW },
	};
	unsigned long ms = (m->flags & M_RDONLY) || m->sb->rdonly ? MS_RDONLY : 0;

	for (size_t i = 0; i < NS_ARRAY_SIZE(map); i++)
		if (m->flags & map[i].m)
			ms |= map[i].ms;
	return ms;
}

/* -o remount[,bind]: mount(2) with MS_REMOUNT, with the flags mount(8)
 * gives it (ns_remount_flags: the mount's own merged with -o's when it
 * reads them from the table, which lists what is on top at the path). A
 * mount in the shell's namespace, at its root (EINVAL otherwise), whose
 * locked flags stay (EPERM). With bind only the mount's flags change
 * (the kernel's do_reconfigure_mnt()); without, its superblock becomes
 * read-only or writable too, which needs privilege over the superblock
 * (do_remount(); a stand-in's is the first user namespace's), and the
 * mount's flags change as well. Neither propagates: a remount is not a
 * mount or unmount event (mount_namespaces(7), "Shared subtrees"). */
static int remount(struct m_shell *sh, const struct ns_mount_args *a, struct ns_cmd_result *res)
{
	bool bind = a->flags & MS_BIND;
	struct m_path at, top;
	unsigned long ms;
	unsigned f;
	int r = m_lookup(sh, a->dst, &at);

	if (r < 0)
		return ns_cmd_fail(res, "mount", -r);
	if (!m_may_mount(sh))
		return ns_cmd_fail(res, "mount", EPERM);
	if (!ours(sh, at.mnt) || !is_root(at))
		return ns_cmd_fail(res, "mount", EINVAL);
	top = at;
	m_follow(&top);
	ms = ns_remount_flags(a, table_flags(top.mnt));
	f = remount_mnt_flags(ms, at.mnt);
	if (!keeps_locks(&sh->sb->w, at.mnt, f))
		return ns_cmd_fail(res, "mount", EPERM);
	if (!bind && !m_capable(m_cur(sh), at.mnt->sb->owner ? at.mnt->sb->owner : sh->sb->user0,
				m_cur(sh)->sys_admin))
		return ns_cmd_fail(res, "mount", EPERM);
	at.mnt->flags = f;
	if (!bind)
		at.mnt->sb->rdonly = ms & MS_RDONLY;
	return apply_propagation(sh, a, res);
}

static int bind_mount(struct m_shell *sh, const struct ns_mount_args *a,
		      struct ns_cmd_result *res)
{
	struct m_world *w = &sh->sb->w;
	struct m_path to, from;
	struct m_mount *t;
	int r = m_lookup(sh, a->dst, &to), err;

	if (r < 0)
		return ns_cmd_fail(res, "mount", -r);
	if (!m_may_mount(sh))
		return ns_cmd_fail(res, "mount", EPERM);
	r = m_lookup(sh, a->src, &from);
	if (r < 0)
		return ns_cmd_fail(res, "mount", -r);
	if (!attached(to.mnt))
		return ns_cmd_fail(res, "mount", unmounted_target(sh));
	if (!(ours(sh, to.mnt) || (sh->sb->w.quirks & (1u << M_QUIRK_BIND_ONTO_DETACHED) &&
				   may_use(sh, to.mnt))) ||
	    !may_use(sh, from.mnt))
		return ns_cmd_fail(res, "mount", EINVAL);
	/* an unbindable mount cannot be bound (sharedsubtree.rst 5b, case 8) */
	if (from.mnt->unbindable)
		return ns_cmd_fail(res, "mount", EINVAL);
	if (!a->recursive) {
		/* a plain bind may not uncover what a locked mount hides */
		for (struct m_mount *k = from.mnt->kids; k; k = k->sib)
			if (k->locked && m_node_under(k->mp, from.d))
				return ns_cmd_fail(res, "mount", EINVAL);
	}
	t = m_copy_tree(w, from.mnt, from.d, M_CL_KEEP, a->recursive, &err);
	if (err) {
		m_discard(w, t);
		return ns_cmd_fail(res, "mount", err);
	}
	t->locked = false;
	if (graft(sh, t, to, a->recursive ? "made by mount --rbind (sharedsubtree.rst 5c)"
				       : "made by mount --bind (sharedsubtree.rst 5b)", res) < 0)
		return -1;
	if (a->flags && remount_bind(sh, a, res) < 0)
		return -1;
	return apply_propagation(sh, a, res);
}

/* The superblock of a stand-in (a block device: the kernel's
 * get_tree_bdev()), or NULL after a failure. A device's filesystem
 * belongs to the first user namespace: nobody below it may mount it.
 * While a mount of it lives, a new one shares its superblock and must
 * ask for the same read-only state (EBUSY: "would change RO state");
 * once none is left, the next mount makes it afresh with its own state,
 * on the same device (its files stay). The parser keeps filesystem
 * options away from a stand-in, as the kernel backend passes none. */
static struct m_sb *standin_sb(struct m_shell *sh, const struct ns_mount_args *a,
			       struct ns_cmd_result *res)
{
	bool ro = a->flags & MS_RDONLY;
	struct m_sb *s;

	if (m_cur(sh)->user != sh->sb->user0) {
		ns_cmd_fail(res, "mount", EPERM);
		return NULL;
	}
	s = m_device(sh, a->src);
	if (!s) {
		ns_cmd_fail(res, "stand-in lookup", ENODEV);
		return NULL;
	}
	if (!m_sb_active(&sh->sb->w, s))
		s->rdonly = ro;
	else if (s->rdonly != ro) {
		ns_cmd_fail(res, "mount", EBUSY);
		return NULL;
	}
	return s;
}

/* A new filesystem of type a->type (do_new_mount()): its options are
 * read first (EINVAL), and it belongs to the mounter's user namespace;
 * MS_RDONLY makes the superblock read-only as well as the mount. */
static struct m_sb *typed_sb(struct m_shell *sh, const struct ns_mount_args *a,
			     struct ns_cmd_result *res)
{
	struct m_world *w = &sh->sb->w;
	struct m_fsopts o;
	struct m_sb *s;
	int r;

	m_fsopts_init(&o, a->type, w->ram_pages, m_inode64_built(w));
	/* the root is the mounter's unless uid= and gid= say otherwise
	 * (shmem_init_fs_context(), ramfs_fill_super(): current_fsuid()) */
	o.uid = m_cur(sh)->uid;
	o.gid = m_cur(sh)->gid;
	r = m_fsopts_parse(&o, a->data, w->ram_pages, m_cur(sh)->user);
	if (r < 0) {
		ns_cmd_fail(res, r == -EOPNOTSUPP ? "mount (option not modelled)" : "mount", -r);
		return NULL;
	}
	s = m_sb_new(w, a->src, a->type);
	s->opts = o;
	s->owner = m_cur(sh)->user;
	s->rdonly = a->flags & MS_RDONLY;
	s->ms_flags = a->flags & (MS_SYNCHRONOUS | MS_DIRSYNC | MS_LAZYTIME);
	return s;
}

static int new_mount(struct m_shell *sh, const struct ns_mount_args *a,
		     struct ns_cmd_result *res)
{
	struct m_path to;
	struct m_sb *s;
	struct m_mount *m;
	int r = m_lookup(sh, a->dst, &to);

	if (r < 0)
		return ns_cmd_fail(res, "mount", -r);
	if (!m_may_mount(sh))
		return ns_cmd_fail(res, "mount", EPERM);
	s = a->standin ? standin_sb(sh, a, res) : typed_sb(sh, a, res);
	if (!s)
		return -1;
	if (!attached(to.mnt))
		return ns_cmd_fail(res, "mount", unmounted_target(sh));
	if (!ours(sh, to.mnt))
		return ns_cmd_fail(res, "mount", EINVAL);
	/* the same filesystem twice on one place: the kernel's
	 * do_add_mount() refuses it (a stand-in is one superblock, a
	 * filesystem by type always a new one). It looks at the place the
	 * lookup gave, not at the top of the stack there: at the shell's
	 * root, which lookup does not cross, a second mount is stacked */
	if (to.mnt->sb == s && to.d == to.mnt->root)
		return ns_cmd_fail(res, "mount", EBUSY);
	m = m_mount_new(&sh->sb->w, s, s->root);
	m->flags = mount_flags(a->flags);
	if (graft(sh, m, to, "made by mount (sharedsubtree.rst 5e)", res) < 0)
		return -1;
	return apply_propagation(sh, a, res);
}

/* mount --move: do_move_mount()'s checks, with the rule of
 * sharedsubtree.rst 5d (a move under a shared mount propagates) and
 * the two the kernel adds: a mount under a shared parent does not move,
 * nor does a tree into itself (ELOOP). */
int m_move(struct m_shell *sh, struct m_path from, struct m_path to, bool anon_ok,
	   struct ns_cmd_result *res, const char *sys)
{
	struct m_mount *old = from.mnt;
	bool on_parent = old->parent != NULL;
	int r;

	m_follow(&to); /* onto the top of the stack there (lock_mount()) */
	/* in the order 6.18 checks them: the source is a mount's root, the
	 * target can take a mount, then the rest */
	if (sh->sb->w.quirks & (1u << M_QUIRK_MOVE_TARGET_FIRST) && !attached(to.mnt))
		return ns_cmd_fail(res, sys, unmounted_target(sh));
	if (!is_root(from))
		return ns_cmd_fail(res, sys, EINVAL);
	if (!attached(to.mnt))
		return ns_cmd_fail(res, sys, unmounted_target(sh));
	if (old->locked)
		return ns_cmd_fail(res, sys, EINVAL);
	if (on_parent ? !ours(sh, old) : !(anon_ok && old->ns && old->ns->anon && !old->parent))
		return ns_cmd_fail(res, sys, EINVAL);
	/* an attached mount moves within the shell's namespace; a detached
	 * tree goes there, or onto another detached tree (do_move_mount()) */
	if (on_parent ? !ours(sh, to.mnt) : old->ns == to.mnt->ns || !may_use(sh, to.mnt))
		return ns_cmd_fail(res, sys, EINVAL);
	if (from.d->dir != to.d->dir)
		return ns_cmd_fail(res, sys, EINVAL);
	if (on_parent && old->parent->group)
		return ns_cmd_fail(res, sys, EINVAL);
	if (to.mnt->group)
		for (struct m_mount *m = old; m; m = m_next(m, old))
			if (m->unbindable)
				return ns_cmd_fail(res, sys, EINVAL);
	for (struct m_mount *p = to.mnt; p; p = p->parent)
		if (p == old)
			return ns_cmd_fail(res, sys, ELOOP);
	r = m_attach(&sh->sb->w, old, to, true, "moved here (sharedsubtree.rst 5d)");
	if (r < 0)
		return ns_cmd_fail(res, sys, -r);
	return 0;
}

int m_exec_mount(struct m_shell *sh, const void *args, struct ns_buf *out,
		 struct ns_cmd_result *res)
{
	const struct ns_mount_args *a = args;
	struct m_path from, to;
	int r;

	switch (a->op) {
	case NS_MOUNT_LIST:
		return m_list_mounts(sh, NS_RENDER_MOUNT, out, res);
	case NS_MOUNT_PROPAGATION:
		return apply_propagation(sh, a, res);
	case NS_MOUNT_BIND:
		return bind_mount(sh, a, res);
	case NS_MOUNT_MOVE:
		r = m_lookup(sh, a->dst, &to);
		if (r < 0)
			return ns_cmd_fail(res, "mount", -r);
		if (!m_may_mount(sh))
			return ns_cmd_fail(res, "mount", EPERM);
		r = m_lookup(sh, a->src, &from);
		if (r < 0)
			return ns_cmd_fail(res, "mount", -r);
		/* MS_MOVE shares do_move_mount() with move_mount(2): a detached
		 * tree (its handle's /proc/self/fd link) moves too */
		return m_move(sh, from, to, true, res, "mount");
	case NS_MOUNT_REMOUNT:
		return remount(sh, a, res);
	case NS_MOUNT_NEW:
		break;
	}
	return new_mount(sh, a, res);
}

/* One umount(2) of what is at `at` (looked up as a mount point): it must
 * be a mount's root in the shell's namespace, and not locked; then umount
 * propagation decides what else goes. */
static int umount_one(struct m_shell *sh, struct m_path at, const struct ns_umount_args *a,
		      struct ns_cmd_result *res)
{
	bool lazy = a->lazy;
	int r;

	if (!m_may_mount(sh))
		return ns_cmd_fail(res, "umount2", EPERM);
	if (!is_root(at) || !ours(sh, at.mnt) || at.mnt->locked || !at.mnt->parent)
		return ns_cmd_fail(res, "umount2", EINVAL);
	/* MNT_FORCE asks the filesystem to abort what is in flight, which
	 * needs CAP_SYS_ADMIN over the superblock's user namespace
	 * (can_umount()); tmpfs and the stand-ins have nothing to abort, so
	 * it is a plain umount there */
	if (a->force && !m_capable(m_cur(sh), at.mnt->sb->owner ? at.mnt->sb->owner : sh->sb->user0,
				   m_cur(sh)->sys_admin))
		return ns_cmd_fail(res, "umount2", EPERM);
	if (a->expire) {
		/* do_umount(): not the caller's root, not with MNT_FORCE or
		 * MNT_DETACH; nothing mounted on it and nobody using it;
		 * the first call marks it and says EAGAIN, a second one with
		 * the mark still there unmounts it */
		if (at.mnt == m_cur(sh)->root.mnt || a->force || a->lazy)
			return ns_cmd_fail(res, "umount2", EINVAL);
		for (struct m_mount *k = at.mnt->kids; k; k = k->sib)
			if (!k->dead)
				return ns_cmd_fail(res, "umount2", EBUSY);
		if (at.mnt->refs)
			return ns_cmd_fail(res, "umount2", EBUSY);
		if (!at.mnt->expiry_mark) {
			at.mnt->expiry_mark = true;
			return ns_cmd_fail(res, "umount2", EAGAIN);
		}
	}
	if (!lazy && at.mnt == m_cur(sh)->root.mnt) {
		/* unmounting one's own root makes its filesystem read-only
		 * instead (the kernel's do_umount_root(); the documents are
		 * silent); that needs privilege over the filesystem, which a
		 * stand-in keeps in the first user namespace */
		if (m_cur(sh)->user != sh->sb->user0 && at.mnt->sb->source[0] == '/')
			return ns_cmd_fail(res, "umount2", EPERM);
		at.mnt->sb->rdonly = true;
		return 0;
	}
	r = m_umount(&sh->sb->w, at.mnt, lazy);
	return r < 0 ? ns_cmd_fail(res, "umount2", -r) : 0;
}

/* Is the mount with this ID still in the shell's namespace? */
static bool still_mounted(struct m_shell *sh, unsigned id)
{
	const struct m_world *w = &sh->sb->w;

	for (size_t i = 0; i < w->nmounts; i++)
		if (w->mounts[i]->id == id && !w->mounts[i]->dead && ours(sh, w->mounts[i]))
			return true;
	return false;
}

/* One umount(2) of path, as the kernel looks it up. */
static int umount_path(struct m_shell *sh, const char *path, const struct ns_umount_args *a,
		       struct ns_cmd_result *res)
{
	struct m_path at;
	int r = m_lookup_umount(sh, path, !a->nofollow, &at);

	if (r < 0)
		return ns_cmd_fail(res, "umount2", -r);
	m_follow(&at);
	return umount_one(sh, at, a, res);
}

/* umount -R: util-linux's umount_do_recurse(), as the kernel backend
 * makes it: the target's canonical path, the last mount of the table
 * with that mount point (libmount searches backwards, so the table's
 * order decides which of a stack it is), then its submounts, each child's
 * before it, and itself, each by its own umount(2) of the mount point
 * the table names, which the lookup may lead elsewhere (a mount hidden
 * under a later one is then no mount point: EINVAL); one that an earlier
 * one's propagation took already is skipped, as umount_one_if_mounted()
 * does. A target that is no mount point fails as umount(2) would. */
static int umount_recursive(struct m_shell *sh, const char *target,
			    const struct ns_umount_args *a, struct ns_cmd_result *res)
{
	struct m_level *lv = m_cur(sh);
	struct ns_buf canon = NS_BUF_INIT;
	struct ns_umount_plan p;
	struct ns_snapshot *snap;
	struct m_path at;
	bool found;
	int r = m_lookup(sh, target, &at);

	if (r < 0)
		return ns_cmd_fail(res, "umount2", -r);
	if (!m_path_string(at, lv->root, &canon)) {
		ns_buf_free(&canon);
		return umount_path(sh, target, a, res);
	}
	r = m_render(&sh->sb->w, lv->ns, lv->root, &snap);
	if (r < 0) {
		ns_buf_free(&canon);
		return ns_cmd_fail(res, "read mountinfo", -r);
	}
	found = ns_umount_plan(snap, ns_buf_str(&canon), &p);
	ns_snapshot_free(snap);
	r = found ? 0 : umount_path(sh, ns_buf_str(&canon), a, res);
	for (size_t i = 0; i < p.n && r == 0; i++)
		if (i == 0 || still_mounted(sh, p.v[i].id))
			r = umount_path(sh, p.v[i].path, a, res);
	ns_umount_plan_free(&p);
	ns_buf_free(&canon);
	return r;
}

int m_exec_umount(struct m_shell *sh, const void *args, struct ns_buf *out,
		  struct ns_cmd_result *res)
{
	const struct ns_umount_args *a = args;

	(void)out;
	for (size_t i = 0; i < a->ntargets; i++) {
		struct m_path at;
		size_t name;
		int r = m_lookup_umount(sh, a->targets[i], !a->nofollow, &at);

		if (r < 0)
			return ns_cmd_fail(res, "umount2", -r);
		/* a handle alone is its /proc/self/fd/N link (nstest-scenario(5),
		 * handles): UMOUNT_NOFOLLOW stops at that link, a file of
		 * procfs and no mount's root (path_umount(): EPERM first, then
		 * EINVAL), measured on 6.18 */
		if (a->nofollow && ns_is_handle_path(a->targets[i], &name) && !a->targets[i][name])
			return ns_cmd_fail(res, "umount2", m_may_mount(sh) ? EINVAL : EPERM);
		/* umount looks its target up as a mount point: what is on top
		 * of the place, also when it is the shell's root or directory
		 * (LOOKUP_MOUNTPOINT in the kernel's ksys_umount()); with
		 * UMOUNT_NOFOLLOW a symbolic link at the end is the target,
		 * which is no mount's root */
		m_follow(&at);
		r = a->recursive ? umount_recursive(sh, a->targets[i], a, res) : umount_one(sh, at, a, res);
		if (r < 0)
			return -1;
	}
	return 0;
}
