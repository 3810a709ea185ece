/* exec_newapi.c - open_tree, move_mount, mount_setattr and close on the model,
 * with the checks and errors open_tree(2), move_mount(2) and
 * mount_setattr(2) give. An @NAME handle is a place (mount and
 * directory) the shell holds, which keeps its mount busy, as an fd does. */
#include "model/shell.h"

#include <errno.h>
#include <linux/mount.h>
#include <string.h>
#include <sys/mount.h>

static bool attr_invalid(const struct ns_mount_setattr_args *a);
static int setattr_at(struct m_shell *sh, struct m_path at, const struct ns_mount_setattr_args *a,
		      struct m_userns *idmap, bool replace, struct ns_cmd_result *res,
		      const char *sys);

/* --idmap TERM: the user namespace of terminal TERM's innermost shell,
 * as a descriptor of its /proc/PID/ns/user gives it (ENOENT, as for a
 * process that is gone, when TERM is not running; EACCES when the
 * caller may not read it); NULL without. */
static int idmap_peer(struct m_shell *sh, const struct ns_mount_setattr_args *a,
		      struct m_userns **user, struct ns_cmd_result *res)
{
	struct m_shell *peer;

	*user = NULL;
	if (!a->idmap)
		return 0;
	peer = sh->sb->peer ? sh->sb->peer(sh->sb->peer_ctx, a->idmap) : NULL;
	if (!peer)
		return ns_cmd_fail(res, "open", ENOENT);
	if (!m_may_read_ns(m_cur(sh), m_cur(peer)))
		return ns_cmd_fail(res, "open", EACCES);
	*user = m_cur(peer)->user;
	return 0;
}

/* The user namespace itself, when the call is built (the kernel's
 * build_mount_idmapped()): the initial one stands for "not idmapped"
 * (EPERM), and the caller needs CAP_SYS_ADMIN in it (EPERM). */
static int idmap_allowed(struct m_shell *sh, const struct m_userns *user,
			 struct ns_cmd_result *res, const char *sys)
{
	struct m_level *lv = m_cur(sh);

	if (!user)
		return 0;
	if (!user->parent || !m_capable(lv, user, lv->sys_admin))
		return ns_cmd_fail(res, sys, EPERM);
	return 0;
}

/* May open_tree -c copy m (the kernel's may_copy_tree(), 6.15 on, which
 * __do_loopback() asks for a bind and a clone alike): a mount of the
 * shell's namespace, or a mounted one of a detached tree whose origin is
 * the shell's namespace or none (check_anonymous_mnt()). Before 6.15, of
 * the shell's namespace only (quirk detached-ours-only). */
static bool may_copy_tree(struct m_shell *sh, const struct m_mount *m)
{
	const struct m_ns *ours = m_cur(sh)->ns;

	if (m->ns == ours)
		return true;
	if (sh->sb->w.quirks & (1u << M_QUIRK_DETACHED_OURS_ONLY))
		return false;
	return m->ns && !m->dead && m->ns->anon && (!m->ns->origin || m->ns->origin == ours->id);
}

/* The origin a clone of m records (open_detached_copy(), 6.18: the
 * kernel's seq_origin): the namespace m is in, or, for m in a detached
 * tree, that tree's own origin, so that a clone of a clone still belongs
 * to the namespace the first was cloned from, and one of an fsmount tree
 * (none: fsmount's namespace never gets one) to none. */
static unsigned clone_origin(const struct m_mount *m)
{
	return m->ns->anon ? m->ns->origin : m->ns->id;
}

/* The copy open_tree -c and --namespace make, as a bind mount's is
 * (__do_loopback()): not of an unbindable mount, nor of one the shell may
 * not copy, nor without -R of one with a locked submount that -R would
 * have to bring (EINVAL). NULL with res filled on failure. */
static struct m_mount *copy_for_open(struct m_shell *sh, struct m_path at, bool recursive,
				     struct ns_cmd_result *res, const char *sys)
{
	struct m_world *w = &sh->sb->w;
	struct m_mount *t;
	int err;

	if (at.mnt->unbindable || !may_copy_tree(sh, at.mnt)) {
		ns_cmd_fail(res, sys, EINVAL);
		return NULL;
	}
	if (!recursive)
		for (struct m_mount *k = at.mnt->kids; k; k = k->sib)
			if (k->locked && m_node_under(k->mp, at.d)) {
				ns_cmd_fail(res, sys, EINVAL);
				return NULL;
			}
	t = m_copy_tree(w, at.mnt, at.d, M_CL_KEEP, recursive, &err);
	if (err) {
		m_discard(w, t);
		ns_cmd_fail(res, sys, err);
		return NULL;
	}
	t->locked = false;
	return t;
}

/* OPEN_TREE_NAMESPACE (Linux 7.0): the copy open_tree -c would make,
 * attached on the root of a new mount namespace's own root filesystem,
 * which no listing shows (the reader's root is the copy, on top of it);
 * the handle names the namespace, which lives while it or a shell in it
 * does. Only a directory (7.1: ENOTDIR otherwise). */
static int open_namespace(struct m_shell *sh, struct m_path at, const struct ns_open_tree_args *a,
			  struct ns_cmd_result *res, const char *sys)
{
	struct m_world *w = &sh->sb->w;
	struct m_level *lv = m_cur(sh);
	struct m_mount *t, *base;
	struct m_sb *base_sb;
	struct m_handle h = { .file = false };
	struct m_ns *ns;

	if (!at.d->dir && !(w->quirks & (1u << M_QUIRK_NAMESPACE_OF_A_FILE)))
		return ns_cmd_fail(res, sys, ENOTDIR);
	if (!(t = copy_for_open(sh, at, a->recursive, res, sys)))
		return -1;
	ns = m_ns_new(w, lv->user);
	base_sb = m_sb_new(w, "rootfs", "rootfs");
	base = m_mount_new(w, base_sb, base_sb->root);
	base->ns = ns;
	ns->root = base;
	ns->mounts = 1;
	m_why(w, base, "the root filesystem of a namespace open_tree --namespace made, under the copy");
	t->parent = base;
	t->mp = base_sb->root;
	base->kids = t;
	for (struct m_mount *m = t; m; m = m_next(m, t)) {
		m->ns = ns;
		ns->mounts++;
		m_why(w, m, "copied by open_tree --namespace%s into a new mount namespace",
		      a->recursive ? " -R" : "");
	}
	h.ns = ns;
	snprintf(h.name, sizeof(h.name), "%s", a->handle);
	m_handle_keep(w, lv, h);
	return 0;
}

int m_exec_open_tree(struct m_shell *sh, const void *args, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	const struct ns_open_tree_args *a = args;
	struct m_world *w = &sh->sb->w;
	struct m_level *lv = m_cur(sh);
	const char *sys = a->with_attr ? "open_tree_attr" : "open_tree";
	struct m_userns *idmap;
	struct m_handle h;
	struct m_path at;
	int r;

	(void)out;
	if (a->clone && a->namespace)
		return ns_cmd_fail(res, sys, EINVAL);
	if (idmap_peer(sh, &a->attr, &idmap, res) < 0)
		return -1;
	if ((a->clone || a->namespace) && !m_may_mount(sh))
		return ns_cmd_fail(res, sys, EPERM);
	r = m_lookup(sh, a->path, &at);
	if (r < 0)
		return ns_cmd_fail(res, sys, -r);
	if (a->namespace)
		return open_namespace(sh, at, a, res, sys);
	if (a->clone) {
		/* a detached copy, made as a bind mount's is (open_tree(2)) */
		struct m_ns *anon;
		struct m_mount *t = copy_for_open(sh, at, a->recursive, res, sys);

		if (!t)
			return -1;
		anon = m_ns_new(w, lv->ns->owner);
		anon->anon = true;
		anon->origin = clone_origin(at.mnt);
		anon->root = t; /* its refs: the handles on it (m_handle_hold) */
		for (struct m_mount *m = t; m; m = m_next(m, t)) {
			m->ns = anon;
			anon->mounts++;
			m_why(w, m, "cloned by open_tree -c%s (open_tree(2): a detached copy, made as a bind is)",
			      a->recursive ? " -R" : "");
		}
		at = (struct m_path){ t, t->root };
	}
	/* open_tree_attr(2): the attributes as mount_setattr gives them, on
	 * the tree just opened, after it was (EINVAL for a bad set first);
	 * on failure no descriptor is made, so a clone goes again */
	if (a->with_attr && (a->attr.set || a->attr.clr || a->attr.propagation)) {
		/* a clone may have its idmap replaced: nobody has seen it
		 * (MOUNT_KATTR_IDMAP_REPLACE, Linux 6.15) */
		r = attr_invalid(&a->attr) ? ns_cmd_fail(res, sys, EINVAL)
					   : idmap_allowed(sh, idmap, res, sys);
		if (r == 0)
			r = setattr_at(sh, at, &a->attr, idmap, a->clone, res, sys);
		if (r < 0) {
			if (a->clone)
				m_ns_drop(w, at.mnt->ns);
			return -1;
		}
	}
	/* a clone's descriptor keeps its detached tree; one opened on a
	 * mount of a detached tree without -c does not (dissolve_on_fput()
	 * looks for FMODE_NEED_UNMOUNT, which only a clone has) */
	h = (struct m_handle){ .at = at, .anon = a->clone ? at.mnt->ns : NULL };
	snprintf(h.name, sizeof(h.name), "%s", a->handle);
	m_handle_keep(w, lv, h);
	return 0;
}

/* Drop each handle: its hold on the mount ends, and a detached tree goes
 * with the last handle on it (m_handle_release). */
int m_exec_close(struct m_shell *sh, const void *args, struct ns_buf *out,
		 struct ns_cmd_result *res)
{
	const struct ns_close_args *a = args;
	struct m_level *lv = m_cur(sh);

	(void)out;
	for (size_t k = 0; k < a->n; k++) {
		struct m_handle *h = m_handle_find(lv, a->handles[k], strlen(a->handles[k]));

		if (!h)
			return ns_cmd_fail(res, "close", EBADF);
		m_handle_close(&sh->sb->w, lv, h);
	}
	return 0;
}

/* MOVE_MOUNT_SET_GROUP: TO joins FROM's peer group and master
 * (move_mount(2)), on the conditions the call lists. */
static int set_group(struct m_shell *sh, struct m_path from, struct m_path to,
		     struct ns_cmd_result *res)
{
	struct m_mount *f = from.mnt, *t = to.mnt;
	int err = m_may_change_propagation(sh, f);

	if (!err)
		err = m_may_change_propagation(sh, t);
	if (err)
		return ns_cmd_fail(res, "move_mount", err);
	if (from.d != f->root || to.d != t->root)
		return ns_cmd_fail(res, "move_mount", EINVAL);
	if (f->sb != t->sb || !m_node_under(t->root, f->root))
		return ns_cmd_fail(res, "move_mount", EINVAL);
	for (struct m_mount *k = f->kids; k; k = k->sib)
		if (k->locked && m_node_under(k->mp, t->root))
			return ns_cmd_fail(res, "move_mount", EINVAL);
	if (t->group || t->master)
		return ns_cmd_fail(res, "move_mount", EINVAL);
	if (t->unbindable && sh->sb->w.quirks & (1u << M_QUIRK_SET_GROUP_NOT_UNBINDABLE))
		return ns_cmd_fail(res, "move_mount", EINVAL);
	if (!f->group && !f->master)
		return ns_cmd_fail(res, "move_mount", EINVAL);
	t->master = f->master;
	m_slave_after(&sh->sb->w, t, f);
	if (f->group) {
		m_join_after(t, f);
		if (sh->sb->w.broken != M_BREAK_SET_GROUP_KEEPS_UNBINDABLE)
			t->unbindable = false;
	}
	m_why(&sh->sb->w, t, "joined the propagation of mount %u by move_mount --set-group", f->id);
	return 0;
}

/* Would an event on the shared mount `from` at `mp` land on top of `to`:
 * does `to` receive from `from` (a peer of it, or a slave of its group
 * anywhere up the chain of masters) with its root at that very place?
 * The kernel's propagation_would_overmount() (fs/pnode.c, 6.18). */
static bool would_overmount(const struct m_mount *from, const struct m_mount *to,
			    const struct m_node *mp)
{
	if (!from->group || to->root != mp)
		return false;
	if (to->group == from->group)
		return true;
	for (const struct m_group *g = to->master; g; g = g->master)
		if (g == from->group)
			return true;
	return false;
}

/* MOVE_MOUNT_BENEATH: FROM goes where TO (the top of its stack) is
 * attached, and TO goes on FROM's root (move_mount(2)). The checks are
 * can_move_mount_beneath()'s, after lock_mount()'s own; the move's
 * (m_move, do_move_mount()) come after them. From Debian's 7.1.3 (C.
 * Brauner's patches "move_mount: allow MOVE_MOUNT_BENEATH on the rootfs"
 * and "move_mount: transfer MNT_LOCKED", 2026, and the kernel's selftest
 * filesystems/move_mount/move_mount_test.c) the top may be the shell's
 * root mount, or a mount on the namespace's root, and it may be locked:
 * FROM takes its lock (attach_recursive_mnt()). The older checks are the
 * quirks beneath-not-root and beneath-not-locked. */
static int beneath(struct m_shell *sh, struct m_path from, struct m_path to,
		   struct ns_cmd_result *res)
{
	struct m_level *lv = m_cur(sh);
	unsigned quirks = sh->sb->w.quirks;
	struct m_mount *top, *parent;
	struct m_path place;
	bool take_lock;
	int r;

	if (to.d != to.mnt->root)
		return ns_cmd_fail(res, "move_mount", EINVAL);
	/* the top of the stack at the place, also where the lookup stopped
	 * below it ("/", ".": lock_mount() looks up what is on top) */
	m_follow(&to);
	top = to.mnt;
	parent = top->parent;
	/* a target in an unmounted tree fails as lock_mount() says, before
	 * anything is checked of going beneath: the move's own checks give
	 * that error, and the move goes nowhere */
	if (!top->ns || top->dead)
		return m_move(sh, from, to, true, res, "move_mount");
	if (!parent)
		return ns_cmd_fail(res, "move_mount", EINVAL);
	if (top->locked && (quirks & (1u << M_QUIRK_BENEATH_NOT_LOCKED)))
		return ns_cmd_fail(res, "move_mount", EINVAL);
	/* the source may not be overmounted (the kernel's reason: no
	 * pointless shadow mounts when it propagates) */
	if (m_child_at(from.mnt, from.mnt->root))
		return ns_cmd_fail(res, "move_mount", EINVAL);
	/* before 7.1.3: nothing beneath the shell's root, or onto the
	 * namespace's root */
	if ((quirks & (1u << M_QUIRK_BENEATH_NOT_ROOT)) &&
	    (top == lv->root.mnt || parent == lv->ns->root))
		return ns_cmd_fail(res, "move_mount", EINVAL);
	for (struct m_mount *p = from.mnt; p; p = p->parent)
		if (p == top)
			return ns_cmd_fail(res, "move_mount", EINVAL);
	/* FROM, attached under a shared parent, propagates like any mount;
	 * a copy that would land on TO's root, or on FROM's own (FROM of the
	 * shell's namespace: check_mnt()), would put a mount back on top */
	if (would_overmount(parent, top, top->mp) ||
	    (from.mnt->ns == lv->ns && would_overmount(parent, from.mnt, top->mp)))
		return ns_cmd_fail(res, "move_mount", EINVAL);
	/* the move's own check that a tree with an unbindable mount goes
	 * under no shared parent sees FROM's tree as it is, TO still in it
	 * when FROM is TO's parent (do_move_mount(): before its ELOOP) */
	if (parent->group)
		for (struct m_mount *m = from.mnt; m; m = m_next(m, from.mnt))
			if (m->unbindable)
				return ns_cmd_fail(res, "move_mount", EINVAL);
	place = (struct m_path){ parent, top->mp };
	take_lock = top->locked;
	/* take TO off, attach FROM there, put TO back on FROM's root; when
	 * the move fails, TO goes back where it was among its parent's
	 * children, whose order is the order copies of them are made in */
	{
		struct m_mount **pp, **was = NULL;
		for (pp = &parent->kids; *pp; pp = &(*pp)->sib)
			if (*pp == top) {
				*pp = top->sib;
				was = pp;
				break;
			}
		top->parent = NULL;
		top->sib = NULL;
		r = m_move(sh, from, place, true, res, "move_mount");
		if (r < 0 && was) {
			top->parent = parent;
			top->mp = place.d;
			top->sib = *was;
			*was = top;
		} else {
			struct m_mount **tail;
			top->parent = from.mnt;
			top->mp = from.mnt->root;
			top->sib = NULL;
			for (tail = &from.mnt->kids; *tail; tail = &(*tail)->sib)
				;
			*tail = top;
		}
	}
	if (r == 0 && take_lock) {
		/* what TO hid is now under FROM, which hides it in its place:
		 * FROM is locked and TO may go (attach_recursive_mnt(), 7.1.3) */
		from.mnt->locked = true;
		top->locked = false;
		m_why(&sh->sb->w, from.mnt, "%s; it took the lock of mount %u, which it went beneath",
		      from.mnt->why ? from.mnt->why : "", top->id);
	}
	return r;
}

int m_exec_move_mount(struct m_shell *sh, const void *args, struct ns_buf *out,
		      struct ns_cmd_result *res)
{
	const struct ns_move_mount_args *a = args;
	struct m_path from, to;
	int r;

	(void)out;
	if (!m_may_mount(sh))
		return ns_cmd_fail(res, "move_mount", EPERM);
	r = m_lookup(sh, a->from, &from);
	if (r == 0)
		r = m_lookup(sh, a->to, &to);
	if (r < 0)
		return ns_cmd_fail(res, "move_mount", -r);
	if (a->set_group)
		return set_group(sh, from, to, res);
	if (a->beneath)
		return beneath(sh, from, to, res);
	return m_move(sh, from, to, true, res, "move_mount");
}

unsigned m_attr_flags(unsigned long long attr)
{
	unsigned f = 0;

	if (attr & MOUNT_ATTR_RDONLY)
		f |= M_RDONLY;
	if (attr & MOUNT_ATTR_NOSUID)
		f |= M_NOSUID;
	if (attr & MOUNT_ATTR_NODEV)
		f |= M_NODEV;
	if (attr & MOUNT_ATTR_NOEXEC)
		f |= M_NOEXEC;
	if (attr & MOUNT_ATTR_NODIRATIME)
		f |= M_NODIRATIME;
	if (attr & MOUNT_ATTR_NOSYMFOLLOW)
		f |= M_NOSYMFOLLOW;
	return f;
}

static unsigned new_flags(const struct ns_mount_setattr_args *a, unsigned f)
{
	f &= ~m_attr_flags(a->clr);
	f |= m_attr_flags(a->set);
	if (a->clr & MOUNT_ATTR__ATIME) {
		unsigned long long at = a->set & MOUNT_ATTR__ATIME;
		f &= ~(unsigned)M_ATIME_MASK;
		if (at == MOUNT_ATTR_NOATIME)
			f |= M_NOATIME;
		else if (at == MOUNT_ATTR_RELATIME)
			f |= M_RELATIME;
	}
	return f;
}

/* The atime setting is one value, not bits: a set that is none of
 * relatime, noatime and strictatime (or one without the whole
 * MOUNT_ATTR__ATIME cleared) is EINVAL (mount_setattr(2); the kernel's
 * build_mount_kattr()). */
static bool attr_invalid(const struct ns_mount_setattr_args *a)
{
	unsigned long long atime = a->set & MOUNT_ATTR__ATIME;

	if (a->clr & MOUNT_ATTR__ATIME)
		return (a->clr & MOUNT_ATTR__ATIME) != MOUNT_ATTR__ATIME ||
		       (atime != MOUNT_ATTR_RELATIME && atime != MOUNT_ATTR_NOATIME &&
			atime != MOUNT_ATTR_STRICTATIME);
	return atime != 0;
}

/* Whether mount m may take the idmap of user namespace idmap (the
 * kernel's can_idmap_mount(), in its order): not the filesystem's own
 * namespace (EINVAL), not a mount idmapped already unless replace
 * (EPERM), a filesystem that allows idmaps, tmpfs since Linux 6.3 and
 * not ramfs (EINVAL), CAP_SYS_ADMIN over the filesystem's namespace
 * (EPERM), and a detached mount, never attached (EINVAL). 0 or the
 * errno. */
static int can_idmap(struct m_shell *sh, const struct m_mount *m, const struct m_userns *idmap,
		     bool replace)
{
	struct m_level *lv = m_cur(sh);
	const struct m_userns *fs = m_sb_userns(m->sb, sh->sb->user0);

	if (idmap == fs)
		return EINVAL;
	if (m->idmap && !replace)
		return EPERM;
	if (m->sb->opts.kind != M_FS_TMPFS)
		return EINVAL;
	if (!m_capable(lv, fs, lv->sys_admin))
		return EPERM;
	if (!m->ns || !m->ns->anon)
		return EINVAL;
	return 0;
}

/* mount_setattr's change of the mount at `at` (and with -R its tree),
 * once the path is looked up: the kernel's do_mount_setattr(), with the
 * idmap of user namespace idmap (or none). */
static int setattr_at(struct m_shell *sh, struct m_path at, const struct ns_mount_setattr_args *a,
		      struct m_userns *idmap, bool replace, struct ns_cmd_result *res,
		      const char *sys)
{
	struct m_world *w = &sh->sb->w;

	if (!m_may_mount(sh))
		return ns_cmd_fail(res, sys, EPERM);
	/* the caller's namespace, or the top of a detached tree; a mount
	 * below that top is outside the caller's namespace (EINVAL; the
	 * kernel's anon_ns_root() and check_mnt()) */
	if (at.d != at.mnt->root || at.mnt->dead ||
	    !(at.mnt->ns == m_cur(sh)->ns ||
	      (at.mnt->ns && at.mnt->ns->anon && at.mnt->ns->root == at.mnt)))
		return ns_cmd_fail(res, sys, EINVAL);
	/* the idmap is a copy of the namespace's maps, both of which must
	 * have been written (fs/mnt_idmapping.c copy_mnt_idmap(), EINVAL) */
	if (idmap && (!idmap->uids.n || !idmap->gids.n))
		return ns_cmd_fail(res, sys, EINVAL);
	/* all or nothing: a locked flag anywhere fails the call before any
	 * change (mount_setattr(2), EPERM), and so does a mount that may
	 * not be idmapped (mount_setattr_prepare()) */
	for (struct m_mount *m = at.mnt; m; m = a->recursive ? m_next(m, at.mnt) : NULL) {
		unsigned f = new_flags(a, m->flags), changed = f ^ m->flags;
		int err;

		if (w->broken != M_BREAK_REMOUNT_IGNORES_LOCKS &&
		    ((changed & m->locked_flags & ~(unsigned)M_LOCK_ATIME) ||
		     ((changed & M_ATIME_ALL) && (m->locked_flags & M_LOCK_ATIME))))
			return ns_cmd_fail(res, sys, EPERM);
		if (idmap && (err = can_idmap(sh, m, idmap, replace)) != 0)
			return ns_cmd_fail(res, sys, err);
	}
	for (struct m_mount *m = at.mnt; m; m = a->recursive ? m_next(m, at.mnt) : NULL) {
		m->flags = new_flags(a, m->flags);
		if (idmap)
			m->idmap = idmap;
		if (a->propagation)
			m_change_type(w, m, a->propagation);
	}
	return 0;
}

int m_exec_mount_setattr(struct m_shell *sh, const void *args, struct ns_buf *out,
			 struct ns_cmd_result *res)
{
	const struct ns_mount_setattr_args *a = args;
	struct m_userns *idmap;
	struct m_path at;
	int r;

	(void)out;
	if (idmap_peer(sh, a, &idmap, res) < 0)
		return -1;
	/* may_mount() first: the syscall asks it before it reads the
	 * attributes and looks the path up (fs/namespace.c, mount_setattr) */
	if (!m_may_mount(sh))
		return ns_cmd_fail(res, "mount_setattr", EPERM);
	/* checked before the path is looked up */
	if (attr_invalid(a))
		return ns_cmd_fail(res, "mount_setattr", EINVAL);
	if (idmap_allowed(sh, idmap, res, "mount_setattr") < 0)
		return -1;
	r = m_lookup(sh, a->target, &at);
	if (r < 0)
		return ns_cmd_fail(res, "mount_setattr", -r);
	return setattr_at(sh, at, a, idmap, false, res, "mount_setattr");
}
