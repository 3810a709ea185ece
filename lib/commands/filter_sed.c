/* filter_sed.c - sed [-E|-r] 's/RE/REPL/[g]': the s command compiled
 * with GNU sed's rules for escapes and group references, and run with
 * its rule for empty matches under g. filter_sed_scan.c cuts the command
 * into its parts. */
#include "commands/filter_impl.h"

#include <stdlib.h>
#include <string.h>

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
	else if (ns_filter_control_escape(c))
		ns_buf_addc(lit, ns_filter_control_escape(c));
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

/* Compile the parts of s/RE/REPL/FLAGS as scanned out of the script, in
 * GNU sed's order: replacement, flags, then the regex. A bad regex is
 * named as it was scanned (raw_re), before its escapes were read. GNU
 * sed -E rejects a ')' that closes no group, which regcomp() takes. */
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
	if (rc == 0 && (cflags & REG_EXTENDED) &&
	    ns_filter_sed_stray_paren(re.data))
		rc = ns_filter_re_fail(e, word, "sed", ns_buf_str(raw_re),
				       "Unmatched ) or \\)");
	if (rc == 0)
		rc = ns_filter_compile_re(&s->re, ns_buf_str(&re), cflags,
					  "sed", ns_buf_str(raw_re), word, e);
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
		p = ns_filter_sed_scan_part(p + 2, delim, true, &raw_re);
	else
		p = NULL;
	if (p)
		p = ns_filter_sed_scan_part(p, delim, false, &repl);
	if (!p)
		rc = ns_parse_fail(e, word, "sed: unterminated s command");
	else
		rc = sed_parts(s, &raw_re, &repl, p, cflags, word, e);
	ns_buf_free(&raw_re);
	ns_buf_free(&repl);
	return rc;
}

static int sed_compile(void *prog, size_t argc, char *const *argv,
		       struct ns_parse_err *e)
{
	struct sed_prog *s = prog;
	struct ns_filter_words w;

	if (ns_filter_split_words(argc, argv, SED_OPTIONS, &w, e) < 0 ||
	    ns_filter_want_operands(&w, 1, argv, "script", e) < 0)
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

	while (again && start <= len &&
	       ns_filter_search(&s->re, line, len, start, m, SED_GROUPS)) {
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

static void sed_run(const void *prog, const char *in, size_t len,
		    struct ns_buf *out)
{
	const struct sed_prog *s = prog;
	struct ns_filter_lines l = ns_filter_lines_of(in, len);

	while (ns_filter_next_line(&l))
		sed_line(s, l.cur.data, l.cur.len, out);
}

static void sed_release(void *prog)
{
	struct sed_prog *s = prog;

	if (s->have_re)
		regfree(&s->re);
	for (size_t i = 0; i < s->npiece; i++)
		free(s->piece[i].text);
	free(s->piece);
}

const struct ns_filter_ops ns_filter_sed = {
	.name = "sed",
	.size = sizeof(struct sed_prog),
	.compile = sed_compile,
	.run = sed_run,
	.release = sed_release,
};
