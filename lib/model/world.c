/* world.c - see model.h: allocation of the model's objects, their IDs,
 * and the directory trees of superblocks. Everything a world allocates is
 * listed in it and freed with it. */
#include "model/model.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The first mount ID handed out: the base below the scenario's root gets
 * it, so the root is 20 on 19 as in the documents' examples. The values
 * mean nothing; the matcher pairs numbers, not values. */
#define M_FIRST_ID 19

#define PUSH(w, arr, n, cap, x)                                         \
	do {                                                            \
		void *v_ = (w)->arr;                                    \
		ns_grow(&v_, &(w)->cap, (w)->n + 1, sizeof(*(w)->arr)); \
		(w)->arr = v_;                                          \
		(w)->arr[(w)->n++] = (x);                               \
	} while (0)

void m_world_init(struct m_world *w)
{
	memset(w, 0, sizeof(*w));
	w->next_minor = 40;
	w->next_ns = 1;
	w->ram_pages = m_ram_pages();
	w->events = (struct ns_lines)NS_LINES_INIT;
}

static void free_nodes(struct m_node *d)
{
	while (d) {
		struct m_node *next = d->next;
		free_nodes(d->kids);
		free(d->index);
		free(d->name);
		free(d->link);
		free(d->data);
		free(d);
		d = next;
	}
}

void m_world_free(struct m_world *w)
{
	free(w->tucked);
	for (size_t i = 0; i < w->nmounts; i++) {
		free(w->mounts[i]->why);
		free(w->mounts[i]);
	}
	for (size_t i = 0; i < w->nsbs; i++) {
		free_nodes(w->sbs[i]->root);
		free_nodes(w->sbs[i]->gone);
		free(w->sbs[i]->source);
		free(w->sbs[i]->fstype);
		free(w->sbs[i]);
	}
	for (size_t i = 0; i < w->ngroups; i++)
		free(w->groups[i]);
	for (size_t i = 0; i < w->nnss; i++)
		free(w->nss[i]);
	for (size_t i = 0; i < w->nusers; i++)
		free(w->users[i]);
	free(w->mounts);
	free(w->sbs);
	free(w->groups);
	free(w->nss);
	free(w->users);
	free(w->id_used);
	free(w->gid_used);
	ns_lines_free(&w->events);
	for (size_t i = 0; i < NS_ARRAY_SIZE(w->tables); i++) {
		free(w->tables[i].key);
		free(w->tables[i].text);
	}
	memset(w, 0, sizeof(*w));
}

/* The lowest free number from first, as the kernel's IDAs hand out mount
 * and peer-group IDs. */
static unsigned take_id(unsigned char **used, size_t *cap, unsigned first)
{
	unsigned i = first;

	while (i < *cap && (*used)[i])
		i++;
	if (i >= *cap) {
		size_t old = *cap, n = old ? old * 2 : 256;
		while (n <= i)
			n *= 2;
		*used = xrealloc(*used, n);
		memset(*used + old, 0, n - old);
		*cap = n;
	}
	(*used)[i] = 1;
	return i;
}

void m_id_release(struct m_world *w, unsigned id)
{
	if (id < w->id_cap)
		w->id_used[id] = 0;
}

void m_gid_release(struct m_world *w, unsigned id)
{
	if (id < w->gid_cap)
		w->gid_used[id] = 0;
}

/* ---- a directory's children by name ----
 *
 * The list in creation order stays what every walk reads (ls sorts what
 * it lists, as GNU ls does, so no output depends on the index). The
 * index is a table of the children by the hash of their names, with
 * linear probing, built once a directory has INDEX_MIN children and
 * grown to keep it at most half full; a removal shifts back the entries
 * after it, so no slot is ever a tombstone. */
#define INDEX_MIN 8

static size_t name_hash(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	return (size_t)(h ^ (h >> 29));
}

static void index_put(struct m_node *d, struct m_node *n)
{
	size_t mask = d->index_cap - 1, i = name_hash(n->name) & mask;

	while (d->index[i])
		i = (i + 1) & mask;
	d->index[i] = n;
}

/* Make the index hold every child, in a table for twice their number. */
static void index_build(struct m_node *d)
{
	size_t cap = 16;

	while (cap < 2 * (d->nkids + 1))
		cap *= 2;
	free(d->index);
	d->index = xcalloc(cap, sizeof(*d->index));
	d->index_cap = cap;
	for (struct m_node *k = d->kids; k; k = k->next)
		index_put(d, k);
}

static void index_add(struct m_node *d, struct m_node *n)
{
	if (d->index && 2 * d->nkids <= d->index_cap)
		index_put(d, n);
	else if (d->nkids >= INDEX_MIN)
		index_build(d); /* n is already on the list */
}

static void index_drop(struct m_node *d, struct m_node *n)
{
	size_t mask, i, j;

	if (!d->index)
		return;
	mask = d->index_cap - 1;
	for (i = name_hash(n->name) & mask; d->index[i] != n; i = (i + 1) & mask)
		;
	d->index[i] = NULL;
	/* shift back what probed past the hole */
	for (j = (i + 1) & mask; d->index[j]; j = (j + 1) & mask) {
		size_t home = name_hash(d->index[j]->name) & mask;

		/* j's entry may move to i when its home is not in (i, j] */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			d->index[i] = d->index[j];
			d->index[j] = NULL;
			i = j;
		}
	}
}

/* n goes last among d's children. */
static void link_kid(struct m_node *d, struct m_node *n)
{
	n->parent = d;
	n->next = NULL;
	n->prev = d->last;
	if (d->last)
		d->last->next = n;
	else
		d->kids = n;
	d->last = n;
	d->nkids++;
	index_add(d, n);
}

struct m_node *m_node_add(struct m_node *d, const char *name, bool dir)
{
	struct m_node *n = xcalloc(1, sizeof(*n));

	n->name = xstrdup(name);
	n->dir = dir;
	n->sb = d->sb;
	n->ino = d->sb->next_ino++;
	link_kid(d, n);
	return n;
}

static void unlink_kid(struct m_node *n)
{
	struct m_node *d = n->parent;

	index_drop(d, n);
	if (n->prev)
		n->prev->next = n->next;
	else
		d->kids = n->next;
	if (n->next)
		n->next->prev = n->prev;
	else
		d->last = n->prev;
	d->nkids--;
	n->next = n->prev = NULL;
}

void m_node_remove(struct m_node *n)
{
	unlink_kid(n);
	n->gone = true;
	n->next = n->sb->gone;
	n->sb->gone = n;
}

void m_node_move(struct m_node *n, struct m_node *to, const char *name)
{
	char *copy = xstrdup(name);

	unlink_kid(n);
	free(n->name);
	n->name = copy;
	link_kid(to, n);
}

struct m_node *m_node_child(struct m_node *d, const char *name)
{
	if (d->index) {
		size_t mask = d->index_cap - 1;

		for (size_t i = name_hash(name) & mask; d->index[i]; i = (i + 1) & mask)
			if (!strcmp(d->index[i]->name, name))
				return d->index[i];
		return NULL;
	}
	for (struct m_node *k = d->kids; k; k = k->next)
		if (!strcmp(k->name, name))
			return k;
	return NULL;
}

bool m_node_under(const struct m_node *d, const struct m_node *top)
{
	for (; d; d = d->parent)
		if (d == top)
			return true;
	return false;
}

void m_node_path(const struct m_node *d, struct ns_buf *out)
{
	const struct m_node *v[256];
	size_t n = 0;
	bool gone = d && d->gone;

	for (; d && d->parent && n < NS_ARRAY_SIZE(v); d = d->parent)
		v[n++] = d;
	if (!n)
		ns_buf_addc(out, '/');
	while (n--) {
		ns_buf_addc(out, '/');
		ns_buf_adds(out, v[n]->name);
	}
	if (gone)
		ns_buf_adds(out, "//deleted");
}

struct m_sb *m_sb_new(struct m_world *w, const char *source, const char *fstype)
{
	struct m_sb *sb = xcalloc(1, sizeof(*sb));

	sb->source = xstrdup(source);
	sb->fstype = xstrdup(fstype);
	sb->minor = w->next_minor++;
	m_fsopts_init(&sb->opts, fstype, w->ram_pages, m_inode64_built(w));
	sb->root = xcalloc(1, sizeof(*sb->root));
	sb->root->name = xstrdup("");
	sb->root->dir = true;
	sb->root->sb = sb;
	sb->root->ino = 1;
	sb->next_ino = 2;
	PUSH(w, sbs, nsbs, sbs_cap, sb);
	return sb;
}

bool m_sb_active(const struct m_world *w, const struct m_sb *sb)
{
	for (size_t i = 0; i < w->nmounts; i++) {
		const struct m_mount *m = w->mounts[i];
		if (m->sb == sb && (!m->dead || m->refs > 0))
			return true;
	}
	return false;
}

struct m_mount *m_mount_new(struct m_world *w, struct m_sb *sb, struct m_node *root)
{
	struct m_mount *m = xcalloc(1, sizeof(*m));

	m->id = take_id(&w->id_used, &w->id_cap, M_FIRST_ID);
	m->seq = ++w->seq;
	m->sb = sb;
	m->root = root;
	m->flags = M_RELATIME;
	PUSH(w, mounts, nmounts, mounts_cap, m);
	return m;
}

struct m_group *m_group_new(struct m_world *w, struct m_group *master)
{
	struct m_group *g = xcalloc(1, sizeof(*g));

	g->id = take_id(&w->gid_used, &w->gid_cap, 1);
	g->master = master;
	PUSH(w, groups, ngroups, groups_cap, g);
	return g;
}

struct m_ns *m_ns_new(struct m_world *w, struct m_userns *owner)
{
	struct m_ns *ns = xcalloc(1, sizeof(*ns));

	ns->id = w->next_ns++;
	ns->owner = owner;
	PUSH(w, nss, nnss, nss_cap, ns);
	return ns;
}

struct m_userns *m_userns_new(struct m_world *w, struct m_userns *parent)
{
	struct m_userns *u = xcalloc(1, sizeof(*u));

	u->parent = parent;
	PUSH(w, users, nusers, users_cap, u);
	return u;
}

void m_why(struct m_world *w, struct m_mount *m, const char *fmt, ...)
{
	struct ns_buf b = NS_BUF_INIT;
	va_list ap;

	if (!w->trace)
		return;
	va_start(ap, fmt);
	ns_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	free(m->why);
	m->why = ns_buf_detach(&b);
}

void m_event(struct m_world *w, const char *fmt, ...)
{
	struct ns_buf b = NS_BUF_INIT;
	va_list ap;

	if (!w->trace)
		return;
	va_start(ap, fmt);
	ns_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	ns_lines_push(&w->events, ns_buf_str(&b));
	ns_buf_free(&b);
}

unsigned m_new_mark(struct m_world *w)
{
	return ++w->mark_gen;
}
