/* filter_grep.c - grep [-vEFicwx] [-e PATTERN]... [PATTERN]: the lines
 * that match (or with -v do not), or with -c how many, as GNU grep 3.8
 * selects them. */
#include "commands/filter_impl.h"

#include <stdlib.h>
#include <string.h>

enum {
	GREP_V = 1, GREP_E = 2, GREP_F = 4, GREP_I = 8, GREP_C = 16,
	GREP_W = 32, GREP_X = 64, GREP_EOPT = 128,
};
#define GREP_OPTIONS "vEFicwxe:"

struct grep_prog {
	regex_t *re;             /* one per pattern */
	char **text;             /* ... and its text as compiled */
	size_t nre, cap, tcap;
	bool invert, count, words, lines, extended, icase;
};

/* The patterns as given, each with the argv word it came from: every
 * -e adds one, and so does the operand when there is no -e. */
struct grep_pats {
	struct ns_lines text;
	size_t *word, cap;
};

static void grep_add_pattern(struct grep_pats *p, const char *text, size_t word)
{
	void *v = p->word;

	ns_grow(&v, &p->cap, p->text.n + 1, sizeof(*p->word));
	p->word = v;
	p->word[p->text.n] = word;
	ns_lines_push(&p->text, text);
}

static int grep_arg(void *ctx, char opt, const char *val, size_t word,
		    struct ns_parse_err *e)
{
	(void)opt; /* only -e takes an argument */
	(void)e;
	grep_add_pattern(ctx, val, word);
	return 0;
}

/* A fixed string as a BRE that matches exactly that string. */
static char *quote_bre(const char *s)
{
	struct ns_buf b = NS_BUF_INIT;

	for (; *s; s++) {
		if (strchr("\\.[*^$", *s))
			ns_buf_addc(&b, '\\');
		ns_buf_addc(&b, *s);
	}
	return ns_buf_detach(&b);
}

/* GNU grep's basic syntax (glibc's RE_SYNTAX_GREP) takes some patterns
 * that regcomp() rejects, such as "a**" or a leading "\{", and matches
 * as GNU grep does. Its extended one (RE_SYNTAX_EGREP) would take more,
 * but then match otherwise than GNU grep (whose own parser reads a
 * stray '{' as a literal), so -E stays with POSIX and rejects those.
 * The syntax is a global of the C library: put it back after. An error
 * names `pattern`, which text is the regex for. */
static int grep_compile_re(regex_t *re, const char *text, const char *pattern,
			   unsigned flags, size_t word, struct ns_parse_err *e)
{
#ifdef RE_SYNTAX_GREP
	reg_syntax_t saved = re_set_syntax(
		(flags & GREP_E ? RE_SYNTAX_POSIX_EXTENDED : RE_SYNTAX_GREP) |
		(flags & GREP_I ? RE_ICASE : 0));
	const char *err;

	memset(re, 0, sizeof(*re));
	err = re_compile_pattern(text, strlen(text), re);
	re_set_syntax(saved);
	if (err)
		return ns_filter_re_fail(e, word, "grep", pattern, err);
	return 0;
#else
	return ns_filter_compile_re(re, text,
				    (flags & GREP_E ? REG_EXTENDED : 0) |
				    (flags & GREP_I ? REG_ICASE : 0),
				    "grep", pattern, word, e);
#endif
}

/* As in GNU grep, a newline in a pattern separates patterns; a line is
 * selected when any of them matches. */
static int grep_pattern(struct grep_prog *g, const char *pattern,
			unsigned flags, size_t word, struct ns_parse_err *e)
{
	struct ns_lines pats = NS_LINES_INIT;
	void *v = g->re;
	int rc = 0;

	ns_lines_split(&pats, pattern, strlen(pattern));
	if (pats.n == 0)
		ns_lines_push(&pats, "");
	ns_grow(&v, &g->cap, g->nre + pats.n, sizeof(*g->re));
	g->re = v;
	for (size_t i = 0; i < pats.n && rc == 0; i++) {
		char *p = flags & GREP_F ? quote_bre(pats.v[i]) : xstrdup(pats.v[i]);

		rc = grep_compile_re(&g->re[g->nre], p, pats.v[i], flags, word, e);
		if (rc == 0) {
			v = g->text;
			ns_grow(&v, &g->tcap, g->nre + 1, sizeof(*g->text));
			g->text = v;
			g->text[g->nre++] = p;
		} else {
			free(p);
		}
	}
	ns_lines_free(&pats);
	return rc;
}

/* With -e, every operand would be a file; without, the first is the
 * pattern. */
static int grep_words(struct grep_pats *p, size_t argc, char *const *argv,
		      unsigned *flags, size_t *file, struct ns_parse_err *e)
{
	const struct ns_filter_scan sc = { GREP_OPTIONS, grep_arg, p, 0 };
	struct ns_filter_words w;

	if (ns_filter_scan_words(argc, argv, &sc, &w, e) < 0)
		return -1;
	*flags = w.flags;
	if (w.flags & GREP_EOPT)
		return ns_filter_want_operands(&w, 0, argv, "", file, e);
	if (ns_filter_want_operands(&w, 1, argv, "PATTERN", file, e) < 0)
		return -1;
	grep_add_pattern(p, argv[w.op[0]], w.op[0]);
	return 0;
}

static int grep_compile(void *prog, size_t argc, char *const *argv, size_t *file,
			struct ns_parse_err *e)
{
	struct grep_prog *g = prog;
	struct grep_pats p = { NS_LINES_INIT, NULL, 0 };
	unsigned flags = 0;
	int rc = grep_words(&p, argc, argv, &flags, file, e);

	if (rc == 0 && (flags & GREP_E) && (flags & GREP_F))
		rc = ns_parse_fail(e, 0, "grep: conflicting matchers specified");
	for (size_t i = 0; rc == 0 && i < p.text.n; i++)
		rc = grep_pattern(g, p.text.v[i], flags, p.word[i], e);
	g->invert = flags & GREP_V;
	g->count = flags & GREP_C;
	g->words = flags & GREP_W;
	g->lines = flags & GREP_X;
	g->extended = flags & GREP_E;
	g->icase = flags & GREP_I;
	ns_lines_free(&p.text);
	free(p.word);
	return rc;
}

static bool word_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* Whether re matches exactly line[from..to). The search there finds the
 * leftmost match, and of those the longest, so it is [from, to) if any
 * match is. */
static bool grep_exact(const regex_t *re, const char *line, size_t from,
		       size_t to)
{
	regmatch_t m[1];

	return ns_filter_search_in(re, line, from, to, m, 1) &&
	       (size_t)m[0].rm_so == from && (size_t)m[0].rm_eo == to;
}

/* -w as GNU grep tests it: a match must have no word character just
 * before it nor just after it. A match that fails that is tried shorter
 * from the same start, then matches that start later are tried. */
static bool grep_word_match(const regex_t *re, const char *line, size_t len)
{
	regmatch_t m[1];

	for (size_t from = 0; from <= len; ) {
		size_t so, eo;

		if (!ns_filter_search(re, line, len, from, m, 1))
			return false;
		so = (size_t)m[0].rm_so;
		eo = (size_t)m[0].rm_eo;
		if (so == 0 || !word_char(line[so - 1])) {
			for (size_t end = eo + 1; end-- > so; ) {
				if ((end == len || !word_char(line[end])) &&
				    (end == eo || grep_exact(re, line, so, end)))
					return true;
			}
		}
		from = so + 1;
	}
	return false;
}

static bool grep_matches(const struct grep_prog *g, const char *line, size_t len)
{
	regmatch_t m[1];

	for (size_t i = 0; i < g->nre; i++) {
		const regex_t *re = &g->re[i];

		if (g->lines ? grep_exact(re, line, 0, len) :
		    g->words ? grep_word_match(re, line, len) :
		    ns_filter_search(re, line, len, 0, m, 1))
			return true;
	}
	return false;
}

static void grep_run(const void *prog, const char *in, size_t len,
		     struct ns_buf *out)
{
	const struct grep_prog *g = prog;
	struct ns_filter_lines l = ns_filter_lines_of(in, len);
	size_t selected = 0;

	while (ns_filter_next_line(&l)) {
		if (grep_matches(g, l.cur.data, l.cur.len) == g->invert)
			continue;
		selected++;
		if (!g->count) {
			ns_buf_add(out, l.cur.data, l.cur.len);
			ns_buf_addc(out, '\n');
		}
	}
	if (g->count)
		ns_buf_addf(out, "%zu\n", selected);
}

static void grep_release(void *prog)
{
	struct grep_prog *g = prog;

	for (size_t i = 0; i < g->nre; i++) {
		regfree(&g->re[i]);
		free(g->text[i]);
	}
	free(g->re);
	free(g->text);
}

/* One pattern, without -w and -x. */
static bool grep_plain(const void *prog, struct ns_filter_plain *out)
{
	const struct grep_prog *g = prog;

	if (g->nre != 1 || g->words || g->lines)
		return false;
	out->form = NS_FF_GREP;
	out->re = g->text[0];
	out->extended = g->extended;
	out->icase = g->icase;
	out->invert = g->invert;
	out->count = g->count;
	return true;
}

/* grep selects whole lines, unless -c counts them. */
static bool grep_keeps_lines(const void *prog)
{
	const struct grep_prog *g = prog;

	return !g->count;
}

/* 1 when no line was selected (grep(1), EXIT STATUS): with -c, a count
 * of 0 (one FILE, so one number). */
static int grep_status(const void *prog, const char *out, size_t len)
{
	const struct grep_prog *g = prog;

	if (g->count)
		return len >= 1 && out[0] == '0' && (len == 1 || out[1] == '\n') ? 1 : 0;
	return len == 0;
}

const struct ns_filter_ops ns_filter_grep = {
	.status = grep_status,
	.name = "grep",
	.size = sizeof(struct grep_prog),
	.compile = grep_compile,
	.run = grep_run,
	.release = grep_release,
	.keeps_lines = grep_keeps_lines,
	.plain = grep_plain,
};
