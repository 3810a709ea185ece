/* dot_svg.h - DOT text turned into SVG by Graphviz's `dot`, the one
 * program nstest runs for pictures. */
#ifndef NS_DOT_SVG_H
#define NS_DOT_SVG_H

#include "base/util.h"

/* Append dot's SVG of the graph to svg. 0; -1 with a message in err
 * (dot missing: the message says to install the package graphviz; dot
 * failed: what it said). */
int ns_dot_to_svg(const char *dot, struct ns_buf *svg, struct ns_buf *err);

/* The <svg ...>...</svg> element of a whole SVG document (no XML
 * declaration, no DOCTYPE), for putting it inside an HTML page. */
const char *ns_svg_element(const char *svg);

#endif
