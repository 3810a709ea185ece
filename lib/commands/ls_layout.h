/* ls_layout.h - how ls(1) lays out a directory listing, for every backend:
 * one name a line (-1), or columns as on an 80-column terminal. */
#ifndef NS_LS_LAYOUT_H
#define NS_LS_LAYOUT_H

#include <stdbool.h>

#include "base/util.h"

/* Append names (already sorted) to out, one a line or in columns. */
void ns_ls_render(const struct ns_lines *names, bool one_per_line, struct ns_buf *out);

/* The names of a listing in columns, in order (column by column), into
 * names: true when laying them out again gives text exactly, else false
 * with names unspecified. Cells are cut at runs of two or more blanks, so
 * names that hold such a run, or end in a blank, never come back. */
bool ns_ls_split(const char *text, struct ns_lines *names);

/* line, with each tab expanded to the next stop of 8 columns, appended to
 * out. GNU ls pads its columns with tabs where one reaches the next
 * column's start (coreutils src/ls.c, indent(), --tabsize defaults to 8),
 * so a terminal, or script(1), shows its columns so; expanded, they are
 * the columns ns_ls_render() prints with blanks only. */
void ns_ls_untab(const char *line, struct ns_buf *out);

#endif
