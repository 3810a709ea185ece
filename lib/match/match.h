/* match.h - compare a step's expected output with what the kernel printed
 * (nstest-scenario(5), EXPECTED OUTPUT). Mountinfo records, and the rows
 * of a findmnt table when the step says which of its fields hold numbers
 * (struct ns_match_shape), match up to one consistent one-to-one renaming
 * of mount IDs, device numbers and peer-group numbers that holds across
 * the scenario, among the numbers alive at the same time: a pair is
 * released once a view shows both numbers dead (ns_matcher_set_view);
 * every other line matches literally; "..." matches any number of lines. */
#ifndef NS_MATCH_H
#define NS_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "match/renaming.h"
#include "mounts/mountinfo_line.h" /* ns_mi_parse(), ns_mi_free() */
#include "match/view.h"
#include "scenario/scenario.h"
#include "base/util.h"
#include "commands/shape.h"          /* struct ns_match_shape */

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
/* ns_matcher_step for a step whose lines have the given shape; NULL is
 * ns_matcher_step's default (mountinfo records renamed). */
bool ns_matcher_step_shaped(struct ns_matcher *m, const struct ns_expect *exp,
			    size_t nexp, bool unordered, const char *actual,
			    const struct ns_match_shape *shape,
			    struct ns_buf *diff);

void ns_matcher_set_budget(struct ns_matcher *m, unsigned long comparisons);

/* The view the next step's output was taken in (match/view.h): where the
 * terminal looked from, and which kinds of numbers the output shows every
 * one of. With a view, the step records in which place each bound pair
 * it meets was seen. A step that then matches, has no "..." line and
 * shows every number of a kind takes each pair of that kind that was seen
 * in this place before but is absent now out of that place; a pair left
 * in no place is released, and both its numbers are free for new pairs
 * (nstest-scenario(5), Reused numbers). A step without a view, the
 * default, records nothing and releases nothing; a view with an unknown
 * (all zero) key pins the pairs it meets for good. */
void ns_matcher_set_view(struct ns_matcher *m, const struct ns_view *v);

/* After a step taken in view v, judged or not: a the numbers of v's
 * place once the step was over, as the backend read them (view.h). Each
 * pair seen in that place whose kernel number a lacks, and that the
 * step's own output did not show, is taken out of the place, and a pair
 * left in no place is released, as a complete view would do it. An
 * unknown place or an unknown a does nothing. */
void ns_matcher_after_step(struct ns_matcher *m, const struct ns_view *v,
			   const struct ns_alive *a);

/* Append line with its numbers renamed into the expected names where the
 * renaming knows them (used by diffs and by `show`). */
void ns_matcher_rename(const struct ns_matcher *m, const char *line,
		       struct ns_buf *out);

/* Append line (read with shape, NULL for mountinfo) with each number the
 * renaming covers replaced by name(ctx, kind, number); a line that has no
 * such numbers is appended as it is. Numbers are visited PARENT before ID
 * (so that a fresh naming gives parents the lower names), then the
 * device, then the peer groups. For --update's rewrite and its names. */
typedef struct ns_key (*ns_match_namer)(void *ctx, enum ns_renaming_kind kind,
					struct ns_key number);
void ns_match_map_numbers(const struct ns_match_shape *shape, const char *line,
			  ns_match_namer name, void *ctx, struct ns_buf *out);

/* The renaming the steps matched so far have fixed (renaming.h), for
 * code that writes expected numbers back, such as --update. */
const struct ns_renaming *ns_matcher_renaming(const struct ns_matcher *m);

/* The words of a findmnt row (shape: NS_MATCH_TABLE) as the matcher cuts
 * them (match_table.c): runs of characters other than ' ', a tree
 * glyph marked so and every other word a field with its column. w has
 * room for strlen(text) / 2 + 1 words; returns their number, and the
 * fields' in *nfields. */
size_t ns_match_table_words(const char *text, const struct ns_match_shape *shape,
			    struct ns_match_word *w, size_t *nfields);

#endif
