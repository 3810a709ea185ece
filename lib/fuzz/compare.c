/* compare.c - see compare.h. */
#include "fuzz/compare.h"

#include <string.h>

void ns_fuzz_diff_free(struct ns_fuzz_diff *d)
{
	free(d->cls);
	free(d->what);
	d->cls = d->what = NULL;
}

char *ns_fuzz_cmd_shape(const char *cmd)
{
	struct ns_buf b = NS_BUF_INIT;
	const char *p = cmd;

	while (*p) {
		size_t wl = strcspn(p, " ");
		if (*p != '/' && *p != '@') {
			if (b.len)
				ns_buf_addc(&b, ' ');
			ns_buf_add(&b, p, wl);
		}
		p += wl;
		p += strspn(p, " ");
	}
	return ns_buf_detach(&b);
}

unsigned ns_fuzz_step_term(const struct ns_fuzz_case *c, size_t i)
{
	unsigned terms[NS_FUZZ_MAX_TERMS];
	size_t nt = ns_fuzz_case_terms(c, terms);

	if (i < c->n)
		return c->ops[i].term;
	return i - c->n < nt ? terms[i - c->n] : 0;
}

const char *ns_fuzz_step_cmd(const struct ns_fuzz_case *c, size_t i)
{
	return i < c->n ? c->ops[i].cmd : NS_FUZZ_OBSERVE;
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The first line (1-based) where two texts differ. */
static size_t first_diff_line(const char *a, const char *b)
{
	size_t line = 1;

	for (; *a && *a == *b; a++, b++)
		line += *a == '\n';
	return line;
}

static enum ns_fuzz_verdict diverge(struct ns_fuzz_diff *d, enum ns_fuzz_kind kind, size_t step,
				    char *cls, char *what)
{
	d->kind = kind;
	d->step = step;
	d->cls = cls;
	d->what = what;
	return NS_FUZZ_DIVERGES;
}

static enum ns_fuzz_verdict compare_step(const struct ns_fuzz_case *c,
					 const struct ns_fuzz_outcome *a,
					 const struct ns_fuzz_outcome *b, size_t i,
					 struct ns_fuzz_diff *d)
{
	const struct ns_fuzz_step *x = &a->s[i], *y = &b->s[i];
	char *shape = ns_fuzz_cmd_shape(ns_fuzz_step_cmd(c, i));
	unsigned term = ns_fuzz_step_term(c, i);
	enum ns_fuzz_verdict v = NS_FUZZ_SAME;

	if (x->ran != y->ran)
		v = diverge(d, NS_FUZZ_RAN, i,
			    xasprintf("%s ran on the %s side only", shape, x->ran ? "first" : "second"),
			    xasprintf("step %zu (%s) ran on the %s side only (the other: %s)", i + 1, shape,
				      x->ran ? "first" : "second",
				      (x->ran ? b : a)->aborted ? (x->ran ? b : a)->aborted : "stopped"));
	else if (!x->ran)
		v = NS_FUZZ_SAME;
	else if (x->err != y->err)
		v = diverge(d, NS_FUZZ_ERRNO, i,
			    xasprintf("%s: errno %s vs %s", shape, x->err ? ns_errname(x->err) : "0",
				      y->err ? ns_errname(y->err) : "0"),
			    xasprintf("step %zu (sh%u# %s): errno %s vs %s", i + 1, term,
				      ns_fuzz_step_cmd(c, i), x->err ? ns_errname(x->err) : "0",
				      y->err ? ns_errname(y->err) : "0"));
	else if (strcmp(ns_fuzz_step_text(x), ns_fuzz_step_text(y))) {
		const char *tx = ns_fuzz_step_text(x), *ty = ns_fuzz_step_text(y);
		if (i >= c->n)
			v = diverge(d, NS_FUZZ_TABLE, i, xstrdup("a mount table differs"),
				    xasprintf("table of sh%u differs: %zu vs %zu lines, first difference at canonical line %zu",
					      term, count_lines(tx), count_lines(ty), first_diff_line(tx, ty)));
		else
			v = diverge(d, NS_FUZZ_OUTPUT, i, xasprintf("output of %s differs", shape),
				    xasprintf("step %zu (sh%u# %s): output differs at line %zu", i + 1,
					      term, ns_fuzz_step_cmd(c, i), first_diff_line(tx, ty)));
	}
	free(shape);
	return v;
}

enum ns_fuzz_verdict ns_fuzz_compare(const struct ns_fuzz_case *c,
				     const struct ns_fuzz_outcome *a,
				     const struct ns_fuzz_outcome *b,
				     struct ns_fuzz_diff *d)
{
	memset(d, 0, sizeof(*d));
	if (a->skipped || b->skipped) {
		d->what = xasprintf("skipped on the %s side", a->skipped ? "first" : "second");
		return NS_FUZZ_UNJUDGED;
	}
	if (a->setup_failed && b->setup_failed) {
		d->what = xasprintf("no sandbox on either side: %s", a->aborted ? a->aborted : "?");
		return NS_FUZZ_UNJUDGED;
	}
	for (size_t i = 0; i < a->n && i < b->n; i++)
		if (compare_step(c, a, b, i, d) == NS_FUZZ_DIVERGES)
			return NS_FUZZ_DIVERGES;
	return NS_FUZZ_SAME;
}
