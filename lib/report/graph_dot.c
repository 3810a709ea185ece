/* graph_dot.c - the propagation graph (graph.h) as Graphviz DOT.
 *
 * Each namespace is a cluster, laid out side by side with the others
 * (their root mounts share the top rank). Inside one, the mount tree
 * runs top down. Peer groups get a colour each: members are filled
 * with it and joined by dashed undirected edges; a slave has a dashed
 * outline in its master's colour and an arrow from its master group.
 * Edges across namespaces do not constrain the layout, so they never
 * pull a namespace's tree apart. */
#include "report/graph.h"

#include <string.h>

/* Fill and line colours of peer group N (N mod the palette). */
static const char *const fills[] = {
	"#cfe2ff", "#d1f2d1", "#ffe0b3", "#f3d1f4", "#fff3b0", "#c9f1f1", "#ffd1d1", "#e0d7ff",
};
static const char *const lines[] = {
	"#2f5fb3", "#2e8b2e", "#c06a00", "#9b3ea0", "#9a8400", "#1f8a8a", "#c03030", "#5b43b5",
};

#define WRAP 38

static const char *fill_of(unsigned g) { return fills[g % NS_ARRAY_SIZE(fills)]; }
static const char *line_of(unsigned g) { return lines[g % NS_ARRAY_SIZE(lines)]; }

/* s inside a DOT "string", with "\n" between lines (centred). */
static void dot_str(struct ns_buf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			ns_buf_addc(out, '\\');
		if (*s == '\n')
			ns_buf_adds(out, "\\n");
		else
			ns_buf_addc(out, *s);
	}
}

/* s broken into lines of about WRAP characters at spaces. */
static void wrap(struct ns_buf *out, const char *s)
{
	size_t col = 0;

	while (*s) {
		size_t n = strcspn(s, " ");

		if (col && col + 1 + n > WRAP) {
			ns_buf_addc(out, '\n');
			col = 0;
		} else if (col) {
			ns_buf_addc(out, ' ');
			col++;
		}
		ns_buf_add(out, s, n);
		col += n;
		s += n;
		s += strspn(s, " ");
	}
}

static void state(struct ns_buf *b, const struct ns_graph_mount *m)
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

static void node(struct ns_buf *out, const struct ns_graph_mount *m)
{
	struct ns_buf label = NS_BUF_INIT;
	const char *style = "rounded,filled", *fill = "#f4f4f4", *color = "#606060";

	ns_buf_addf(&label, "%s\n%s\n", m->target, m->source);
	state(&label, m);
	ns_buf_addf(&label, "\nID %u", m->id);
	if (m->unbindable) {
		style = "rounded,filled,diagonals";
		fill = "#d9d9d9";
		color = "#000000";
	} else if (m->shared) {
		fill = fill_of(m->shared);
		color = line_of(m->shared);
	} else if (m->master) {
		style = "rounded,filled,dashed";
		fill = "#ffffff";
		color = line_of(m->master);
	}
	if (m->cause) {
		ns_buf_adds(&label, "\n\nmade by this step:\n");
		wrap(&label, m->cause);
	}
	ns_buf_addf(out, "    m%u [label=\"", m->id);
	dot_str(out, ns_buf_str(&label));
	ns_buf_addf(out, "\", style=\"%s\", fillcolor=\"%s\", color=\"%s\"%s, tooltip=\"mount %u on ",
		    style, fill, m->cause ? "#d62728" : color, m->cause ? ", penwidth=3" : "", m->id);
	dot_str(out, m->target);
	ns_buf_adds(out, "\"];\n");
	ns_buf_free(&label);
}

/* The member of group gid that stands for it (the lowest ID), or NULL. */
static const struct ns_graph_mount *first_of(const struct ns_graph *g, unsigned gid)
{
	const struct ns_graph_mount *best = NULL;

	for (size_t i = 0; i < g->nm; i++)
		if (g->m[i].shared == gid && (!best || g->m[i].id < best->id))
			best = &g->m[i];
	return best;
}

static bool has_mount(const struct ns_graph *g, unsigned id)
{
	for (size_t i = 0; i < g->nm; i++)
		if (g->m[i].id == id)
			return true;
	return false;
}

static void clusters(const struct ns_graph *g, struct ns_buf *out)
{
	for (size_t k = 0; k < g->nns; k++) {
		size_t count = 0;

		for (size_t i = 0; i < g->nm; i++)
			count += g->m[i].ns == k;
		ns_buf_addf(out, "  subgraph cluster_ns%zu {\n    label=\"", k + 1);
		for (size_t t = 0; t < g->ns[k].terms.n; t++) {
			ns_buf_adds(out, t ? ", " : "");
			dot_str(out, g->ns[k].terms.v[t]);
		}
		ns_buf_addf(out, "  (%zu mount%s)\";\n", count, count == 1 ? "" : "s");
		for (size_t i = 0; i < g->nm; i++)
			if (g->m[i].ns == k)
				node(out, &g->m[i]);
		/* the tree, inside the namespace */
		for (size_t i = 0; i < g->nm; i++)
			if (g->m[i].ns == k && has_mount(g, g->m[i].parent))
				ns_buf_addf(out, "    m%u -> m%u [class=\"tree\"];\n", g->m[i].parent, g->m[i].id);
		ns_buf_adds(out, "  }\n");
	}
}

static void peers(const struct ns_graph *g, struct ns_buf *out)
{
	/* each member after the first joined to the one before it */
	for (size_t i = 0; i < g->nm; i++) {
		const struct ns_graph_mount *prev = NULL;

		if (!g->m[i].shared || first_of(g, g->m[i].shared) != &g->m[i])
			continue;
		for (size_t j = 0; j < g->nm; j++) {
			if (g->m[j].shared != g->m[i].shared)
				continue;
			if (prev)
				ns_buf_addf(out, "  m%u -> m%u [class=\"peer\", dir=none, style=dashed, penwidth=2, color=\"%s\", constraint=false, tooltip=\"peers: shared:%u\"];\n",
					    prev->id, g->m[j].id, line_of(g->m[i].shared), g->m[i].shared);
			prev = &g->m[j];
		}
	}
}

static void masters(const struct ns_graph *g, struct ns_buf *out)
{
	struct ns_buf drawn = NS_BUF_INIT;   /* " N " per placeholder group */

	for (size_t i = 0; i < g->nm; i++) {
		const struct ns_graph_mount *s = &g->m[i], *mg;
		char key[24];

		if (!s->master)
			continue;
		mg = first_of(g, s->master);
		if (mg) {
			ns_buf_addf(out, "  m%u -> m%u [class=\"slave\", color=\"%s\", penwidth=2, arrowsize=1.2, constraint=false, tooltip=\"master:%u -> slave %u\"];\n",
				    mg->id, s->id, line_of(s->master), s->master, s->id);
			continue;
		}
		/* the master group has no member any live terminal sees */
		snprintf(key, sizeof(key), " %u ", s->master);
		if (!strstr(ns_buf_str(&drawn), key)) {
			ns_buf_adds(&drawn, key);
			ns_buf_addf(out, "  g%u [shape=ellipse, style=\"filled,dashed\", fillcolor=\"%s\", color=\"%s\", label=\"peer group %u\\n(in no terminal's namespace)\"];\n",
				    s->master, fill_of(s->master), line_of(s->master), s->master);
		}
		ns_buf_addf(out, "  g%u -> m%u [class=\"slave\", color=\"%s\", penwidth=2, arrowsize=1.2, tooltip=\"master:%u -> slave %u\"];\n",
			    s->master, s->id, line_of(s->master), s->master, s->id);
	}
	ns_buf_free(&drawn);
}

static void gone(const struct ns_graph *g, struct ns_buf *out)
{
	if (!g->ngone)
		return;
	ns_buf_adds(out, "  subgraph cluster_gone {\n    label=\"removed by the last step\"; style=dashed; color=\"#d62728\";\n");
	for (size_t i = 0; i < g->ngone; i++) {
		struct ns_buf label = NS_BUF_INIT;

		wrap(&label, g->gone[i].what);
		ns_buf_addf(out, "    x%zu [style=\"rounded,dashed\", color=\"#d62728\", fontcolor=\"#7a1010\", label=\"", i);
		dot_str(out, ns_buf_str(&label));
		ns_buf_adds(out, "\"];\n");
		ns_buf_free(&label);
	}
	ns_buf_adds(out, "  }\n");
}

void ns_graph_dot(const struct ns_graph *g, const char *title, struct ns_buf *out)
{
	ns_buf_adds(out, "digraph propagation {\n"
		    "  graph [rankdir=TB, newrank=true, nodesep=0.35, ranksep=0.45, fontname=\"Helvetica\", fontsize=12, labelloc=t, style=rounded, color=\"#7f7f7f\"");
	if (title) {
		ns_buf_adds(out, ", label=\"");
		dot_str(out, title);
		ns_buf_adds(out, "\"");
	}
	ns_buf_adds(out, "];\n"
		    "  node [shape=box, fontname=\"Helvetica\", fontsize=10, margin=\"0.12,0.06\"];\n"
		    "  edge [color=\"#808080\", arrowsize=0.7];\n");
	clusters(g, out);
	peers(g, out);
	masters(g, out);
	gone(g, out);
	ns_buf_adds(out, "}\n");
}
