/* filter_sed_subst.c - sed's regular expressions and its s command:
 * s/RE/REPL/FLAGS compiled with GNU sed's rules for escapes, group
 * references and flags (g, p, N, I), and carried out with its rule for
 * empty matches. filter_sed_scan.c cuts the command into its parts;
 * filter_sed.c puts the commands of a script together. */
#include "commands/filter_impl.h"

#include <stdlib.h>
#include <string.h>

#define SED_GROUPS 10            /* \0 .. \9 */

/* A replacement is literal text, each piece followed by a group. */
struct sed_piece {
	char *text;
	size_t len;
	int group;               /* 0 for & and \0, 1..9, or -1 at the end */
};

struct ns_sed_subst {
	regex_t re;
	bool have_re;
	struct sed_piece *piece;
	size_t npiece, cap;
	bool global, print;
	unsigned long long number; /* replace from the Nth match on (0: 1st) */
	int icase;               /* REG_ICASE with I */
	char *re_text;           /* the regex as regcomp() saw it ... */
	int cflags;              /* ... and its flags */
};

/* ---- regular expressions ------------------------------------------------ */

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
		if ((c = ns_filter_control_escape(*p)))
			ns_buf_addc(out, c);
		else if (strchr("doxc", *p))
			return ns_parse_fail(e, word, "sed: unsupported escape \\%c", *p);
		else
			ns_buf_add(out, p - 1, 2);
	}
	return 0;
}

/* A bad regex is named as it was scanned (raw), before its escapes were
 * read. GNU sed -E rejects a ')' that closes no group, which regcomp()
 * takes. */
int ns_sed_regex(regex_t *re, const char *raw, int cflags, size_t word,
		 struct ns_parse_err *e)
{
	struct ns_buf text = NS_BUF_INIT;
	int rc = sed_regex_text(raw, &text, word, e);

	if (rc == 0 && (cflags & REG_EXTENDED) &&
	    ns_filter_sed_stray_paren(ns_buf_str(&text)))
		rc = ns_filter_re_fail(e, word, "sed", raw, "Unmatched ) or \\)");
	if (rc == 0)
		rc = ns_filter_compile_re(re, ns_buf_str(&text), cflags, "sed", raw,
					  word, e);
	ns_buf_free(&text);
	return rc;
}

/* ---- the replacement ---------------------------------------------------- */

static void sed_push_piece(struct ns_sed_subst *s, struct ns_buf *lit, int group)
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
static int sed_repl_escape(struct ns_sed_subst *s, char c, struct ns_buf *lit,
			   size_t word, struct ns_parse_err *e)
{
	if (c >= '0' && c <= '9')
		sed_push_piece(s, lit, c - '0');
	else if (ns_filter_control_escape(c))
		ns_buf_addc(lit, ns_filter_control_escape(c));
	else if (strchr("LUluEdoxc", c))
		return ns_parse_fail(e, word, "sed: unsupported escape \\%c", c);
	else
		ns_buf_addc(lit, c);
	return 0;
}

static int sed_replacement(struct ns_sed_subst *s, const char *in, size_t word,
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
static int sed_check_groups(const struct ns_sed_subst *s, size_t word,
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

/* ---- flags -------------------------------------------------------------- */

static int sed_number_flag(struct ns_sed_subst *s, const char **p, size_t word,
			   struct ns_parse_err *e)
{
	bool big;

	if (s->number)
		return ns_parse_fail(e, word, "sed: multiple number flags to s");
	ns_filter_digits(p, &s->number, &big);
	(*p)--;
	if (big)
		s->number = ~0ULL;
	if (!s->number)
		return ns_parse_fail(e, word, "sed: number flag to s may not be zero");
	return 0;
}

/* The flags after the last delimiter, read as GNU sed does: blanks
 * between them are skipped; ';' or a newline ends the command, '#'
 * starts a comment and '}' closes a block. Returns where the command
 * ends, or NULL on an error. */
static const char *sed_flags(struct ns_sed_subst *s, const char *p, size_t word,
			     struct ns_parse_err *e)
{
	for (; *p && !strchr(";\n#}", *p); p++) {
		switch (*p) {
		case ' ': case '\t':
			break;
		case 'g':
			if (s->global)
				return ns_parse_fail(e, word, "sed: multiple 'g' flags to s"), NULL;
			s->global = true;
			break;
		case 'p':
			if (s->print)
				return ns_parse_fail(e, word, "sed: multiple 'p' flags to s"), NULL;
			s->print = true;
			break;
		case 'I': case 'i':
			s->icase = REG_ICASE;
			break;
		case '0': case '1': case '2': case '3': case '4':
		case '5': case '6': case '7': case '8': case '9':
			if (sed_number_flag(s, &p, word, e) < 0)
				return NULL;
			break;
		default:
			return ns_parse_fail(e, word, "sed: unsupported flag '%c' to s", *p), NULL;
		}
	}
	return p;
}

/* ---- the command -------------------------------------------------------- */

/* Compile the parts in GNU sed's order: replacement, flags, regex. An
 * empty regex would be the last one used, which is only supported
 * before any other (as an error, GNU sed's). */
static const char *sed_parts(struct ns_sed_subst *s, const char *raw_re,
			     const char *repl, const char *flags,
			     const struct ns_sed_ctx *cx, struct ns_parse_err *e)
{
	const char *end = NULL;

	if (sed_replacement(s, repl, cx->word, e) < 0 ||
	    !(end = sed_flags(s, flags, cx->word, e)))
		return NULL;
	if (!*raw_re)
		return ns_sed_empty_regex(cx, e), NULL;
	if (ns_sed_regex(&s->re, raw_re, cx->cflags | s->icase, cx->word, e) < 0)
		return NULL;
	s->have_re = true;
	{
		struct ns_buf text = NS_BUF_INIT;

		if (sed_regex_text(raw_re, &text, cx->word, e) < 0)
			return NULL;
		s->re_text = ns_buf_detach(&text);
		s->cflags = cx->cflags | s->icase;
	}
	return sed_check_groups(s, cx->word, e) < 0 ? NULL : end;
}

const char *ns_sed_subst_compile(struct ns_sed_subst **out, const char *p,
				 const struct ns_sed_ctx *cx,
				 struct ns_parse_err *e)
{
	struct ns_buf raw_re = NS_BUF_INIT, repl = NS_BUF_INIT;
	struct ns_sed_subst *s = xcalloc(1, sizeof(*s));
	char delim = *p;

	*out = s;
	if (delim && delim != '\n')
		p = ns_filter_sed_scan_part(p + 1, delim, true, &raw_re);
	else
		p = NULL;
	if (p)
		p = ns_filter_sed_scan_part(p, delim, false, &repl);
	if (!p)
		ns_parse_fail(e, cx->word, "sed: unterminated s command");
	else
		p = sed_parts(s, ns_buf_str(&raw_re), ns_buf_str(&repl), p, cx, e);
	ns_buf_free(&raw_re);
	ns_buf_free(&repl);
	return p;
}

bool ns_sed_subst_prints(const struct ns_sed_subst *s)
{
	return s->print;
}

bool ns_sed_subst_plain(const struct ns_sed_subst *s, struct ns_filter_plain *out)
{
	if (!s->re_text || s->print || s->number || s->npiece > NS_FF_MAX)
		return false;
	out->form = NS_FF_SED_S;
	out->re = s->re_text;
	out->cflags = s->cflags;
	out->global = s->global;
	out->npiece = s->npiece;
	for (size_t i = 0; i < s->npiece; i++) {
		out->text[i] = s->piece[i].text;
		out->len[i] = s->piece[i].len;
		out->group[i] = s->piece[i].group;
	}
	return true;
}

void ns_sed_subst_free(struct ns_sed_subst *s)
{
	if (!s)
		return;
	if (s->have_re)
		regfree(&s->re);
	free(s->re_text);
	for (size_t i = 0; i < s->npiece; i++)
		free(s->piece[i].text);
	free(s->piece);
	free(s);
}

/* ---- substituting ------------------------------------------------------- */

static void sed_expand(const struct ns_sed_subst *s, const char *line,
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

/* Substitute in line[0..len) into out, with GNU sed's rule for empty
 * matches: an empty match right where the previous match ended is no
 * match, and the scan steps over one character instead (so s,a*,x,g
 * turns baaac into xbxcx, not xbxxcx). With a number N, the first N-1
 * matches stay as they are. */
static bool sed_subst_line(const struct ns_sed_subst *s, const char *line,
			   size_t len, struct ns_buf *out)
{
	regmatch_t m[SED_GROUPS];
	size_t start = 0, last_end = 0, count = 0;
	unsigned long long first = s->number ? s->number : 1;
	bool again = true, done = false;

	while (again && start <= len &&
	       ns_filter_search(&s->re, line, len, start, m, SED_GROUPS)) {
		size_t so = (size_t)m[0].rm_so, eo = (size_t)m[0].rm_eo;
		size_t matched = eo - so;

		ns_buf_add(out, line + start, so - start);
		start = so;
		if (matched > 0 || count == 0 || so > last_end) {
			if (++count >= first) {
				sed_expand(s, line, m, out);
				done = true;
				again = s->global;
			} else {
				ns_buf_add(out, line + so, matched);
			}
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
	return done;
}

bool ns_sed_subst_apply(const struct ns_sed_subst *s, struct ns_buf *ps)
{
	struct ns_buf out = NS_BUF_LIMITED(ps->max);
	bool done = sed_subst_line(s, ns_buf_str(ps), ps->len, &out);

	if (done) {
		ns_buf_free(ps);
		*ps = out;
	} else {
		ns_buf_free(&out);
	}
	return done;
}
