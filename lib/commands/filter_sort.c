/* filter_sort.c - sort [-bfnrsu] [-t C] [-k KEY]...: the lines in order,
 * as GNU sort of coreutils 9.1 orders them in the C and C.UTF-8 locales,
 * whose collation on Debian 12 (glibc 2.36) is the order of the bytes,
 * unsigned. Keys, their options and the last-resort comparison of whole
 * lines follow sort(1); a KEY is F[.C][OPTS][,F[.C][OPTS]]. */
#include "commands/filter_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { SORT_B = 1, SORT_F = 2, SORT_N = 4, SORT_R = 8, SORT_S = 16, SORT_U = 32 };
#define SORT_OPTIONS "bfnrsut:k:"

/* A key's ordering options. */
enum { KEY_SBLANKS = 1, KEY_EBLANKS = 2, KEY_FOLD = 4, KEY_NUM = 8, KEY_REV = 16 };

struct sort_key {
	size_t sword, schar;     /* start: field and character, from 0 */
	size_t eword, echar;     /* end: field from 0 (SIZE_MAX: the line's
				  * end) and character from 1 (0: the
				  * field's end) */
	unsigned flags;          /* KEY_* */
};

struct sort_prog {
	struct sort_key *key;
	size_t nkey, cap;
	int tab;                 /* -t's character, or -1 for blanks */
	unsigned global;         /* KEY_* of -b -f -n -r */
	bool stable, unique;
};

static bool sort_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* ---- compiling --------------------------------------------------------- */

/* "F" or ".C" of a key at *p; a number too large means "as far as the
 * line goes", as in GNU sort. */
static int key_number(const char **p, size_t *v, const char *what,
		      size_t word, struct ns_parse_err *e)
{
	unsigned long long n;
	bool big;

	if (!ns_filter_digits(p, &n, &big))
		return ns_parse_fail(e, word, "sort: invalid number %s: "
				     "invalid count at start of '%s'", what, *p);
	*v = big || n > SIZE_MAX ? SIZE_MAX : (size_t)n;
	return 0;
}

/* The ordering letters after a position; b means the start's or the
 * end's blanks (sblanks). */
static int key_letters(const char **p, unsigned *flags, unsigned sblanks,
		       const char *spec, size_t word, struct ns_parse_err *e)
{
	for (; **p && **p != ','; (*p)++) {
		switch (**p) {
		case 'b': *flags |= sblanks; break;
		case 'f': *flags |= KEY_FOLD; break;
		case 'n': *flags |= KEY_NUM; break;
		case 'r': *flags |= KEY_REV; break;
		case 'd': case 'g': case 'h': case 'i': case 'M': case 'R': case 'V':
			return ns_parse_fail(e, word, "sort: the ordering option '%c' "
					     "of key '%s' is not supported", **p, spec);
		default:
			return ns_parse_fail(e, word, "sort: stray character in field "
					     "spec: invalid field specification '%s'",
					     spec);
		}
	}
	return 0;
}

static int key_parse(struct sort_key *k, const char *spec, size_t word,
		     struct ns_parse_err *e)
{
	const char *p = spec;

	k->eword = SIZE_MAX;
	if (key_number(&p, &k->sword, "at field start", word, e) < 0)
		return -1;
	if (k->sword-- == 0)
		return ns_parse_fail(e, word, "sort: field number is zero: "
				     "invalid field specification '%s'", spec);
	if (*p == '.') {
		p++;
		if (key_number(&p, &k->schar, "after '.'", word, e) < 0)
			return -1;
		if (k->schar-- == 0)
			return ns_parse_fail(e, word, "sort: character offset is zero: "
					     "invalid field specification '%s'", spec);
	}
	if (key_letters(&p, &k->flags, KEY_SBLANKS, spec, word, e) < 0)
		return -1;
	if (*p != ',')
		return 0;
	p++;
	if (key_number(&p, &k->eword, "after ','", word, e) < 0)
		return -1;
	if (k->eword-- == 0)
		return ns_parse_fail(e, word, "sort: field number is zero: "
				     "invalid field specification '%s'", spec);
	if (*p == '.') {
		p++;
		if (key_number(&p, &k->echar, "after '.'", word, e) < 0)
			return -1;
	}
	return key_letters(&p, &k->flags, KEY_EBLANKS, spec, word, e);
}

static int sort_tab(struct sort_prog *s, const char *val, size_t word,
		    struct ns_parse_err *e)
{
	int tab = (unsigned char)val[0];

	if (!val[0])
		return ns_parse_fail(e, word, "sort: empty tab");
	if (strcmp(val, "\\0") == 0)
		tab = 0;
	else if (val[1])
		return ns_parse_fail(e, word, "sort: multi-character tab '%s'", val);
	if (s->tab >= 0 && s->tab != tab)
		return ns_parse_fail(e, word, "sort: incompatible tabs");
	s->tab = tab;
	return 0;
}

static int sort_arg(void *ctx, char opt, const char *val, size_t word,
		    struct ns_parse_err *e)
{
	struct sort_prog *s = ctx;
	void *v = s->key;

	if (opt == 't')
		return sort_tab(s, val, word, e);
	ns_grow(&v, &s->cap, s->nkey + 1, sizeof(*s->key));
	s->key = v;
	memset(&s->key[s->nkey], 0, sizeof(*s->key));
	return key_parse(&s->key[s->nkey++], val, word, e);
}

static int sort_compile(void *prog, size_t argc, char *const *argv, size_t *file,
			struct ns_parse_err *e)
{
	struct sort_prog *s = prog;
	const struct ns_filter_scan sc = { SORT_OPTIONS, sort_arg, s, 0 };
	struct ns_filter_words w;

	s->tab = -1;
	if (ns_filter_scan_words(argc, argv, &sc, &w, e) < 0 ||
	    ns_filter_want_operands(&w, 0, argv, "", file, e) < 0)
		return -1;
	s->global = (w.flags & SORT_B ? KEY_SBLANKS | KEY_EBLANKS : 0) |
		    (w.flags & SORT_F ? KEY_FOLD : 0) |
		    (w.flags & SORT_N ? KEY_NUM : 0) |
		    (w.flags & SORT_R ? KEY_REV : 0);
	s->stable = w.flags & SORT_S;
	s->unique = w.flags & SORT_U;
	/* a key with no options of its own takes the global ones */
	for (size_t i = 0; i < s->nkey; i++)
		if (!s->key[i].flags)
			s->key[i].flags = s->global;
	return 0;
}

/* ---- keys of a line ---------------------------------------------------- */

struct sort_line {
	const char *p;
	size_t len, index;
};

/* Where field f starts: with -t just after the f-th tab; otherwise a
 * field is its leading blanks and the non-blanks after them. */
static size_t field_start(const struct sort_prog *s, const struct sort_line *l,
			  size_t f)
{
	size_t at = 0;

	while (f-- > 0 && at < l->len) {
		if (s->tab >= 0) {
			const char *t = memchr(l->p + at, s->tab, l->len - at);

			at = t ? (size_t)(t - l->p) + 1 : l->len;
		} else {
			while (at < l->len && sort_blank(l->p[at]))
				at++;
			while (at < l->len && !sort_blank(l->p[at]))
				at++;
		}
	}
	return at;
}

static size_t field_end(const struct sort_prog *s, const struct sort_line *l,
			size_t at)
{
	if (s->tab >= 0) {
		const char *t = memchr(l->p + at, s->tab, l->len - at);

		return t ? (size_t)(t - l->p) : l->len;
	}
	while (at < l->len && sort_blank(l->p[at]))
		at++;
	while (at < l->len && !sort_blank(l->p[at]))
		at++;
	return at;
}

static size_t skip_blanks(const struct sort_line *l, size_t at)
{
	while (at < l->len && sort_blank(l->p[at]))
		at++;
	return at;
}

static size_t plus(size_t at, size_t n, size_t len)
{
	return n >= len - at ? len : at + n;
}

/* The key's text in line l: [*from, *to). */
static void key_range(const struct sort_prog *s, const struct sort_key *k,
		      const struct sort_line *l, size_t *from, size_t *to)
{
	size_t a = field_start(s, l, k->sword), b = l->len;

	if (k->flags & KEY_SBLANKS)
		a = skip_blanks(l, a);
	a = plus(a, k->schar, l->len);
	if (k->eword != SIZE_MAX) {
		b = field_start(s, l, k->eword);
		if (k->echar == 0) {
			b = field_end(s, l, b);
		} else {
			if (k->flags & KEY_EBLANKS)
				b = skip_blanks(l, b);
			b = plus(b, k->echar, l->len);
		}
	}
	*from = a;
	*to = b > a ? b : a;
}

/* ---- comparing --------------------------------------------------------- */

/* A number as -n reads one: blanks, '-', digits, '.', digits. Anything
 * else, or nothing, is zero. */
struct sort_num {
	bool neg;
	const char *ip, *fp;     /* integer digits without leading zeros, */
	size_t in, fn;           /* fraction digits without trailing ones */
};

static struct sort_num num_of(const char *p, size_t len)
{
	struct sort_num n = { false, p, p, 0, 0 };
	size_t i = 0;

	while (i < len && sort_blank(p[i]))
		i++;
	if (i < len && p[i] == '-')
		n.neg = true, i++;
	while (i < len && p[i] == '0')
		i++;
	for (n.ip = p + i; i < len && p[i] >= '0' && p[i] <= '9'; i++)
		n.in++;
	if (i < len && p[i] == '.') {
		for (n.fp = p + ++i; i < len && p[i] >= '0' && p[i] <= '9'; i++)
			n.fn++;
		while (n.fn > 0 && n.fp[n.fn - 1] == '0')
			n.fn--;
	}
	if (n.in == 0 && n.fn == 0)
		n.neg = false; /* -0 is 0 */
	return n;
}

static int cmp_bytes(const char *a, size_t an, const char *b, size_t bn)
{
	int c = memcmp(a, b, an < bn ? an : bn);

	return c ? c : (an > bn) - (an < bn);
}

static int cmp_num(const char *a, size_t an, const char *b, size_t bn)
{
	struct sort_num x = num_of(a, an), y = num_of(b, bn);
	int c;

	if (x.neg != y.neg)
		return x.neg ? -1 : 1;
	c = x.in != y.in ? (x.in > y.in ? 1 : -1) : memcmp(x.ip, y.ip, x.in);
	if (!c)
		c = cmp_bytes(x.fp, x.fn, y.fp, y.fn);
	return x.neg ? -c : c;
}

/* -f: lower-case ASCII letters as upper-case ones, as toupper() of the C
 * and C.UTF-8 locales does byte by byte. */
static int cmp_fold(const char *a, size_t an, const char *b, size_t bn)
{
	for (size_t i = 0; i < an && i < bn; i++) {
		unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];

		x = x >= 'a' && x <= 'z' ? (unsigned char)(x - 32) : x;
		y = y >= 'a' && y <= 'z' ? (unsigned char)(y - 32) : y;
		if (x != y)
			return x < y ? -1 : 1;
	}
	return (an > bn) - (an < bn);
}

static int cmp_key(const struct sort_prog *s, const struct sort_key *k,
		   const struct sort_line *x, const struct sort_line *y)
{
	size_t xa, xb, ya, yb;
	int c;

	key_range(s, k, x, &xa, &xb);
	key_range(s, k, y, &ya, &yb);
	if (k->flags & KEY_NUM)
		c = cmp_num(x->p + xa, xb - xa, y->p + ya, yb - ya);
	else if (k->flags & KEY_FOLD)
		c = cmp_fold(x->p + xa, xb - xa, y->p + ya, yb - ya);
	else
		c = cmp_bytes(x->p + xa, xb - xa, y->p + ya, yb - ya);
	return k->flags & KEY_REV ? -c : c;
}

/* By the keys (without keys, by the whole line with the global options);
 * 0 when they are equal. */
static int cmp_keys(const struct sort_prog *s, const struct sort_line *x,
		    const struct sort_line *y)
{
	const struct sort_key whole = { 0, 0, SIZE_MAX, 0, s->global };
	int c = 0;

	if (s->nkey == 0)
		return cmp_key(s, &whole, x, y);
	for (size_t i = 0; i < s->nkey && c == 0; i++)
		c = cmp_key(s, &s->key[i], x, y);
	return c;
}

/* Equal keys fall back on the whole lines' bytes (reversed by -r),
 * unless -s or -u; then, on the input order, which makes the sort
 * stable. */
static int cmp_lines(const void *a, const void *b, void *prog)
{
	const struct sort_prog *s = prog;
	const struct sort_line *x = a, *y = b;
	int c = cmp_keys(s, x, y);

	if (c == 0 && !s->stable && !s->unique) {
		c = cmp_bytes(x->p, x->len, y->p, y->len);
		if (s->global & KEY_REV)
			c = -c;
	}
	if (c == 0)
		c = (x->index > y->index) - (x->index < y->index);
	return c;
}

static void sort_run(const void *prog, const char *in, size_t len,
		     struct ns_buf *out)
{
	const struct sort_prog *s = prog;
	struct sort_line *v = NULL;
	size_t n = 0, cap = 0;

	for (size_t at = 0; at < len; n++) {
		const char *nl = memchr(in + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - in) : len;
		void *p = v;

		ns_grow(&p, &cap, n + 1, sizeof(*v));
		v = p;
		v[n] = (struct sort_line){ in + at, end - at, n };
		at = nl ? end + 1 : len;
	}
	if (n)
		qsort_r(v, n, sizeof(*v), cmp_lines, (void *)(uintptr_t)s);
	for (size_t i = 0; i < n; i++) {
		/* -u: the first line of each run of equal keys */
		if (s->unique && i > 0 && cmp_keys(s, &v[i - 1], &v[i]) == 0)
			continue;
		ns_buf_add(out, v[i].p, v[i].len);
		ns_buf_addc(out, '\n');
	}
	free(v);
}

static void sort_release(void *prog)
{
	struct sort_prog *s = prog;

	free(s->key);
}

/* sort passes lines as they were, in another order. */
static bool sort_keeps_lines(const void *prog)
{
	(void)prog;
	return true;
}

const struct ns_filter_ops ns_filter_sort = {
	.name = "sort",
	.size = sizeof(struct sort_prog),
	.compile = sort_compile,
	.run = sort_run,
	.release = sort_release,
	.keeps_lines = sort_keeps_lines,
};
