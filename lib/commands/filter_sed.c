/* filter_sed.c - sed [-n] [-E|-r] [-e SCRIPT]... [SCRIPT]: the commands
 * s, p, d, q and Q, each with no address, one (N, $, /RE/ or \cREc) or
 * two of them (a range, 0,/RE/ included), and '!' to negate, read and
 * carried out as GNU sed 4.9 does. filter_sed_subst.c has the s command
 * and its regular expressions. */
#include "commands/filter_impl.h"

#include <stdlib.h>
#include <string.h>

enum { SED_N = 1, SED_E = 2, SED_R = 4, SED_EOPT = 8 };
#define SED_OPTIONS "nEre:"

enum sed_addr_kind { ADDR_NONE, ADDR_LINE, ADDR_LAST, ADDR_RE };

struct sed_addr {
	enum sed_addr_kind kind;
	unsigned long long line;
	regex_t re;
};

struct sed_cmd {
	struct sed_addr a1, a2;  /* a2 set: a range */
	bool negate;
	char name;               /* s p d q Q */
	struct ns_sed_subst *subst;
};

struct sed_prog {
	struct sed_cmd *cmd;
	size_t ncmd, cap;
	bool quiet;              /* -n, or "#n" at the script's start */
};

/* The scripts in order, each with the argv word it came from. */
struct sed_scripts {
	const char *text[64];
	size_t word[64], n;
};

static int sed_arg(void *ctx, char opt, const char *val, size_t word,
		   struct ns_parse_err *e)
{
	struct sed_scripts *s = ctx;

	(void)opt; /* only -e takes an argument */
	if (s->n == NS_ARRAY_SIZE(s->text))
		return ns_parse_fail(e, word, "sed: too many -e scripts");
	s->text[s->n] = val;
	s->word[s->n++] = word;
	return 0;
}

int ns_sed_empty_regex(const struct ns_sed_ctx *cx, struct ns_parse_err *e)
{
	if (!cx->seen_regex)
		return ns_parse_fail(e, cx->word, "sed: no previous regular expression");
	return ns_parse_fail(e, cx->word, "sed: an empty regular expression "
			     "(the last one used) is not supported");
}

/* ---- reading a script -------------------------------------------------- */

static const char *skip_blanks(const char *p)
{
	return p + strspn(p, " \t");
}

/* /RE/ or \cREc, and its flags: I is supported, M is not. */
static const char *sed_addr_regex(struct sed_addr *a, const char *p,
				  struct ns_sed_ctx *cx, struct ns_parse_err *e)
{
	struct ns_buf raw = NS_BUF_INIT;
	char delim = *p == '\\' ? *++p : '/';
	int cflags = cx->cflags, rc;

	p = delim && delim != '\n' && delim != '\\' ?
	    ns_filter_sed_scan_part(p + 1, delim, true, &raw) : NULL;
	if (!p) {
		ns_buf_free(&raw);
		return ns_parse_fail(e, cx->word, "sed: unterminated address regex"), NULL;
	}
	for (; *p == 'I' || *p == 'M'; p++) {
		if (*p == 'M') {
			ns_buf_free(&raw);
			return ns_parse_fail(e, cx->word, "sed: the address flag 'M' "
					     "is not supported"), NULL;
		}
		cflags |= REG_ICASE;
	}
	if (!raw.len)
		rc = ns_sed_empty_regex(cx, e);
	else
		rc = ns_sed_regex(&a->re, raw.data, cflags, cx->word, e);
	ns_buf_free(&raw);
	if (rc < 0)
		return NULL;
	a->kind = ADDR_RE;
	cx->seen_regex = true;
	return p;
}

/* One address at p, if there is one; NULL on an error. */
static const char *sed_address(struct sed_addr *a, const char *p,
			       struct ns_sed_ctx *cx, struct ns_parse_err *e)
{
	bool big;

	if (*p >= '0' && *p <= '9') {
		ns_filter_digits(&p, &a->line, &big);
		if (big)
			a->line = ~0ULL;
		a->kind = ADDR_LINE;
		if (*p == '~')
			return ns_parse_fail(e, cx->word, "sed: addresses FIRST~STEP "
					     "are not supported"), NULL;
		return p;
	}
	if (*p == '$') {
		a->kind = ADDR_LAST;
		return p + 1;
	}
	if (*p == '/' || *p == '\\')
		return sed_addr_regex(a, p, cx, e);
	return p;
}

/* [ADDR[,ADDR]][!] before a command. */
static const char *sed_addresses(struct sed_cmd *c, const char *p,
				 struct ns_sed_ctx *cx, struct ns_parse_err *e)
{
	if (!(p = sed_address(&c->a1, p, cx, e)))
		return NULL;
	p = skip_blanks(p);
	if (c->a1.kind != ADDR_NONE && *p == ',') {
		p = skip_blanks(p + 1);
		if (*p == '+' || *p == '~')
			return ns_parse_fail(e, cx->word, "sed: addresses ADDR,%cN "
					     "are not supported", *p), NULL;
		if (!(p = sed_address(&c->a2, p, cx, e)))
			return NULL;
		if (c->a2.kind == ADDR_NONE)
			return ns_parse_fail(e, cx->word, "sed: unexpected ','"), NULL;
		p = skip_blanks(p);
	}
	if (c->a1.kind == ADDR_LINE && c->a1.line == 0 && c->a2.kind != ADDR_RE)
		return ns_parse_fail(e, cx->word, "sed: invalid usage of line address 0"),
		       NULL;
	if (*p == '!') {
		c->negate = true;
		p = skip_blanks(p + 1);
		if (*p == '!')
			return ns_parse_fail(e, cx->word, "sed: multiple '!'s"), NULL;
	}
	return p;
}

/* What may follow p, d, q and Q: blanks, then the end of the command. */
static const char *sed_end_of_cmd(const struct sed_cmd *c, const char *p,
				  const struct ns_sed_ctx *cx, struct ns_parse_err *e)
{
	p = skip_blanks(p);
	if ((c->name == 'q' || c->name == 'Q') && *p >= '0' && *p <= '9')
		return ns_parse_fail(e, cx->word, "sed: an exit code after %c is "
				     "not supported", c->name), NULL;
	if (*p && !strchr(";\n#}", *p))
		return ns_parse_fail(e, cx->word, "sed: extra characters after command"),
		       NULL;
	return p;
}

static const char *sed_command(struct sed_cmd *c, const char *p,
			       struct ns_sed_ctx *cx, struct ns_parse_err *e)
{
	c->name = *p;
	switch (*p) {
	case 's':
		p = ns_sed_subst_compile(&c->subst, p + 1, cx, e);
		cx->seen_regex = cx->seen_regex || p;
		return p;
	case 'q': case 'Q':
		if (c->a2.kind != ADDR_NONE)
			return ns_parse_fail(e, cx->word, "sed: command only uses "
					     "one address"), NULL;
		return sed_end_of_cmd(c, p + 1, cx, e);
	case 'p': case 'd':
		return sed_end_of_cmd(c, p + 1, cx, e);
	case '\0': case '\n':
		return ns_parse_fail(e, cx->word, "sed: missing command"), NULL;
	case '}':
		return ns_parse_fail(e, cx->word, "sed: unexpected '}'"), NULL;
	}
	if (strchr("{=aicyDPnNhHgGxlbtT:rRwWeFvz", *p))
		return ns_parse_fail(e, cx->word, "sed: the command '%c' is not "
				     "supported", *p), NULL;
	return ns_parse_fail(e, cx->word, "sed: unknown command '%c'", *p), NULL;
}

static struct sed_cmd *sed_add_cmd(struct sed_prog *s)
{
	void *v = s->cmd;

	ns_grow(&v, &s->cap, s->ncmd + 1, sizeof(*s->cmd));
	s->cmd = v;
	memset(&s->cmd[s->ncmd], 0, sizeof(*s->cmd));
	return &s->cmd[s->ncmd++];
}

/* Commands separated by ';' or newlines; '#' starts a comment. */
static int sed_script(struct sed_prog *s, const char *p, struct ns_sed_ctx *cx,
		      struct ns_parse_err *e)
{
	for (;;) {
		p += strspn(p, " \t\n;");
		if (*p == '#') {
			p += strcspn(p, "\n");
			continue;
		}
		if (!*p)
			return 0;
		p = sed_addresses(sed_add_cmd(s), p, cx, e);
		if (!p || !(p = sed_command(&s->cmd[s->ncmd - 1], p, cx, e)))
			return -1;
	}
}

static int sed_compile(void *prog, size_t argc, char *const *argv, size_t *file,
		       struct ns_parse_err *e)
{
	struct sed_prog *s = prog;
	struct sed_scripts sc = { .n = 0 };
	const struct ns_filter_scan scan = { SED_OPTIONS, sed_arg, &sc, 0 };
	struct ns_filter_words w;
	struct ns_sed_ctx cx = { 0, 0, false };

	if (ns_filter_scan_words(argc, argv, &scan, &w, e) < 0 ||
	    ns_filter_want_operands(&w, w.flags & SED_EOPT ? 0 : 1, argv, "script",
				    file, e) < 0)
		return -1;
	if (!(w.flags & SED_EOPT))
		sed_arg(&sc, 'e', argv[w.op[0]], w.op[0], e);
	cx.cflags = w.flags & (SED_E | SED_R) ? REG_EXTENDED : 0;
	/* GNU sed 4.9: a script that starts with "#n" is run as with -n
	 * (the rest of that line is a comment, as always after '#') */
	s->quiet = (w.flags & SED_N) || !strncmp(sc.text[0], "#n", 2);
	for (size_t i = 0; i < sc.n; i++) {
		cx.word = sc.word[i];
		if (sed_script(s, sc.text[i], &cx, e) < 0)
			return -1;
	}
	return 0;
}

/* ---- running ----------------------------------------------------------- */

/* What GNU sed does with a last line without '\n': every time it is
 * printed it goes out without one, and any output after it starts with
 * the missing '\n'. */
struct sed_out {
	struct ns_buf *buf;
	bool owe_newline;
};

static void sed_print(struct sed_out *o, const struct ns_buf *ps, bool has_nl)
{
	if (o->owe_newline)
		ns_buf_addc(o->buf, '\n');
	ns_buf_add(o->buf, ns_buf_str(ps), ps->len);
	if (has_nl)
		ns_buf_addc(o->buf, '\n');
	o->owe_newline = !has_nl;
}

struct sed_line {
	const struct ns_buf *ps;
	unsigned long long n;
	bool last;
};

static bool addr_matches(const struct sed_addr *a, const struct sed_line *l)
{
	regmatch_t m[1];

	switch (a->kind) {
	case ADDR_LINE: return l->n == a->line;
	case ADDR_LAST: return l->last;
	case ADDR_RE: return ns_filter_search(&a->re, ns_buf_str(l->ps), l->ps->len,
					      0, m, 1);
	case ADDR_NONE: break;
	}
	return true;
}

/* Whether c applies to this line; *active is its range's state. A range
 * starts at a line that matches its first address and ends at the first
 * later line that matches its second (at once if that is a line number
 * not after the start); 0,/RE/ has begun before line 1. */
static bool sed_selects(const struct sed_cmd *c, bool *active,
			const struct sed_line *l)
{
	bool yes;

	if (c->a2.kind == ADDR_NONE) {
		yes = addr_matches(&c->a1, l);
	} else if (*active) {
		yes = true;
		if (c->a2.kind == ADDR_LINE ? l->n >= c->a2.line : addr_matches(&c->a2, l))
			*active = false;
	} else if ((yes = addr_matches(&c->a1, l))) {
		*active = !(c->a2.kind == ADDR_LINE && c->a2.line <= l->n);
	}
	return yes != c->negate;
}

/* One cycle: the commands over one line. Returns false once q or Q
 * stops the run. */
static bool sed_cycle(const struct sed_prog *s, bool *active, struct ns_buf *ps,
		      struct sed_line *l, bool has_nl, struct sed_out *o)
{
	for (size_t i = 0; i < s->ncmd; i++) {
		const struct sed_cmd *c = &s->cmd[i];

		l->ps = ps;
		if (!sed_selects(c, &active[i], l))
			continue;
		switch (c->name) {
		case 's':
			if (ns_sed_subst_apply(c->subst, ps) &&
			    ns_sed_subst_prints(c->subst))
				sed_print(o, ps, has_nl);
			break;
		case 'p':
			sed_print(o, ps, has_nl);
			break;
		case 'd':
			return true;
		case 'Q':
			return false;
		case 'q':
			if (!s->quiet)
				sed_print(o, ps, has_nl);
			return false;
		}
	}
	if (!s->quiet)
		sed_print(o, ps, has_nl);
	return true;
}

static void sed_run(const void *prog, const char *in, size_t len,
		    struct ns_buf *out)
{
	const struct sed_prog *s = prog;
	bool *active = xcalloc(s->ncmd + 1, sizeof(*active));
	struct sed_out o = { out, false };
	struct sed_line l = { NULL, 0, false };
	/* the pattern space is held to out's limit: each s command may
	 * make it longer, and a line may pass the limit before it is
	 * printed; the output is then cut */
	struct ns_buf ps = NS_BUF_LIMITED(out->max);

	for (size_t i = 0; i < s->ncmd; i++)
		active[i] = s->cmd[i].a1.kind == ADDR_LINE && s->cmd[i].a1.line == 0;
	for (size_t at = 0; at < len && !out->cut; ) {
		const char *nl = memchr(in + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - in) : len;

		ns_buf_reset(&ps);
		ns_buf_add(&ps, in + at, end - at);
		at = nl ? end + 1 : len;
		l.n++;
		l.last = at >= len;
		if (!sed_cycle(s, active, &ps, &l, nl != NULL, &o))
			break;
		if (ps.cut)
			out->cut = true;
	}
	ns_buf_free(&ps);
	free(active);
}

static void sed_release(void *prog)
{
	struct sed_prog *s = prog;

	for (size_t i = 0; i < s->ncmd; i++) {
		if (s->cmd[i].a1.kind == ADDR_RE)
			regfree(&s->cmd[i].a1.re);
		if (s->cmd[i].a2.kind == ADDR_RE)
			regfree(&s->cmd[i].a2.re);
		ns_sed_subst_free(s->cmd[i].subst);
	}
	free(s->cmd);
}

/* One s command with no address and no flag but g. */
static bool sed_plain(const void *prog, struct ns_filter_plain *out)
{
	const struct sed_prog *p = prog;
	const struct sed_cmd *c = p->cmd;

	if (p->ncmd != 1 || p->quiet || c->name != 's' || c->negate ||
	    c->a1.kind != ADDR_NONE || c->a2.kind != ADDR_NONE)
		return false;
	return ns_sed_subst_plain(c->subst, out);
}

const struct ns_filter_ops ns_filter_sed = {
	.name = "sed",
	.size = sizeof(struct sed_prog),
	.compile = sed_compile,
	.run = sed_run,
	.release = sed_release,
	.plain = sed_plain,
};
