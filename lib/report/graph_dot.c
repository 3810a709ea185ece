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

/* How many mounts of g are in peer group gid. */
static size_t members(const struct ns_graph *g, unsigned gid)
{
	size_t n = 0;

	for (size_t i = 0; i < g->nm; i++)
		n += g->m[i].shared == gid;
	return n;
}

/* The DOT node a mount is drawn as: itself, its fold, or its
 * namespace's summary. */
static void rep(struct ns_buf *b, const struct ns_graph *g, const struct ns_graph_mount *m)
{
	if (g->ns[m->ns].twin)
		ns_buf_addf(b, "ns%zu", m->ns + 1);
	else if (m->fold)
		ns_buf_addf(b, "f%zu", m->fold);
	else
		ns_buf_addf(b, "m%u", m->id);
}

static bool drawn(const struct ns_graph *g, const struct ns_graph_mount *m)
{
	return !g->ns[m->ns].twin && !m->fold;
}

/* The source as findmnt shows it: SOURCE[/dir] for a mount whose root
 * is not its filesystem's root (a bind mount of a directory). */
static void source(struct ns_buf *b, const struct ns_graph_mount *m)
{
	ns_buf_adds(b, m->source);
	if (m->root && strcmp(m->root, "/"))
		ns_buf_addf(b, "[%s]", m->root);
}

static void node(struct ns_buf *out, const struct ns_graph *g, const struct ns_graph_mount *m)
{
	struct ns_buf label = NS_BUF_INIT;
	const char *style = "rounded,filled", *fill = "#f4f4f4", *color = "#606060";
	const char *mark = m->cause || m->change == NS_GRAPH_NEW ? "#d62728" :
			   m->change == NS_GRAPH_CHANGED ? "#ff8c00" : NULL;

	ns_buf_addf(&label, "%s\n", m->target);
	source(&label, m);
	ns_buf_adds(&label, "\n");
	ns_graph_state(&label, m);
	if (m->shared && ns_graph_folded(g))
		ns_buf_addf(&label, " (%zu in the group)", members(g, m->shared));
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
	} else if (m->change == NS_GRAPH_NEW) {
		ns_buf_adds(&label, "\nnew");
	} else if (m->change == NS_GRAPH_CHANGED) {
		ns_buf_adds(&label, "\nchanged, was: ");
		ns_buf_adds(&label, m->was);
	}
	ns_buf_addf(out, "    m%u [label=\"", m->id);
	dot_str(out, ns_buf_str(&label));
	/* no tooltip: it would say what the label says */
	ns_buf_addf(out, "\", style=\"%s\", fillcolor=\"%s\", color=\"%s\"%s];\n",
		    style, fill, mark ? mark : color, mark ? ", penwidth=3" : "");
	ns_buf_free(&label);
}

static const struct ns_graph_mount *mount_of(const struct ns_graph *g, unsigned id)
{
	for (size_t i = 0; i < g->nm; i++)
		if (g->m[i].id == id)
			return &g->m[i];
	return NULL;
}

/* Fold f (0-based): "…×N" copies of a subtree drawn in full. */
static void fold_node(struct ns_buf *out, const struct ns_graph *g, size_t f)
{
	const struct ns_graph_fold *d = &g->folds[f];
	const struct ns_graph_mount *first = mount_of(g, d->first), *last = mount_of(g, d->last);
	const struct ns_graph_mount *like = mount_of(g, d->like);
	struct ns_buf label = NS_BUF_INIT;

	ns_buf_adds(&label, first ? first->target : "?");
	if (d->count > 1 && last && first && strcmp(first->target, last->target))
		ns_buf_addf(&label, " \u2026\n%s", last->target);
	ns_buf_addf(&label, "\n\u2026\u00d7%zu: %zu cop%s of the subtree at\n%s\n(%zu mounts each, drawn there)",
		    d->count, d->count, d->count == 1 ? "y" : "ies", like ? like->target : "?", d->mounts);
	ns_buf_addf(out, "    f%zu [shape=box3d, style=filled, fillcolor=\"#eeeeee\", color=\"#606060\", label=\"", f + 1);
	dot_str(out, ns_buf_str(&label));
	ns_buf_addf(out, "\", tooltip=\"%zu folded copies\"];\n", d->count);
	ns_buf_free(&label);
}

/* A namespace with the same mounts as an earlier one: one node. */
static void twin_node(struct ns_buf *out, const struct ns_graph *g, size_t k, size_t count)
{
	const struct ns_graph_ns *n = &g->ns[k], *t = &g->ns[n->twin - 1];
	struct ns_buf label = NS_BUF_INIT;

	ns_buf_addf(&label, "%zu mounts, folded:\nthe same places, sources and\npropagation as in the namespace of\n", count);
	for (size_t i = 0; i < t->terms.n; i++)
		ns_buf_addf(&label, "%s%s", i ? ", " : "", t->terms.v[i]);
	if (n->twin_peers)
		ns_buf_adds(&label, "\neach mount a peer of the one\nat its place there");
	ns_buf_addf(out, "    ns%zu [shape=box3d, style=filled, fillcolor=\"#eeeeee\", color=\"#606060\", label=\"", k + 1);
	dot_str(out, ns_buf_str(&label));
	ns_buf_adds(out, "\"];\n");
	ns_buf_free(&label);
}

/* The member of group gid that stands for it (the lowest ID drawn, else
 * the lowest ID), or NULL. */
static const struct ns_graph_mount *first_of(const struct ns_graph *g, unsigned gid)
{
	const struct ns_graph_mount *best = NULL;

	for (size_t i = 0; i < g->nm; i++) {
		const struct ns_graph_mount *m = &g->m[i];

		if (m->shared != gid)
			continue;
		if (!best || (drawn(g, m) && !drawn(g, best)) ||
		    (drawn(g, m) == drawn(g, best) && m->id < best->id))
			best = m;
	}
	return best;
}

/* Add edge "a -> b" unless drawn already (" a>b " in seen). */
static bool once(struct ns_buf *seen, const char *a, const char *b)
{
	char *key = xasprintf(" %s>%s ", a, b);
	bool fresh = !strstr(ns_buf_str(seen), key);

	if (fresh)
		ns_buf_adds(seen, key);
	free(key);
	return fresh && strcmp(a, b);
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
		if (g->ns[k].twin) {
			twin_node(out, g, k, count);
			ns_buf_adds(out, "  }\n");
			continue;
		}
		for (size_t i = 0; i < g->nm; i++)
			if (g->m[i].ns == k && !g->m[i].fold)
				node(out, g, &g->m[i]);
		for (size_t f = 0; f < g->nfolds; f++)
			if (g->folds[f].ns == k)
				fold_node(out, g, f);
		/* the tree, inside the namespace: a fold hangs from its parent */
		for (size_t i = 0; i < g->nm; i++) {
			const struct ns_graph_mount *m = &g->m[i], *p = mount_of(g, m->parent);

			if (m->ns == k && p && p->ns == k && drawn(g, p) && drawn(g, m))
				ns_buf_addf(out, "    m%u -> m%u [class=\"tree\"];\n", m->parent, m->id);
		}
		for (size_t f = 0; f < g->nfolds; f++)
			if (g->folds[f].ns == k)
				ns_buf_addf(out, "    m%u -> f%zu [class=\"tree\"];\n", g->folds[f].parent, f + 1);
		ns_buf_adds(out, "  }\n");
	}
}

static void peers(const struct ns_graph *g, struct ns_buf *out)
{
	struct ns_buf seen = NS_BUF_INIT;

	/* each member after the first joined to the one before it */
	for (size_t i = 0; i < g->nm; i++) {
		struct ns_buf prev = NS_BUF_INIT;

		if (!g->m[i].shared || first_of(g, g->m[i].shared) != &g->m[i])
			continue;
		for (size_t j = 0; j < g->nm; j++) {
			struct ns_buf me = NS_BUF_INIT;

			if (g->m[j].shared != g->m[i].shared)
				continue;
			rep(&me, g, &g->m[j]);
			if (prev.len && once(&seen, ns_buf_str(&prev), ns_buf_str(&me)))
				ns_buf_addf(out, "  %s -> %s [class=\"peer\", dir=none, style=dashed, penwidth=2, color=\"%s\", constraint=false, tooltip=\"peers: shared:%u\"];\n",
					    ns_buf_str(&prev), ns_buf_str(&me), line_of(g->m[i].shared), g->m[i].shared);
			if (!prev.len || strcmp(ns_buf_str(&prev), ns_buf_str(&me))) {
				ns_buf_free(&prev);
				prev = me;
			} else {
				ns_buf_free(&me);
			}
		}
		ns_buf_free(&prev);
	}
	ns_buf_free(&seen);
}

static void masters(const struct ns_graph *g, struct ns_buf *out)
{
	struct ns_buf drawn_g = NS_BUF_INIT;   /* " N " per placeholder group */
	struct ns_buf seen = NS_BUF_INIT;

	for (size_t i = 0; i < g->nm; i++) {
		const struct ns_graph_mount *s = &g->m[i], *mg;
		struct ns_buf a = NS_BUF_INIT, b = NS_BUF_INIT;
		char key[24];

		if (!s->master)
			continue;
		rep(&b, g, s);
		mg = first_of(g, s->master);
		if (mg) {
			rep(&a, g, mg);
			if (once(&seen, ns_buf_str(&a), ns_buf_str(&b)))
				ns_buf_addf(out, "  %s -> %s [class=\"slave\", color=\"%s\", penwidth=2, arrowsize=1.2, constraint=false, tooltip=\"master:%u -> slave %u\"];\n",
					    ns_buf_str(&a), ns_buf_str(&b), line_of(s->master), s->master, s->id);
			ns_buf_free(&a);
			ns_buf_free(&b);
			continue;
		}
		/* the master group has no member any live terminal sees */
		snprintf(key, sizeof(key), " %u ", s->master);
		if (!strstr(ns_buf_str(&drawn_g), key)) {
			ns_buf_adds(&drawn_g, key);
			ns_buf_addf(out, "  g%u [shape=ellipse, style=\"filled,dashed\", fillcolor=\"%s\", color=\"%s\", label=\"peer group %u\\n(in no terminal's namespace)\"];\n",
				    s->master, fill_of(s->master), line_of(s->master), s->master);
		}
		ns_buf_addf(&a, "g%u", s->master);
		if (once(&seen, ns_buf_str(&a), ns_buf_str(&b)))
			ns_buf_addf(out, "  g%u -> %s [class=\"slave\", color=\"%s\", penwidth=2, arrowsize=1.2, tooltip=\"master:%u -> slave %u\"];\n",
				    s->master, ns_buf_str(&b), line_of(s->master), s->master, s->id);
		ns_buf_free(&a);
		ns_buf_free(&b);
	}
	ns_buf_free(&drawn_g);
	ns_buf_free(&seen);
}
static void gone(const struct ns_graph *g, struct ns_buf *out)
{
	if (!g->ngone)
		return;
	ns_buf_adds(out, "  subgraph cluster_gone {\n    label=\"gone since the step before\"; style=dashed; color=\"#d62728\";\n");
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

/* What every mark means, in every picture: a table below the graph. */
static const char legend_rows[] =
	"<TR><TD COLSPAN=\"2\"><B>legend</B></TD></TR>"
	"<TR><TD><FONT COLOR=\"#808080\">&#8212;&#9654;</FONT></TD><TD ALIGN=\"LEFT\">grey arrow: the mount tree, parent to child</TD></TR>"
	"<TR><TD><FONT COLOR=\"#2f5fb3\">- - -</FONT></TD><TD ALIGN=\"LEFT\">dashed line: peers (the same shared:N)</TD></TR>"
	"<TR><TD><FONT COLOR=\"#2f5fb3\">&#8212;&#9654;</FONT></TD><TD ALIGN=\"LEFT\">coloured arrow: master to its slave</TD></TR>"
	"<TR><TD BGCOLOR=\"#cfe2ff\">shared</TD><TD ALIGN=\"LEFT\">filled: a colour per peer group</TD></TR>"
	"<TR><TD BORDER=\"1\" STYLE=\"dashed\" COLOR=\"#2f5fb3\">slave</TD><TD ALIGN=\"LEFT\">dashed outline: a slave, in its master's colour</TD></TR>"
	"<TR><TD BGCOLOR=\"#f4f4f4\">private</TD><TD ALIGN=\"LEFT\">grey: private</TD></TR>"
	"<TR><TD BGCOLOR=\"#d9d9d9\">unbindable</TD><TD ALIGN=\"LEFT\">hatched corners, darker grey: unbindable</TD></TR>"
	"<TR><TD BORDER=\"2\" COLOR=\"#d62728\">new</TD><TD ALIGN=\"LEFT\">red outline: new since the step before</TD></TR>"
	"<TR><TD BORDER=\"2\" COLOR=\"#ff8c00\">changed</TD><TD ALIGN=\"LEFT\">orange outline: changed (was: ...)</TD></TR>"
	"<TR><TD BORDER=\"1\" STYLE=\"dashed\" COLOR=\"#d62728\">gone</TD><TD ALIGN=\"LEFT\">red dashed: gone since the step before</TD></TR>"
	"<TR><TD>dev[/dir]</TD><TD ALIGN=\"LEFT\">source, and the directory a bind mount shows</TD></TR>";

static void legend(const struct ns_graph *g, struct ns_buf *out)
{
	ns_buf_adds(out, "  legend [shape=plaintext, fontsize=9, tooltip=\"legend\", label=<<TABLE BORDER=\"1\" COLOR=\"#bbbbbb\" CELLBORDER=\"0\" CELLSPACING=\"2\" CELLPADDING=\"2\">");
	ns_buf_adds(out, legend_rows);
	if (ns_graph_folded(g))
		ns_buf_adds(out, "<TR><TD BGCOLOR=\"#eeeeee\">&#8230;&#215;N</TD><TD ALIGN=\"LEFT\">stacked box: N copies of a subtree drawn once, or a namespace like another</TD></TR>");
	ns_buf_adds(out, "</TABLE>>];\n  { rank=sink; legend; }\n");
}

void ns_graph_dot(const struct ns_graph *g, const char *title, bool with_legend, struct ns_buf *out)
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
	if (with_legend)
		legend(g, out);
	ns_buf_adds(out, "}\n");
}
