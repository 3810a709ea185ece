/* graph.c - see graph.h: the graph built from the terminals' tables. */
#include "report/graph.h"

#include <stdlib.h>
#include <string.h>

#include "mounts/snapshot.h"

/* shared:N, master:N and unbindable from mountinfo's optional fields. */
static void read_fields(struct ns_graph_mount *m, const char *f)
{
	while (f && *f) {
		size_t n = strcspn(f, " ");
		unsigned long v;

		if (n > 7 && !strncmp(f, "shared:", 7)) {
			v = strtoul(f + 7, NULL, 10);
			m->shared = (unsigned)v;
		} else if (n > 7 && !strncmp(f, "master:", 7)) {
			v = strtoul(f + 7, NULL, 10);
			m->master = (unsigned)v;
		} else if (n == 10 && !strncmp(f, "unbindable", 10)) {
			m->unbindable = true;
		}
		f += n;
		f += strspn(f, " ");
	}
}

/* The index of mount id in g, or g->nm. */
static size_t index_of(const struct ns_graph *g, unsigned id)
{
	size_t i = 0;

	while (i < g->nm && g->m[i].id != id)
		i++;
	return i;
}

static struct ns_graph_mount *find(struct ns_graph *g, unsigned id)
{
	size_t i = index_of(g, id);

	return i < g->nm ? &g->m[i] : NULL;
}

/* Merge namespace b into a (they turned out to share a mount). */
static void merge_ns(struct ns_graph *g, size_t a, size_t b)
{
	for (size_t i = 0; i < g->ns[b].terms.n; i++)
		ns_lines_push(&g->ns[a].terms, g->ns[b].terms.v[i]);
	ns_lines_free(&g->ns[b].terms);
	for (size_t i = 0; i < g->nm; i++)
		if (g->m[i].ns == b)
			g->m[i].ns = a;
		else if (g->m[i].ns > b)
			g->m[i].ns--;
	memmove(&g->ns[b], &g->ns[b + 1], (g->nns - b - 1) * sizeof(*g->ns));
	g->nns--;
}

int ns_graph_build(struct ns_graph *g, char *const *terms, char *const *tables, size_t n,
		   struct ns_buf *err)
{
	size_t mcap = 0;

	memset(g, 0, sizeof(*g));
	g->ns = xcalloc(n ? n : 1, sizeof(*g->ns));
	for (size_t t = 0; t < n; t++) {
		struct ns_snapshot *s;
		const struct ns_mount_entry *e;
		size_t me = g->nns++, cnt;
		int rc = ns_snapshot_parse(tables[t], strlen(tables[t]), &s);

		if (rc < 0) {
			ns_buf_addf(err, "%s's mount table does not parse: %s",
				    *terms[t] ? terms[t] : "the bare prompt", ns_errname(-rc));
			ns_graph_free(g);
			return -1;
		}
		ns_lines_push(&g->ns[me].terms, *terms[t] ? terms[t] : "# (the bare prompt)");
		e = ns_snapshot_entries(s);
		cnt = ns_snapshot_count(s);
		for (size_t i = 0; i < cnt; i++) {
			struct ns_graph_mount *m = find(g, e[i].id);

			if (m) {
				/* seen by an earlier terminal: the same namespace */
				if (m->ns != me) {
					size_t a = m->ns < me ? m->ns : me;
					size_t b = m->ns < me ? me : m->ns;
					merge_ns(g, a, b);
					me = a;
				}
				continue;
			}
			ns_grow((void **)&g->m, &mcap, g->nm + 1, sizeof(*g->m));
			m = &g->m[g->nm++];
			memset(m, 0, sizeof(*m));
			m->id = e[i].id;
			m->parent = e[i].parent;
			m->target = xstrdup(e[i].target ? e[i].target : "?");
			m->source = xstrdup(e[i].source ? e[i].source : "none");
			m->fstype = xstrdup(e[i].fstype ? e[i].fstype : "?");
			m->root = xstrdup(e[i].root ? e[i].root : "/");
			m->ns = me;
			read_fields(m, e[i].fields);
		}
		ns_snapshot_free(s);
	}
	return 0;
}

void ns_graph_causes(struct ns_graph *g, const char *causes)
{
	const char *s = causes ? causes : "";
	size_t cap = 0;

	while (*s) {
		size_t len = strcspn(s, "\n");
		char *line = xstrndup(s, len);
		char *end;
		unsigned long id;

		s += len + (s[len] == '\n');
		if (strncmp(line, "mount ", 6)) {
			free(line);
			continue;
		}
		id = strtoul(line + 6, &end, 10);
		if (end == line + 6) {
			free(line);
			continue;
		}
		if (strstr(line, ") goes: ")) {
			ns_grow((void **)&g->gone, &cap, g->ngone + 1, sizeof(*g->gone));
			g->gone[g->ngone++] = (struct ns_graph_gone){ (unsigned)id, line };
			continue;
		}
		{
			struct ns_graph_mount *m = find(g, (unsigned)id);
			char *why = strstr(line, "): ");
			if (m && why && !m->cause)
				m->cause = xstrdup(why + 3);
		}
		free(line);
	}
}

void ns_graph_state(struct ns_buf *b, const struct ns_graph_mount *m)
{
	if (m->unbindable)
		ns_buf_adds(b, "unbindable");
	else if (m->shared && m->master)
		ns_buf_addf(b, "shared:%u, slave of %u", m->shared, m->master);
	else if (m->shared)
		ns_buf_addf(b, "shared:%u", m->shared);
	else if (m->master)
		ns_buf_addf(b, "slave of %u (master:%u)", m->master, m->master);
	else
		ns_buf_adds(b, "private");
}

static bool was_gone(const struct ns_graph *g, unsigned id)
{
	for (size_t i = 0; i < g->ngone; i++)
		if (g->gone[i].id == id)
			return true;
	return false;
}

/* What of m changed since p, as words ("private", "on /a"), or NULL. */
static char *what_changed(const struct ns_graph_mount *m, const struct ns_graph_mount *p)
{
	struct ns_buf b = NS_BUF_INIT;

	if (m->shared != p->shared || m->master != p->master || m->unbindable != p->unbindable)
		ns_graph_state(&b, p);
	if (strcmp(m->target, p->target))
		ns_buf_addf(&b, "%son %s", b.len ? ", " : "", p->target);
	else if (m->parent != p->parent)
		ns_buf_addf(&b, "%sunder ID %u", b.len ? ", " : "", p->parent);
	return b.len ? ns_buf_detach(&b) : (ns_buf_free(&b), NULL);
}

void ns_graph_diff(struct ns_graph *g, const struct ns_graph *prev)
{
	size_t cap = g->ngone;

	for (size_t i = 0; i < g->nm; i++) {
		struct ns_graph_mount *m = &g->m[i];
		size_t at = index_of(prev, m->id);
		const struct ns_graph_mount *p = at < prev->nm ? &prev->m[at] : NULL;

		if (!p) {
			m->change = NS_GRAPH_NEW;
		} else if ((m->was = what_changed(m, p))) {
			m->change = NS_GRAPH_CHANGED;
		}
	}
	for (size_t i = 0; i < prev->nm; i++) {
		const struct ns_graph_mount *p = &prev->m[i];

		if (index_of(g, p->id) < g->nm || was_gone(g, p->id))
			continue;
		ns_grow((void **)&g->gone, &cap, g->ngone + 1, sizeof(*g->gone));
		g->gone[g->ngone++] = (struct ns_graph_gone){
			p->id, xasprintf("mount %u on %s (%s) is gone", p->id, p->target, p->source) };
	}
}

void ns_graph_free(struct ns_graph *g)
{
	for (size_t i = 0; i < g->nns; i++)
		ns_lines_free(&g->ns[i].terms);
	for (size_t i = 0; i < g->nm; i++) {
		free(g->m[i].target);
		free(g->m[i].source);
		free(g->m[i].fstype);
		free(g->m[i].cause);
		free(g->m[i].root);
		free(g->m[i].was);
	}
	for (size_t i = 0; i < g->ngone; i++)
		free(g->gone[i].what);
	free(g->ns);
	free(g->m);
	free(g->gone);
	free(g->folds);
	memset(g, 0, sizeof(*g));
}
