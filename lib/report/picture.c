/* picture.c - see picture.h. */
#include "report/picture.h"

#include "report/dot_svg.h"
#include "report/graph.h"

char *ns_picture_title(const struct ns_scenario *sc, size_t step)
{
	const struct ns_step *st;

	if (!step || step > sc->nsteps)
		return xasprintf("%s, at the start", sc->name);
	st = &sc->steps[step - 1];
	return xasprintf("%s, after step %zu (line %d: %s%c %s)", sc->name, step, st->line,
			 st->terminal, st->prompt, st->cmdline);
}

int ns_picture(const struct ns_observation *ob, const char *causes, const char *title,
	       bool svg, struct ns_buf *out, struct ns_buf *err)
{
	struct ns_graph g;
	struct ns_buf dot = NS_BUF_INIT;
	int r = 0;

	if (ns_graph_build(&g, ob->terms, ob->tables, ob->n, err) < 0)
		return -1;
	if (causes)
		ns_graph_causes(&g, causes);
	ns_graph_dot(&g, title, svg ? &dot : out);
	if (svg)
		r = ns_dot_to_svg(ns_buf_str(&dot), out, err);
	ns_buf_free(&dot);
	ns_graph_free(&g);
	return r;
}
