/* canon.h - a mountinfo table in a canonical form, so that two backends'
 * tables compare equal exactly when they describe the same mounts.
 *
 * Mount IDs, peer-group numbers and MAJ:MIN come from global allocators
 * (another worker mounting at the same time changes them), and the order
 * of the lines is no documented rule. So:
 *  - MAJ:MIN is dropped (the source field names the stand-in);
 *  - each mount is described by its ancestry: its mount point, root and
 *    source, then its parent's, up to the top of the table; the lines are
 *    sorted by that description (then by the rest of the line without
 *    numbers);
 *  - mount IDs are renamed by sorted position (1, 2, ...; a parent that is
 *    not in the table becomes p1, p2, ... by first appearance);
 *  - shared:N, master:N and propagate_from:N are renamed g1, g2, ... by
 *    first appearance in the sorted output, with one renaming for every
 *    table of a scenario (struct ns_fuzz_groups), so that the same peer
 *    group seen from two terminals keeps one name.
 * Lines that are not mountinfo records are kept, in their order, after
 * the records. */
#ifndef NS_FUZZ_CANON_H
#define NS_FUZZ_CANON_H

#include <stddef.h>

#include "base/util.h"

/* The peer-group renaming of one scenario's tables. */
struct ns_fuzz_groups {
	unsigned long *from;
	size_t n, cap;
};

#define NS_FUZZ_GROUPS_INIT { NULL, 0, 0 }

void ns_fuzz_groups_free(struct ns_fuzz_groups *g);

/* Append the canonical form of the mountinfo text to out (one line per
 * record, each ending in '\n'). */
void ns_fuzz_canon_mountinfo(const char *text, struct ns_fuzz_groups *g, struct ns_buf *out);

#endif
