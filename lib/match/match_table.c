/* match_table.c - findmnt's rows cut into pieces for the matcher
 * (nstest-scenario(5), findmnt): text that must be equal, numbers the
 * renaming covers, and blanks whose width may change.
 *
 * A tree or list (NS_MATCH_TABLE) is read word by word, a word being a
 * run of characters other than ' '. In a tree, a word that is only a tree
 * glyph ("│", or "|" as findmnt draws it in ASCII) is part of TARGET's
 * tree prefix and no field; every other word is a field, and a row has
 * exactly one field per column (a row with an empty cell, or a cell with a
 * blank inside, is no row and matches literally). A field of an ID,
 * PARENT or MAJ:MIN column that reads as a number (a decimal without
 * leading zeros; MAJOR:MINOR) is renamed; any other field, the heading
 * included, is literal.
 *
 * The blanks between words are literal, except next to a field of an ID,
 * PARENT or MAJ:MIN column, on either side (and before the first word or
 * after the last when that is such a field): there, any number of blanks
 * matches. Those are the only blanks a renaming can change. A column is as
 * wide as its widest cell, so a number renamed to one of another width
 * moves the padding of its own column only: ID and PARENT are
 * right-aligned, which shifts the blanks before the cell; MAJ:MIN is
 * printed "%3u:%-3u" and left-aligned, which shifts the blanks on both
 * sides; every other column keeps its width, so the blanks between two of
 * them, and inside the tree prefix, stay as they are.
 *
 * Raw output (NS_MATCH_RAW) has one space between fields and escapes
 * blanks inside cells, so a row is cut at every space, empty fields
 * included, and all of its spaces are literal. JSON (NS_MATCH_JSON) has a
 * key per line: the values of "id" and "parent" (a number) and of
 * "maj:min" (a string "M:m") are renamed; every other line is literal. */
#include "match/match_step.h"

#include <limits.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "base/util.h"

/* A decimal as findmnt prints one: digits, no sign, no leading zero. */
static bool parse_dec(const char *s, size_t len, unsigned long *out)
{
	unsigned long v = 0;

	if (!len || (s[0] == '0' && len > 1))
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		unsigned long d = (unsigned long)(s[i] - '0');
		if (v > (ULONG_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* The number a field of column c holds, if it is one. */
static bool parse_number(enum ns_match_col c, const char *s, size_t len,
			 struct ns_match_seg *seg)
{
	const char *colon;

	seg->type = NS_SEG_NUM;
	seg->s = s;
	seg->len = len;
	seg->parent = c == NS_MATCH_COL_PARENT;
	seg->k.y = 0;
	seg->form = NS_NUM_PLAIN;
	switch (c) {
	case NS_MATCH_COL_ID:
	case NS_MATCH_COL_PARENT:
		seg->kind = NS_RENAMING_ID;
		return parse_dec(s, len, &seg->k.x);
	case NS_MATCH_COL_DEV:
		seg->kind = NS_RENAMING_DEV;
		colon = memchr(s, ':', len);
		return colon && parse_dec(s, (size_t)(colon - s), &seg->k.x) &&
		       parse_dec(colon + 1, len - (size_t)(colon - s) - 1, &seg->k.y);
	case NS_MATCH_COL_TEXT:
	case NS_MATCH_COL_DEV_DEC: /* not findmnt's: match_fields.c */
	case NS_MATCH_COL_DEV_HEX:
	case NS_MATCH_COL_INO:
	case NS_MATCH_COL_GROUP:
	case NS_MATCH_COL_NSID:
	case NS_MATCH_COL_UNIQUE:
	case NS_MATCH_COL_PID:
	case NS_MATCH_COL_SIZE: /* free: push_field */
	case NS_MATCH_COL_PERCENT:
	case NS_MATCH_COL_DATE:
		break;
	}
	return false;
}

struct segs {
	struct ns_match_line *l;
	size_t cap;
	bool loose;           /* a BLANKS or NUM segment so far */
};

static struct ns_match_seg *push(struct segs *g)
{
	void *v = g->l->seg;

	ns_grow(&v, &g->cap, g->l->nseg + 1, sizeof(*g->l->seg));
	g->l->seg = v;
	memset(&g->l->seg[g->l->nseg], 0, sizeof(*g->l->seg));
	return &g->l->seg[g->l->nseg++];
}

/* Literal text; joined to the text just before it. */
static void push_text(struct segs *g, const char *s, size_t len)
{
	struct ns_match_line *l = g->l;

	if (!len)
		return;
	if (l->nseg && l->seg[l->nseg - 1].type == NS_SEG_TEXT) {
		l->seg[l->nseg - 1].len += len;
		return;
	}
	*push(g) = (struct ns_match_seg){ NS_SEG_TEXT, s, len, NS_RENAMING_ID,
					  false, { 0, 0 }, NS_NUM_PLAIN, NS_MATCH_COL_TEXT };
}

/* Blanks that match any number of blanks (even none, at either end). */
static void push_blanks(struct segs *g, const char *s, size_t len)
{
	*push(g) = (struct ns_match_seg){ NS_SEG_BLANKS, s, len, NS_RENAMING_ID,
					  false, { 0, 0 }, NS_NUM_PLAIN, NS_MATCH_COL_TEXT };
	g->loose = true;
}

/* A field of column c: a number, a free value (findmnt -D's sizes), or
 * literal text. */
static void push_field(struct segs *g, enum ns_match_col c, const char *s,
		       size_t len)
{
	struct ns_match_seg seg;

	if (ns_match_free_value(c, s, len)) {
		*push(g) = (struct ns_match_seg){ NS_SEG_FREE, s, len, NS_RENAMING_ID,
						  false, { 0, 0 }, NS_NUM_PLAIN, c };
		g->loose = true;
		return;
	}
	if (c != NS_MATCH_COL_TEXT && parse_number(c, s, len, &seg)) {
		*push(g) = seg;
		g->loose = true;
		return;
	}
	push_text(g, s, len);
}

/* ---- a tree or a list ------------------------------------------------------ */


static bool is_glyph(const char *s, size_t len)
{
	return (len == 1 && s[0] == '|') ||
	       (len == 3 && memcmp(s, "\xe2\x94\x82", 3) == 0); /* │ */
}

size_t ns_match_table_words(const char *text, const struct ns_match_shape *shape,
			    struct ns_match_word *w, size_t *nfields)
{
	size_t n = 0;

	*nfields = 0;
	for (const char *p = text; *p;) {
		size_t len;

		p += strspn(p, " ");
		if (!*p)
			break;
		len = strcspn(p, " ");
		w[n] = (struct ns_match_word){ p, len, shape->tree && !shape->flat && is_glyph(p, len), 0 };
		if (!w[n].glyph)
			w[n].col = (*nfields)++;
		n++;
		p += len;
	}
	return n;
}

/* Whether word i is a field of a renamed column. */
static bool renamed(const struct ns_match_shape *shape, const struct ns_match_word *w,
		    size_t n, size_t i)
{
	return i < n && !w[i].glyph && shape->cols[w[i].col] != NS_MATCH_COL_TEXT;
}

static bool parse_table(struct segs *g, const char *text,
			const struct ns_match_shape *shape)
{
	size_t len = strlen(text), nfields, n;
	struct ns_match_word *w = xcalloc(len / 2 + 2, sizeof(*w));
	const char *pos = text;

	n = ns_match_table_words(text, shape, w, &nfields);
	if (nfields != shape->ncols) {
		free(w);
		return false;
	}
	for (size_t i = 0; i <= n; i++) {
		const char *end = i < n ? w[i].s : text + len;
		bool loose = renamed(shape, w, n, i) || (i && renamed(shape, w, n, i - 1));

		if (loose)
			push_blanks(g, pos, (size_t)(end - pos));
		else
			push_text(g, pos, (size_t)(end - pos));
		if (i == n)
			break;
		if (w[i].glyph)
			push_text(g, w[i].s, w[i].len);
		else
			push_field(g, shape->cols[w[i].col], w[i].s, w[i].len);
		pos = w[i].s + w[i].len;
	}
	free(w);
	return true;
}

/* ---- raw ------------------------------------------------------------------- */

static bool parse_raw(struct segs *g, const char *text,
		      const struct ns_match_shape *shape)
{
	size_t nfields = 1;
	const char *p = text;

	for (const char *c = text; *c; c++)
		nfields += *c == ' ';
	if (nfields != shape->ncols)
		return false;
	for (size_t i = 0; i < nfields; i++) {
		size_t len = strcspn(p, " ");

		if (i)
			push_text(g, p - 1, 1);
		push_field(g, shape->cols[i], p, len);
		p += len + (i + 1 < nfields);
	}
	return true;
}

/* ---- JSON ------------------------------------------------------------------ */

static bool parse_json(struct segs *g, const char *text)
{
	static const struct {
		const char *key;  /* up to the value */
		enum ns_match_col col;
		const char *close; /* after the value, before an optional ',' */
	} keys[] = {
		{ "\"id\": ", NS_MATCH_COL_ID, "" },
		{ "\"parent\": ", NS_MATCH_COL_PARENT, "" },
		{ "\"maj:min\": \"", NS_MATCH_COL_DEV, "\"" },
		/* findmnt -D's: free */
		{ "\"size\": \"", NS_MATCH_COL_SIZE, "\"" },
		{ "\"used\": \"", NS_MATCH_COL_SIZE, "\"" },
		{ "\"avail\": \"", NS_MATCH_COL_SIZE, "\"" },
		{ "\"use%\": \"", NS_MATCH_COL_PERCENT, "\"" },
	};
	const char *p = text + strspn(text, " ");

	for (size_t i = 0; i < NS_ARRAY_SIZE(keys); i++) {
		size_t klen = strlen(keys[i].key), clen = strlen(keys[i].close);
		const char *v = p + klen, *after;
		size_t vlen;

		if (strncmp(p, keys[i].key, klen))
			continue;
		vlen = strcspn(v, "\",");
		after = v + vlen;
		if (strncmp(after, keys[i].close, clen) ||
		    (strcmp(after + clen, "") && strcmp(after + clen, ",")))
			return false;
		push_text(g, text, (size_t)(v - text));
		push_field(g, keys[i].col, v, vlen);
		push_text(g, after, strlen(after));
		return true;
	}
	return false;
}

/* ---- the API --------------------------------------------------------------- */

bool ns_match_table_parse(struct ns_match_line *l, const char *text,
			  const struct ns_match_shape *shape)
{
	struct segs g = { l, 0, false };
	bool ok = false;

	l->seg = NULL;
	l->nseg = 0;
	switch (shape->form) {
	case NS_MATCH_TABLE:
		ok = parse_table(&g, text, shape);
		break;
	case NS_MATCH_RAW:
		ok = parse_raw(&g, text, shape);
		break;
	case NS_MATCH_JSON:
		ok = parse_json(&g, text);
		break;
	case NS_MATCH_FIELDS:
		return ns_match_fields_parse(l, text, shape);
	case NS_MATCH_WORDS:
		return ns_match_words_parse(l, text, shape);
	}
	if (ok && g.loose)
		return true;
	free(l->seg); /* nothing but text: the line matches literally */
	l->seg = NULL;
	l->nseg = 0;
	return false;
}

void ns_match_table_format(const struct ns_match_line *l,
			   const struct ns_key *names, const char *letters,
			   struct ns_buf *out)
{
	for (size_t i = 0; i < l->nseg; i++) {
		const struct ns_match_seg *s = &l->seg[i];
		struct ns_key k = names ? names[i] : s->k;

		if (letters && s->type == NS_SEG_BLANKS) {
			if (i && i + 1 < l->nseg) /* none at either end */
				ns_buf_addc(out, ' ');
			continue;
		}
		if (letters && s->type == NS_SEG_FREE) {
			ns_buf_addc(out, '*'); /* no value of a run's */
			continue;
		}
		if (s->type != NS_SEG_NUM) {
			ns_buf_add(out, s->s, s->len);
			continue;
		}
		if (letters) {
			ns_buf_addc(out, letters[s->kind]);
			ns_buf_addu(out, k.x);
			continue;
		}
		if (s->form == NS_NUM_DEV_DEC || s->form == NS_NUM_DEV_HEX) {
			ns_buf_addf(out, s->form == NS_NUM_DEV_HEX ? "%llx" : "%llu",
				    (unsigned long long)makedev((unsigned)k.x, (unsigned)k.y));
			continue;
		}
		ns_buf_addu(out, k.x);
		if (s->kind == NS_RENAMING_DEV) {
			ns_buf_addc(out, ':');
			ns_buf_addu(out, k.y);
		}
	}
}
