/* render.c - see model.h: a shell's view of its namespace as the mount
 * entries mountinfo lists, handed to the renderers every backend shares
 * (mounts/snapshot.h), so that the model's listings are printed by the
 * same code as the kernel's. */
#include "model/model.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include "commands/statmount.h"
#include "match/view.h"
#include "mounts/snapshot.h"

bool m_path_string(struct m_path p, struct m_path root, struct ns_buf *out)
{
	const struct m_node *v[256];
	size_t n = 0;

	while (!(p.mnt == root.mnt && p.d == root.d)) {
		if (p.d == p.mnt->root) {
			/* a mount's root: on to where it is mounted */
			if (!p.mnt->parent)
				return false;
			p.d = p.mnt->mp;
			p.mnt = p.mnt->parent;
			continue;
		}
		if (!p.d->parent || n == NS_ARRAY_SIZE(v))
			return false;
		v[n++] = p.d;
		p.d = p.d->parent;
	}
	if (!n)
		ns_buf_addc(out, '/');
	while (n--) {
		ns_buf_addc(out, '/');
		ns_buf_adds(out, v[n]->name);
	}
	return true;
}

void m_mount_where(const struct m_mount *m, struct ns_buf *out)
{
	const struct m_mount *top = m;
	struct m_path p = { (struct m_mount *)(uintptr_t)m, m->root }, root;

	while (top->parent && top->parent->parent)
		top = top->parent;
	if (!m->ns || !top->parent) {
		ns_buf_adds(out, m->ns && m == top ? "/" : "?");
		return;
	}
	root = (struct m_path){ (struct m_mount *)(uintptr_t)top, top->root };
	if (!m_path_string(p, root, out))
		ns_buf_adds(out, "?");
}

static bool reachable(struct m_mount *m, struct m_path root)
{
	struct m_path p = { m, m->root };
	struct ns_buf scratch = NS_BUF_INIT;
	bool r = m_path_string(p, root, &scratch);

	ns_buf_free(&scratch);
	return r;
}

/* The nearest group up the master chain with a member in ns that the
 * reader can see: mountinfo's propagate_from (proc(5); the kernel's
 * get_dominating_id()). 0 when there is none. */
static unsigned dominating(struct m_world *w, struct m_mount *m, struct m_path root)
{
	for (struct m_group *g = m->master; g; g = g->master)
		for (size_t i = 0; i < w->nmounts; i++) {
			struct m_mount *p = w->mounts[i];
			if (!p->dead && p->group == g && p->ns == m->ns && reachable(p, root))
				return g->id;
		}
	return 0;
}

static void vfs_options(unsigned f, bool idmapped, struct ns_buf *b)
{
	ns_buf_adds(b, f & M_RDONLY ? "ro" : "rw");
	if (f & M_NOSUID)
		ns_buf_adds(b, ",nosuid");
	if (f & M_NODEV)
		ns_buf_adds(b, ",nodev");
	if (f & M_NOEXEC)
		ns_buf_adds(b, ",noexec");
	if (f & M_NOATIME)
		ns_buf_adds(b, ",noatime");
	if (f & M_NODIRATIME)
		ns_buf_adds(b, ",nodiratime");
	if (f & M_RELATIME)
		ns_buf_adds(b, ",relatime");
	if (f & M_NOSYMFOLLOW)
		ns_buf_adds(b, ",nosymfollow");
	/* after the flags, as show_mnt_opts() prints it */
	if (idmapped)
		ns_buf_adds(b, ",idmapped");
}

/* mountinfo's optional fields of m, appended to b (which may hold
 * other text before them) */
static void fields(struct m_world *w, struct m_mount *m, struct m_path root, struct ns_buf *b)
{
	size_t start = b->len;

	if (m->group) {
		ns_buf_adds(b, "shared:");
		ns_buf_addu(b, m->group->id);
	}
	if (m->master) {
		unsigned dom = dominating(w, m, root);
		ns_buf_adds(b, b->len > start ? " master:" : "master:");
		ns_buf_addu(b, m->master->id);
		if (dom && dom != m->master->id) {
			ns_buf_adds(b, " propagate_from:");
			ns_buf_addu(b, dom);
		}
	}
	if (m->unbindable)
		ns_buf_adds(b, b->len > start ? " unbindable" : "unbindable");
}

/* statmount(2)'s mnt_attr: the mount's flags as MOUNT_ATTR_*, and
 * MOUNT_ATTR_IDMAP for an idmapped one (the kernel's mnt_to_attr_flags()) */
static unsigned long long attr_flags(unsigned f, bool idmapped)
{
	unsigned long long a = 0;

	if (f & M_RDONLY)
		a |= MOUNT_ATTR_RDONLY;
	if (f & M_NOSUID)
		a |= MOUNT_ATTR_NOSUID;
	if (f & M_NODEV)
		a |= MOUNT_ATTR_NODEV;
	if (f & M_NOEXEC)
		a |= MOUNT_ATTR_NOEXEC;
	if (f & M_NODIRATIME)
		a |= MOUNT_ATTR_NODIRATIME;
	if (f & M_NOSYMFOLLOW)
		a |= MOUNT_ATTR_NOSYMFOLLOW;
	if (f & M_NOATIME)
		a |= MOUNT_ATTR_NOATIME;
	else if (!(f & M_RELATIME))
		a |= MOUNT_ATTR_STRICTATIME;
	if (idmapped)
		a |= MOUNT_ATTR_IDMAP;
	return a;
}

void m_statmount(struct m_world *w, struct m_mount *m, struct m_path root,
		 struct ns_statmount_vals *v, struct ns_buf *root_s, struct ns_buf *point_s)
{
	m_node_path(m->root, root_s);
	if (!m_path_string((struct m_path){ m, m->root }, root, point_s))
		ns_buf_reset(point_s);
	*v = (struct ns_statmount_vals){
		.id = m->id,
		.parent = m->parent ? m->parent->id : m->id,
		.major = 0, .minor = m->sb->minor,
		.root = ns_buf_str(root_s), .point = ns_buf_str(point_s),
		.fstype = m->sb->fstype,
		.attr = attr_flags(m->flags, m->idmap),
		.propagation = (m->group ? MS_SHARED : 0) | (m->master ? MS_SLAVE : 0) |
			       (m->unbindable ? MS_UNBINDABLE : 0),
		.peer_group = m->group ? m->group->id : 0,
		.master = m->master ? m->master->id : 0,
		.propagate_from = m->master ? dominating(w, m, root) : 0,
		.ns_id = m->ns ? m->ns->id : 0,
		.unique_id = m->seq,
	};
	if (!v->propagation)
		v->propagation = MS_PRIVATE;
}

/* mountinfo's super options: the superblock's ro or rw and its sync,
 * dirsync and lazytime (the kernel's show_sb_opts()), then the
 * filesystem's own (its show_options()). */
static void super_options(const struct m_world *w, const struct m_sb *sb, struct ns_buf *b)
{
	ns_buf_adds(b, sb->rdonly ? "ro" : "rw");
	if (sb->ms_flags & MS_SYNCHRONOUS)
		ns_buf_adds(b, ",sync");
	if (sb->ms_flags & MS_DIRSYNC)
		ns_buf_adds(b, ",dirsync");
	if (sb->ms_flags & MS_LAZYTIME)
		ns_buf_adds(b, ",lazytime");
	m_fsopts_show(&sb->opts, w->ram_pages, b);
}

/* The strings of an entry, in one buffer of the table's, each ended by
 * a NUL: target, root, mount options, optional fields, super options. */
#define NTEXT 5

/* Before 6.8 the namespace kept its mounts in a list, a tree put at its
 * end when it entered (quirk mountinfo-attach-order); from 6.8 in a tree
 * sorted by the unique mount ID, which is creation order. */
static int by_list(const void *a, const void *b)
{
	const struct m_mount *x = *(struct m_mount *const *)a, *y = *(struct m_mount *const *)b;

	if (x->list_seq != y->list_seq)
		return x->list_seq < y->list_seq ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* A table's entries before the shared snapshot is made of them: their
 * strings in text, at[n * NTEXT + k] the offset of string k of entry n
 * (the pointers are set once the buffer is whole). */
struct entries {
	struct ns_mount_entry *v;
	size_t n, cap;
	struct ns_buf text;
	size_t *at, acap;
};

static void make_entries(struct m_world *w, struct m_ns *ns, struct m_path root,
			 struct entries *e)
{
	struct m_mount **order = w->mounts;

	*e = (struct entries){ .text = NS_BUF_INIT };
	if (w->quirks & (1u << M_QUIRK_MOUNTINFO_ATTACH_ORDER) && w->nmounts) {
		order = xcalloc(w->nmounts, sizeof(*order));
		memcpy(order, w->mounts, w->nmounts * sizeof(*order));
		qsort(order, w->nmounts, sizeof(*order), by_list);
	}
	for (size_t i = 0; i < w->nmounts; i++) {
		struct m_mount *m = order[i];
		struct m_path pos = { m, m->root };
		size_t *t, start = e->text.len;
		void *p = e->v;

		if (m->dead || m->ns != ns)
			continue;
		ns_grow(&p, &e->cap, e->n + 1, sizeof(*e->v));
		e->v = p;
		p = e->at;
		ns_grow(&p, &e->acap, (e->n + 1) * NTEXT, sizeof(*e->at));
		e->at = p;
		t = &e->at[e->n * NTEXT];
		t[0] = start;
		if (!m_path_string(pos, root, &e->text)) {
			/* not under the reader's root: not listed */
			ns_buf_truncate(&e->text, start);
			continue;
		}
		ns_buf_addc(&e->text, '\0');
		t[1] = e->text.len;
		m_node_path(m->root, &e->text);
		ns_buf_addc(&e->text, '\0');
		t[2] = e->text.len;
		vfs_options(m->flags, m->idmap, &e->text);
		ns_buf_addc(&e->text, '\0');
		t[3] = e->text.len;
		fields(w, m, root, &e->text);
		ns_buf_addc(&e->text, '\0');
		t[4] = e->text.len;
		super_options(w, m->sb, &e->text);
		ns_buf_addc(&e->text, '\0');
		e->v[e->n++] = (struct ns_mount_entry){
			.id = m->id,
			.parent = m->parent ? m->parent->id : m->id,
			.major = 0, .minor = m->sb->minor,
			.fstype = m->sb->fstype, .source = m->sb->source,
		};
	}
	if (order != w->mounts)
		free(order);
}

static int snapshot_of(struct entries *e, struct ns_snapshot **out)
{
	/* the buffer is whole now: its strings stay where they are */
	for (size_t i = 0; i < e->n; i++) {
		e->v[i].target = e->text.data + e->at[i * NTEXT];
		e->v[i].root = e->text.data + e->at[i * NTEXT + 1];
		e->v[i].vfs_options = e->text.data + e->at[i * NTEXT + 2];
		e->v[i].fields = e->text.data + e->at[i * NTEXT + 3];
		e->v[i].fs_options = e->text.data + e->at[i * NTEXT + 4];
	}
	return ns_snapshot_from_entries(e->v, e->n, out);
}

static void entries_free(struct entries *e)
{
	ns_buf_free(&e->text);
	free(e->at);
	free(e->v);
}

int m_render(struct m_world *w, struct m_ns *ns, struct m_path root, struct ns_snapshot **out)
{
	struct entries e;
	int r;

	make_entries(w, ns, root, &e);
	r = snapshot_of(&e, out);
	entries_free(&e);
	return r;
}

/* Everything of e the rendering reads, and how, as bytes to compare. */
static void entries_key(const struct entries *e, enum ns_render how, struct ns_buf *key)
{
	ns_buf_add(key, &how, sizeof(how));
	for (size_t i = 0; i < e->n; i++) {
		const struct ns_mount_entry *v = &e->v[i];
		ns_buf_add(key, &v->id, sizeof(v->id));
		ns_buf_add(key, &v->parent, sizeof(v->parent));
		ns_buf_add(key, &v->major, sizeof(v->major));
		ns_buf_add(key, &v->minor, sizeof(v->minor));
		ns_buf_add(key, v->fstype, strlen(v->fstype) + 1);
		ns_buf_add(key, v->source, strlen(v->source) + 1);
	}
	ns_buf_add(key, e->text.data ? e->text.data : "", e->text.len);
}

int m_render_text(struct m_world *w, struct m_ns *ns, struct m_path root, enum ns_render how,
		  struct ns_buf *out)
{
	struct ns_buf key = NS_BUF_INIT;
	struct ns_snapshot *snap;
	struct m_table_memo *t;
	struct entries e;
	size_t start = out->len;
	int r;

	make_entries(w, ns, root, &e);
	entries_key(&e, how, &key);
	for (size_t i = 0; i < NS_ARRAY_SIZE(w->tables) && !w->fresh_tables; i++) {
		t = &w->tables[i];
		if (t->key && t->klen == key.len && !memcmp(t->key, key.data, key.len) &&
		    (!out->max || out->len + t->tlen <= out->max)) {
			ns_buf_add(out, t->text, t->tlen);
			ns_buf_free(&key);
			entries_free(&e);
			return 0;
		}
	}
	r = snapshot_of(&e, &snap);
	entries_free(&e);
	if (r < 0) {
		ns_buf_free(&key);
		return r;
	}
	ns_snapshot_render(snap, how, out);
	ns_snapshot_free(snap);
	if (!out->cut && !w->fresh_tables) {
		/* the oldest of the slots takes it */
		t = &w->tables[w->next_table++ % NS_ARRAY_SIZE(w->tables)];
		free(t->key);
		free(t->text);
		t->klen = key.len;
		t->key = ns_buf_detach(&key);
		t->tlen = out->len - start;
		t->text = xmalloc(t->tlen + 1);
		memcpy(t->text, out->data ? out->data + start : "", t->tlen);
	}
	ns_buf_free(&key);
	return 0;
}

void m_alive(struct m_world *w, struct m_ns *ns, struct m_path root, struct ns_alive *a)
{
	ns_alive_free(a);
	a->known = true;
	for (size_t i = 0; i < w->nmounts; i++) {
		struct m_mount *m = w->mounts[i];
		unsigned dom;

		if (m->dead || m->ns != ns || !reachable(m, root))
			continue;
		/* what m_render's line for it shows, number by number */
		ns_alive_add(a, 0, (struct ns_key){ m->id, 0 });
		ns_alive_add(a, 0, (struct ns_key){ m->parent ? m->parent->id : m->id, 0 });
		ns_alive_add(a, 1, (struct ns_key){ 0, m->sb->minor });
		if (m->group)
			ns_alive_add(a, 2, (struct ns_key){ m->group->id, 0 });
		if (!m->master)
			continue;
		ns_alive_add(a, 2, (struct ns_key){ m->master->id, 0 });
		dom = dominating(w, m, root);
		if (dom)
			ns_alive_add(a, 2, (struct ns_key){ dom, 0 });
	}
}
