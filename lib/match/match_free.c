/* match_free.c - free fields: values that are no fact about the mounts
 * and differ on every machine and every run, so that a transcript's value
 * matches any other of the same form (nstest-scenario(5), EXPECTED
 * OUTPUT): the sizes and percentages of df and findmnt -D, and ls -l's
 * sizes and dates. A free field still has its form: a size is a number
 * ("0", "4096", "7.8G"), a percentage "N%", a date one of ls's; a word
 * of another form is text, which then has to be equal.
 *
 * The WORDS form (ls -l, df) reads a line as its columns in order, each
 * a word, a date its own three words (or two, long-iso), and the last
 * column the rest of the line, blanks and all (a file name, a symbolic
 * link's "name -> target", df's "Mounted on"). The blanks between
 * columns match blanks of any width: a column is as wide as its widest
 * cell, so a free value of another width moves them. A line with fewer
 * columns is no row and matches literally. */
#include "match/match_step.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"

static size_t digits(const char *s, size_t len)
{
	size_t n = 0;

	while (n < len && isdigit((unsigned char)s[n]))
		n++;
	return n;
}

/* digits, a decimal part, and a unit as GNU's human_readable() writes
 * them ("512", "4.0K", "7.8G", "1.1k" with --si) */
static bool size_value(const char *s, size_t len)
{
	size_t n = digits(s, len);

	if (!n)
		return false;
	if (n < len && s[n] == '.') {
		size_t f = digits(s + n + 1, len - n - 1);

		if (!f)
			return false;
		n += 1 + f;
	}
	if (n < len && s[n] && strchr("kKMGTPEZYRQ", s[n]))
		n++;
	return n == len;
}

bool ns_match_free_value(enum ns_match_col c, const char *s, size_t len)
{
	if (len == 1 && *s == '-') /* unknown, as df and findmnt print it */
		return c == NS_MATCH_COL_SIZE || c == NS_MATCH_COL_PERCENT;
	if (c == NS_MATCH_COL_SIZE)
		return size_value(s, len);
	if (c == NS_MATCH_COL_PERCENT)
		return len > 1 && s[len - 1] == '%' && digits(s, len - 1) == len - 1;
	return false;
}

static bool is_month(const char *s)
{
	static const char months[] = "janfebmaraprmayjunjulaugsepoctnovdec";

	for (size_t m = 0; m < 12; m++)
		if (!strncasecmp(s, months + 3 * m, 3))
			return true;
	return false;
}

/* The length of "N:N" or "N-N-N"-like fixed pictures: '9' a digit, any
 * other character itself. */
static size_t picture(const char *s, const char *pic)
{
	size_t n = 0;

	for (; pic[n]; n++)
		if (pic[n] == '9' ? !isdigit((unsigned char)s[n]) : s[n] != pic[n])
			return 0;
	return n;
}

/* The length of ls's date at s, or 0: "Mon dd HH:MM" or "Mon dd  YYYY"
 * (the C locale's "%b %e %H:%M" and "%b %e  %Y", coreutils' ls.c for
 * recent and old files), or long-iso "YYYY-MM-DD HH:MM". */
static size_t date_len(const char *s)
{
	size_t n, d;

	if ((n = picture(s, "9999-99-99 99:99")))
		return n;
	if (strlen(s) < 3 || !is_month(s) || isalpha((unsigned char)s[3]))
		return 0;
	n = 3 + strspn(s + 3, " ");
	d = digits(s + n, 2);
	if (n == 3 || !d)
		return 0;
	n += d;
	d = strspn(s + n, " ");
	if (!d)
		return 0;
	n += d;
	if ((d = picture(s + n, "99:99")) || (d = picture(s + n, "9999")))
		return n + d;
	return 0;
}

/* ---- the WORDS form ---------------------------------------------------------- */

struct cut {
	struct ns_match_line *l;
	size_t cap;
};

static void push(struct cut *c, enum ns_seg_type type, const char *s, size_t len,
		 enum ns_match_col col)
{
	void *v = c->l->seg;

	ns_grow(&v, &c->cap, c->l->nseg + 1, sizeof(*c->l->seg));
	c->l->seg = v;
	c->l->seg[c->l->nseg++] = (struct ns_match_seg){ type, s, len, NS_RENAMING_ID, false,
							{ 0, 0 }, NS_NUM_PLAIN, col };
}

/* A word of column c: a free value of its form, else text. */
static void push_word(struct cut *c, enum ns_match_col col, const char *s, size_t len)
{
	if (col != NS_MATCH_COL_TEXT && ns_match_free_value(col, s, len))
		push(c, NS_SEG_FREE, s, len, col);
	else
		push(c, NS_SEG_TEXT, s, len, NS_MATCH_COL_TEXT);
}

/* ls -l's "total N" */
static bool total_line(struct cut *c, const char *text)
{
	size_t b, n;

	if (strncmp(text, "total", 5) || !(b = strspn(text + 5, " ")))
		return false;
	n = strlen(text + 5 + b);
	if (!ns_match_free_value(NS_MATCH_COL_SIZE, text + 5 + b, n))
		return false;
	push(c, NS_SEG_TEXT, text, 5, NS_MATCH_COL_TEXT);
	push(c, NS_SEG_BLANKS, text + 5, b, NS_MATCH_COL_TEXT);
	push(c, NS_SEG_FREE, text + 5 + b, n, NS_MATCH_COL_SIZE);
	return true;
}

static bool cut_words(struct cut *c, const char *text, const struct ns_match_shape *sh)
{
	const char *p = text;
	size_t n = strspn(p, " ");

	if (sh->total && total_line(c, text))
		return true;
	if (n)
		push(c, NS_SEG_BLANKS, p, n, NS_MATCH_COL_TEXT);
	p += n;
	for (size_t k = 0; k < sh->ncols; k++) {
		enum ns_match_col col = sh->cols[k];

		if (!*p)
			return false;
		if (k + 1 == sh->ncols) {
			push(c, NS_SEG_TEXT, p, strlen(p), NS_MATCH_COL_TEXT);
			return true;
		}
		if (col == NS_MATCH_COL_DATE && (n = date_len(p))) {
			push(c, NS_SEG_FREE, p, n, col);
		} else {
			n = strcspn(p, " ");
			push_word(c, col, p, n);
		}
		p += n;
		n = strspn(p, " ");
		if (!n)
			return false;
		push(c, NS_SEG_BLANKS, p, n, NS_MATCH_COL_TEXT);
		p += n;
	}
	return false;
}

bool ns_match_words_parse(struct ns_match_line *l, const char *text,
			  const struct ns_match_shape *shape)
{
	struct cut c = { l, 0 };

	l->seg = NULL;
	l->nseg = 0;
	if (shape->ncols && cut_words(&c, text, shape))
		return true;
	free(l->seg);
	l->seg = NULL;
	l->nseg = 0;
	return false;
}
