/* html.h - a scenario as one self-contained HTML page (or a section of
 * the run report): its prose and transcript, under each command this
 * backend's output, and where it differs the expected output beside it
 * with the differences marked, then the propagation graph (inline SVG)
 * after each step that changed a mount table. No script, no font or
 * style sheet from elsewhere: the page works offline. */
#ifndef NS_HTML_H
#define NS_HTML_H

#include "base/util.h"
#include "report/reporter.h"
#include "report/show.h"

/* <!DOCTYPE html> up to the start of <main>: the style, <h1>title</h1>,
 * and a header line `about` (kernel, stand-in mode, backend). */
void ns_html_begin(struct ns_buf *out, const char *title, const char *about);
/* One scenario as a <section id=...>. pictures (NULL, or one per step,
 * each NULL or an SVG document) are the graphs after the steps; notes as
 * in show.h (NULL: none). */
void ns_html_scenario(struct ns_buf *out, const struct ns_result *r, char *const *pictures,
		      const struct ns_show_notes *notes, const char *id);
/* What follows the last section. */
void ns_html_end(struct ns_buf *out);
/* s as HTML text. */
void ns_html_text(struct ns_buf *out, const char *s);

#endif
