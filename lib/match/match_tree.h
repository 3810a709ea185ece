/* match_tree.h - a findmnt tree with the children of every mount in a
 * canonical order, for the judge (nstest-scenario(5), findmnt): findmnt
 * orders siblings by mount ID, which the renaming hides, so a tree that
 * does not match as printed is compared once more in this form. */
#ifndef NS_MATCH_TREE_H
#define NS_MATCH_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"
#include "match/match.h"

/* Append lines[0..n) to out with the children of every line sorted by
 * their text (the fields of renamed columns left out; siblings of the
 * same text by their subtrees) and the tree glyphs drawn for that order;
 * for a JSON tree (findmnt -J), the elements of every "children" sorted;
 * for a flat tree (sh->flat: -l, -r or -J -l with -R), its rows, placed
 * by their ID and PARENT or their TARGET, in that order, depth first,
 * each target read so marked with its depth (control characters, for
 * the comparison only).
 * False, and out untouched, when sh is no findmnt tree, the lines are no
 * tree with a nested line, or their glyphs are not the ones findmnt
 * draws for the tree they describe (ns_match_tree_glyphs_agree). */
bool ns_match_tree_canon(const char *const *lines, size_t n,
			 const struct ns_match_shape *sh, struct ns_lines *out);

/* ns_match_tree_canon's lines as a reader sees them: the rows of a flat
 * tree read by their TARGET carry no marks of their depth. For the
 * canonical form of a run (match/canonical.c). */
bool ns_match_tree_sorted(const char *const *lines, size_t n,
			  const struct ns_match_shape *sh, struct ns_lines *out);

/* Whether the glyphs of a tree drawn with them say what findmnt's say:
 * "├─" before a later sibling, "└─" for the last one, "│ " in the column
 * of an ancestor with a later sibling, "  " under one without; a "..."
 * line may hide a later sibling, and output that went through a filter
 * (sh->piped) is not checked. True for lines that are no such tree. */
bool ns_match_tree_glyphs_agree(const char *const *lines, size_t n,
				const struct ns_match_shape *sh);

/* Where the tree prefix of each of lines[0..n) is, in the tree column
 * (sh->tree_col): bytes [head[i], head[i] + plen[i]) of lines[i], plen[i]
 * 0 for a top line. False, and nothing set, when ns_match_tree_canon
 * would find no tree to sort. For the canonical form, which keeps a
 * prefix whole where the blanks before it are loose. */
bool ns_match_tree_prefixes(const char *const *lines, size_t n,
			    const struct ns_match_shape *sh, size_t *head, size_t *plen);

#endif
