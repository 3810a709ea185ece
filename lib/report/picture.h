/* picture.h - one moment of a scenario drawn: the terminals' tables
 * (run/observe.h) made into the graph (graph.h), the model's causes
 * marked on it, as DOT or as SVG through Graphviz. */
#ifndef NS_PICTURE_H
#define NS_PICTURE_H

#include <stdbool.h>

#include "base/util.h"
#include "run/observe.h"
#include "scenario/scenario.h"

/* The title of the picture after `step` steps of sc: "NAME, after step N
 * (line L: TERM# CMD)" or "NAME, at the start" (heap). */
char *ns_picture_title(const struct ns_scenario *sc, size_t step);

/* Draw ob (causes may be NULL) into out, as SVG when svg, else DOT. 0, or
 * -1 with a message in err. */
int ns_picture(const struct ns_observation *ob, const char *causes, const char *title,
	       bool svg, struct ns_buf *out, struct ns_buf *err);

#endif
