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

static struct ns_graph_mount *find(struct ns_graph *g, unsigned id)
{
	for (size_t i = 0; i < g->nm; i++)
		if (g->m[i].id == id)
			return &g->m[i];
	return NULL;
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

void ns_graph_free(struct ns_graph *g)
{
	for (size_t i = 0; i < g->nns; i++)
		ns_lines_free(&g->ns[i].terms);
	for (size_t i = 0; i < g->nm; i++) {
		free(g->m[i].target);
		free(g->m[i].source);
		free(g->m[i].fstype);
		free(g->m[i].cause);
	}
	for (size_t i = 0; i < g->ngone; i++)
		free(g->gone[i].what);
	free(g->ns);
	free(g->m);
	free(g->gone);
	memset(g, 0, sizeof(*g));
}
