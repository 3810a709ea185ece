/* filter_grep.c - grep [-v] [-E] [-F] [-i] [-c] PATTERN: the lines that
 * match (or with -v do not), or with -c how many. */
#include "commands/filter_impl.h"

#include <stdlib.h>
#include <string.h>

enum { GREP_V = 1, GREP_E = 2, GREP_F = 4, GREP_I = 8, GREP_C = 16 };
#define GREP_OPTIONS "vEFic"

struct grep_prog {
	regex_t *re;             /* one per pattern */
	size_t nre;
	bool invert, count;
};

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

/* As in GNU grep, a newline in PATTERN separates patterns; a line is
 * selected when any of them matches. */
static int grep_patterns(struct grep_prog *g, const char *pattern,
			 unsigned flags, size_t word, struct ns_parse_err *e)
{
	struct ns_lines pats = NS_LINES_INIT;
	int rc = 0;

	ns_lines_split(&pats, pattern, strlen(pattern));
	if (pats.n == 0)
		ns_lines_push(&pats, "");
	g->re = xcalloc(pats.n, sizeof(*g->re));
	for (size_t i = 0; i < pats.n && rc == 0; i++) {
		char *p = flags & GREP_F ? quote_bre(pats.v[i]) : xstrdup(pats.v[i]);

		rc = grep_compile_re(&g->re[i], p, pats.v[i], flags, word, e);
		if (rc == 0)
			g->nre++;
		free(p);
	}
	ns_lines_free(&pats);
	return rc;
}

static int grep_compile(void *prog, size_t argc, char *const *argv,
			struct ns_parse_err *e)
{
	struct grep_prog *g = prog;
	struct ns_filter_words w;

	if (ns_filter_split_words(argc, argv, GREP_OPTIONS, &w, e) < 0 ||
	    ns_filter_want_operands(&w, 1, argv, "PATTERN", e) < 0)
		return -1;
	if ((w.flags & GREP_E) && (w.flags & GREP_F))
		return ns_parse_fail(e, 0, "grep: conflicting matchers specified");
	g->invert = w.flags & GREP_V;
	g->count = w.flags & GREP_C;
	return grep_patterns(g, argv[w.op[0]], w.flags, w.op[0], e);
}

static bool grep_matches(const struct grep_prog *g, const char *line, size_t len)
{
	regmatch_t m[1];

	for (size_t i = 0; i < g->nre; i++)
		if (ns_filter_search(&g->re[i], line, len, 0, m, 1))
			return true;
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

	for (size_t i = 0; i < g->nre; i++)
		regfree(&g->re[i]);
	free(g->re);
}

/* grep selects whole lines, unless -c counts them. */
static bool grep_keeps_lines(const void *prog)
{
	const struct grep_prog *g = prog;

	return !g->count;
}

const struct ns_filter_ops ns_filter_grep = {
	.name = "grep",
	.size = sizeof(struct grep_prog),
	.compile = grep_compile,
	.run = grep_run,
	.release = grep_release,
	.keeps_lines = grep_keeps_lines,
};
