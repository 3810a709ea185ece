/* match_step.h - what the matcher's files share; not part of its API.
 *
 *   match.c         the API: a step set up, matched, and kept or undone
 *   match_line.c    one line of a step against another, under the renaming
 *   match_table.c   findmnt's rows cut into pieces (struct ns_match_shape)
 *   match_search.c  the search for a pairing, ordered and unordered
 *   match_index.c   an unordered block's actual lines, found by signature
 *   match_diff.c    the diff shown for a failed step
 */
#ifndef NS_MATCH_STEP_H
#define NS_MATCH_STEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match/keymap.h"
#include "match/match.h"
#include "match/renaming.h"

#define NS_MATCH_NONE SIZE_MAX /* no line */

/* A piece of a findmnt row: text that must be equal, blanks whose width
 * may differ, a number the renaming covers, or a free field (a size, a
 * percentage, a date: any value of its form matches). */
enum ns_seg_type { NS_SEG_TEXT, NS_SEG_BLANKS, NS_SEG_NUM, NS_SEG_FREE };

/* How a number is written: as its kind says (N, or MAJOR:MINOR for a
 * device), or a device as one number (stat's %d, %D). */
enum ns_num_form { NS_NUM_PLAIN, NS_NUM_DEV_DEC, NS_NUM_DEV_HEX };

struct ns_match_seg {
	enum ns_seg_type type;
	const char *s;        /* TEXT, BLANKS: the text in the line */
	size_t len;
	enum ns_renaming_kind kind; /* NUM */
	bool parent;          /* NUM: a PARENT column */
	struct ns_key k;      /* NUM */
	enum ns_num_form form; /* NUM */
	enum ns_match_col col; /* FREE: its form (SIZE, PERCENT, DATE) */
};

struct ns_matcher {
	struct ns_renaming *ren;
	unsigned long budget, spent; /* line comparisons a step may try, tried */
	bool gave_up;
	/* the places steps looked from (struct ns_view keys), bit i for
	 * place i; the view of the next step, if set; steps with a view */
	uint64_t (*places)[3];
	size_t nplaces, placecap;
	struct ns_view view;
	bool has_view;
	uint32_t stamp;
	/* expected name -> {the file line that first showed it, 0}, for
	 * the pairs bound by steps that matched (a failed step's diff
	 * says where a name it meets was fixed) */
	struct ns_keymap origin[NS_RENAMING_NKINDS];
};

/* A line of a step: expected or actual, parsed once. */
struct ns_match_line {
	const char *text;
	bool wild;            /* an expected "..." */
	bool mi;              /* parsed as mountinfo into p */
	bool tab;             /* parsed as a findmnt row into seg */
	bool rec;             /* mi or tab: matched up to the renaming */
	struct ns_mi_line p;
	struct ns_match_seg *seg;
	size_t nseg;
};

struct ns_match_step {
	struct ns_matcher *m;
	const struct ns_expect *exp; /* the block, for its file lines */
	struct ns_match_line *e, *a;
	size_t ne, na;
	size_t nwild;
	char *act;            /* the actual text, cut into lines */
	const struct ns_match_shape *shape; /* NULL: mountinfo records */
};

/* ---- match.c: a step's sightings (renaming.h) ---- */

/* Start a step on m: sightings in the view ns_matcher_set_view gave, if
 * any, and the renaming's trail emptied. Returns the view's bit (0 for
 * no view). */
uint32_t ns_match_sighting_begin(struct ns_matcher *m);

/* After a step that matched with no "...": with a view that shows every
 * number of a kind, release that kind's pairs this step did not show. */
void ns_match_release_absent(struct ns_matcher *m, uint32_t bit);

/* The file line that first showed expected name `name` of a pair bound
 * in a step that matched (0: none known). */
int ns_match_origin(const struct ns_matcher *m, enum ns_renaming_kind kind, struct ns_key name);

/* End the step: no more sightings, and no view for the next one. */
void ns_match_sighting_end(struct ns_matcher *m);

/* ---- match_line.c ---- */

void ns_match_line_init(struct ns_match_line *l, const char *text,
			bool expected, const struct ns_match_shape *shape);
void ns_match_line_free(struct ns_match_line *l);

/* Append l with each number replaced by name(ctx, kind, number), in the
 * order ns_match_map_numbers visits them. */
void ns_match_line_name(const struct ns_match_line *l, ns_match_namer name,
			void *ctx, struct ns_buf *out);

/* ns_match_line_name with each name written, when letters is not NULL,
 * as letters[kind] and the name's x ("M3", "D1", "P2", "I4"), whatever
 * form the line wrote the number in, and a row's blanks that the
 * renaming makes loose as one blank (none at either end): the canonical
 * form (canonical.h). */
void ns_match_line_name_as(const struct ns_match_line *l, ns_match_namer name,
			   void *ctx, const char *letters, struct ns_buf *out);

/* Append l with its numbers renamed into the expected names where the
 * renaming knows them. */
void ns_match_line_rename(const struct ns_renaming *r,
			  const struct ns_match_line *l, struct ns_buf *out);

/* e matches a under the renaming, extended by whatever pairs a needs.
 * On false, some of those pairs may be bound: the caller undoes them. */
bool ns_match_line_bind(struct ns_renaming *r, const struct ns_match_line *e,
			const struct ns_match_line *a);

/* A hash of what in l must be equal literally, and of its kind
 * (match_index.c). */
struct ns_key ns_match_line_signature(const struct ns_match_line *l);

/* Call fn on each renamed number of l, in the line's order. */
void ns_match_line_numbers(const struct ns_match_line *l,
			   void (*fn)(void *ctx, enum ns_renaming_kind kind, struct ns_key k),
			   void *ctx);

/* Raise max[kind] to the highest number of each kind l holds. */
void ns_match_line_max_names(const struct ns_match_line *l,
			     struct ns_key max[NS_RENAMING_NKINDS]);

/* Every number of l that is bound counts as seen (ns_renaming_see). */
void ns_match_line_see(struct ns_renaming *r, const struct ns_match_line *l);

/* e could match a without contradicting the renaming as it stands (the
 * line's own numbers are not checked against each other). */
bool ns_match_line_fits(const struct ns_renaming *r,
			const struct ns_match_line *e,
			const struct ns_match_line *a);

/* ---- match_table.c ---- */

/* Cut text into l->seg as a row of shape; false (and no segments) when it
 * is not one, or has no number and no blanks to compare loosely. */
bool ns_match_table_parse(struct ns_match_line *l, const char *text,
			  const struct ns_match_shape *shape);

/* ---- match_fields.c ---- */

/* Cut text into l->seg as a line of an NS_MATCH_FIELDS shape; false (and
 * no segments) when it is not one or holds no number to rename. */
bool ns_match_fields_parse(struct ns_match_line *l, const char *text,
			   const struct ns_match_shape *shape);

/* Append the segments, each number as names[] gives it (NULL: as is),
 * written in its own form, or as ns_match_line_name_as does with letters
 * (NULL: numbers). */
void ns_match_table_format(const struct ns_match_line *l,
			   const struct ns_key *names, const char *letters,
			   struct ns_buf *out);

/* ---- match_free.c ---- */

/* Whether s[0..len) is a value of free column c (SIZE, PERCENT). */
bool ns_match_free_value(enum ns_match_col c, const char *s, size_t len);

/* Cut text into l->seg as a line of an NS_MATCH_WORDS shape; false (and
 * no segments) when it is not one. */
bool ns_match_words_parse(struct ns_match_line *l, const char *text,
			  const struct ns_match_shape *shape);

/* ---- match_search.c ---- */

/* Find a pairing of st's lines and keep its bindings on the trail; on
 * false, the renaming is as it was. */
bool ns_match_ordered(struct ns_match_step *st);
bool ns_match_unordered(struct ns_match_step *st);

/* ---- match_index.c ---- */

/* The actual lines chained by signature, in their order, so that the
 * candidates for an expected line are found in one lookup. */
struct ns_match_index {
	struct ns_keymap heads; /* (signature, is record) -> first line, or NONE */
	size_t *next;         /* the next line with the same signature, or NONE */
	bool *used;           /* taken by an expected line */
};

void ns_match_index_init(struct ns_match_index *ix,
			 const struct ns_match_step *st);
void ns_match_index_free(struct ns_match_index *ix);

/* The first candidate of e, or NONE; ix->next[] leads to the others. */
size_t ns_match_index_first(struct ns_match_index *ix,
			    const struct ns_match_line *e);

/* Give every literal expected line its own equal actual line. partner, if
 * not NULL, records the choice (or NONE) and lets the walk go on past a
 * line without one. */
bool ns_match_index_take_literals(struct ns_match_index *ix,
				  const struct ns_match_step *st,
				  size_t *partner);

/* ---- match_diff.c ---- */

/* Append the unified diff of a failed step. The renaming is the one from
 * before the step plus the pairs the diff shows as matching; it is undone
 * before returning. */
void ns_match_diff(struct ns_match_step *st, bool unordered,
		   struct ns_buf *out);

#endif
