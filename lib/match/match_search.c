/* match_search.c - the search for a pairing of a step's expected lines
 * with its actual lines that one renaming explains. An ordered block
 * pairs lines in order, each "..." taking whatever run of lines lets the
 * rest match; an unordered block pairs every expected line with its own
 * actual line in any order. Both backtrack, undoing the renaming's trail,
 * and both stop at the matcher's budget of line comparisons. */
#include "match/match_step.h"

#include <stdlib.h>

#include "base/util.h"

#define NONE NS_MATCH_NONE

/* ns_match_line_bind for the searches, which may take exponentially many
 * tries: past the budget every try fails and the step is reported as
 * given up. */
static bool try_bind(struct ns_matcher *m, const struct ns_match_line *e,
		     const struct ns_match_line *a)
{
	if (m->spent >= m->budget) {
		m->gave_up = true;
		return false;
	}
	m->spent++;
	return ns_match_line_bind(m->ren, e, a);
}

/* ---- ordered blocks ------------------------------------------------------ */

struct ordered {
	struct ns_match_step *st;
	size_t *need;         /* need[i]: non-wild lines in e[i..ne) */
	bool *wild_from;      /* wild_from[i]: a "..." somewhere in e[i..ne) */
};

/* Match e[i..) against a[j..), trying each split at every "...". */
static bool ordered_from(struct ordered *o, size_t i, size_t j)
{
	struct ns_match_step *st = o->st;

	for (; i < st->ne && !st->e[i].wild; i++, j++)
		if (j >= st->na || !try_bind(st->m, &st->e[i], &st->a[j]))
			return false;
	if (i == st->ne)
		return j == st->na;
	while (i < st->ne && st->e[i].wild)
		i++; /* "... ..." is one "..." */
	if (st->na - j < o->need[i])
		return false;
	size_t last = st->na - o->need[i];
	/* after the last "..." the tail has a fixed length */
	for (size_t k = o->wild_from[i] ? j : last; k <= last; k++) {
		size_t mark = ns_renaming_mark(st->m->ren);
		if (ordered_from(o, i, k))
			return true;
		ns_renaming_undo_to(st->m->ren, mark);
		if (st->m->gave_up)
			return false;
	}
	return false;
}

bool ns_match_ordered(struct ns_match_step *st)
{
	struct ordered o = { st, xcalloc(st->ne + 1, sizeof(size_t)),
			     xcalloc(st->ne + 1, sizeof(bool)) };
	bool ok;

	for (size_t i = st->ne; i-- > 0;) {
		o.need[i] = o.need[i + 1] + !st->e[i].wild;
		o.wild_from[i] = o.wild_from[i + 1] || st->e[i].wild;
	}
	ok = ordered_from(&o, 0, 0);
	free(o.need);
	free(o.wild_from);
	return ok;
}

/* ---- unordered blocks ---------------------------------------------------- */

/* Where the pairing search stands for one expected record. */
struct frame {
	size_t pos;           /* the next candidate to try, or NONE */
	size_t j, mark;       /* the partner taken, the trail before it */
};

/* Bind e to the next unused candidate of f that fits. */
static bool next_partner(struct ns_match_step *st, struct ns_match_index *ix,
			 const struct ns_match_line *e, struct frame *f)
{
	while (f->pos != NONE) {
		size_t j = f->pos;
		f->pos = ix->next[j];
		if (ix->used[j])
			continue;
		f->mark = ns_renaming_mark(st->m->ren);
		if (try_bind(st->m, e, &st->a[j])) {
			ix->used[j] = true;
			f->j = j;
			return true;
		}
		ns_renaming_undo_to(st->m->ren, f->mark);
		if (st->m->gave_up)
			return false;
	}
	return false;
}

/* Pair every expected record with its own actual record, backtracking
 * (without recursion, blocks can be long) when a choice leads nowhere. */
static bool pair_records(struct ns_match_step *st, struct ns_match_index *ix)
{
	struct frame *f = xcalloc(st->ne + 1, sizeof(*f));
	size_t *rec = xcalloc(st->ne + 1, sizeof(*rec)), n = 0, t = 0;

	for (size_t i = 0; i < st->ne; i++)
		if (st->e[i].rec)
			rec[n++] = i;
	if (n)
		f[0].pos = ns_match_index_first(ix, &st->e[rec[0]]);
	while (t < n) {
		if (next_partner(st, ix, &st->e[rec[t]], &f[t])) {
			if (++t < n)
				f[t].pos = ns_match_index_first(ix, &st->e[rec[t]]);
			continue;
		}
		if (t == 0 || st->m->gave_up)
			break;
		t--;
		ix->used[f[t].j] = false;
		ns_renaming_undo_to(st->m->ren, f[t].mark);
	}
	free(f);
	free(rec);
	return t == n;
}

bool ns_match_unordered(struct ns_match_step *st)
{
	size_t nreg = st->ne - st->nwild;
	struct ns_match_index ix;
	bool ok;

	if (st->nwild ? nreg > st->na : nreg != st->na)
		return false;
	ns_match_index_init(&ix, st);
	ok = ns_match_index_take_literals(&ix, st, NULL) && pair_records(st, &ix);
	ns_match_index_free(&ix);
	return ok;
}
