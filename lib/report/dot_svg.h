/* dot_svg.h - DOT text turned into SVG by Graphviz's `dot`, the one
 * program nstest runs for pictures. */
#ifndef NS_DOT_SVG_H
#define NS_DOT_SVG_H

#include "base/util.h"

/* Append dot's SVG of the graph to svg. 0; -1 with a message in err
 * (dot missing: the message says to install the package graphviz; dot
 * failed: what it said). */
int ns_dot_to_svg(const char *dot, struct ns_buf *svg, struct ns_buf *err);
/* n graphs drawn by one `dot` (it starts once, not n times: most of a
 * small graph's cost): svgs[i] is graph i's SVG document (heap). 0; -1
 * with err, every svgs[i] NULL. */
int ns_dot_to_svgs(char *const *dots, size_t n, char **svgs, struct ns_buf *err);

/* The <svg ...>...</svg> element of a whole SVG document (no XML
 * declaration, no DOCTYPE), for putting it inside an HTML page. */
const char *ns_svg_element(const char *svg);

/* svg (an SVG element, maybe with HTML after it) put into an HTML page
 * as the HTML validator wants it: every id (Graphviz numbers them alike
 * in every picture: graph0, node1) and every reference to one prefixed
 * with `prefix-`, so a page of many pictures has each id once; width and
 * height in pixels, not points; each tooltip a <title>, not xlink:title;
 * Graphviz's comments, node and edge names (<title>m49</title>) and
 * the font and anchor attributes the page's style gives every label
 * (html.c: on the <svg>, inherited, so a label's own still wins) left
 * out. */
void ns_svg_inline(struct ns_buf *out, const char *svg, const char *prefix);

#endif
