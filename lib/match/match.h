/* match.h - compare a step's expected output with what the kernel printed
 * (nstest-scenario(5), EXPECTED OUTPUT). Mountinfo records match up to one
 * consistent one-to-one renaming of mount IDs, device numbers and
 * peer-group numbers that holds across the whole scenario; every other line
 * matches literally; "..." matches any number of lines. */
#ifndef NS_MATCH_H
#define NS_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "mounts/mountinfo_line.h" /* ns_mi_parse(), ns_mi_free() */
#include "scenario/scenario.h"
#include "base/util.h"

struct ns_matcher;

struct ns_matcher *ns_matcher_new(void);
void ns_matcher_free(struct ns_matcher *m);

/* Match exp[0..nexp) against the actual output text. On success, keep the
 * renamings the match made and return true. On failure, leave the
 * renaming as it was, append a unified diff (expected vs actual, with
 * actual numbers written in the expected names wherever the renaming is
 * already fixed) to diff, and return false. */
bool ns_matcher_step(struct ns_matcher *m, const struct ns_expect *exp,
		     size_t nexp, bool unordered, const char *actual,
		     struct ns_buf *diff);

/* Cap the line comparisons one step may try while looking for a pairing
 * (several "..." or an unordered block with look-alike records can make
 * the search exponential); past it the step fails and its diff says the
 * matcher gave up. 0 restores the default, ten million. */
void ns_matcher_set_budget(struct ns_matcher *m, unsigned long comparisons);

/* Append line with its numbers renamed into the expected names where the
 * renaming knows them (used by diffs and by `show`). */
void ns_matcher_rename(const struct ns_matcher *m, const char *line,
		       struct ns_buf *out);

/* The renaming the steps matched so far have fixed (renaming.h), for
 * code that writes expected numbers back, such as --update. */
struct ns_renaming;
const struct ns_renaming *ns_matcher_renaming(const struct ns_matcher *m);

#endif
