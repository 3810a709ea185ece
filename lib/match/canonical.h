/* canonical.h - what steps printed, in one canonical form (nstest(1),
 * JSON REPORT, "canonical"): every number the matcher renames is written
 * as a name, a letter for its kind and a count of first appearance in the
 * scenario, so that two runs whose outputs match up to the matcher's
 * renaming give the same text, and two that do not give different text.
 *
 *   M  mount IDs: mountinfo's ID and PARENT, findmnt's ID and PARENT
 *   D  devices: mountinfo's and findmnt's MAJ:MIN, stat's %d and %D,
 *      mountpoint -d (one kind: "0:45", "45" and "2d" are one device)
 *   P  peer groups: the N of shared:N, master:N, propagate_from:N
 *   I  inode numbers: stat's %i
 *
 * Lines are read as the judge reads them (struct ns_match_shape), named
 * in the order ns_match_map_numbers visits their numbers (PARENT before
 * ID), one numbering for all the steps of a scenario. The blanks a name
 * makes loose in a findmnt table are written as one blank (none at
 * either end of a line); a findmnt tree has the children of every mount
 * sorted as the judge sorts them (match_tree.h), since findmnt orders
 * them by mount ID. A number the kernel freed and gave out again gets a
 * new name when the matcher would release its pair (ns_matcher_set_view):
 * a step with a view that shows every number of its kind, and not this
 * one, ends the name.
 *
 * The sorted form (ns_canon_new(true)) sorts each step's lines (after the
 * tree's siblings) by their text with the names left out before it names
 * them: two runs whose steps printed the same lines in another order
 * (mountinfo is in creation order since Linux 6.8) have the same sorted
 * form and different canonical ones. Lines that differ only in their
 * numbers keep their order among themselves. */
#ifndef NS_CANONICAL_H
#define NS_CANONICAL_H

#include <stdbool.h>

#include "base/util.h"
#include "match/match.h"

struct ns_canon;

/* A numbering for one scenario; sorted: each step's lines sorted first. */
struct ns_canon *ns_canon_new(bool sorted);
void ns_canon_free(struct ns_canon *c);

/* Append the canonical form of the next step's output (NULL: none) to
 * out, one line for each of its lines, with a final newline when output
 * has one. shape: how its lines are read (NULL: mountinfo records), as
 * ns_judge_shape gives it; tree: the findmnt tree the output is, whether
 * or not its columns hold numbers, or NULL; view: where the step looked
 * from (run/result.h), or NULL. */
void ns_canon_step(struct ns_canon *c, const char *output,
		   const struct ns_match_shape *shape,
		   const struct ns_match_shape *tree, const struct ns_view *view,
		   struct ns_buf *out);

/* What the step's place held once it was over (ns_matcher_after_step):
 * a name whose number is gone ends as the judge's pair would. */
void ns_canon_after_step(struct ns_canon *c, const struct ns_view *view,
			 const struct ns_alive *alive);

#endif
