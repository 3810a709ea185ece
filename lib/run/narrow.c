/* narrow.c - findmnt's tables as a narrow terminal showed them: rows
 * findmnt broke joined, cut cells matched by their start (narrow.h). */
#include "run/narrow.h"

#include <string.h>

#include "base/util.h"
#include "match/match.h"

/* Characters a terminal shows for len bytes of UTF-8 text: every byte
 * but the continuation bytes (findmnt's glyphs are one column wide). */
static size_t width(const char *s, size_t len)
{
	size_t w = 0;

	for (size_t i = 0; i < len; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

/* The first n characters of s (len bytes), in bytes. */
static size_t first_chars(const char *s, size_t len, size_t n)
{
	size_t i = 0;

	for (size_t w = 0; i < len; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && w++ == n)
			break;
	}
	return i;
}

/* The words of a line, and how many are fields. */
struct words {
	struct ns_match_word *w;
	size_t n, nfields;
};

static void cut(struct words *ws, const char *text, const struct ns_match_shape *sh)
{
	ws->w = xcalloc(strlen(text) / 2 + 2, sizeof(*ws->w));
	ws->n = ns_match_table_words(text, sh, ws->w, &ws->nfields);
}

/* A row in the second form: its tree prefix as written (everything
 * before its first field, in a tree), then its fields one blank apart,
 * the k-th field of the row being cell column k; the cells of a column
 * with a width in cutw cut to it. text is a row of sh->ncols fields. */
static void add_row(struct ns_buf *out, const char *text, const struct ns_match_shape *sh,
		    const size_t *cutw)
{
	struct words ws;
	size_t col = 0;

	cut(&ws, text, sh);
	for (size_t i = 0; i < ws.n; i++) {
		const struct ns_match_word *w = &ws.w[i];
		size_t len = w->len;

		/* glyphs before the first field are in its prefix; after
		 * it, a tree's lines drawn past a broken cell */
		if (w->glyph)
			continue;
		if (!col && sh->tree && !sh->flat)
			ns_buf_add(out, text, (size_t)(w->s - text));
		else if (col)
			ns_buf_addc(out, ' ');
		if (col < NS_MATCH_MAX_COLS && cutw[col] && width(w->s, len) > cutw[col])
			len = first_chars(w->s, len, cutw[col]);
		ns_buf_add(out, w->s, len);
		col++;
	}
	free(ws.w);
}

/* How many of lines[i..n) make one row of ncols fields: a line with
 * fewer fields, then lines that start with a blank or a tree glyph and
 * carry the rest (their glyphs aside); 0 when they do not add up. */
static size_t row_lines(const char *const *lines, size_t i,
			size_t n, const struct ns_match_shape *sh)
{
	size_t have = 0, k = i;

	for (; k < n; k++) {
		struct words ws;
		size_t f;

		bool goes_on;

		if (!strcmp(lines[k], "..."))
			return 0;
		cut(&ws, lines[k], sh);
		f = ws.nfields;
		/* a line that goes on with a row starts with a blank, or
		 * with a tree's line drawn past the broken cell */
		goes_on = lines[k][0] == ' ' || (ws.n && ws.w[0].glyph);
		free(ws.w);
		if (k > i && !goes_on)
			return 0;
		if (!f || have + f > sh->ncols)
			return 0;
		have += f;
		if (have == sh->ncols)
			return k - i + 1;
	}
	return 0;
}

/* The row of lines[i..i+k) as one line: the first line, then the fields
 * of the others, one blank apart. */
static char *join(const char *const *lines, size_t i, size_t k, const struct ns_match_shape *sh)
{
	struct ns_buf b = NS_BUF_INIT;

	ns_buf_adds(&b, lines[i]);
	for (size_t j = i + 1; j < i + k; j++) {
		struct words ws;

		cut(&ws, lines[j], sh);
		for (size_t x = 0; x < ws.n; x++) {
			if (ws.w[x].glyph)
				continue;
			ns_buf_addc(&b, ' ');
			ns_buf_add(&b, ws.w[x].s, ws.w[x].len);
		}
		free(ws.w);
	}
	return ns_buf_detach(&b);
}

static bool applies(const struct ns_scenario *sc, const struct ns_match_shape *sh)
{
	return sc->columns && sh && sh->form == NS_MATCH_TABLE && !sh->piped &&
	       sh->ncols && sh->ncols <= NS_MATCH_MAX_COLS &&
	       (!sh->tree || sh->flat || sh->tree_col == 0);
}

bool ns_narrow(const struct ns_scenario *sc, const struct ns_step *st,
	       const struct ns_match_shape *sh, const char *output, struct ns_narrow *out)
{
	struct ns_lines el = NS_LINES_INIT, al = NS_LINES_INIT;
	size_t cutw[NS_MATCH_MAX_COLS] = { 0 }, widest = 0;
	struct ns_buf b = NS_BUF_INIT;
	bool joined = false, any_cut = false;

	memset(out, 0, sizeof(*out));
	if (!applies(sc, sh) || !st->nexpect)
		return false;
	for (size_t i = 0; i < st->nexpect; i++) {
		size_t w = width(st->expect[i].text, strlen(st->expect[i].text));

		ns_lines_push(&el, st->expect[i].text);
		if (w > widest)
			widest = w;
	}
	/* the block's rows, joined */
	out->block = xcalloc(st->nexpect, sizeof(*out->block));
	for (size_t i = 0; i < el.n;) {
		size_t k = row_lines((const char *const *)el.v, i, el.n, sh);

		if (k > 1)
			joined = true;
		out->block[out->n].line = st->expect[i].line;
		out->block[out->n++].text = k ? join((const char *const *)el.v, i, k, sh)
					      : xstrdup(el.v[i]);
		i += k ? k : 1;
	}
	/* a full-width table: each cut column's width, its widest cell */
	if (widest == sc->columns)
		for (size_t i = 0; i < out->n; i++) {
			struct words ws;
			size_t col = 0;

			cut(&ws, out->block[i].text, sh);
			for (size_t x = 0; ws.nfields == sh->ncols && x < ws.n; x++) {
				size_t w;

				if (ws.w[x].glyph)
					continue;
				w = width(ws.w[x].s, ws.w[x].len);
				if (sh->trunc[col] && w > cutw[col]) {
					cutw[col] = w;
					any_cut = true;
				}
				col++;
			}
			free(ws.w);
		}
	if (!joined && !any_cut) {
		ns_narrow_free(out);
		ns_lines_free(&el);
		return false;
	}
	/* both sides' rows one blank apart, the output's cells cut */
	for (size_t i = 0; i < out->n; i++) {
		struct words ws;
		size_t nf;

		cut(&ws, out->block[i].text, sh);
		nf = ws.nfields;
		free(ws.w);
		if (nf == sh->ncols) {
			size_t none[NS_MATCH_MAX_COLS] = { 0 };

			add_row(&b, out->block[i].text, sh, none);
			free(out->block[i].text);
			out->block[i].text = ns_buf_detach(&b);
		}
	}
	ns_lines_split(&al, output ? output : "", output ? strlen(output) : 0);
	for (size_t i = 0; i < al.n; i++) {
		struct words ws;

		cut(&ws, al.v[i], sh);
		if (ws.nfields == sh->ncols)
			add_row(&b, al.v[i], sh, cutw);
		else
			ns_buf_adds(&b, al.v[i]);
		ns_buf_addc(&b, '\n');
		free(ws.w);
	}
	out->output = ns_buf_detach(&b);
	ns_lines_free(&el);
	ns_lines_free(&al);
	return true;
}

void ns_narrow_free(struct ns_narrow *nw)
{
	for (size_t i = 0; i < nw->n; i++)
		free(nw->block[i].text);
	free(nw->block);
	free(nw->output);
	memset(nw, 0, sizeof(*nw));
}
