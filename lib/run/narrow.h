/* narrow.h - findmnt's tables as a narrow terminal showed them
 * (nstest-scenario(5), EXPECTED OUTPUT, "Narrow terminals").
 *
 * On a terminal, findmnt fits its table to the terminal's width
 * (libsmartcols): it cuts the cells of the columns util-linux marks
 * SCOLS_FL_TRUNC (FSTYPE, OPTIONS, VFS-OPTIONS, FS-OPTIONS) to the
 * column's width, and a cell too wide for its column (a long TARGET or
 * SOURCE) is printed whole, with the rest of its row on the next line,
 * under the columns it belongs to (a tree's vertical lines drawn on
 * the way). nstest's findmnt writes into no terminal, so it prints every
 * row whole on one line.
 *
 * A file that says how wide the recording terminal was (`columns: N`)
 * has the block of a findmnt table (a list, or a tree drawn in the first
 * column; not piped) that does not match as written matched once more in
 * a second form, on both sides: each row whose lines findmnt broke is
 * joined into one line (its tree prefix as written, its cells one blank
 * apart), and, when the block's widest line is exactly N characters wide
 * (the table filled the terminal, so findmnt cut what did not fit), every
 * cell of a cut column in the output is cut to that column's width in the
 * block: its widest cell there. A cut cell therefore matches exactly the
 * cells it is the start of; a cell narrower than its column matches only
 * itself; a block that is not full width cuts nothing. The matcher
 * compares text as always. */
#ifndef NS_NARROW_H
#define NS_NARROW_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/shape.h"
#include "scenario/scenario.h"

/* A step's block and output in the second form. */
struct ns_narrow {
	struct ns_expect *block; /* the rows, each with its first line's number */
	size_t n;
	char *output;         /* what the step printed, each row's cells one
			       * blank apart, cut columns cut */
};

/* The second form of step st's block and output (sh: the shape the judge
 * reads the step with), when the file gives `columns:`, sh is a findmnt
 * table that is not piped (a list, or a tree in its first column), and
 * the second form differs from the block as written; else false.
 * Free with ns_narrow_free. */
bool ns_narrow(const struct ns_scenario *sc, const struct ns_step *st,
	       const struct ns_match_shape *sh, const char *output, struct ns_narrow *out);
void ns_narrow_free(struct ns_narrow *nw);

#endif
