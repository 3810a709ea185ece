/* match_line.c - one line of a step against another (nstest-scenario(5),
 * EXPECTED OUTPUT): a mountinfo record, or a findmnt row in a step with a
 * shape, matches one that differs only in the numbers the renaming covers
 * (and, in a row, in the blanks next to them), and only where the renaming
 * allows; any other line matches itself. */
#include "match/match_step.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- peer groups in any line ------------------------------------------- */

static const char *const group_tags[] = { "shared:", "master:", "propagate_from:" };

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* The length of a tag of group_tags at p, a word's start, followed by a
 * number that ends the word; 0 for none. *digits: the number's length. */
static size_t group_tag_at(const char *p, size_t *digits)
{
	for (size_t t = 0; t < sizeof(group_tags) / sizeof(*group_tags); t++) {
		size_t n = strlen(group_tags[t]), d = 0;

		if (strncmp(p, group_tags[t], n))
			continue;
		while (p[n + d] >= '0' && p[n + d] <= '9')
			d++;
		if (d && d < 10 && !word_char(p[n + d])) {
			*digits = d;
			return n;
		}
	}
	return 0;
}

static void push_seg(struct ns_match_line *l, size_t *cap, struct ns_match_seg seg)
{
	void *v = l->seg;

	ns_grow(&v, cap, l->nseg + 1, sizeof(*l->seg));
	l->seg = v;
	l->seg[l->nseg++] = seg;
}

/* A line that is no record, but names peer groups as mountinfo's
 * optional fields do (`shared:N`, `master:N`, `propagate_from:N`, as an
 * awk or cut of mountinfo prints them): cut into text and group numbers,
 * so that the numbers are renamed as a record's are (nstest-scenario(5),
 * EXPECTED OUTPUT). False, with no pieces, for a line without one. */
static bool parse_group_tags(struct ns_match_line *l, const char *text)
{
	size_t cap = 0, start = 0;
	bool any = false;

	for (size_t i = 0; text[i]; i++) {
		size_t tag, digits = 0;

		if ((i && word_char(text[i - 1])) || !(tag = group_tag_at(text + i, &digits)))
			continue;
		if (i + tag > start)
			push_seg(l, &cap, (struct ns_match_seg){ NS_SEG_TEXT, text + start, i + tag - start,
							     NS_RENAMING_ID, false, { 0, 0 },
							     NS_NUM_PLAIN, NS_MATCH_COL_TEXT });
		push_seg(l, &cap, (struct ns_match_seg){ NS_SEG_NUM, text + i + tag, digits,
						     NS_RENAMING_GROUP, false,
						     { strtoul(text + i + tag, NULL, 10), 0 },
						     NS_NUM_PLAIN, NS_MATCH_COL_TEXT });
		start = i + tag + digits;
		i = start - 1;
		any = true;
	}
	if (!any)
		return false;
	if (text[start])
		push_seg(l, &cap, (struct ns_match_seg){ NS_SEG_TEXT, text + start, strlen(text + start),
						     NS_RENAMING_ID, false, { 0, 0 }, NS_NUM_PLAIN, NS_MATCH_COL_TEXT });
	return true;
}

void ns_match_line_init(struct ns_match_line *l, const char *text,
			bool expected, const struct ns_match_shape *shape)
{
	l->text = text;
	l->wild = expected && strcmp(text, "...") == 0;
	if (l->wild)
		return;
	if (shape)
		l->tab = ns_match_table_parse(l, text, shape);
	else
		l->mi = ns_mi_parse(text, &l->p);
	if (!l->mi && !l->tab)
		l->tab = parse_group_tags(l, text);
	l->rec = l->mi || l->tab;
}

void ns_match_line_free(struct ns_match_line *l)
{
	ns_mi_free(&l->p);
	free(l->seg);
	l->seg = NULL;
	l->nseg = 0;
}

/* The i-th renamable number of a record: 0 ID, 1 PARENT, 2 MAJ:MIN, then
 * one per tag. False for a literal tag, which has none. */
static bool number_at(const struct ns_mi_line *l, size_t i,
		      enum ns_renaming_kind *kind, struct ns_key *k)
{
	if (i < 2) {
		*kind = NS_RENAMING_ID;
		*k = (struct ns_key){ i ? l->parent : l->id, 0 };
		return true;
	}
	if (i == 2) {
		*kind = NS_RENAMING_DEV;
		*k = (struct ns_key){ l->major, l->minor };
		return true;
	}
	if (!l->tags[i - 3].numbered)
		return false;
	*kind = NS_RENAMING_GROUP;
	*k = (struct ns_key){ l->tags[i - 3].group, 0 };
	return true;
}

/* Everything the renaming does not touch is equal. */
static bool same_shape(const struct ns_mi_line *e, const struct ns_mi_line *a)
{
	if (strcmp(e->root, a->root) || strcmp(e->mountpoint, a->mountpoint) ||
	    strcmp(e->opts, a->opts) || strcmp(e->rest, a->rest) ||
	    e->ntags != a->ntags)
		return false;
	for (size_t i = 0; i < e->ntags; i++)
		if (e->tags[i].numbered != a->tags[i].numbered ||
		    strcmp(e->tags[i].name, a->tags[i].name))
			return false;
	return true;
}

/* The same pieces, with equal text; numbers of the same kind; free
 * values of the same form; blanks of any width. */
static bool same_segs(const struct ns_match_line *e, const struct ns_match_line *a)
{
	if (e->nseg != a->nseg)
		return false;
	for (size_t i = 0; i < e->nseg; i++) {
		const struct ns_match_seg *x = &e->seg[i], *y = &a->seg[i];

		if (x->type != y->type)
			return false;
		if (x->type == NS_SEG_NUM && x->kind != y->kind)
			return false;
		if (x->type == NS_SEG_FREE && x->col != y->col)
			return false;
		if (x->type == NS_SEG_TEXT &&
		    (x->len != y->len || memcmp(x->s, y->s, x->len)))
			return false;
	}
	return true;
}

static bool same_literally(const struct ns_match_line *e,
			   const struct ns_match_line *a)
{
	if (e->mi != a->mi || e->tab != a->tab)
		return false;
	if (e->mi)
		return same_shape(&e->p, &a->p);
	if (e->tab)
		return same_segs(e, a);
	return strcmp(e->text, a->text) == 0;
}

/* The i-th renamable number of a line (mountinfo or row), as number_at. */
static bool line_number_at(const struct ns_match_line *l, size_t i,
			   enum ns_renaming_kind *kind, struct ns_key *k)
{
	if (l->mi)
		return number_at(&l->p, i, kind, k);
	if (l->seg[i].type != NS_SEG_NUM)
		return false;
	*kind = l->seg[i].kind;
	*k = l->seg[i].k;
	return true;
}

static size_t line_nnumbers(const struct ns_match_line *l)
{
	if (l->mi)
		return 3 + l->p.ntags;
	return l->tab ? l->nseg : 0;
}

/* Check every number pair of two literally equal lines against the
 * renaming; with bind, also record the new pairs. */
static bool numbers_agree(struct ns_renaming *r, const struct ns_match_line *e,
			  const struct ns_match_line *a, bool bind)
{
	enum ns_renaming_kind kind;
	struct ns_key ke, ka;

	if (!same_literally(e, a))
		return false;
	for (size_t i = 0, n = line_nnumbers(e); i < n; i++) {
		if (!line_number_at(e, i, &kind, &ke) || !line_number_at(a, i, &kind, &ka))
			continue;
		if (bind ? !ns_renaming_bind(r, kind, ke, ka) : !ns_renaming_fits(r, kind, ke, ka))
			return false;
	}
	return true;
}

bool ns_match_line_bind(struct ns_renaming *r, const struct ns_match_line *e,
			const struct ns_match_line *a)
{
	return numbers_agree(r, e, a, true);
}

bool ns_match_line_fits(const struct ns_renaming *r,
			const struct ns_match_line *e,
			const struct ns_match_line *a)
{
	/* fits only reads the renaming */
	return numbers_agree((struct ns_renaming *)(uintptr_t)r, e, a, false);
}

void ns_match_line_numbers(const struct ns_match_line *l,
			   void (*fn)(void *ctx, enum ns_renaming_kind kind, struct ns_key k),
			   void *ctx)
{
	enum ns_renaming_kind kind;
	struct ns_key k;

	for (size_t i = 0, n = line_nnumbers(l); i < n; i++)
		if (line_number_at(l, i, &kind, &k))
			fn(ctx, kind, k);
}

void ns_match_line_max_names(const struct ns_match_line *l,
			     struct ns_key max[NS_RENAMING_NKINDS])
{
	enum ns_renaming_kind kind;
	struct ns_key k;

	for (size_t i = 0, n = line_nnumbers(l); i < n; i++)
		if (line_number_at(l, i, &kind, &k))
			ns_key_raise(&max[kind], k);
}

void ns_match_line_see(struct ns_renaming *r, const struct ns_match_line *l)
{
	enum ns_renaming_kind kind;
	struct ns_key k;

	for (size_t i = 0, n = line_nnumbers(l); i < n; i++)
		if (line_number_at(l, i, &kind, &k))
			ns_renaming_see(r, kind, k);
}
