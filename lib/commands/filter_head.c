/* filter_head.c - head and tail: the first or last lines (or bytes) of
 * the text, as GNU coreutils 9.1 cuts them. The text passes as it is: a
 * last line without '\n' stays without one. */
#include "commands/filter_impl.h"

#include <ctype.h>
#include <string.h>

#define HEAD_OPTIONS "n:c:"

struct head_prog {
	bool tail;
	bool bytes;              /* -c: count bytes, not lines */
	/* head -n -N: all but the last N; tail -n +N: from the Nth on */
	bool other_end;
	unsigned long long n;
};

/* What is wrong with a count: "invalid" or too large as coreutils says,
 * or written with a multiplier suffix (1K, 2MB, 3KiB, or K alone for
 * 1K), which coreutils takes and nstest does not. rest is where the
 * digits ended. */
static int head_bad_count(const struct head_prog *h, const char *val,
			  const char *rest, bool big, size_t word,
			  struct ns_parse_err *e)
{
	const char *cmd = h->tail ? "tail" : "head";
	const char *what = h->bytes ? "bytes" : "lines";

	if (big)
		return ns_parse_fail(e, word, "%s: invalid number of %s: '%s': "
				     "Value too large for defined data type",
				     cmd, what, val);
	if (*rest && strchr("bkKmMGTPEZYRQ", *rest) &&
	    (!rest[1] || !strcmp(rest + 1, "B") || !strcmp(rest + 1, "iB")))
		return ns_parse_fail(e, word, "%s: the suffix '%s' of the number "
				     "of %s '%s' is not supported",
				     cmd, rest, what, val);
	return ns_parse_fail(e, word, "%s: invalid number of %s: '%s'",
			     cmd, what, val);
}

/* -n or -c: blanks, a sign, digits. head reads '-' as "all but", tail
 * reads '+' as "from"; the other sign changes nothing. */
static int head_count(struct head_prog *h, const char *val, size_t word,
		      struct ns_parse_err *e)
{
	const char *p = val;
	bool big = false;

	while (isspace((unsigned char)*p))
		p++;
	h->other_end = *p == (h->tail ? '+' : '-');
	if (*p == '+' || *p == '-')
		p++;
	if (ns_filter_digits(&p, &h->n, &big) && !*p && !big)
		return 0;
	return head_bad_count(h, val, p, big, word, e);
}

static int head_arg(void *ctx, char opt, const char *val, size_t word,
		    struct ns_parse_err *e)
{
	struct head_prog *h = ctx;

	h->bytes = opt == 'c'; /* the last of -n and -c counts */
	return head_count(h, val, word, e);
}

/* The obsolete first word: head -N, tail -N and tail +N count lines. */
static int head_obsolete(struct head_prog *h, size_t argc, char *const *argv,
			 size_t *first, struct ns_parse_err *e)
{
	const char *a = argc > 1 ? argv[1] : "";

	*first = 1;
	if (!((a[0] == '-' || (h->tail && a[0] == '+')) &&
	      a[1] >= '0' && a[1] <= '9'))
		return 0;
	if (a[strspn(a + 1, "0123456789") + 1])
		return ns_parse_fail(e, 1, "%s: the obsolete option '%s' is not "
				     "supported: write -n N or -c N",
				     argv[0], a);
	*first = 2;
	return head_count(h, h->tail ? a : a + 1, 1, e); /* head's '-' is no sign */
}

static int head_compile(void *prog, size_t argc, char *const *argv, size_t *file,
			struct ns_parse_err *e)
{
	struct head_prog *h = prog;
	struct ns_filter_scan sc = { HEAD_OPTIONS, head_arg, h, 1 };
	struct ns_filter_words w;

	h->tail = strcmp(argv[0], "tail") == 0;
	h->n = 10;
	if (head_obsolete(h, argc, argv, &sc.first, e) < 0 ||
	    ns_filter_scan_words(argc, argv, &sc, &w, e) < 0)
		return -1;
	return ns_filter_want_operands(&w, 0, argv, "", file, e);
}

/* Where the line after the first n lines of text starts. */
static size_t after_lines(const char *in, size_t len, unsigned long long n)
{
	size_t at = 0;

	for (; n > 0 && at < len; n--) {
		const char *nl = memchr(in + at, '\n', len - at);

		at = nl ? (size_t)(nl - in) + 1 : len;
	}
	return at;
}

/* Where the last n lines of text start; a last line without '\n' is a
 * line. */
static size_t last_lines(const char *in, size_t len, unsigned long long n)
{
	size_t at = len;

	if (n == 0)
		return len;
	if (at > 0 && in[at - 1] == '\n')
		at--;
	while (at > 0) {
		if (in[at - 1] == '\n' && --n == 0)
			break;
		at--;
	}
	return at;
}

static size_t count_lines(const char *in, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += in[i] == '\n';
	return n + (len > 0 && in[len - 1] != '\n');
}

/* The part of the text head prints: [0, end). */
static size_t head_end(const struct head_prog *h, const char *in, size_t len)
{
	unsigned long long total;

	if (h->bytes)
		total = len;
	else
		total = count_lines(in, len);
	if (h->other_end) /* all but the last n */
		total = total > h->n ? total - h->n : 0;
	else
		total = total < h->n ? total : h->n;
	return h->bytes ? (size_t)total : after_lines(in, len, total);
}

/* The part of the text tail prints: [start, len). */
static size_t tail_start(const struct head_prog *h, const char *in, size_t len)
{
	unsigned long long skip = h->n > 0 ? h->n - 1 : 0;

	if (h->other_end) /* from the nth on */
		return h->bytes ? (skip < len ? (size_t)skip : len) :
				  after_lines(in, len, skip);
	if (h->bytes)
		return h->n < len ? len - (size_t)h->n : 0;
	return last_lines(in, len, h->n);
}

static void head_run(const void *prog, const char *in, size_t len,
		     struct ns_buf *out)
{
	const struct head_prog *h = prog;
	size_t from = 0, to = len;

	if (h->tail)
		from = tail_start(h, in, len);
	else
		to = head_end(h, in, len);
	if (to > from)
		ns_buf_add(out, in + from, to - from);
}

/* Lines pass as they were; bytes cut lines apart. */
static bool head_keeps_lines(const void *prog)
{
	const struct head_prog *h = prog;

	return !h->bytes;
}

const struct ns_filter_ops ns_filter_head = {
	.name = "head",
	.size = sizeof(struct head_prog),
	.compile = head_compile,
	.run = head_run,
	.keeps_lines = head_keeps_lines,
};

const struct ns_filter_ops ns_filter_tail = {
	.name = "tail",
	.size = sizeof(struct head_prog),
	.compile = head_compile,
	.run = head_run,
	.keeps_lines = head_keeps_lines,
};
