/* filter_awk.c - the awk programs nstest runs: rules of a pattern, an
 * action or both, where a pattern is /RE/, $N == "S", $N != "S",
 * $N ~ /RE/, $N !~ /RE/ (or "RE" for /RE/) or NR == N, and an action is {print ITEM, ...}. An ITEM is $N, $NF, NF,
 * NR or "string", or several of them side by side. Fields are split as
 * awk's default FS does. Everything else of the awk language is refused,
 * naming where the program stops being supported. Regular expressions
 * read as mawk, Debian 12's awk, reads them: braces are literal. */
#include "commands/filter_impl.h"

#include <stdlib.h>
#include <string.h>

#define AWK_FIELD_MAX 1000000ULL
#define AWK_SHOWN 24             /* how much of the program an error shows */

/* A cursor over the program text, with the argv word it came from. */
struct awk_src {
	const char *p;
	size_t word;
	struct ns_parse_err *e;
};

/* "awk: unsupported WHAT at '...'", showing the program from `at` on. */
static int awk_unsupported(struct awk_src *s, const char *what, const char *at)
{
	size_t n = strcspn(at, "\n");

	if (n > AWK_SHOWN)
		return ns_parse_fail(s->e, s->word, "awk: unsupported %s at '%.*s...'",
				     what, AWK_SHOWN, at);
	return ns_parse_fail(s->e, s->word, "awk: unsupported %s at '%.*s'",
			     what, (int)n, at);
}

static void awk_blanks(struct awk_src *s)
{
	s->p += strspn(s->p, " \t");
}

static bool awk_ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* Take the keyword or token `tok` if it comes next, after blanks. */
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

/* ---- items ------------------------------------------------------------- */

static void awk_add_part(struct ns_awk_item *it, long field, char *text)
{
	void *v = it->part;

	ns_grow(&v, &it->cap, it->npart + 1, sizeof(*it->part));
	it->part = v;
	it->part[it->npart].field = field;
	it->part[it->npart].text = text;
	it->npart++;
}

static struct ns_awk_item *awk_add_item(struct ns_awk_rule *r)
{
	void *v = r->item;

	ns_grow(&v, &r->cap, r->nitem + 1, sizeof(*r->item));
	r->item = v;
	memset(&r->item[r->nitem], 0, sizeof(*r->item));
	return &r->item[r->nitem++];
}

static char awk_string_escape(char c)
{
	switch (c) {
	case '"': case '\\': case '/': return c;
	case 'b': return '\b';
	default: return ns_filter_control_escape(c);
	}
}

/* "..." after the opening quote, with awk's escapes, into *out. */
static int awk_string(struct awk_src *s, char **out)
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
		} else if (c == '\0' || c == '\\' || c == '\n') {
			ns_buf_free(&b);
			return ns_parse_fail(s->e, s->word, "awk: unterminated string");
		}
		ns_buf_addc(&b, c);
	}
	s->p++;
	*out = ns_buf_detach(&b);
	return 0;
}

/* $N or $NF after the '$'; *field is N or NS_AWK_NF. 1 when neither. */
static int awk_field(struct awk_src *s, long *field)
{
	unsigned long long n;
	bool big;

	if (awk_accept(s, "NF")) {
		*field = NS_AWK_NF;
		return 0;
	}
	if (!ns_filter_digits(&s->p, &n, &big))
		return 1;
	if (big || n > AWK_FIELD_MAX)
		return ns_parse_fail(s->e, s->word, "awk: field number too large");
	*field = (long)n;
	return 0;
}

/* One part of an item at s->p: 1 when there is none there. */
static int awk_part(struct awk_src *s, struct ns_awk_item *it)
{
	const char *at = (awk_blanks(s), s->p);
	long field;
	char *text;
	int rc;

	if (*s->p == '"') {
		s->p++;
		if (awk_string(s, &text) < 0)
			return -1;
		awk_add_part(it, NS_AWK_TEXT, text);
		return 0;
	}
	if (awk_accept(s, "NF") || awk_accept(s, "NR")) {
		awk_add_part(it, s->p[-1] == 'F' ? NS_AWK_COUNT_NF : NS_AWK_COUNT_NR, NULL);
		return 0;
	}
	if (*s->p != '$')
		return 1;
	s->p++;
	if ((rc = awk_field(s, &field)) != 0)
		return rc < 0 ? -1 : awk_unsupported(s, "print item", at);
	awk_add_part(it, field, NULL);
	return 0;
}

/* An item: one or more parts side by side. */
static int awk_item(struct awk_src *s, struct ns_awk_rule *r)
{
	struct ns_awk_item *it = awk_add_item(r);
	const char *at = (awk_blanks(s), s->p);
	int rc;

	while ((rc = awk_part(s, it)) == 0)
		;
	if (rc < 0)
		return -1;
	if (!it->npart || !strchr(",;}\n", *(awk_blanks(s), s->p)))
		return awk_unsupported(s, "print item", it->npart ? s->p : at);
	return 0;
}

/* {print [ITEM, ...][;]} after the '{'. */
static int awk_action(struct awk_src *s, struct ns_awk_rule *r)
{
	const char *at = (s->p += strspn(s->p, " \t\n"), s->p);

	if (!awk_accept(s, "print"))
		return awk_unsupported(s, "statement", at);
	awk_blanks(s);
	if (!*s->p || strchr(";}\n", *s->p)) {
		awk_add_part(awk_add_item(r), 0, NULL); /* bare print is $0 */
	} else {
		do {
			if (awk_item(s, r) < 0)
				return -1;
		} while (awk_accept(s, ","));
	}
	awk_accept(s, ";");
	s->p += strspn(s->p, " \t\n");
	if (*s->p == '}') {
		s->p++;
		return 0;
	}
	if (!*s->p)
		return ns_parse_fail(s->e, s->word, "awk: missing '}' at the end of "
				     "the program");
	return awk_unsupported(s, "statement", s->p);
}

/* ---- patterns ---------------------------------------------------------- */

/* A control escape (\t, \n ...) or \" as awk reads it: the character,
 * or 0. */
static char awk_regex_escape(char c)
{
	return c == '"' ? c : ns_filter_control_escape(c);
}

/* A bracket expression's text, its ']' included: only the control
 * escapes change. */
static void awk_bracket_text(const char *in, struct ns_buf *out)
{
	for (const char *p = in; *p; p++) {
		if (*p == '\\' && p[1] && awk_regex_escape(p[1]))
			ns_buf_addc(out, awk_regex_escape(*++p));
		else
			ns_buf_addc(out, *p);
	}
}

/* The regex between slashes as regcomp() must see it: awk's escapes of
 * control characters become the characters, and braces outside bracket
 * expressions are literal (mawk 1.3.4 has no intervals). */
static void awk_regex_text(const char *in, struct ns_buf *out)
{
	for (const char *p = in; *p; p++) {
		if (*p == '[') {
			struct ns_buf br = NS_BUF_INIT;
			const char *end = ns_filter_copy_bracket(p + 1, &br);

			ns_buf_addc(out, '[');
			awk_bracket_text(ns_buf_str(&br), out);
			ns_buf_free(&br);
			if (!end)
				return; /* regcomp() names the error */
			p = end - 1;
		} else if (*p == '{' || *p == '}') {
			ns_buf_addc(out, '\\');
			ns_buf_addc(out, *p);
		} else if (*p == '\\' && p[1] && awk_regex_escape(p[1])) {
			ns_buf_addc(out, awk_regex_escape(*++p));
		} else {
			if (*p == '\\' && p[1])
				ns_buf_addc(out, *p++);
			ns_buf_addc(out, *p);
		}
	}
}

/* The regex at s->p, after its opening '/' (or '"' for a string used as
 * one, which awk reads as a string first), compiled into r->re; the
 * pattern is `kind`. */
static int awk_regex_as(struct awk_src *s, struct ns_awk_rule *r, enum ns_awk_pat kind)
{
	struct ns_buf raw = NS_BUF_INIT, text = NS_BUF_INIT;
	const char *end;
	char *str = NULL;
	int rc;

	if (s->p[-1] == '"') {
		if (awk_string(s, &str) < 0)
			return -1;
		ns_buf_adds(&raw, str);
		free(str);
		end = s->p;
	} else {
		end = ns_filter_sed_scan_part(s->p, '/', true, &raw);
	}
	if (!end) {
		ns_buf_free(&raw);
		return ns_parse_fail(s->e, s->word, "awk: unterminated regular expression");
	}
	s->p = end;
	awk_regex_text(ns_buf_str(&raw), &text);
	rc = ns_filter_compile_re(&r->re, ns_buf_str(&text), REG_EXTENDED, "awk",
				  ns_buf_str(&raw), s->word, s->e);
	if (rc == 0)
		r->pat = kind;
	ns_buf_free(&raw);
	ns_buf_free(&text);
	return rc;
}

static int awk_regex(struct awk_src *s, struct ns_awk_rule *r)
{
	return awk_regex_as(s, r, NS_AWK_PAT_RE);
}

/* $N == "S", $N != "S", $N ~ /RE/ or $N !~ /RE/, after the '$'. */
static int awk_compare(struct awk_src *s, struct ns_awk_rule *r, const char *at)
{
	enum ns_awk_pat kind;
	int rc = awk_field(s, &r->field);

	if (rc != 0)
		return rc < 0 ? -1 : awk_unsupported(s, "pattern", at);
	if (awk_accept(s, "!~") || awk_accept(s, "~")) {
		kind = s->p[-1] == '~' && s->p[-2] == '!' ? NS_AWK_PAT_NOMATCH : NS_AWK_PAT_MATCH;
		awk_blanks(s);
		if (*s->p != '/' && *s->p != '"')
			return awk_unsupported(s, "pattern", at);
		s->p++;
		return awk_regex_as(s, r, kind);
	}
	if (awk_accept(s, "=="))
		kind = NS_AWK_PAT_EQ;
	else if (awk_accept(s, "!="))
		kind = NS_AWK_PAT_NE;
	else
		return awk_unsupported(s, "pattern", at);
	awk_blanks(s);
	if (*s->p != '"')
		return awk_unsupported(s, "pattern", at);
	s->p++;
	if (awk_string(s, &r->text) < 0)
		return -1;
	r->pat = kind;
	return 0;
}

/* NR == N after the NR. */
static int awk_nr(struct awk_src *s, struct ns_awk_rule *r, const char *at)
{
	bool big;

	if (!awk_accept(s, "=="))
		return awk_unsupported(s, "pattern", at);
	awk_blanks(s);
	if (!ns_filter_digits(&s->p, &r->nr, &big) || awk_ident_char(*s->p) ||
	    *s->p == '.')
		return awk_unsupported(s, "pattern", at);
	if (big)
		return ns_parse_fail(s->e, s->word, "awk: record number too large");
	r->pat = NS_AWK_PAT_NR;
	return 0;
}

static int awk_pattern(struct awk_src *s, struct ns_awk_rule *r)
{
	const char *at = s->p;

	if (*s->p == '/') {
		s->p++;
		return awk_regex(s, r);
	}
	if (*s->p == '$') {
		s->p++;
		return awk_compare(s, r, at);
	}
	if (awk_accept(s, "NR"))
		return awk_nr(s, r, at);
	return awk_unsupported(s, "pattern", at);
}

static struct ns_awk_rule *awk_add_rule(struct ns_awk_prog *a)
{
	void *v = a->rule;

	ns_grow(&v, &a->cap, a->nrule + 1, sizeof(*a->rule));
	a->rule = v;
	memset(&a->rule[a->nrule], 0, sizeof(*a->rule));
	return &a->rule[a->nrule++];
}

/* Rules, each a pattern, an action or both; a rule without an action
 * ends with ';', a newline or the end of the program. */
static int awk_program(struct ns_awk_prog *a, const char *prog, size_t word,
		       struct ns_parse_err *e)
{
	struct awk_src s = { prog, word, e };

	for (;;) {
		struct ns_awk_rule *r;

		s.p += strspn(s.p, " \t\n;");
		if (!*s.p)
			return 0;
		r = awk_add_rule(a);
		if (*s.p != '{' && awk_pattern(&s, r) < 0)
			return -1;
		awk_blanks(&s);
		if (*s.p == '{') {
			s.p++;
			if (awk_action(&s, r) < 0)
				return -1;
		} else if (!strchr(";\n", *s.p)) {
			return awk_unsupported(&s, "pattern", s.p);
		}
	}
}

static int awk_compile(void *prog, size_t argc, char *const *argv, size_t *file,
		       struct ns_parse_err *e)
{
	struct ns_awk_prog *a = prog;
	struct ns_filter_words w;

	if (ns_filter_split_words(argc, argv, "", &w, e) < 0 ||
	    ns_filter_want_operands(&w, 1, argv, "program", file, e) < 0)
		return -1;
	return awk_program(a, argv[w.op[0]], w.op[0], e);
}

const struct ns_filter_ops ns_filter_awk = {
	.name = "awk",
	.size = sizeof(struct ns_awk_prog),
	.compile = awk_compile,
	.run = ns_awk_run,
	.release = ns_awk_release,
	.keeps_lines = ns_awk_keeps_lines,
	.plain = ns_awk_plain,
};
