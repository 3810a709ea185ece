/* canonical.c - see canonical.h.
 *
 * The names are the matcher's own: a struct ns_matcher whose renaming
 * pairs each name (the "expected" side, 1, 2, ... per kind) with the
 * number it stands for. A number met for the first time is bound to the
 * next name of its kind; one met again gets its name back and counts as
 * seen, so that the matcher's views release a pair exactly when they
 * would release it in a judged step that matched. Lines are cut and
 * written by the matcher's code (ns_match_line_init, ns_match_line_name_as),
 * so the canonical form renames what the judge renames, and nothing else. */
#include "match/canonical.h"

#include <stdlib.h>
#include <string.h>

#include "match/match_step.h"
#include "match/match_tree.h"

/* The letter of each renaming kind. */
static const char letters[NS_RENAMING_NKINDS] = { 'M', 'D', 'P', 'I', 'N', 'U', 'S' };

struct ns_canon {
	struct ns_matcher *m;             /* its renaming: name <-> number */
	unsigned long last[NS_RENAMING_NKINDS]; /* the last name given */
	bool sorted;
};

struct ns_canon *ns_canon_new(bool sorted)
{
	struct ns_canon *c = xcalloc(1, sizeof(*c));

	c->m = ns_matcher_new();
	c->sorted = sorted;
	return c;
}

void ns_canon_free(struct ns_canon *c)
{
	if (!c)
		return;
	ns_matcher_free(c->m);
	free(c);
}

/* The name of number a: its pair's, or the next one of its kind. */
static struct ns_key name_of(void *ctx, enum ns_renaming_kind kind, struct ns_key a)
{
	struct ns_canon *c = ctx;
	const struct ns_key *known = ns_renaming_expected(c->m->ren, kind, a);
	struct ns_key name;

	if (known) {
		name = *known;
		ns_renaming_see(c->m->ren, kind, a);
		return name;
	}
	name = (struct ns_key){ ++c->last[kind], 0 };
	ns_renaming_bind(c->m->ren, kind, name, a); /* both sides are free */
	return name;
}

/* Every number the same: a line's text with its names left out. */
static struct ns_key no_name(void *ctx, enum ns_renaming_kind kind, struct ns_key a)
{
	(void)ctx;
	(void)kind;
	(void)a;
	return (struct ns_key){ 0, 0 };
}

struct sorting {
	char **key;
};

static int by_key(const void *pa, const void *pb, void *ctx)
{
	const struct sorting *s = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = strcmp(s->key[a], s->key[b]);

	return c ? c : (a > b) - (a < b);
}

/* The order to name lines[0..n) in: as they are, or sorted by their
 * text with the names left out (lines equal that way keep their order). */
static size_t *line_order(const struct ns_canon *c, char *const *lines, size_t n,
			  const struct ns_match_shape *shape)
{
	size_t *order = xcalloc(n + 1, sizeof(*order));
	struct sorting s = { NULL };
	struct ns_buf b = NS_BUF_INIT;

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	if (!c->sorted || n < 2)
		return order;
	s.key = xcalloc(n, sizeof(*s.key));
	for (size_t i = 0; i < n; i++) {
		struct ns_match_line l;

		memset(&l, 0, sizeof(l));
		ns_match_line_init(&l, lines[i], false, shape);
		ns_buf_reset(&b);
		ns_match_line_name_as(&l, no_name, NULL, letters, &b);
		s.key[i] = xstrdup(ns_buf_str(&b));
		ns_match_line_free(&l);
	}
	qsort_r(order, n, sizeof(*order), by_key, &s);
	for (size_t i = 0; i < n; i++)
		free(s.key[i]);
	free(s.key);
	ns_buf_free(&b);
	return order;
}

/* The start of word k of text (words as a row's fields: runs of
 * characters other than ' '), or its end. */
static size_t word_at(const char *text, size_t k)
{
	size_t i = strspn(text, " ");

	for (; k && text[i]; k--) {
		i += strcspn(text + i, " ");
		i += strspn(text + i, " ");
	}
	return i;
}

/* Append line named. A nested row of a findmnt tree whose tree column is
 * not the first (head bytes before its prefix of plen bytes) is named
 * without its prefix, and the prefix put back before its tree field:
 * the blanks before it are loose, and would take the prefix's blank
 * groups with them. */
static void name_line(struct ns_canon *c, const char *line, const struct ns_match_shape *shape,
		      size_t head, size_t plen, struct ns_buf *out)
{
	struct ns_match_line l;
	char *row = NULL;

	memset(&l, 0, sizeof(l));
	if (plen && shape && shape->tree_col) {
		row = xasprintf("%.*s%s", (int)head, line, line + head + plen);
		ns_match_line_init(&l, row, false, shape);
		if (l.tab) {
			struct ns_buf b = NS_BUF_INIT;
			size_t at;

			ns_match_line_name_as(&l, name_of, c, letters, &b);
			at = word_at(ns_buf_str(&b), shape->tree_col);
			ns_buf_add(out, ns_buf_str(&b), at);
			ns_buf_add(out, line + head, plen);
			ns_buf_adds(out, ns_buf_str(&b) + at);
			ns_buf_free(&b);
			ns_match_line_free(&l);
			free(row);
			return;
		}
		ns_match_line_free(&l);
		free(row);
		memset(&l, 0, sizeof(l));
	}
	ns_match_line_init(&l, line, false, shape);
	ns_match_line_name_as(&l, name_of, c, letters, out);
	ns_match_line_free(&l);
}

void ns_canon_step(struct ns_canon *c, const char *output,
		   const struct ns_match_shape *shape,
		   const struct ns_match_shape *tree, const struct ns_view *view,
		   struct ns_buf *out)
{
	struct ns_lines printed = NS_LINES_INIT, sorted = NS_LINES_INIT;
	struct ns_lines *lines = &printed;
	const char *text = output ? output : "";
	size_t len = strlen(text), *order, *head, *plen;
	uint32_t bit;

	ns_lines_split(&printed, text, len);
	if (tree && ns_match_tree_sorted((const char *const *)printed.v, printed.n, tree, &sorted))
		lines = &sorted;
	order = line_order(c, lines->v, lines->n, shape);
	head = xcalloc(lines->n + 1, sizeof(*head));
	plen = xcalloc(lines->n + 1, sizeof(*plen));
	if (tree && shape)
		ns_match_tree_prefixes((const char *const *)lines->v, lines->n, tree, head, plen);
	if (view)
		ns_matcher_set_view(c->m, view);
	bit = ns_match_sighting_begin(c->m);
	for (size_t i = 0; i < lines->n; i++) {
		size_t k = order[i];

		name_line(c, lines->v[k], shape, head[k], plen[k], out);
		if (i + 1 < lines->n || text[len - 1] == '\n')
			ns_buf_addc(out, '\n');
	}
	/* the step matched itself: keep its pairs, release what it shows gone */
	ns_renaming_keep(c->m->ren);
	ns_match_release_absent(c->m, bit);
	ns_match_sighting_end(c->m);
	free(order);
	free(head);
	free(plen);
	ns_lines_free(&printed);
	ns_lines_free(&sorted);
}

void ns_canon_after_step(struct ns_canon *c, const struct ns_view *view,
			 const struct ns_alive *alive)
{
	if (view)
		ns_matcher_after_step(c->m, view, alive);
}
