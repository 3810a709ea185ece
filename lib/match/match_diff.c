/* match_diff.c - the diff shown for a failed step: expected against
 * actual, with the actual numbers written in the expected names wherever
 * the renaming fixes them, so that only real differences stand out. A
 * number the renaming leaves unpaired gets a fresh name in the file's
 * own numbering rather than the kernel's number, which changes from run
 * to run and with -j: the names above the highest one the renaming holds
 * or the step's block writes, given in the order the numbers first
 * appear in the shown actual lines. */
#include "match/match_step.h"

#include <stdlib.h>
#include <string.h>

#include "base/diff.h"
#include "base/util.h"

#define DIFF_CONTEXT 3
#define NONE NS_MATCH_NONE

static bool diff_eq(const struct ns_diff_input *in, size_t i, size_t j)
{
	const struct ns_match_step *st = in->ctx;

	return ns_match_line_fits(st->m->ren, &st->e[i], &st->a[j]);
}

static bool diff_wild(const struct ns_diff_input *in, size_t i)
{
	const struct ns_match_step *st = in->ctx;

	return st->e[i].wild;
}

/* Ordered: the shortest diff over "fits the renaming so far", whose kept
 * pairs are then bound in order, so that a pair contradicting an earlier
 * one of the same step shows as -/+ rather than as context. */
static void layout_ordered(struct ns_match_step *st, const char *const *et,
			   const char *const *at, struct ns_diff *d, size_t *order)
{
	struct ns_renaming *r = st->m->ren;
	struct ns_diff raw = NS_DIFF_INIT;
	struct ns_diff_input in = { et, st->ne, at, st->na, diff_eq, diff_wild,
				    st, 0 };

	ns_diff_compute(&in, &raw);
	for (size_t k = 0; k < raw.n; k++) {
		struct ns_diff_edit ed = raw.v[k];
		size_t mark = ns_renaming_mark(r);
		if (ed.op == NS_DIFF_SAME && !st->e[ed.a].wild &&
		    !ns_match_line_bind(r, &st->e[ed.a], &st->a[ed.b])) {
			ns_renaming_undo_to(r, mark);
			ns_diff_push(d, NS_DIFF_DEL, ed.a, ed.b, 0);
			ns_diff_push(d, NS_DIFF_ADD, ed.a + 1, ed.b, 0);
			continue;
		}
		ns_diff_push(d, ed.op, ed.a, ed.b, ed.nb);
	}
	for (size_t j = 0; j < st->na; j++)
		order[j] = j;
	ns_diff_free(&raw);
}

/* The first unused candidate that e binds with, or NONE. */
static size_t greedy_partner(struct ns_match_step *st,
			     struct ns_match_index *ix,
			     const struct ns_match_line *e)
{
	struct ns_renaming *r = st->m->ren;

	for (size_t j = ns_match_index_first(ix, e); j != NONE; j = ix->next[j]) {
		size_t mark = ns_renaming_mark(r);
		if (ix->used[j])
			continue;
		if (ns_match_line_bind(r, e, &st->a[j])) {
			ix->used[j] = true;
			return j;
		}
		ns_renaming_undo_to(r, mark);
	}
	return NONE;
}

/* Append the actual lines no expected line took to order[] from bpos on;
 * return the new end. */
static size_t put_leftovers(const struct ns_match_step *st,
			    const struct ns_match_index *ix, size_t *order,
			    size_t bpos)
{
	for (size_t j = 0; j < st->na; j++)
		if (!ix->used[j])
			order[bpos++] = j;
	return bpos;
}

/* First-fit partners for every expected line: literal lines their equal,
 * records the first candidate that binds; NONE when there is none.
 * Returns how many found one. */
static size_t greedy_partners(struct ns_match_step *st,
			      struct ns_match_index *ix, size_t *partner)
{
	size_t taken = 0;

	for (size_t i = 0; i < st->ne; i++)
		partner[i] = NONE;
	ns_match_index_take_literals(ix, st, partner);
	for (size_t i = 0; i < st->ne; i++) {
		if (st->e[i].rec)
			partner[i] = greedy_partner(st, ix, &st->e[i]);
		taken += partner[i] != NONE;
	}
	return taken;
}

/* Unordered: expected lines in their order, each next to the actual line
 * a first-fit pairing gave it. Lines nobody took go where the first "..."
 * is, which absorbs them, or at the end as additions. */
static void layout_unordered(struct ns_match_step *st, struct ns_diff *d,
			     size_t *order)
{
	size_t *partner = xcalloc(st->ne, sizeof(*partner));
	size_t bpos = 0, taken;
	bool absorbed = false;
	struct ns_match_index ix;

	ns_match_index_init(&ix, st);
	taken = greedy_partners(st, &ix, partner);
	for (size_t i = 0; i < st->ne; i++) {
		if (st->e[i].wild) {
			size_t nb = absorbed ? 0 : st->na - taken;
			ns_diff_push(d, NS_DIFF_SAME, i, bpos, nb);
			if (!absorbed)
				bpos = put_leftovers(st, &ix, order, bpos);
			absorbed = true;
		} else if (partner[i] != NONE) {
			ns_diff_push(d, NS_DIFF_SAME, i, bpos, 1);
			order[bpos++] = partner[i];
		} else {
			ns_diff_push(d, NS_DIFF_DEL, i, bpos, 0);
		}
	}
	for (size_t p = bpos; !absorbed && p < st->na; p++)
		ns_diff_push(d, NS_DIFF_ADD, st->ne, p, 0);
	if (!absorbed)
		put_leftovers(st, &ix, order, bpos);
	ns_match_index_free(&ix);
	free(partner);
}

/* ---- names for the shown actual lines ---------------------------------- */

/* The fresh names given so far (actual number -> name), and the next. */
struct diff_names {
	const struct ns_renaming *r;
	struct ns_keymap given[NS_RENAMING_NKINDS];
	struct ns_key next[NS_RENAMING_NKINDS];
};

/* The first fresh name of each kind: one above the highest name in use
 * (IDs and groups count up, devices keep the major and count minors). */
static void names_init(struct diff_names *dn, const struct ns_match_step *st)
{
	struct ns_key max[NS_RENAMING_NKINDS];

	memset(dn, 0, sizeof(*dn));
	memset(max, 0, sizeof(max));
	dn->r = st->m->ren;
	for (size_t i = 0; i < st->ne; i++)
		ns_match_line_max_names(&st->e[i], max);
	for (enum ns_renaming_kind k = 0; k < NS_RENAMING_NKINDS; k++) {
		ns_renaming_max_name(dn->r, k, &max[k]);
		dn->next[k] = max[k];
		if (k == NS_RENAMING_DEV)
			dn->next[k].y++;
		else
			dn->next[k] = (struct ns_key){ max[k].x + 1, 0 };
	}
}

static struct ns_key diff_name(void *ctx, enum ns_renaming_kind kind,
			       struct ns_key a)
{
	struct diff_names *dn = ctx;
	const struct ns_key *known = ns_renaming_expected(dn->r, kind, a);
	struct ns_keymap *given = &dn->given[kind];
	struct ns_key name;
	size_t i;

	if (known)
		return *known;
	ns_keymap_reserve(given, 1);
	i = ns_keymap_find(given, a);
	if (ns_keymap_at(given, i))
		return *ns_keymap_at(given, i);
	name = dn->next[kind];
	if (kind == NS_RENAMING_DEV)
		dn->next[kind].y++;
	else
		dn->next[kind].x++;
	ns_keymap_fill(given, i, a, name);
	return name;
}

/* Per shown actual line, the expected line it stands against in a hunk
 * (the first removed against the first added, and so on), or NONE. */
static size_t *partners(const struct ns_match_step *st, const struct ns_diff *d)
{
	size_t *partner = xcalloc(st->na + 1, sizeof(*partner));

	for (size_t p = 0; p <= st->na; p++)
		partner[p] = NONE;
	for (size_t k = 0; k < d->n;) {
		size_t del = k, add;

		while (k < d->n && d->v[k].op == NS_DIFF_DEL)
			k++;
		add = k;
		while (k < d->n && d->v[k].op == NS_DIFF_ADD)
			k++;
		if (del == k)
			k++; /* a line kept */
		for (size_t i = 0; del + i < add && add + i < k; i++)
			if (d->v[add + i].b < st->na)
				partner[d->v[add + i].b] = d->v[del + i].a;
	}
	return partner;
}

/* a, named into out, with each free field (a size, a date) and each
 * loose run of blanks written as e, the line it stands against, writes
 * it when both have it in the same place: a run's sizes and dates, and
 * the widths they make, are no difference to show */
static void name_free_as(const struct ns_match_line *a, const struct ns_match_line *e,
			 struct diff_names *dn, struct ns_buf *out)
{
	struct ns_match_line copy = *a;
	bool same = e && a->tab && e->tab && a->nseg == e->nseg, free_field = false;

	for (size_t i = 0; same && i < a->nseg; i++)
		free_field |= a->seg[i].type == NS_SEG_FREE;
	same &= free_field; /* lines without one show as they always did */

	if (same) {
		copy.seg = xcalloc(a->nseg + 1, sizeof(*copy.seg));
		memcpy(copy.seg, a->seg, a->nseg * sizeof(*copy.seg));
		for (size_t i = 0; i < a->nseg; i++)
			if ((a->seg[i].type == NS_SEG_FREE && e->seg[i].type == NS_SEG_FREE &&
			     a->seg[i].col == e->seg[i].col) ||
			    (a->seg[i].type == NS_SEG_BLANKS && e->seg[i].type == NS_SEG_BLANKS)) {
				copy.seg[i].s = e->seg[i].s;
				copy.seg[i].len = e->seg[i].len;
			}
	}
	ns_match_line_name(&copy, diff_name, dn, out);
	if (same)
		free(copy.seg);
}

/* The actual lines in the order the layout shows them, renamed, their
 * free fields as the expected line they stand against writes them. */
static char **renamed_actual(const struct ns_match_step *st,
			     const size_t *order, const size_t *partner)
{
	char **shown = xcalloc(st->na + 1, sizeof(*shown));
	struct ns_buf line = NS_BUF_INIT;
	struct diff_names dn;

	names_init(&dn, st);
	for (size_t p = 0; p < st->na; p++) {
		name_free_as(&st->a[order[p]], partner[p] < st->ne ? &st->e[partner[p]] : NULL,
			     &dn, &line);
		shown[p] = ns_buf_detach(&line);
	}
	for (enum ns_renaming_kind k = 0; k < NS_RENAMING_NKINDS; k++)
		ns_keymap_free(&dn.given[k]);
	return shown;
}

/* ---- where the names a diff meets were fixed ------------------------------ */

#define NOTES_MAX 10
#define LINE_NUMBERS_MAX 64

/* A line's numbers in its order, as ns_match_line_numbers gives them. */
struct numbers {
	enum ns_renaming_kind kind[LINE_NUMBERS_MAX];
	struct ns_key k[LINE_NUMBERS_MAX];
	size_t n;
};

static void take_number(void *ctx, enum ns_renaming_kind kind, struct ns_key k)
{
	struct numbers *nb = ctx;

	if (nb->n < LINE_NUMBERS_MAX) {
		nb->kind[nb->n] = kind;
		nb->k[nb->n++] = k;
	}
}

struct notes {
	const struct ns_matcher *m;
	struct ns_keymap said[NS_RENAMING_NKINDS];
	size_t n;
	struct ns_buf *out;
};

/* A note for name, if an earlier step fixed it and none was written. */
static void note(struct notes *nt, enum ns_renaming_kind kind, struct ns_key name)
{
	static const char *const what[NS_RENAMING_NKINDS] = {
		"mount ID", "device", "peer group", "inode", "namespace ID", "unique mount ID",
		"shell PID",
	};
	int line = ns_match_origin(nt->m, kind, name);
	struct ns_keymap *s = &nt->said[kind];
	size_t slot;

	if (!line || nt->n >= NOTES_MAX)
		return;
	ns_keymap_reserve(s, 1);
	slot = ns_keymap_find(s, name);
	if (ns_keymap_at(s, slot))
		return;
	ns_keymap_fill(s, slot, name, name);
	ns_buf_addf(nt->out, "# %s %lu", what[kind], name.x);
	if (kind == NS_RENAMING_DEV)
		ns_buf_addf(nt->out, ":%lu", name.y);
	ns_buf_addf(nt->out, " stands for the one line %d showed\n", line);
	nt->n++;
}

/* An expected line against the actual line shown in its place: where
 * the one has a name that stands for another number, or the other a
 * number that another name stands for, say where that name was fixed. */
static void note_pair(struct notes *nt, const struct ns_match_line *e,
		      const struct ns_match_line *a)
{
	const struct ns_renaming *r = nt->m->ren;
	struct numbers en = { .n = 0 }, an = { .n = 0 };

	ns_match_line_numbers(e, take_number, &en);
	ns_match_line_numbers(a, take_number, &an);
	for (size_t p = 0; p < en.n && p < an.n; p++) {
		const struct ns_key *f;

		if (en.kind[p] != an.kind[p])
			break;
		if (ns_renaming_has_name(r, en.kind[p], en.k[p]) &&
		    !ns_renaming_fits(r, en.kind[p], en.k[p], an.k[p]))
			note(nt, en.kind[p], en.k[p]);
		f = ns_renaming_expected(r, an.kind[p], an.k[p]);
		if (f && !ns_key_eq(*f, en.k[p]))
			note(nt, an.kind[p], *f);
	}
}

/* After the hunks: each pair of lines changed in place (partners: the
 * first removed against the first added of a run, and so on) may give
 * notes (note_pair), so that a reader sees why this step's number could
 * not take a name. */
static void origin_notes(const struct ns_match_step *st, const size_t *partner,
			 const size_t *order, struct ns_buf *out)
{
	struct notes nt = { .m = st->m, .out = out };

	for (size_t aj = 0; aj < st->na; aj++) {
		size_t ei = partner[aj];

		if (ei < st->ne && st->e[ei].rec && st->a[order[aj]].rec)
			note_pair(&nt, &st->e[ei], &st->a[order[aj]]);
	}
	for (enum ns_renaming_kind k = 0; k < NS_RENAMING_NKINDS; k++)
		ns_keymap_free(&nt.said[k]);
}

void ns_match_diff(struct ns_match_step *st, bool unordered,
		   struct ns_buf *out)
{
	const char **et = xcalloc(st->ne + 1, sizeof(*et));
	const char **at = xcalloc(st->na + 1, sizeof(*at));
	size_t *order = xcalloc(st->na + 1, sizeof(*order));
	struct ns_diff d = NS_DIFF_INIT;
	size_t *partner;
	char **shown;

	for (size_t i = 0; i < st->ne; i++)
		et[i] = st->e[i].text;
	for (size_t j = 0; j < st->na; j++)
		at[j] = st->a[j].text;
	if (unordered)
		layout_unordered(st, &d, order);
	else
		layout_ordered(st, et, at, &d, order);
	partner = partners(st, &d);
	shown = renamed_actual(st, order, partner);
	if (st->m->gave_up)
		ns_buf_addf(out, "# gave up after %lu line comparisons: too many "
			    "ways to pair these lines\n", st->m->budget);
	ns_buf_adds(out, "--- expected\n+++ actual\n");
	ns_diff_hunks(&d, et, (const char *const *)shown, DIFF_CONTEXT, out);
	ns_renaming_undo_to(st->m->ren, 0);
	origin_notes(st, partner, order, out);
	for (size_t p = 0; p < st->na; p++)
		free(shown[p]);
	free(shown);
	free(partner);
	free(order);
	free(et);
	free(at);
	ns_diff_free(&d);
}
