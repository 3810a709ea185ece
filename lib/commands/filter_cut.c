/* filter_cut.c - cut -f LIST [-d C] [-s], cut -b LIST, cut -c LIST: the
 * chosen fields or bytes of each line, as GNU cut of coreutils 9.1
 * chooses them (-c counts bytes, as it does). */
#include "commands/filter_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CUT_OPTIONS "b:c:f:d:sn"
enum { CUT_S = 1u << 8 };        /* the place of 's' in CUT_OPTIONS */

/* A range of positions from 1, both ends included. */
struct cut_range {
	size_t lo, hi;           /* hi is SIZE_MAX for "N-" */
};

struct cut_prog {
	char mode;               /* 'f', 'b' or 'c'; 0 before a list */
	const char *list;        /* the list as written, until compiled */
	size_t list_word;
	char delim;
	bool delim_given, only_delimited;
	struct cut_range *range;
	size_t nrange, cap;
};

static int cut_arg(void *ctx, char opt, const char *val, size_t word,
		   struct ns_parse_err *e)
{
	struct cut_prog *c = ctx;

	if (opt == 'd') {
		if (val[0] && val[1])
			return ns_parse_fail(e, word, "cut: the delimiter must be a "
					     "single character");
		c->delim = val[0]; /* -d '' is the NUL byte */
		c->delim_given = true;
		return 0;
	}
	if (c->mode)
		return ns_parse_fail(e, word, "cut: only one list may be specified");
	c->mode = opt;
	c->list = val;
	c->list_word = word;
	return 0;
}

/* ---- the list ---------------------------------------------------------- */

static bool list_sep(char ch)
{
	return ch == ',' || ch == ' ' || ch == '\t';
}

/* A number of the list at *p, if there is one there. */
static int list_number(const struct cut_prog *c, const char **p, size_t *v,
		       bool *have, struct ns_parse_err *e)
{
	const char *start = *p;
	unsigned long long n;
	bool big;

	*have = ns_filter_digits(p, &n, &big);
	if (*have && (big || n >= SIZE_MAX))
		return ns_parse_fail(e, c->list_word, c->mode == 'f' ?
				     "cut: field number '%.*s' is too large" :
				     "cut: byte/character offset '%.*s' is too large",
				     (int)(*p - start), start);
	*v = *have ? (size_t)n : 0;
	return 0;
}

static void add_range(struct cut_prog *c, size_t lo, size_t hi)
{
	void *v = c->range;

	ns_grow(&v, &c->cap, c->nrange + 1, sizeof(*c->range));
	c->range = v;
	c->range[c->nrange++] = (struct cut_range){ lo, hi };
}

/* One item of the list: N, N-M, N- or -M. 1 when *p is at something
 * that is none of these. */
static int list_item(struct cut_prog *c, const char **p, struct ns_parse_err *e)
{
	const char *from1 = c->mode == 'f' ? "cut: fields are numbered from 1" :
				"cut: byte/character positions are numbered from 1";
	size_t lo = 0, hi = 0;
	bool have_lo, have_hi = false, dash;

	if (list_number(c, p, &lo, &have_lo, e) < 0)
		return -1;
	dash = **p == '-';
	if (dash) {
		(*p)++;
		if (list_number(c, p, &hi, &have_hi, e) < 0)
			return -1;
	}
	if (!have_lo && !have_hi && **p && !list_sep(**p))
		return 1; /* not a number: the caller names it */
	if (!dash && !have_lo)
		return ns_parse_fail(e, c->list_word, "%s", from1);
	if (dash && !have_lo && !have_hi)
		return ns_parse_fail(e, c->list_word,
				     "cut: invalid range with no endpoint: -");
	if (have_lo && lo == 0)
		return ns_parse_fail(e, c->list_word, "%s", from1);
	lo = have_lo ? lo : 1;
	hi = !dash ? lo : have_hi ? hi : SIZE_MAX;
	if (hi < lo)
		return ns_parse_fail(e, c->list_word, "cut: invalid decreasing range");
	add_range(c, lo, hi);
	return 0;
}

/* Items separated by ',' or a blank, each separator ending one item. */
static int cut_list(struct cut_prog *c, struct ns_parse_err *e)
{
	const char *p = c->list;

	for (;;) {
		int rc = list_item(c, &p, e);

		if (rc < 0)
			return -1;
		if (*p == '-')
			return ns_parse_fail(e, c->list_word, c->mode == 'f' ?
					     "cut: invalid field range" :
					     "cut: invalid byte or character range");
		if (rc > 0 || (*p && !list_sep(*p)))
			return ns_parse_fail(e, c->list_word, c->mode == 'f' ?
					     "cut: invalid field value '%s'" :
					     "cut: invalid byte/character position '%s'", p);
		if (!*p++)
			return 0;
	}
}

/* The checks in GNU cut's order: options first, then the list. */
static int cut_compile(void *prog, size_t argc, char *const *argv, size_t *file,
		       struct ns_parse_err *e)
{
	struct cut_prog *c = prog;
	const struct ns_filter_scan sc = { CUT_OPTIONS, cut_arg, c, 0 };
	struct ns_filter_words w;

	c->delim = '\t';
	if (ns_filter_scan_words(argc, argv, &sc, &w, e) < 0)
		return -1;
	c->only_delimited = w.flags & CUT_S;
	if (!c->mode)
		return ns_parse_fail(e, 0, "cut: you must specify a list of bytes, "
				     "characters, or fields");
	if (c->delim_given && c->mode != 'f')
		return ns_parse_fail(e, 0, "cut: an input delimiter may be specified "
				     "only when operating on fields");
	if (c->only_delimited && c->mode != 'f')
		return ns_parse_fail(e, 0, "cut: suppressing non-delimited lines "
				     "makes sense only when operating on fields");
	if (cut_list(c, e) < 0)
		return -1;
	c->list = NULL;
	return ns_filter_want_operands(&w, 0, argv, "", file, e);
}

/* ---- running ----------------------------------------------------------- */

static bool chosen(const struct cut_prog *c, size_t pos)
{
	for (size_t i = 0; i < c->nrange; i++)
		if (pos >= c->range[i].lo && pos <= c->range[i].hi)
			return true;
	return false;
}

/* The chosen fields, in the order of the line, joined by the delimiter;
 * a line without one is printed whole, or not at all with -s. */
static void cut_fields(const struct cut_prog *c, const char *line, size_t len,
		       struct ns_buf *out)
{
	bool first = true;
	size_t field = 1;

	if (!memchr(line, c->delim, len)) {
		if (!c->only_delimited) {
			ns_buf_add(out, line, len);
			ns_buf_addc(out, '\n');
		}
		return;
	}
	for (size_t at = 0; at <= len; field++) {
		const char *d = memchr(line + at, c->delim, len - at);
		size_t end = d ? (size_t)(d - line) : len;

		if (chosen(c, field)) {
			if (!first)
				ns_buf_addc(out, c->delim);
			ns_buf_add(out, line + at, end - at);
			first = false;
		}
		at = end + 1;
	}
	ns_buf_addc(out, '\n');
}

static void cut_run(const void *prog, const char *in, size_t len,
		    struct ns_buf *out)
{
	const struct cut_prog *c = prog;
	struct ns_filter_lines l = ns_filter_lines_of(in, len);

	while (ns_filter_next_line(&l)) {
		if (c->mode == 'f') {
			cut_fields(c, l.cur.data, l.cur.len, out);
			continue;
		}
		for (size_t i = 0; i < l.cur.len; i++)
			if (chosen(c, i + 1))
				ns_buf_addc(out, l.cur.data[i]);
		ns_buf_addc(out, '\n');
	}
}

static void cut_release(void *prog)
{
	struct cut_prog *c = prog;

	free(c->range);
}

const struct ns_filter_ops ns_filter_cut = {
	.name = "cut",
	.size = sizeof(struct cut_prog),
	.compile = cut_compile,
	.run = cut_run,
	.release = cut_release,
};
