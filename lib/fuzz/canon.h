/* canon.h - a mountinfo table in a canonical form, so that two backends'
 * tables compare equal exactly when they describe the same mounts.
 *
 * Mount IDs, peer-group numbers and MAJ:MIN come from global allocators
 * (another worker mounting at the same time changes them), and the order
 * of the lines is no documented rule. So:
 *  - MAJ:MIN is dropped (the source field names the stand-in);
 *  - a stand-in's (a source in /dev/) filesystem type is "stand-in" and
 *    its superblock options only their first, rw or ro: they are the
 *    run's --devices (tmpfs or loop), which the runner may change for
 *    one case on one side, not the mount's;
 *  - each mount is described by its ancestry: its mount point, root and
 *    source, then its parent's, up to the top of the table; the lines are
 *    sorted by that description (then by the rest of the line without
 *    numbers);
 *  - mount IDs are renamed by sorted position (1, 2, ...; a parent that is
 *    not in the table becomes p1, p2, ... by first appearance);
 *  - shared:N, master:N and propagate_from:N are renamed g1, g2, ... by
 *    first appearance in the sorted output.
 * One renaming (struct ns_fuzz_groups) serves the tables of one round of
 * observations, taken with nothing changed between them: the same peer
 * group seen from two terminals keeps one name, and so does the same
 * mount, so two terminals that share a namespace show the same names and
 * two that do not show different ones (a mount ID of an earlier table
 * keeps its name; new ones continue the count). Between rounds mounts
 * and groups come and go, and the kernel gives their numbers out again:
 * each round starts afresh.
 *
 * The order of the lines is compared apart (`order`): the names of the
 * records in the order the table printed them. Equal canonical tables in
 * another order are a difference of their own kind (Linux 6.8 changed
 * mountinfo's order).
 * Lines that are not mountinfo records are kept, in their order, after
 * the records. */
#ifndef NS_FUZZ_CANON_H
#define NS_FUZZ_CANON_H

#include <stddef.h>

#include "base/util.h"

/* The renaming of one round's tables: peer groups, mount IDs, parents
 * outside the tables. */
struct ns_fuzz_groups {
	unsigned long *from;            /* group numbers, named g1, g2, ... */
	size_t n, cap;
	unsigned long *ids;             /* mount IDs, named 1, 2, ... */
	size_t nids, ids_cap;
	unsigned long *outside;         /* parents in no table, p1, p2, ... */
	size_t noutside, outside_cap;
};

#define NS_FUZZ_GROUPS_INIT { NULL, 0, 0, NULL, 0, 0, NULL, 0, 0 }

void ns_fuzz_groups_free(struct ns_fuzz_groups *g);

/* Append the canonical form of the mountinfo text to out (one line per
 * record, each ending in '\n'), and, when order is not NULL, the records'
 * names in the table's own order ("3 1 2\n"). */
void ns_fuzz_canon_mountinfo(const char *text, struct ns_fuzz_groups *g, struct ns_buf *out,
			     struct ns_buf *order);

#endif
