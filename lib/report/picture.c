/* picture.c - see picture.h. */
#include "report/picture.h"

#include <stdlib.h>
#include <string.h>

#include "report/dot_svg.h"
#include "report/graph.h"
#include "report/html.h"

char *ns_picture_title(const struct ns_scenario *sc, size_t step)
{
	const struct ns_step *st;

	if (!step || step > sc->nsteps)
		return xasprintf("%s, at the start", sc->name);
	st = &sc->steps[step - 1];
	return xasprintf("%s, after step %zu (line %d: %s%c %s)", sc->name, step, st->line,
			 st->terminal, st->prompt, st->cmdline);
}

/* The graph of ob with what changed since prev and the causes marked,
 * folded when big. 0, or -1 with err. */
static int build(struct ns_graph *g, const struct ns_observation *ob,
		 const struct ns_observation *prev, const char *causes, struct ns_buf *err)
{
	if (ns_graph_build(g, ob->terms, ob->tables, ob->n, err) < 0)
		return -1;
	if (causes)
		ns_graph_causes(g, causes);
	if (prev && prev->n) {
		struct ns_graph p;
		struct ns_buf e = NS_BUF_INIT;

		/* a moment before that does not parse marks nothing */
		if (ns_graph_build(&p, prev->terms, prev->tables, prev->n, &e) == 0) {
			ns_graph_diff(g, &p);
			ns_graph_free(&p);
		}
		ns_buf_free(&e);
	}
	ns_graph_fold(g, NS_PICTURE_FOLD_OVER);
	return 0;
}

int ns_picture(const struct ns_observation *ob, const struct ns_observation *prev,
	       const char *causes, const char *title, bool svg, struct ns_buf *out,
	       struct ns_buf *err)
{
	struct ns_graph g;
	struct ns_buf dot = NS_BUF_INIT;
	int r = 0;

	if (build(&g, ob, prev, causes, err) < 0)
		return -1;
	ns_graph_dot(&g, title, true, svg ? &dot : out);
	if (svg)
		r = ns_dot_to_svg(ns_buf_str(&dot), out, err);
	ns_buf_free(&dot);
	ns_graph_free(&g);
	return r;
}

void ns_svg_cache_free(struct ns_svg_cache *c)
{
	ns_lines_free(&c->dot);
	ns_lines_free(&c->svg);
}

/* The cache's SVG element for dot, or NULL. */
static const char *cached(const struct ns_svg_cache *c, const char *dot)
{
	for (size_t i = 0; c && i < c->dot.n; i++)
		if (!strcmp(c->dot.v[i], dot))
			return c->svg.v[i];
	return NULL;
}

/* Every mount of a folded graph, as a table in a <details>. */
static void unfolded(const struct ns_graph *g, struct ns_buf *out)
{
	ns_buf_addf(out, "<details class=\"unfolded\"><summary>every mount, unfolded (%zu)</summary>\n"
		    "<table class=\"mounts\">\n<tr><th>namespace</th><th>ID</th><th>parent</th><th>mount point</th><th>source</th><th>propagation</th></tr>\n",
		    g->nm);
	for (size_t i = 0; i < g->nm; i++) {
		const struct ns_graph_mount *m = &g->m[i];
		struct ns_buf b = NS_BUF_INIT;

		ns_buf_adds(out, "<tr><td>");
		ns_html_text(out, g->ns[m->ns].terms.v[0]);
		ns_buf_addf(out, "</td><td>%u</td><td>%u</td><td>", m->id, m->parent);
		ns_html_text(out, m->target);
		ns_buf_adds(out, "</td><td>");
		ns_html_text(out, m->source);
		if (strcmp(m->root, "/")) {
			ns_buf_adds(out, "[");
			ns_html_text(out, m->root);
			ns_buf_adds(out, "]");
		}
		ns_buf_adds(out, "</td><td>");
		ns_graph_state(&b, m);
		ns_html_text(out, ns_buf_str(&b));
		ns_buf_adds(out, "</td></tr>\n");
		ns_buf_free(&b);
	}
	ns_buf_adds(out, "</table>\n</details>\n");
}

int ns_picture_pages(const struct ns_observation *const *ob,
		     const struct ns_observation *const *prev, char *const *causes, size_t n,
		     struct ns_svg_cache *cache, char **figs, struct ns_buf *err)
{
	char **dot = xcalloc(n ? n : 1, sizeof(*dot)), **lists = xcalloc(n ? n : 1, sizeof(*lists));
	char **todo = xcalloc(n ? n : 1, sizeof(*todo)), **svg = xcalloc(n ? n : 1, sizeof(*svg));
	struct ns_svg_cache own = { NS_LINES_INIT, NS_LINES_INIT };
	size_t ntodo = 0;
	int r = 0;

	if (!cache)
		cache = &own;
	for (size_t i = 0; i < n; i++) {
		struct ns_graph g;
		struct ns_buf d = NS_BUF_INIT, l = NS_BUF_INIT;

		figs[i] = NULL;
		if (build(&g, ob[i], prev[i], causes ? causes[i] : NULL, err) < 0) {
			r = -1;
			continue;
		}
		ns_graph_dot(&g, NULL, false, &d);
		if (ns_graph_folded(&g))
			unfolded(&g, &l);
		dot[i] = ns_buf_detach(&d);
		lists[i] = ns_buf_detach(&l);
		ns_graph_free(&g);
		/* each DOT not drawn yet, once */
		if (!cached(cache, dot[i])) {
			size_t k = 0;
			while (k < ntodo && strcmp(todo[k], dot[i]))
				k++;
			if (k == ntodo)
				todo[ntodo++] = dot[i];
		}
	}
	/* one dot for every graph of the scenario */
	if (ns_dot_to_svgs(todo, ntodo, svg, err) < 0) {
		r = -1;
		ntodo = 0;
	}
	for (size_t k = 0; k < ntodo; k++) {
		ns_lines_push(&cache->dot, todo[k]);
		ns_lines_push(&cache->svg, ns_svg_element(svg[k]));
		free(svg[k]);
	}
	for (size_t i = 0; i < n; i++) {
		const char *e = dot[i] ? cached(cache, dot[i]) : NULL;

		if (e)
			figs[i] = xasprintf("%s%s", e, lists[i]);
		free(dot[i]);
		free(lists[i]);
	}
	free(dot);
	free(lists);
	free(todo);
	free(svg);
	ns_svg_cache_free(&own);
	return r;
}

void ns_drawing_free(struct ns_drawing *d)
{
	for (size_t i = 0; d->pics && i < d->n; i++)
		free(d->pics[i]);
	free(d->pics);
	ns_run_free(&d->run);
	memset(d, 0, sizeof(*d));
}
