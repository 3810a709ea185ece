/* graph_fold.c - see graph.h: a big graph folded where it repeats.
 *
 * A mount explosion copies the same subtree again and again, and a new
 * namespace starts as a copy of the old one: a picture of every mount is
 * thousands of pixels wide. What repeats is drawn once. A subtree's
 * shape is its top's place below its parent, source, root and
 * propagation, and its children's shapes; a subtree of two or more
 * mounts whose shape (its top's place aside) was drawn already becomes a
 * fold node ("…×N").
 * Copies that hang from the same mount share one fold node. */
#include "report/graph.h"

#include <stdlib.h>
#include <string.h>

struct shapes {
	const struct ns_graph *g;
	size_t *parent;           /* index of the parent in the same namespace, or nm */
	char **sig;               /* memoized shapes */
	size_t *size;             /* mounts in the subtree */
};

/* The index of mount id in g, or g->nm. */
static size_t at(const struct ns_graph *g, unsigned id)
{
	size_t i = 0;

	while (i < g->nm && g->m[i].id != id)
		i++;
	return i;
}

static char kind(const struct ns_graph_mount *m)
{
	if (m->unbindable)
		return 'u';
	if (m->shared && m->master)
		return 'b';
	return m->shared ? 's' : m->master ? 'm' : 'p';
}

/* m's mount point below its parent's ("/a" for /x/a under /x). */
static const char *rel(const struct ns_graph_mount *m, const struct ns_graph_mount *p)
{
	size_t n = p ? strlen(p->target) : 0;

	if (!p || !strcmp(p->target, "/"))
		return m->target;
	if (!strncmp(m->target, p->target, n) && m->target[n] == '/')
		return m->target + n;
	return m->target;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *shape(struct shapes *s, size_t i)
{
	const struct ns_graph *g = s->g;
	const struct ns_graph_mount *m = &g->m[i];
	struct ns_lines kids = NS_LINES_INIT;
	struct ns_buf b = NS_BUF_INIT;

	if (s->sig[i])
		return s->sig[i];
	s->size[i] = 1;
	for (size_t c = 0; c < g->nm; c++)
		if (s->parent[c] == i && c != i) {
			ns_lines_push(&kids, shape(s, c));
			s->size[i] += s->size[c];
		}
	if (kids.n)
		qsort(kids.v, kids.n, sizeof(*kids.v), cmp_str);
	ns_buf_addf(&b, "(%s\x1f%s\x1f%s\x1f%c%d", rel(m, s->parent[i] < g->nm ? &g->m[s->parent[i]] : NULL),
		    m->source, m->root, kind(m), (int)m->change);
	for (size_t k = 0; k < kids.n; k++)
		ns_buf_adds(&b, kids.v[k]);
	ns_buf_adds(&b, ")");
	ns_lines_free(&kids);
	s->sig[i] = ns_buf_detach(&b);
	return s->sig[i];
}

/* Fold i and everything below it into fold number f (1-based). */
static void hide(struct ns_graph *g, const struct shapes *s, size_t i, size_t f)
{
	g->m[i].fold = f;
	for (size_t c = 0; c < g->nm; c++)
		if (s->parent[c] == i && c != i)
			hide(g, s, c, f);
}

struct seen {
	struct ns_lines sig;
	size_t *who;
	size_t cap;
};

/* What two subtrees must share to fold: their shape, but for the place
 * of the top itself (copies side by side, /home/a and /home/b, fold). */
static const char *below_top(const char *sig)
{
	return strchr(sig, '\x1f');
}

static void visit(struct ns_graph *g, struct shapes *s, struct seen *seen, size_t i)
{
	const char *sig = below_top(shape(s, i));
	size_t fcap = g->nfolds;

	if (s->size[i] >= 2) {
		for (size_t k = 0; k < seen->sig.n; k++) {
			const struct ns_graph_mount *like = &g->m[seen->who[k]];
			size_t f;

			if (strcmp(seen->sig.v[k], sig))
				continue;
			for (f = 0; f < g->nfolds; f++)
				if (g->folds[f].ns == g->m[i].ns && g->folds[f].parent == g->m[i].parent &&
				    g->folds[f].like == like->id)
					break;
			if (f == g->nfolds) {
				ns_grow((void **)&g->folds, &fcap, g->nfolds + 1, sizeof(*g->folds));
				g->folds[g->nfolds++] = (struct ns_graph_fold){
					g->m[i].ns, g->m[i].parent, like->id, g->m[i].id, g->m[i].id, 0, s->size[i] };
			}
			g->folds[f].count++;
			g->folds[f].last = g->m[i].id;
			hide(g, s, i, f + 1);
			return;
		}
		ns_grow((void **)&seen->who, &seen->cap, seen->sig.n + 1, sizeof(*seen->who));
		seen->who[seen->sig.n] = i;
		ns_lines_push(&seen->sig, sig);
	}
	for (size_t c = 0; c < g->nm; c++)
		if (s->parent[c] == i && c != i)
			visit(g, s, seen, c);
}

/* The mounts of namespace k as sorted lines, for comparing namespaces. */
static void ns_lines_of(const struct ns_graph *g, size_t k, struct ns_lines *l)
{
	for (size_t i = 0; i < g->nm; i++)
		if (g->m[i].ns == k) {
			const struct ns_graph_mount *m = &g->m[i];
			char *t = xasprintf("%s\x1f%s\x1f%s\x1f%c%d", m->target, m->source, m->root,
					    kind(m), (int)m->change);
			ns_lines_push(l, t);
			free(t);
		}
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_str);
}

static bool same_lines(const struct ns_lines *a, const struct ns_lines *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]))
			return false;
	return true;
}

/* Does each mount of namespace k share a peer group with the mount at
 * its place in namespace j? */
static bool all_peers(const struct ns_graph *g, size_t k, size_t j)
{
	for (size_t i = 0; i < g->nm; i++) {
		bool ok = false;

		if (g->m[i].ns != k)
			continue;
		for (size_t t = 0; t < g->nm && !ok; t++)
			ok = g->m[t].ns == j && g->m[i].shared && g->m[t].shared == g->m[i].shared &&
			     !strcmp(g->m[t].target, g->m[i].target);
		if (!ok)
			return false;
	}
	return true;
}

static void twins(struct ns_graph *g)
{
	struct ns_lines *l = xcalloc(g->nns, sizeof(*l));

	for (size_t k = 0; k < g->nns; k++)
		ns_lines_of(g, k, &l[k]);
	for (size_t k = 1; k < g->nns; k++)
		for (size_t j = 0; j < k && !g->ns[k].twin; j++)
			if (!g->ns[j].twin && l[k].n > 1 && same_lines(&l[k], &l[j])) {
				g->ns[k].twin = j + 1;
				g->ns[k].twin_peers = all_peers(g, k, j);
			}
	for (size_t k = 0; k < g->nns; k++)
		ns_lines_free(&l[k]);
	free(l);
}

void ns_graph_fold(struct ns_graph *g, size_t over)
{
	struct shapes s = { g, NULL, NULL, NULL };

	if (g->nm <= over)
		return;
	twins(g);
	s.parent = xcalloc(g->nm, sizeof(*s.parent));
	s.sig = xcalloc(g->nm, sizeof(*s.sig));
	s.size = xcalloc(g->nm, sizeof(*s.size));
	for (size_t i = 0; i < g->nm; i++) {
		size_t p = at(g, g->m[i].parent);
		s.parent[i] = p < g->nm && g->m[p].ns == g->m[i].ns && p != i ? p : g->nm;
	}
	for (size_t k = 0; k < g->nns; k++) {
		struct seen seen = { NS_LINES_INIT, NULL, 0 };

		if (g->ns[k].twin)
			continue;
		for (size_t i = 0; i < g->nm; i++)
			if (g->m[i].ns == k && s.parent[i] == g->nm)
				visit(g, &s, &seen, i);
		ns_lines_free(&seen.sig);
		free(seen.who);
	}
	for (size_t i = 0; i < g->nm; i++)
		free(s.sig[i]);
	free(s.sig);
	free(s.size);
	free(s.parent);
}

bool ns_graph_folded(const struct ns_graph *g)
{
	if (g->nfolds)
		return true;
	for (size_t k = 0; k < g->nns; k++)
		if (g->ns[k].twin)
			return true;
	return false;
}
