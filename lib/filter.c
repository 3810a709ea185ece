/* filter.c - grep, sed 's///', awk '{print ...}' and wc as pipeline stages
 * (see filter.h for what each accepts). A filter is compiled when the
 * scenario is parsed, so that a bad pattern is a parse error that runs
 * nothing; running it is then a pure function of its input text. */
#include "filter.h"

#include <regex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared: words, regular expressions, lines ---------------------- */

/* A filter's argv sorted GNU getopt style: option letters anywhere
 * before "--", operands in order. */
struct words {
	unsigned flags;          /* bit i: option letter known[i] was given */
	size_t op[2];            /* argv index of the first two operands */
	size_t nops;
};

static int add_flags(const char *cmd, const char *word, size_t i,
		     const char *known, unsigned *flags, struct ns_parse_err *e)
{
	if (word[1] == '-')
		return ns_parse_fail(e, i, "%s: unknown option %s", cmd, word);
	for (const char *c = word + 1; *c; c++) {
		const char *k = strchr(known, *c);

		if (!k)
			return ns_parse_fail(e, i, "%s: unknown option -%c", cmd, *c);
		*flags |= 1u << (unsigned)(k - known);
	}
	return 0;
}

static int split_words(size_t argc, char *const *argv, const char *known,
		       struct words *w, struct ns_parse_err *e)
{
	bool options = true;

	memset(w, 0, sizeof(*w));
	for (size_t i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (options && strcmp(a, "--") == 0) {
			options = false;
		} else if (options && a[0] == '-' && a[1] != '\0') {
			if (add_flags(argv[0], a, i, known, &w->flags, e) < 0)
				return -1;
		} else {
			if (w->nops < NS_ARRAY_SIZE(w->op))
				w->op[w->nops] = i;
			w->nops++;
		}
	}
	return 0;
}

/* Exactly `want` (0 or 1) operands; `what` names a missing one. */
static int want_operands(const struct words *w, size_t want, char *const *argv,
			 const char *what, struct ns_parse_err *e)
{
	if (w->nops < want)
		return ns_parse_fail(e, 0, "%s: missing %s", argv[0], what);
	if (w->nops > want)
		return ns_parse_fail(e, w->op[want], "%s: extra operand '%s'",
				     argv[0], argv[w->op[want]]);
	return 0;
}

static int compile_re(regex_t *re, const char *pattern, int cflags,
		      size_t word, struct ns_parse_err *e)
{
	char msg[256];
	int rc = regcomp(re, pattern, cflags);

	if (rc == 0)
		return 0;
	regerror(rc, re, msg, sizeof(msg));
	return ns_parse_fail(e, word, "invalid regular expression: %s", msg);
}

/* Search line[0..len) for re from offset `from` on, with what lies
 * before `from` still visible as context (so '^' does not match there,
 * as in GNU sed). Offsets in m are from the start of the line. */
static bool search(const regex_t *re, const char *line, size_t len,
		   size_t from, regmatch_t *m, size_t nm)
{
#ifdef REG_STARTEND
	m[0].rm_so = (regoff_t)from;
	m[0].rm_eo = (regoff_t)len;
	return regexec(re, line, nm, m, REG_STARTEND) == 0;
#else
	(void)len;
	if (regexec(re, line + from, nm, m, from ? REG_NOTBOL : 0) != 0)
		return false;
	for (size_t i = 0; i < nm; i++) {
		if (m[i].rm_so >= 0) {
			m[i].rm_so += (regoff_t)from;
			m[i].rm_eo += (regoff_t)from;
		}
	}
	return true;
#endif
}

/* The lines of a text, one at a time, each copied without its '\n' and
 * NUL-terminated for regexec(). A last line without '\n' counts. */
struct lines {
	const char *p, *end;
	struct ns_buf cur;
};

static struct lines lines_of(const char *text, size_t len)
{
	struct lines l = { text, text ? text + len : text, NS_BUF_INIT };

	return l;
}

static bool next_line(struct lines *l)
{
	const char *nl;
	size_t n;

	if (l->p >= l->end) {
		ns_buf_free(&l->cur);
		return false;
	}
	nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
	n = nl ? (size_t)(nl - l->p) : (size_t)(l->end - l->p);
	ns_buf_reset(&l->cur);
	ns_buf_add(&l->cur, l->p, n);
	l->p += nl ? n + 1 : n;
	return true;
}

static void add_line(struct ns_buf *out, const char *s, size_t n)
{
	ns_buf_add(out, s, n);
	ns_buf_addc(out, '\n');
}

/* ---- grep ------------------------------------------------------------ */

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
 * The syntax is a global of the C library: put it back after. */
static int grep_compile_re(regex_t *re, const char *pattern, unsigned flags,
			   size_t word, struct ns_parse_err *e)
{
#ifdef RE_SYNTAX_GREP
	reg_syntax_t saved = re_set_syntax(
		(flags & GREP_E ? RE_SYNTAX_POSIX_EXTENDED : RE_SYNTAX_GREP) |
		(flags & GREP_I ? RE_ICASE : 0));
	const char *err;

	memset(re, 0, sizeof(*re));
	err = re_compile_pattern(pattern, strlen(pattern), re);
	re_set_syntax(saved);
	if (err)
		return ns_parse_fail(e, word, "invalid regular expression: %s", err);
	return 0;
#else
	return compile_re(re, pattern, (flags & GREP_E ? REG_EXTENDED : 0) |
			  (flags & GREP_I ? REG_ICASE : 0), word, e);
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

		rc = grep_compile_re(&g->re[i], p, flags, word, e);
		if (rc == 0)
			g->nre++;
		free(p);
	}
	ns_lines_free(&pats);
	return rc;
}

static int grep_compile(struct grep_prog *g, size_t argc, char *const *argv,
			struct ns_parse_err *e)
{
	struct words w;

	if (split_words(argc, argv, GREP_OPTIONS, &w, e) < 0 ||
	    want_operands(&w, 1, argv, "PATTERN", e) < 0)
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
		if (search(&g->re[i], line, len, 0, m, 1))
			return true;
	return false;
}

static void grep_run(const struct grep_prog *g, const char *in, size_t len,
		     struct ns_buf *out)
{
	struct lines l = lines_of(in, len);
	size_t selected = 0;

	while (next_line(&l)) {
		if (grep_matches(g, l.cur.data, l.cur.len) == g->invert)
			continue;
		selected++;
		if (!g->count)
			add_line(out, l.cur.data, l.cur.len);
	}
	if (g->count)
		ns_buf_addf(out, "%zu\n", selected);
}

static void grep_free(struct grep_prog *g)
{
	for (size_t i = 0; i < g->nre; i++)
		regfree(&g->re[i]);
	free(g->re);
}

/* ---- sed ------------------------------------------------------------- */

#define SED_OPTIONS "Er"
#define SED_GROUPS 10            /* \0 .. \9 */

/* A replacement is literal text, each piece followed by a group. */
struct sed_piece {
	char *text;
	size_t len;
	int group;               /* 0 for & and \0, 1..9, or -1 at the end */
};

struct sed_prog {
	regex_t re;
	bool have_re;
	struct sed_piece *piece;
	size_t npiece, cap;
	bool global;
};

/* GNU sed's escapes for control characters; 0 when c names none. */
static char control_escape(char c)
{
	switch (c) {
	case 'a': return '\a';
	case 'f': return '\f';
	case 'n': return '\n';
	case 'r': return '\r';
	case 't': return '\t';
	case 'v': return '\v';
	default: return 0;
	}
}

/* Copy a bracket expression, from just after its '[', as GNU sed steps
 * over one: inside it the delimiter and backslashes are plain, a leading
 * '^' and ']' are members, and [:class:], [.coll.] and [=equiv=] may
 * hold a ']'. Returns what follows the closing ']', or NULL. */
static const char *copy_bracket(const char *p, struct ns_buf *out)
{
	int state = 0; /* 0 plain, 1 after '[', 2 inside [: :], 3 at its end */
	char open = 0;

	if (*p == '^')
		ns_buf_addc(out, *p++);
	if (*p == ']')
		ns_buf_addc(out, *p++);
	for (; *p && *p != '\n'; ns_buf_addc(out, *p++)) {
		if (*p == '[') {
			state = state ? state : 1;
			continue;
		}
		if (*p == ']' && state <= 1) {
			ns_buf_addc(out, *p);
			return p + 1;
		}
		if (*p == ']' && state == 3) {
			state = 0;
		} else if (state == 1 && strchr(".:=", *p)) {
			open = *p;
			state = 2;
			continue;
		} else if (state == 2 && *p == open) {
			state = 3;
			continue;
		}
		state &= ~1;
	}
	return NULL;
}

/* Copy the text up to the next unescaped delimiter into out, as GNU
 * sed's match_slash() does: a backslash before the delimiter goes (but
 * "\&" stays in a replacement, where it means a literal '&'); every
 * other escape is kept for later; a bracket expression in the regex is
 * taken whole. Returns what follows the delimiter, or NULL when there is
 * none (a newline also ends the script). */
static const char *scan_part(const char *p, char delim, bool regex,
			     struct ns_buf *out)
{
	while (*p && *p != '\n') {
		char c = *p++;

		if (c == delim)
			return p;
		if (c == '[' && regex) {
			ns_buf_addc(out, c);
			if (!(p = copy_bracket(p, out)))
				return NULL;
			continue;
		}
		if (c == '\\') {
			c = *p++;
			if (!c)
				return NULL;
			if (c != '\n' && (c != delim || (!regex && c == '&')))
				ns_buf_addc(out, '\\');
		}
		ns_buf_addc(out, c);
	}
	return NULL;
}

/* The regex as regcomp() must see it: GNU sed's control escapes become
 * the characters, everywhere; regex escapes (\( \{ \+ \w \< ...) stay. */
static int sed_regex_text(const char *in, struct ns_buf *out, size_t word,
			  struct ns_parse_err *e)
{
	for (const char *p = in; *p; p++) {
		char c;

		if (*p != '\\' || !p[1]) {
			ns_buf_addc(out, *p);
			continue;
		}
		p++;
		if ((c = control_escape(*p)))
			ns_buf_addc(out, c);
		else if (strchr("doxc", *p))
			return ns_parse_fail(e, word, "sed: unsupported escape \\%c", *p);
		else
			ns_buf_add(out, p - 1, 2);
	}
	if (!out->len)
		return ns_parse_fail(e, word, "sed: no previous regular expression");
	return 0;
}

static void sed_push_piece(struct sed_prog *s, struct ns_buf *lit, int group)
{
	void *v = s->piece;

	ns_grow(&v, &s->cap, s->npiece + 1, sizeof(*s->piece));
	s->piece = v;
	s->piece[s->npiece].len = lit->len;
	s->piece[s->npiece].text = ns_buf_detach(lit);
	s->piece[s->npiece].group = group;
	s->npiece++;
}

/* One escape of the replacement: a group reference becomes a piece, a
 * control escape its character, any other "\c" the plain c. */
static int sed_repl_escape(struct sed_prog *s, char c, struct ns_buf *lit,
			   size_t word, struct ns_parse_err *e)
{
	if (c >= '0' && c <= '9')
		sed_push_piece(s, lit, c - '0');
	else if (control_escape(c))
		ns_buf_addc(lit, control_escape(c));
	else if (strchr("LUluEdoxc", c))
		return ns_parse_fail(e, word, "sed: unsupported escape \\%c", c);
	else
		ns_buf_addc(lit, c);
	return 0;
}

static int sed_replacement(struct sed_prog *s, const char *in, size_t word,
			   struct ns_parse_err *e)
{
	struct ns_buf lit = NS_BUF_INIT;
	int rc = 0;

	for (const char *p = in; *p && rc == 0; p++) {
		if (*p == '&')
			sed_push_piece(s, &lit, 0);
		else if (*p == '\\' && p[1])
			rc = sed_repl_escape(s, *++p, &lit, word, e);
		else
			ns_buf_addc(&lit, *p);
	}
	if (rc == 0)
		sed_push_piece(s, &lit, -1);
	ns_buf_free(&lit);
	return rc;
}

/* GNU sed names the largest group the replacement uses that the regex
 * does not have. */
static int sed_check_groups(const struct sed_prog *s, size_t word,
			    struct ns_parse_err *e)
{
	int max = -1;

	for (size_t i = 0; i < s->npiece; i++)
		if (s->piece[i].group > max)
			max = s->piece[i].group;
	if (max > 0 && (size_t)max > s->re.re_nsub)
		return ns_parse_fail(e, word,
			"sed: invalid reference \\%d on s command's RHS", max);
	return 0;
}

/* The flags after the last delimiter, read as GNU sed does: blanks
 * between them are skipped, ';' ends the command and '#' starts a
 * comment. Only g is supported, and no command after this one. */
static int sed_flags(struct sed_prog *s, const char *p, size_t word,
		     struct ns_parse_err *e)
{
	for (; *p && *p != '#'; p++) {
		if (*p == ' ' || *p == '\t')
			continue;
		if (*p == ';' || *p == '\n') {
			p += 1 + strspn(p + 1, " \t\n;");
			if (*p && *p != '#')
				return ns_parse_fail(e, word,
					"sed: only s/RE/REPL/[g] is supported");
			return 0;
		}
		if (*p != 'g')
			return ns_parse_fail(e, word, "sed: unsupported flag '%c' to s", *p);
		if (s->global)
			return ns_parse_fail(e, word, "sed: multiple 'g' flags to s");
		s->global = true;
	}
	return 0;
}

/* GNU sed -E rejects a ')' that closes no group; regcomp() would take
 * it as a literal. Count groups outside bracket expressions. */
static bool ere_stray_paren(const char *re)
{
	struct ns_buf scratch = NS_BUF_INIT;
	int depth = 0;
	bool stray = false;

	for (const char *p = re; *p && !stray; p++) {
		if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '[') {
			p = copy_bracket(p + 1, &scratch);
			if (!p)
				break; /* regcomp() names that error */
			p--;
		} else if (*p == '(') {
			depth++;
		} else if (*p == ')') {
			stray = depth-- == 0;
		}
	}
	ns_buf_free(&scratch);
	return stray;
}

/* Compile the parts of s/RE/REPL/FLAGS that scan_part() separated, in
 * GNU sed's order: replacement, flags, then the regex. */
static int sed_parts(struct sed_prog *s, const struct ns_buf *raw_re,
		     const struct ns_buf *repl, const char *flags, int cflags,
		     size_t word, struct ns_parse_err *e)
{
	struct ns_buf re = NS_BUF_INIT;
	int rc = sed_replacement(s, ns_buf_str(repl), word, e);

	if (rc == 0)
		rc = sed_flags(s, flags, word, e);
	if (rc == 0)
		rc = sed_regex_text(ns_buf_str(raw_re), &re, word, e);
	if (rc == 0 && (cflags & REG_EXTENDED) && ere_stray_paren(re.data))
		rc = ns_parse_fail(e, word,
			"invalid regular expression: Unmatched ) or \\)");
	if (rc == 0)
		rc = compile_re(&s->re, ns_buf_str(&re), cflags, word, e);
	ns_buf_free(&re);
	if (rc < 0)
		return rc;
	s->have_re = true;
	return sed_check_groups(s, word, e);
}

static int sed_script(struct sed_prog *s, const char *script, int cflags,
		      size_t word, struct ns_parse_err *e)
{
	struct ns_buf raw_re = NS_BUF_INIT, repl = NS_BUF_INIT;
	const char *p = script + strspn(script, " \t\n;");
	char delim = *p == 's' ? p[1] : '\0';
	int rc;

	if (*p != 's')
		return ns_parse_fail(e, word, "sed: only s/RE/REPL/[g] is supported");
	if (delim && delim != '\n')
		p = scan_part(p + 2, delim, true, &raw_re);
	else
		p = NULL;
	if (p)
		p = scan_part(p, delim, false, &repl);
	if (!p)
		rc = ns_parse_fail(e, word, "sed: unterminated s command");
	else
		rc = sed_parts(s, &raw_re, &repl, p, cflags, word, e);
	ns_buf_free(&raw_re);
	ns_buf_free(&repl);
	return rc;
}

static int sed_compile(struct sed_prog *s, size_t argc, char *const *argv,
		       struct ns_parse_err *e)
{
	struct words w;

	if (split_words(argc, argv, SED_OPTIONS, &w, e) < 0 ||
	    want_operands(&w, 1, argv, "script", e) < 0)
		return -1;
	return sed_script(s, argv[w.op[0]], w.flags ? REG_EXTENDED : 0,
			  w.op[0], e);
}

static void sed_expand(const struct sed_prog *s, const char *line,
		       const regmatch_t *m, struct ns_buf *out)
{
	for (size_t i = 0; i < s->npiece; i++) {
		const struct sed_piece *pc = &s->piece[i];

		ns_buf_add(out, pc->text, pc->len);
		if (pc->group >= 0 && m[pc->group].rm_so >= 0)
			ns_buf_add(out, line + m[pc->group].rm_so,
				   (size_t)(m[pc->group].rm_eo - m[pc->group].rm_so));
	}
}

/* Substitute in one line with GNU sed's rule for empty matches: an
 * empty match right where the previous match ended is not replaced, the
 * scan steps over one character instead (so s,a*,x,g turns baaac into
 * xbxcx, not xbxxcx). */
static void sed_line(const struct sed_prog *s, const char *line, size_t len,
		     struct ns_buf *out)
{
	regmatch_t m[SED_GROUPS];
	size_t start = 0, last_end = 0, count = 0;
	bool again = true;

	while (again && start <= len && search(&s->re, line, len, start, m, SED_GROUPS)) {
		size_t so = (size_t)m[0].rm_so, eo = (size_t)m[0].rm_eo;
		size_t matched = eo - so;

		ns_buf_add(out, line + start, so - start);
		start = so;
		if (matched > 0 || count == 0 || so > last_end) {
			count++;
			sed_expand(s, line, m, out);
			again = s->global;
		} else if (start < len) {
			matched = 1;
			ns_buf_add(out, line + so, 1);
		} else {
			break;
		}
		start = so + matched;
		last_end = eo;
	}
	if (start < len)
		ns_buf_add(out, line + start, len - start);
	ns_buf_addc(out, '\n');
}

static void sed_run(const struct sed_prog *s, const char *in, size_t len,
		    struct ns_buf *out)
{
	struct lines l = lines_of(in, len);

	while (next_line(&l))
		sed_line(s, l.cur.data, l.cur.len, out);
}

static void sed_free(struct sed_prog *s)
{
	if (s->have_re)
		regfree(&s->re);
	for (size_t i = 0; i < s->npiece; i++)
		free(s->piece[i].text);
	free(s->piece);
}

/* ---- awk ------------------------------------------------------------- */

#define AWK_SHAPE "awk: only '{print $N, ...}' programs are supported"
#define AWK_FIELD_MAX 1000000L
enum { AWK_NF = -1, AWK_TEXT = -2 };

/* One print item: parts printed side by side. */
struct awk_part {
	long field;              /* N for $N, AWK_NF, or AWK_TEXT */
	char *text;
};

struct awk_item {
	struct awk_part *part;
	size_t npart, cap;
};

struct awk_prog {
	struct awk_item *item;
	size_t nitem, cap;
};

/* A cursor over the program text, with the argv word it came from. */
struct awk_src {
	const char *p;
	size_t word;
	struct ns_parse_err *e;
};

static void awk_blanks(struct awk_src *s)
{
	s->p += strspn(s->p, " \t\n");
}

static bool awk_ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* Take the keyword or character `tok` if it comes next. */
static bool awk_accept(struct awk_src *s, const char *tok)
{
	size_t n = strlen(tok);

	awk_blanks(s);
	if (strncmp(s->p, tok, n) != 0 ||
	    (awk_ident_char(tok[0]) && awk_ident_char(s->p[n])))
		return false;
	s->p += n;
	return true;
}

static void awk_add_part(struct awk_item *it, long field, char *text)
{
	void *v = it->part;

	ns_grow(&v, &it->cap, it->npart + 1, sizeof(*it->part));
	it->part = v;
	it->part[it->npart].field = field;
	it->part[it->npart].text = text;
	it->npart++;
}

static struct awk_item *awk_add_item(struct awk_prog *a)
{
	void *v = a->item;

	ns_grow(&v, &a->cap, a->nitem + 1, sizeof(*a->item));
	a->item = v;
	memset(&a->item[a->nitem], 0, sizeof(*a->item));
	return &a->item[a->nitem++];
}

static char awk_string_escape(char c)
{
	switch (c) {
	case '"': case '\\': case '/': return c;
	case 'b': return '\b';
	default: return control_escape(c);
	}
}

/* "..." after the opening quote; awk's escapes as in its strings. */
static int awk_string(struct awk_src *s, struct awk_item *it)
{
	struct ns_buf b = NS_BUF_INIT;

	for (; *s->p != '"'; s->p++) {
		char c = *s->p;

		if (c == '\\' && s->p[1]) {
			c = awk_string_escape(*++s->p);
			if (!c) {
				ns_buf_free(&b);
				return ns_parse_fail(s->e, s->word,
					"awk: unsupported escape \\%c in string", *s->p);
			}
		} else if (c == '\0' || c == '\\') {
			ns_buf_free(&b);
			return ns_parse_fail(s->e, s->word, "awk: unterminated string");
		}
		ns_buf_addc(&b, c);
	}
	s->p++;
	awk_add_part(it, AWK_TEXT, ns_buf_detach(&b));
	return 0;
}

/* $N or $NF after the '$'. */
static int awk_field(struct awk_src *s, struct awk_item *it)
{
	long n = 0;

	awk_blanks(s);
	if (awk_accept(s, "NF")) {
		awk_add_part(it, AWK_NF, NULL);
		return 0;
	}
	if (*s->p < '0' || *s->p > '9')
		return ns_parse_fail(s->e, s->word, AWK_SHAPE);
	for (; *s->p >= '0' && *s->p <= '9'; s->p++) {
		n = n * 10 + (*s->p - '0');
		if (n > AWK_FIELD_MAX)
			return ns_parse_fail(s->e, s->word, "awk: field number too large");
	}
	awk_add_part(it, n, NULL);
	return 0;
}

/* An item: one or more of $N, $NF and "..." side by side. */
static int awk_item(struct awk_src *s, struct awk_prog *a)
{
	struct awk_item *it = awk_add_item(a);

	for (;;) {
		int rc = 0;

		awk_blanks(s);
		if (*s->p != '$' && *s->p != '"')
			break;
		s->p++;
		rc = s->p[-1] == '$' ? awk_field(s, it) : awk_string(s, it);
		if (rc < 0)
			return -1;
	}
	return it->npart ? 0 : ns_parse_fail(s->e, s->word, AWK_SHAPE);
}

static int awk_program(struct awk_prog *a, const char *prog, size_t word,
		       struct ns_parse_err *e)
{
	struct awk_src s = { prog, word, e };

	if (!awk_accept(&s, "{") || !awk_accept(&s, "print"))
		return ns_parse_fail(e, word, AWK_SHAPE);
	awk_blanks(&s);
	if (*s.p == ';' || *s.p == '}') {
		awk_add_part(awk_add_item(a), 0, NULL); /* bare print is $0 */
	} else {
		do {
			if (awk_item(&s, a) < 0)
				return -1;
		} while (awk_accept(&s, ","));
	}
	awk_accept(&s, ";");
	if (!awk_accept(&s, "}"))
		return ns_parse_fail(e, word, AWK_SHAPE);
	awk_blanks(&s);
	return *s.p ? ns_parse_fail(e, word, AWK_SHAPE) : 0;
}

static int awk_compile(struct awk_prog *a, size_t argc, char *const *argv,
		       struct ns_parse_err *e)
{
	struct words w;

	if (split_words(argc, argv, "", &w, e) < 0 ||
	    want_operands(&w, 1, argv, "program", e) < 0)
		return -1;
	return awk_program(a, argv[w.op[0]], w.op[0], e);
}

/* Fields split as awk's default FS does: on runs of blanks, with
 * leading and trailing blanks ignored. */
struct awk_fields {
	const char **start;
	size_t *len;
	size_t n, cap;
};

static void awk_split(struct awk_fields *f, const char *line)
{
	const char *p = line + strspn(line, " \t\n");

	f->n = 0;
	while (*p) {
		size_t n = strcspn(p, " \t\n");
		size_t cap = f->cap;
		void *v = f->start, *l = f->len;

		ns_grow(&v, &f->cap, f->n + 1, sizeof(*f->start));
		ns_grow(&l, &cap, f->n + 1, sizeof(*f->len));
		f->start = v;
		f->len = l;
		f->start[f->n] = p;
		f->len[f->n++] = n;
		p += n;
		p += strspn(p, " \t\n");
	}
}

static void awk_add_field(struct ns_buf *out, const struct awk_fields *f,
			  long field, const char *line, size_t len)
{
	size_t n = field == AWK_NF ? f->n : (size_t)field;

	if (n == 0)
		ns_buf_add(out, line, len);
	else if (n <= f->n)
		ns_buf_add(out, f->start[n - 1], f->len[n - 1]);
}

static void awk_line(const struct awk_prog *a, struct awk_fields *f,
		     const char *line, size_t len, struct ns_buf *out)
{
	awk_split(f, line);
	for (size_t i = 0; i < a->nitem; i++) {
		const struct awk_item *it = &a->item[i];

		if (i > 0)
			ns_buf_addc(out, ' '); /* OFS */
		for (size_t j = 0; j < it->npart; j++) {
			if (it->part[j].field == AWK_TEXT)
				ns_buf_adds(out, it->part[j].text);
			else
				awk_add_field(out, f, it->part[j].field, line, len);
		}
	}
	ns_buf_addc(out, '\n'); /* ORS */
}

static void awk_run(const struct awk_prog *a, const char *in, size_t len,
		    struct ns_buf *out)
{
	struct lines l = lines_of(in, len);
	struct awk_fields f = { NULL, NULL, 0, 0 };

	while (next_line(&l))
		awk_line(a, &f, l.cur.data, l.cur.len, out);
	free(f.start);
	free(f.len);
}

static void awk_free(struct awk_prog *a)
{
	for (size_t i = 0; i < a->nitem; i++) {
		for (size_t j = 0; j < a->item[i].npart; j++)
			free(a->item[i].part[j].text);
		free(a->item[i].part);
	}
	free(a->item);
}

/* ---- wc -------------------------------------------------------------- */

enum { WC_L = 1, WC_W = 2, WC_C = 4 };
#define WC_OPTIONS "lwc"

struct wc_prog {
	unsigned what;           /* WC_* */
};

static int wc_compile(struct wc_prog *w, size_t argc, char *const *argv,
		      struct ns_parse_err *e)
{
	struct words ws;

	if (split_words(argc, argv, WC_OPTIONS, &ws, e) < 0 ||
	    want_operands(&ws, 0, argv, "", e) < 0)
		return -1;
	w->what = ws.flags ? ws.flags : WC_L | WC_W | WC_C;
	return 0;
}

static bool wc_space(char c)
{
	return c && strchr(" \t\n\v\f\r", c);
}

static void wc_run(const struct wc_prog *w, const char *in, size_t len,
		   struct ns_buf *out)
{
	size_t count[3] = { 0, 0, len };
	bool in_word = false, several = (w->what & (w->what - 1)) != 0;
	const char *sep = "";

	for (size_t i = 0; i < len; i++) {
		count[0] += in[i] == '\n';
		if (wc_space(in[i])) {
			in_word = false;
		} else if (!in_word) {
			in_word = true;
			count[1]++;
		}
	}
	/* GNU wc pads each of several counts of standard input to 7. */
	for (unsigned i = 0; i < 3; i++) {
		if (!(w->what & (1u << i)))
			continue;
		ns_buf_addf(out, several ? "%s%7zu" : "%s%zu", sep, count[i]);
		sep = " ";
	}
	ns_buf_addc(out, '\n');
}

/* ---- the filter object and the command table -------------------------- */

enum filter_kind { FILTER_GREP, FILTER_SED, FILTER_AWK, FILTER_WC };

struct ns_filter {
	enum filter_kind kind;
	union {
		struct grep_prog grep;
		struct sed_prog sed;
		struct awk_prog awk;
		struct wc_prog wc;
	} u;
};

static int compile_kind(struct ns_filter *f, size_t argc, char *const *argv,
			struct ns_parse_err *e)
{
	switch (f->kind) {
	case FILTER_GREP: return grep_compile(&f->u.grep, argc, argv, e);
	case FILTER_SED: return sed_compile(&f->u.sed, argc, argv, e);
	case FILTER_AWK: return awk_compile(&f->u.awk, argc, argv, e);
	case FILTER_WC: return wc_compile(&f->u.wc, argc, argv, e);
	}
	return -1;
}

struct ns_filter *ns_filter_compile(size_t argc, char *const *argv,
				    struct ns_parse_err *e)
{
	static const char *const names[] = { "grep", "sed", "awk", "wc" };
	struct ns_filter *f;
	size_t k = 0;

	while (argc > 0 && k < NS_ARRAY_SIZE(names) && strcmp(argv[0], names[k]))
		k++;
	if (argc == 0 || k == NS_ARRAY_SIZE(names)) {
		ns_parse_fail(e, 0, "%s: not a filter", argc ? argv[0] : "");
		return NULL;
	}
	f = xcalloc(1, sizeof(*f));
	f->kind = (enum filter_kind)k;
	if (compile_kind(f, argc, argv, e) < 0) {
		ns_filter_free(f);
		return NULL;
	}
	return f;
}

void ns_filter_free(struct ns_filter *f)
{
	if (!f)
		return;
	switch (f->kind) {
	case FILTER_GREP: grep_free(&f->u.grep); break;
	case FILTER_SED: sed_free(&f->u.sed); break;
	case FILTER_AWK: awk_free(&f->u.awk); break;
	case FILTER_WC: break;
	}
	free(f);
}

void ns_filter_run(const struct ns_filter *f, const char *in, size_t len,
		   struct ns_buf *out)
{
	switch (f->kind) {
	case FILTER_GREP: grep_run(&f->u.grep, in, len, out); break;
	case FILTER_SED: sed_run(&f->u.sed, in, len, out); break;
	case FILTER_AWK: awk_run(&f->u.awk, in, len, out); break;
	case FILTER_WC: wc_run(&f->u.wc, in, len, out); break;
	}
}

static int filter_parse(struct ns_stage *st, struct ns_parse_err *e)
{
	st->args = ns_filter_compile(st->argc, st->argv, e);
	return st->args ? 0 : -1;
}

/* A filter reads the output of the stage before it; it never fails,
 * and grep selecting nothing is not an error here. */
static int filter_exec(struct ns_term *t, const struct ns_stage *st,
		       const struct ns_buf *in, struct ns_buf *out,
		       struct ns_cmd_result *res)
{
	(void)t;
	(void)res;
	ns_filter_run(st->args, in ? in->data : NULL, in ? in->len : 0, out);
	return 0;
}

static void filter_free_args(void *args)
{
	ns_filter_free(args);
}

#define FILTER_ENTRY(cmd)                                                \
	{ .name = cmd, .filter = true, .parse = filter_parse,            \
	  .exec = filter_exec, .free_args = filter_free_args }

const struct ns_cmd_def ns_cmd_filter[] = {
	FILTER_ENTRY("grep"),
	FILTER_ENTRY("sed"),
	FILTER_ENTRY("awk"),
	FILTER_ENTRY("wc"),
};
const size_t ns_cmd_filter_count = NS_ARRAY_SIZE(ns_cmd_filter);
