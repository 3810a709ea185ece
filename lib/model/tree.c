/* tree.c - see model.h: the mount tree, peer groups and masters, and the
 * propagation of mount and umount events.
 *
 * Peer groups are objects; a mount's `group` says which it belongs to and
 * its `master` which group it is a slave of. All members of a group have
 * the same master (sharedsubtree.rst 3: a shared and slave mount's peers
 * share its master), so "the slaves of a group" are the mounts whose
 * master is that group, wherever they are. */
#include "model/model.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

/* fs.mount-max's default: the most mounts one namespace may hold. */
#define M_MOUNT_MAX 100000

static void add_kid(struct m_mount *parent, struct m_mount *m, struct m_node *mp)
{
	struct m_mount **tail = &parent->kids;

	m->parent = parent;
	m->mp = mp;
	m->sib = NULL;
	while (*tail)
		tail = &(*tail)->sib;
	*tail = m;
}

static void remove_kid(struct m_mount *m)
{
	struct m_mount **pp;

	if (!m->parent)
		return;
	for (pp = &m->parent->kids; *pp; pp = &(*pp)->sib)
		if (*pp == m) {
			*pp = m->sib;
			break;
		}
	m->parent = NULL;
	m->sib = NULL;
}

struct m_mount *m_child_at(const struct m_mount *m, const struct m_node *d)
{
	for (struct m_mount *k = m->kids; k; k = k->sib)
		if (k->mp == d)
			return k;
	return NULL;
}

void m_follow(struct m_path *p)
{
	struct m_mount *c;

	while ((c = m_child_at(p->mnt, p->d))) {
		p->mnt = c;
		p->d = c->root;
	}
}

struct m_mount *m_next(struct m_mount *m, const struct m_mount *top)
{
	if (m->kids)
		return m->kids;
	while (m != top) {
		if (m->sib)
			return m->sib;
		m = m->parent;
	}
	return NULL;
}

static size_t tree_size(struct m_mount *t)
{
	size_t n = 0;

	for (struct m_mount *m = t; m; m = m_next(m, t))
		n++;
	return n;
}

static void set_ns(struct m_mount *t, struct m_ns *ns)
{
	for (struct m_mount *m = t; m; m = m_next(m, t)) {
		if (m->ns)
			m->ns->mounts--;
		m->ns = ns;
		if (ns)
			ns->mounts++;
	}
}

/* ---- peer groups ---------------------------------------------------- */

/* m joins group g: right after `after` in the ring when it is a member
 * of g, else in a ring of its own (a new group's first member). */
static void join(struct m_mount *m, struct m_group *g, struct m_mount *after)
{
	m->group = g;
	g->members++;
	if (after && after->group == g && after->peer_next) {
		m->peer_prev = after;
		m->peer_next = after->peer_next;
		after->peer_next->peer_prev = m;
		after->peer_next = m;
	} else {
		m->peer_next = m->peer_prev = m;
	}
}

void m_join_after(struct m_mount *m, struct m_mount *after)
{
	join(m, after->group, after);
}

static void unring(struct m_mount *m)
{
	if (m->peer_next) {
		m->peer_next->peer_prev = m->peer_prev;
		m->peer_prev->peer_next = m->peer_next;
	}
	m->peer_next = m->peer_prev = NULL;
}

/* m leaves its group. The last one out takes the group with it: its
 * slaves become slaves of the group's own master, or stop being slaves
 * when it had none (sharedsubtree.rst 3 and 5f; mount_namespaces(7),
 * MS_PRIVATE: "the slaves ... are promoted" to its master). */
static void leave_group(struct m_world *w, struct m_mount *m)
{
	struct m_group *g = m->group;

	if (!g)
		return;
	m->group = NULL;
	unring(m);
	if (--g->members)
		return;
	for (size_t i = 0; i < w->nmounts; i++)
		if (w->mounts[i]->master == g)
			w->mounts[i]->master = m->master;
	for (size_t i = 0; i < w->ngroups; i++)
		if (w->groups[i]->master == g)
			w->groups[i]->master = m->master;
	m_gid_release(w, g->id);
	g->id = 0;
}

/* ---- slave lists (the kernel's mnt_slave_list), for order ---------- */

/* The live slaves of m in their list's order, into *out (heap). */
static size_t slaves_of(const struct m_world *w, const struct m_mount *m, struct m_mount ***out)
{
	struct m_mount **v = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < w->nmounts; i++) {
		struct m_mount *s = w->mounts[i];
		void *p = v;
		size_t k;
		if (s->dead || s->master_mnt != m)
			continue;
		ns_grow(&p, &cap, n + 1, sizeof(*v));
		v = p;
		/* insertion by key: lists are short */
		for (k = n; k > 0 && v[k - 1]->slave_key > s->slave_key; k--)
			v[k] = v[k - 1];
		v[k] = s;
		n++;
	}
	*out = v;
	return n;
}

/* s becomes a slave of m: first in m's list (list_add()), or last
 * (list_splice() at the tail). */
static void slave_to(const struct m_world *w, struct m_mount *s, struct m_mount *m, bool last)
{
	struct m_mount **v;
	size_t n = slaves_of(w, m, &v);
	double k = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i] != s && (last ? v[i]->slave_key >= k : v[i]->slave_key <= k))
			k = v[i]->slave_key;
	free(v);
	s->master_mnt = m;
	s->slave_key = n ? (last ? k + 1 : k - 1) : 0;
}

/* c, a copy of the slave old, goes right after old in its master's list
 * (clone_mnt(): list_add(&mnt->mnt_slave, &old->mnt_slave)). */
static void slave_after(const struct m_world *w, struct m_mount *c, struct m_mount *old)
{
	struct m_mount **v;
	size_t n = slaves_of(w, old->master_mnt, &v);
	double next = old->slave_key + 2;

	for (size_t i = 0; i < n; i++)
		if (v[i] != c && v[i]->slave_key > old->slave_key && v[i]->slave_key < next)
			next = v[i]->slave_key;
	free(v);
	c->master_mnt = old->master_mnt;
	c->slave_key = (old->slave_key + next) / 2;
}

void m_slave_after(const struct m_world *w, struct m_mount *c, struct m_mount *old)
{
	if (old->master_mnt)
		slave_after(w, c, old);
}

/* What a mount that stops propagating leaves in the slave lists (the
 * kernel's mnt_slave_list, whose order is the order next_group() sends
 * events down, see propagate()). Derived from fs/pnode.c:
 *
 * From 6.17 (Al Viro's series of June 2025, "do_make_slave(): choose new
 * master sanely" and "turn mnt_slave_list into hlist"),
 * change_mnt_propagation() takes as m's new master its next peer,
 * next_peer(m), the one after it in the ring (mnt_share), whatever its
 * root; with no peer, the master m had. transfer_propagation() hands m's
 * own slaves to that master with hlist_splice_init() at the head of its
 * list, in their order, and with MS_SLAVE m itself goes first
 * (hlist_add_head()): the new master's list becomes m, m's slaves, then
 * the slaves it had. With no master m's slaves are slaves no more.
 *
 * Up to 6.16 (quirk make-slave-same-root) do_make_slave() took the first
 * peer from next_peer(m) on with m's root dentry, else next_peer(m); m
 * went first (list_move()) but its slaves at the tail (list_splice() at
 * mnt_slave_list.prev): m, the slaves the master had, then m's.
 *
 * Both move a mount that is a slave already to the head of its master's
 * list on MS_SLAVE. Call it while m is still in its ring. */
static void make_slave_lists(struct m_world *w, struct m_mount *m)
{
	bool same_root = w->quirks & (1u << M_QUIRK_MAKE_SLAVE_SAME_ROOT);
	struct m_mount *master = NULL, **v;
	size_t n;

	if (m->group && m->peer_next && m->peer_next != m) {
		master = m->peer_next;
		for (struct m_mount *p = m->peer_next; same_root && p != m; p = p->peer_next)
			if (p->root == m->root) {
				master = p;
				break;
			}
	} else {
		master = m->master_mnt;
	}
	n = slaves_of(w, m, &v);
	if (!master) {
		for (size_t i = 0; i < n; i++)
			v[i]->master_mnt = NULL;
	} else if (same_root) {
		for (size_t i = 0; i < n; i++)
			slave_to(w, v[i], master, true);
	} else {
		/* each to the head, the last first: they keep their order */
		for (size_t i = n; i-- > 0;)
			slave_to(w, v[i], master, false);
	}
	free(v);
	if (master)
		slave_to(w, m, master, false);
}

void m_set_shared(struct m_world *w, struct m_mount *m)
{
	if (!m->group)
		join(m, m_group_new(w, m->master), NULL);
	m->unbindable = false;
}

/* mount_namespaces(7) and sharedsubtree.rst 2 for each type. MS_SLAVE on
 * a shared mount with peers makes it a slave of its group; with no peers
 * it keeps whatever master it had (or none: private). On anything not
 * shared MS_SLAVE changes nothing, unbindable included (the kernel's
 * change_mnt_propagation() keeps the flag), but the place of a slave in
 * its master's list: it goes first (make_slave_lists()). */
void m_change_type(struct m_world *w, struct m_mount *m, unsigned long type)
{
	if (type == MS_SHARED) {
		m_set_shared(w, m);
		return;
	}
	make_slave_lists(w, m);
	if (type != MS_SLAVE)
		m->master_mnt = NULL;
	if (m->group) {
		struct m_group *g = m->group;
		bool peers = g->members > 1;

		leave_group(w, m);
		if (peers)
			m->master = g;
	}
	if (type == MS_SLAVE)
		return;
	m->master = NULL;
	m->unbindable = type == MS_UNBINDABLE;
}

/* A mount that goes (umount, a namespace dropped) leaves its lists as
 * MS_PRIVATE would, one mount at a time, by the rule of 6.17's
 * change_mnt_propagation() (make_slave_lists()). Not imitated: 6.17
 * hands the slaves of a mount to a peer or master that goes in the same
 * umount only if nothing else is left (propagation_source()), and 6.18
 * moves every slave of the mounts that go at once (bulk_make_private()),
 * so after an umount of several peers the slaves may come in another
 * order. */
void m_leave_propagation(struct m_world *w, struct m_mount *m)
{
	make_slave_lists(w, m);
	m->master_mnt = NULL;
	leave_group(w, m);
	m->master = NULL;
}

/* ---- copies ---------------------------------------------------------- */

static unsigned lockable(unsigned flags)
{
	return (flags & (M_RDONLY | M_NOSUID | M_NODEV | M_NOEXEC)) | M_LOCK_ATIME;
}

/* One mount copied as clone_mnt() does for the flags (see enum m_clone). */
static struct m_mount *clone_one(struct m_world *w, struct m_mount *old,
				 struct m_node *root, unsigned flags)
{
	struct m_mount *c = m_mount_new(w, old->sb, root);

	c->flags = old->flags;
	c->idmap = old->idmap;
	c->locked_flags = old->locked_flags;
	c->unbindable = old->unbindable;
	c->locked = old->locked;
	if ((flags & M_CL_SLAVE) || ((flags & M_CL_SHARED_TO_SLAVE) && old->group)) {
		c->master = old->group ? old->group : old->master;
		slave_to(w, c, old, false);
	} else if (!(flags & M_CL_PRIVATE)) {
		if (old->group)
			join(c, old->group, old);
		c->master = old->master;
		if (old->master_mnt)
			slave_after(w, c, old);
	}
	if ((flags & M_CL_MAKE_SHARED) && !c->group)
		join(c, m_group_new(w, c->master), NULL);
	if (flags & M_CL_LOCK) {
		if (w->broken != M_BREAK_USERNS_RECEIPT_UNLOCKED)
			c->locked = true;
		c->locked_flags |= lockable(c->flags);
	}
	return c;
}

struct m_mount *m_copy_tree(struct m_world *w, struct m_mount *src, struct m_node *root,
			    unsigned flags, bool recursive, int *err)
{
	struct m_mount *top = clone_one(w, src, root, flags);

	*err = 0;
	src->copy = top;
	if (!recursive)
		return top;
	for (struct m_mount *s = m_next(src, src); s; ) {
		struct m_mount *pc = s->parent->copy;
		bool skip = !pc || (s->parent == src && !m_node_under(s->mp, root));

		if (!skip && s->unbindable && !(flags & M_CL_COPY_UNBINDABLE)) {
			if (s->locked) {
				/* unbindable and locked: the copy would reveal
				 * what it covers (the kernel's copy_tree()) */
				*err = EPERM;
				return top;
			}
			skip = true;
		}
		if (skip) {
			/* the whole subtree stays behind */
			struct m_mount *after = s;
			s->copy = NULL;
			while (after != src && !after->sib)
				after = after->parent;
			s = after == src ? NULL : after->sib;
			continue;
		}
		s->copy = clone_one(w, s, s->root, flags);
		add_kid(pc, s->copy, s->mp);
		s = m_next(s, src);
	}
	return top;
}

/* ---- propagation of a new tree (sharedsubtree.rst 5b-5e) ---------- */

struct receipt {
	struct m_mount *at;         /* the receiving mount */
	struct m_mount *copy;       /* the copy made for it */
	const char *how;
};

struct receipts {
	struct receipt *v;
	size_t n, cap;
};

static void receive(struct receipts *r, struct m_mount *at, struct m_mount *copy, const char *how)
{
	void *v = r->v;

	ns_grow(&v, &r->cap, r->n + 1, sizeof(*r->v));
	r->v = v;
	r->v[r->n++] = (struct receipt){ at, copy, how };
}

/* Can m receive at d: a live mount of a real namespace whose root holds d
 * ("if the mountpoint is not visible in a receiver, it gets nothing":
 * the kernel's propagate_one(); sharedsubtree.rst is silent). */
static bool can_receive(const struct m_mount *m, const struct m_node *d)
{
	return !m->dead && m->ns && !m->ns->anon && m_node_under(d, m->root);
}

void m_discard(struct m_world *w, struct m_mount *t)
{
	for (struct m_mount *m = t; m; m = m_next(m, t)) {
		m_leave_propagation(w, m);
		if (m->ns)
			m->ns->mounts--;
		m->ns = NULL;
		m->dead = true;
		if (!m->refs)
			m_id_release(w, m->id);
	}
}

/* A group seen once in a walk over the propagation tree. */
struct seen {
	struct m_group **v;
	size_t n, cap;
};

static bool see(struct seen *s, struct m_group *g)
{
	void *v = s->v;

	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] == g)
			return false;
	ns_grow(&v, &s->cap, s->n + 1, sizeof(*s->v));
	s->v = v;
	s->v[s->n++] = g;
	return true;
}

/* The copies of t that P's propagation tree receives at d, one per
 * receiving mount:
 * - each peer of P gets a copy whose mounts are peers of t's (5b, case 1:
 *   "the peer-group of C is merged with the peer group of A"; 5b);
 * - each slave of P's group gets a copy that is a slave of the copy (or
 *   of t) on the master side; the receivers of one shared slave group
 *   get copies that are peers of each other, so the new propagation tree
 *   mirrors P's (5b: "identical to the propagation tree of B");
 * and so on down every slave group, in any namespace. */
struct mlist {
	struct m_mount **v;
	size_t n, cap;
};

static void mlist_push(struct mlist *l, struct m_mount *m)
{
	void *v = l->v;

	ns_grow(&v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v = v;
	l->v[l->n++] = m;
}

/* The slaves propagation reaches from m's ring, in the order the kernel's
 * next_group() gives them: for each peer from m on, its slaves in list
 * order, each followed by what its own ring reaches. A slave that is a
 * peer of one already listed is not listed again. */
static void slave_order(const struct m_world *w, struct m_mount *m, struct seen *grouped,
			struct mlist *out)
{
	struct m_mount *p = m;

	do {
		struct m_mount **v;
		size_t n = slaves_of(w, p, &v);
		for (size_t i = 0; i < n; i++) {
			struct m_mount *sl = v[i];
			bool shared = sl->group && !sl->group->fresh;
			if (shared && !see(grouped, sl->group))
				continue;
			mlist_push(out, sl);
			slave_order(w, sl, grouped, out);
		}
		free(v);
		p = p->group && p->peer_next ? p->peer_next : m;
	} while (p != m);
}

/* Did r receive a copy already? */
static bool received(const struct receipts *out, const struct m_mount *r)
{
	for (size_t i = 0; i < out->n; i++)
		if (out->v[i].at == r)
			return true;
	return false;
}

struct queued {
	struct m_group *g;
	struct m_mount *src;
};

/* The copy sl's master group received (or the tree itself), or NULL when
 * that group was sent nothing yet. */
static struct m_mount *source_for(const struct queued *q, size_t nq, const struct m_group *g)
{
	for (size_t i = 0; i < nq; i++)
		if (q[i].g == g)
			return q[i].src;
	return NULL;
}

/* The slave sl receives from its master group: a slave with no peers a
 * slave copy of what that group received; a shared slave's whole group,
 * from sl around its ring, copies that are peers of each other, the
 * first a slave of that copy and each next made from the one before;
 * the group is then queued with its first copy for its own slaves. */
static void slave_receive(struct m_world *w, struct m_mount *sl, struct m_node *d,
			  struct queued **q, size_t *nq, size_t *qcap, struct seen *seen,
			  struct receipts *out)
{
	struct m_mount *src = source_for(*q, *nq, sl->master), *first = NULL, *last = NULL;
	int err;

	if (!src)
		return;         /* its master group comes later, breadth first */
	/* a receiver is judged as it was before the event: a mount of the
	 * tree being attached (a slave moved under its own master's group)
	 * is no peer group yet */
	if (!sl->group || sl->group->fresh) {
		if (can_receive(sl, d) && !received(out, sl))
			receive(out, sl, m_copy_tree(w, src, src->root, M_CL_SLAVE, true, &err),
				"a slave of a group that received the event (sharedsubtree.rst 2b, 5b: a slave receives from its master; the copy is a slave of the master's copy)");
		return;
	}
	if (!see(seen, sl->group))
		return;
	{
		struct m_mount *r = sl;
		do {
			struct m_mount *c;
			if (can_receive(r, d)) {
				c = last ? m_copy_tree(w, last, last->root, M_CL_MAKE_SHARED, true, &err)
					 : m_copy_tree(w, src, src->root, M_CL_SLAVE | M_CL_MAKE_SHARED, true, &err);
				if (!first)
					first = c;
				if (c)
					last = c;
				receive(out, r, c, "a shared slave that received the event from its master (sharedsubtree.rst 5b, case 3: the copies form a peer group that is a slave of the master's copy)");
			}
			r = r->peer_next ? r->peer_next : sl;
		} while (r != sl);
	}
	{
		void *v = *q;
		ns_grow(&v, qcap, *nq + 1, sizeof(**q));
		*q = v;
		(*q)[*nq].g = sl->group;
		(*q)[(*nq)++].src = first ? first : src;
	}
}

static void propagate(struct m_world *w, struct m_mount *P, struct m_node *d,
		      struct m_mount *t, struct receipts *out)
{
	struct queued *q = NULL;
	size_t nq = 0, qcap = 0;
	struct seen seen = { 0 };
	int err;

	/* the peers in the ring's order from the one after P, each copy made
	 * from the one before it (propagate_one()'s last_source), so copies
	 * are made, and listed, in the kernel's order */
	for (struct m_mount *r = P->group ? P->peer_next : NULL, *last = t; r && r != P;
	     r = r->peer_next) {
		struct m_mount *c;
		if (!can_receive(r, d))
			continue;
		c = m_copy_tree(w, last, last->root, M_CL_MAKE_SHARED, true, &err);
		receive(out, r, c,
			"a peer of the mount it was made on (sharedsubtree.rst 5b-5e: an event on a shared mount reaches every peer)");
		if (c)
			last = c;
	}
	if (w->broken == M_BREAK_SLAVES_RECEIVE_NOTHING)
		return;
	see(&seen, P->group);
	{
		void *v = q;
		ns_grow(&v, &qcap, 1, sizeof(*q));
		q = v;
		q[nq].g = P->group;
		q[nq++].src = t;
	}
	/* the slaves in the kernel's order (next_group()): the groups the
	 * lists of slaves reach, depth first from P's ring; each group is
	 * sent what its master group received, as below */
	{
		struct mlist order = { NULL, 0, 0 };
		struct seen grouped = { 0 };
		see(&grouped, P->group);
		slave_order(w, P, &grouped, &order);
		for (size_t k = 0; k < order.n; k++)
			slave_receive(w, order.v[k], d, &q, &nq, &qcap, &seen, out);
		free(order.v);
		free(grouped.v);
	}
	/* and those the lists did not reach, by their groups, breadth first */
	for (size_t qi = 0; qi < nq; qi++) {
		struct m_group *x = q[qi].g;

		for (size_t i = 0; i < w->nmounts; i++) {
			struct m_mount *sl = w->mounts[i];
			if (!sl->dead && sl->master == x && !received(out, sl))
				slave_receive(w, sl, d, &q, &nq, &qcap, &seen, out);
		}
	}
	free(q);
	free(seen.v);
}

bool m_is_local_mountpoint(const struct m_world *w, const struct m_ns *ns, const struct m_node *d)
{
	for (size_t i = 0; i < w->nmounts; i++) {
		const struct m_mount *m = w->mounts[i];
		if (!m->dead && m->parent && m->mp == d && m->ns == ns)
			return true;
	}
	return false;
}

void m_detach_mounts_on(struct m_world *w, const struct m_node *d)
{
	for (size_t i = 0; i < w->nmounts; i++) {
		struct m_mount *m = w->mounts[i];
		if (m->dead || !m->parent || m->mp != d)
			continue;
		m_event(w, "mount %u goes: the directory it was on was removed (the kernel's detach_mounts())", m->id);
		m_detach(m);
		m_discard(w, m);
	}
}

void m_list_append(struct m_world *w, struct m_mount *t)
{
	for (struct m_mount *m = t; m; m = m_next(m, t))
		m->list_seq = ++w->list_seq;
}

void m_detach(struct m_mount *t)
{
	remove_kid(t);
	set_ns(t, NULL);
}

void m_pivot(struct m_world *w, struct m_mount *new_root, struct m_mount *old_root,
	     struct m_path old_at)
{
	struct m_mount *root_parent = old_root->parent;
	struct m_node *root_mp = old_root->mp;

	remove_kid(new_root);
	remove_kid(old_root);
	if (old_root->locked) {
		new_root->locked = true;
		old_root->locked = false;
	}
	add_kid(old_at.mnt, old_root, old_at.d);
	add_kid(root_parent, new_root, root_mp);
	m_why(w, old_root, "put under the new root by pivot_root (pivot_root(2): put_old)");
	m_why(w, new_root, "made the root by pivot_root (pivot_root(2): new_root)");
}

int m_attach(struct m_world *w, struct m_mount *t, struct m_path at, bool moving,
	     const char *what)
{
	struct m_mount *P = at.mnt;
	struct receipts r = { 0 };
	size_t n = tree_size(t), extra = 0;
	int ret = 0;
	bool same_ns;

	/* a removed directory cannot be mounted on (the kernel's
	 * cant_mount() in lock_mount()) */
	if (at.d->gone)
		return -ENOENT;
	if (P->group) {
		/* a tree attached under a shared mount becomes shared, each
		 * mount in a new group unless it is in one (5b, 5d) */
		for (struct m_mount *m = t; m; m = m_next(m, t))
			if (!m->group) {
				m_set_shared(w, m);
				m->group->fresh = true;
			}
		propagate(w, P, at.d, t, &r);
		for (struct m_mount *m = t; m; m = m_next(m, t))
			m->group->fresh = false;
	}
	for (size_t i = 0; i < r.n; i++)
		extra += tree_size(r.v[i].copy);
	if ((!moving || t->ns != P->ns) && P->ns->mounts + n + extra > M_MOUNT_MAX)
		ret = -ENOSPC;
	if (ret < 0) {
		for (size_t i = 0; i < r.n; i++)
			m_discard(w, r.v[i].copy);
		free(r.v);
		return ret;
	}
	/* a move within the namespace keeps the tree's place in its list;
	 * a tree that enters it goes at the end (before 6.8) */
	same_ns = moving && t->ns == P->ns;
	if (moving)
		m_detach(t);
	add_kid(P, t, at.d);
	set_ns(t, P->ns);
	if (!same_ns)
		m_list_append(w, t);
	m_why(w, t, "%s", what);
	for (size_t i = 0; i < r.n; i++) {
		struct m_mount *c = r.v[i].copy, *at_mnt = r.v[i].at;
		struct m_mount *under = m_child_at(at_mnt, at.d);
		/* a copy that goes under a locked mount hides what that one
		 * hid: it is locked too, from 7.2.11 (and 7.3) with the mount
		 * on top still locked; 7.1.3 to 7.2.9 unlocked the mount on
		 * top, and kernels before 7.1.3 left the copy unlocked
		 * (attach_recursive_mnt(); quirks copy-under-lock-takes-lock,
		 * copy-under-lock-unlocked) */
		bool lock_copy = under && under->locked &&
				 !(w->quirks & (1u << M_QUIRK_COPY_UNDER_LOCK_UNLOCKED));

		add_kid(at_mnt, c, at.d);
		if (under) {
			/* a mount already there goes on top of the copy, and
			 * of whatever the copy brings on its own root (the
			 * kernel's attach_recursive_mnt(); the documents are
			 * silent) */
			struct m_mount *top = c, *k;
			while ((k = m_child_at(top, top->root)))
				top = k;
			remove_kid(under);
			add_kid(top, under, top->root);
			/* the kernel's mnt_change_mountpoint() there: no
			 * mount notification (mount-notify_test.c,
			 * propagate: one event a new mount) */
			if (!under->tucked) {
				void *v = w->tucked;

				ns_grow(&v, &w->tucked_cap, w->ntucked + 1, sizeof(*w->tucked));
				w->tucked = v;
				w->tucked[w->ntucked++] = under;
				under->tucked = true;
			}
		}
		set_ns(c, at_mnt->ns);
		if (at_mnt->ns->owner != P->ns->owner) {
			/* received across user namespaces: what it brings
			 * is locked there, its top excepted
			 * (mount_namespaces(7), "restrictions") */
			for (struct m_mount *m = c; m; m = m_next(m, c)) {
				if (w->broken != M_BREAK_USERNS_RECEIPT_UNLOCKED)
					m->locked = true;
				m->locked_flags |= lockable(m->flags);
			}
			c->locked = false;
		}
		for (struct m_mount *m = c; m; m = m_next(m, c))
			m_why(w, m, "propagated from mount %u's event to mount %u, %s", P->id, at_mnt->id,
			      r.v[i].how);
		if (lock_copy) {
			bool take = w->quirks & (1u << M_QUIRK_COPY_UNDER_LOCK_TAKES_LOCK);

			c->locked = true;
			if (take)
				under->locked = false;
			m_why(w, c, take ? "%s; it took the lock of mount %u, which went on top of it"
					 : "%s; locked, as mount %u is, which went on top of it",
			      c->why ? c->why : "", under->id);
		}
	}
	/* before 6.8 (quirk mountinfo-attach-order) the copies enter their
	 * namespaces' lists after the tree, the last made first: the
	 * kernel's propagate_mnt() puts each on tree_list with
	 * hlist_add_head(), and attach_recursive_mnt() commits them
	 * (commit_tree()) in that list's order */
	for (size_t i = r.n; i-- > 0;)
		m_list_append(w, r.v[i].copy);
	free(r.v);
	return 0;
}

/* ---- umount (sharedsubtree.rst 5f, propagate_umount.txt) -------------- */

/* Every mount that receives events from m: its peers, the slaves of its
 * group, their peers and slaves, in any namespace. */
static void receivers(struct m_world *w, struct m_mount *m, struct m_mount ***out, size_t *n)
{
	struct seen seen = { 0 };
	size_t cap = 0;
	void *v = NULL;

	*n = 0;
	if (!m->group)
		goto done;
	see(&seen, m->group);
	for (size_t gi = 0; gi < seen.n; gi++) {
		struct m_group *g = seen.v[gi];
		for (size_t i = 0; i < w->nmounts; i++) {
			struct m_mount *r = w->mounts[i];
			if (r->dead || !r->ns)
				continue;
			if (r->group == g && r != m) {
				ns_grow(&v, &cap, *n + 1, sizeof(*out));
				((struct m_mount **)v)[(*n)++] = r;
			} else if (r->master == g &&
				   !(w->broken == M_BREAK_SLAVES_RECEIVE_NOTHING)) {
				if (r->group)
					see(&seen, r->group);
				else {
					ns_grow(&v, &cap, *n + 1, sizeof(*out));
					((struct m_mount **)v)[(*n)++] = r;
				}
			}
		}
	}
done:
	*out = v;
	free(seen.v);
}

/* Is something that stays going to end up strictly inside c? A survivor
 * mounted strictly inside it, or one at the top of a stack of removed
 * mounts that starts strictly inside it: it would be reparented there
 * ("Maximal non-shifting subsets"). Mounts covering c's root do not count:
 * they go down to where c was. */
static bool pinned(const struct m_world *w, const struct m_mount *c, unsigned in)
{
	for (const struct m_mount *k = c->kids; k; k = k->sib) {
		if (k->mp == c->root)
			continue;
		if (k->mark != in)
			return true;
		if (w->quirks & (1u << M_QUIRK_UMOUNT_SHIFTS))
			continue;
		for (const struct m_mount *s = k; s; ) {
			const struct m_mount *up = m_child_at(s, s->root);
			if (!up)
				break;
			if (up->mark != in)
				return true;
			s = up;
		}
	}
	return false;
}

/* Is c's only submount one that covers its root? */
static bool only_overmounted(const struct m_mount *c)
{
	return c->kids && !c->kids->sib && c->kids->mp == c->root;
}

/* A busy umount changes nothing: the marks go, and the cognates unlocked
 * for the trial are locked again. */
static int umount_busy(struct m_mount **set, size_t nset, struct m_mount **cand, bool *relock,
		       size_t ncand)
{
	for (size_t k = 0; k < nset; k++)
		set[k]->mark = 0;
	for (size_t i = 0; i < ncand; i++)
		if (relock[i])
			cand[i]->locked = true;
	free(set);
	free(cand);
	free(relock);
	return -EBUSY;
}

int m_umount(struct m_world *w, struct m_mount *m, bool lazy)
{
	unsigned in = m_new_mark(w);
	struct m_mount **set = NULL, **cand = NULL;
	bool *relock = NULL;
	size_t nset = 0, setcap = 0, ncand = 0, candcap = 0, relockcap = 0, nu;
	struct ns_buf b = NS_BUF_INIT;
	bool changed;
	void *v;

	if (!lazy && (m->kids || m->refs))
		return -EBUSY;
	/* U: the mount, and with -l everything under it */
	for (struct m_mount *x = m; x; x = lazy ? m_next(x, m) : NULL) {
		v = set;
		ns_grow(&v, &setcap, nset + 1, sizeof(*set));
		set = v;
		set[nset++] = x;
		x->mark = in;
	}
	nu = nset;
	/* candidates: on every receiver of a removed mount's parent, what
	 * sits at the same place ("Finding candidates") */
	for (size_t i = 0; i < nset; i++) {
		struct m_mount *x = set[i], **rv;
		size_t nr;

		if (!x->parent)
			continue;
		receivers(w, x->parent, &rv, &nr);
		for (size_t j = 0; j < nr; j++) {
			struct m_mount *c = m_child_at(rv[j], x->mp);
			if (!c || c->mark == in)
				continue;
			c->mark = in;
			v = cand;
			ns_grow(&v, &candcap, ncand + 1, sizeof(*cand));
			cand = v;
			/* what sits where the named mount sat may be shown:
			 * unmounting it proves that safe, so its cognates are
			 * unlocked (the kernel's propagate_mount_unlock()),
			 * once the umount is known not to be busy */
			v = relock;
			ns_grow(&v, &relockcap, ncand + 1, sizeof(*relock));
			relock = v;
			relock[ncand] = x == m;
			cand[ncand++] = c;
			/* it joins the set, and so do the candidates its
			 * own submounts' copies make */
			v = set;
			ns_grow(&v, &setcap, nset + 1, sizeof(*set));
			set = v;
			set[nset++] = c;
		}
		free(rv);
	}
	for (size_t i = 0; i < ncand; i++)
		relock[i] = relock[i] && cand[i]->locked;
	/* kernels with umount-busy-skips-chains look, before anything
	 * else, at the copies without submounts or whose only submount
	 * covers their root (propagate_mount_busy() before 6.12.117 and
	 * 7.2.11, 6.18's included) */
	if (!lazy && (w->quirks & (1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS)) &&
	    w->broken != M_BREAK_BUSY_CANDIDATE_NOT_EBUSY)
		for (size_t i = 0; i < ncand; i++)
			if ((!cand[i]->kids || only_overmounted(cand[i])) && cand[i]->refs)
				return umount_busy(set, nset, cand, relock, ncand);
	for (size_t i = 0; i < ncand; i++)
		if (relock[i])
			cand[i]->locked = false;
	/* drop candidates that something staying would end up inside */
	do {
		changed = false;
		for (size_t i = 0; i < ncand; i++)
			if (cand[i]->mark == in &&
			    (pinned(w, cand[i], in) ||
			     /* the set must be non-revealing: a locked mount
			      * goes only with its parent (propagate_umount.txt;
			      * mount_namespaces(7), locked mounts) */
			     (cand[i]->locked && cand[i]->parent && cand[i]->parent->mark != in))) {
				cand[i]->mark = 0;
				changed = true;
			}
	} while (changed);
	/* a copy that goes is in use: EBUSY (umount(2)), the named mount
	 * being only the first of what goes. A copy whose submounts all go
	 * with it counts, as one whose only submount covers its root does
	 * (the kernel's propagate_mount_busy() from 6.12.117 and 7.2.11:
	 * chain_busy() follows each chain of copies as propagate_umount()
	 * trims it) */
	if (!lazy && !(w->quirks & (1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS)) &&
	    w->broken != M_BREAK_BUSY_CANDIDATE_NOT_EBUSY)
		for (size_t i = 0; i < ncand; i++)
			if (cand[i]->mark == in && cand[i]->refs)
				return umount_busy(set, nset, cand, relock, ncand);
	/* what stays on top of a removed mount's root goes down to where the
	 * bottom of its stack is attached to a mount that stays
	 * ("Reparenting") */
	for (size_t i = 0; i < nset; i++) {
		struct m_mount *x = set[i], *k, *next;

		if (x->mark != in)
			continue;
		for (k = x->kids; k; k = next) {
			struct m_mount *p = x->parent;
			struct m_node *mp = x->mp;

			next = k->sib;
			if (k->mark == in)
				continue;
			/* kernels with umount-shifts-stacks move it down
			 * out of any removed mount, shifting it */
			while (p && p->mark == in &&
			       (mp == p->root || (w->quirks & (1u << M_QUIRK_UMOUNT_SHIFTS)))) {
				mp = p->mp;
				p = p->parent;
			}
			if (!p || p->mark == in)
				continue; /* it goes with the detached tree */
			remove_kid(k);
			add_kid(p, k, mp);
			m_event(w, "mount %u moves down to where mount %u was (propagate_umount.txt, Reparenting)",
				k->id, x->id);
		}
	}
	for (size_t i = 0; i < nset; i++) {
		struct m_mount *x = set[i];

		if (x->mark != in)
			continue;
		if (w->trace) {
			ns_buf_reset(&b);
			m_mount_where(x, &b);
			m_event(w, "mount %u on %s (%s) goes: %s", x->id, ns_buf_str(&b), x->sb->source,
				x == m ? "the mount named" :
				i < nu ? "it is under the mount named (umount -l takes the whole tree)" :
				"at the same place on a mount that receives from the removed mount's parent (sharedsubtree.rst 5f)");
		}
		/* out of its parent; inside a removed tree it stays connected
		 * only if locked to it (the kernel's disconnect_mount(): the
		 * documents are silent), so a shell left in a detached mount
		 * sees the directories below, not the submounts */
		if (!x->parent || x->parent->mark != in || !x->locked)
			remove_kid(x);
		m_leave_propagation(w, x);
		if (x->ns)
			x->ns->mounts--;
		x->ns = NULL;
		x->dead = true;
		if (!x->refs)
			m_id_release(w, x->id);
	}
	for (size_t i = 0; i < nset; i++)
		set[i]->mark = 0;
	ns_buf_free(&b);
	free(set);
	free(cand);
	free(relock);
	return 0;
}

void m_ns_drop(struct m_world *w, struct m_ns *ns)
{
	for (size_t i = 0; i < w->nmounts; i++) {
		struct m_mount *x = w->mounts[i];
		if (x->dead || x->ns != ns)
			continue;
		m_leave_propagation(w, x);
		x->ns = NULL;
		x->dead = true;
		if (!x->refs)
			m_id_release(w, x->id);
	}
	ns->mounts = 0;
	ns->root = NULL;
}

struct m_ns *m_ns_copy(struct m_world *w, struct m_ns *old, struct m_userns *owner)
{
	struct m_ns *ns = m_ns_new(w, owner);
	unsigned flags = M_CL_COPY_UNBINDABLE;
	bool less = owner != old->owner;
	int err;

	if (less)
		flags |= M_CL_SHARED_TO_SLAVE | M_CL_LOCK;
	ns->root = m_copy_tree(w, old->root, old->root->root, flags, true, &err);
	set_ns(ns->root, ns);
	m_list_append(w, ns->root);
	if (w->quirks & (1u << M_QUIRK_COPY_DROPS_UNBINDABLE))
		for (struct m_mount *m = ns->root; m; m = m_next(m, ns->root))
			m->unbindable = false;
	for (struct m_mount *m = ns->root; m; m = m_next(m, ns->root))
		m_why(w, m, "copied with the namespace (sharedsubtree.rst 5g: a copy keeps its propagation type%s)",
		      less ? "; into a less privileged namespace shared ones become slaves and all are locked, mount_namespaces(7)" : "");
	return ns;
}
