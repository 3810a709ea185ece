/* picture.h - one moment of a scenario drawn: the terminals' tables
 * (run/observe.h) made into the graph (graph.h), the model's causes and
 * what changed since the moment before marked on it, as DOT, as SVG
 * through Graphviz, or as a page's figure: the SVG, and for a graph
 * folded to stay readable the list of every mount in a <details>. */
#ifndef NS_PICTURE_H
#define NS_PICTURE_H

#include <stdbool.h>

#include "base/util.h"
#include "run/observe.h"
#include "scenario/scenario.h"

/* A graph of more mounts than this is folded where it repeats (graph.h). */
#define NS_PICTURE_FOLD_OVER 40

/* The title of the picture after `step` steps of sc: "NAME, after step N
 * (line L: TERM# CMD)" or "NAME, at the start" (heap). */
char *ns_picture_title(const struct ns_scenario *sc, size_t step);

/* Draw ob into out, as SVG when svg, else DOT: prev (NULL: none) is the
 * same run's moment before, whose differences are marked; causes (NULL:
 * none) the model's. 0, or -1 with a message in err. */
int ns_picture(const struct ns_observation *ob, const struct ns_observation *prev,
	       const char *causes, const char *title, bool svg, struct ns_buf *out,
	       struct ns_buf *err);

/* Graphviz's SVG for DOT text drawn already: the same picture is drawn
 * once (a table that comes back, or a page of many scenarios). */
struct ns_svg_cache {
	struct ns_lines dot, svg;
};
void ns_svg_cache_free(struct ns_svg_cache *c);

/* A page's pictures of the moments ob[0..n) (prev[i]: the moment before
 * ob[i], or NULL; causes NULL or per moment), without titles (the page's
 * captions have them) or legends (the page has one): figs[i] is the SVG
 * element and, when the graph was folded, every mount in a <details>
 * list (heap), or NULL when it could not be drawn. Every graph not in
 * cache (NULL: none) is drawn by one run of `dot`, and kept there. 0, or -1 with a
 * message in err (some figs are NULL). */
int ns_picture_pages(const struct ns_observation *const *ob,
		     const struct ns_observation *const *prev, char *const *causes, size_t n,
		     struct ns_svg_cache *cache, char **figs, struct ns_buf *err);

/* A scenario drawn for a page: the run whose tables the pictures show
 * (its output is the one to print beside them: one numbering), and per
 * step its picture, or NULL where no table changed. */
struct ns_drawing {
	char **pics;              /* one slot per step of the scenario */
	size_t n;
	struct ns_run run;        /* the file's steps as the drawn run played them */
	double seconds;
	const char *devices;
};
void ns_drawing_free(struct ns_drawing *d);

#endif
