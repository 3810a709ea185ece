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

static const char *errname(int err)
{
	return err ? ns_errname(err) : "0";
}

static enum ns_fuzz_verdict compare_step(const struct ns_fuzz_plan *p,
					 const struct ns_fuzz_outcome *a,
					 const struct ns_fuzz_outcome *b, size_t i,
					 struct ns_fuzz_diff *d)
{
	const struct ns_fuzz_step *x = &a->s[i], *y = &b->s[i];
	const char *cmd = p->s[i].cmd;
	char *shape = ns_fuzz_cmd_shape(cmd);
	unsigned term = p->s[i].term;
	bool observes = p->s[i].op == NS_FUZZ_NO_OP;
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
			    xasprintf("%s: errno %s vs %s", shape, errname(x->err), errname(y->err)),
			    xasprintf("step %zu (sh%u# %s): errno %s vs %s", i + 1, term, cmd,
				      errname(x->err), errname(y->err)));
	else if (strcmp(ns_fuzz_step_text(x), ns_fuzz_step_text(y))) {
		const char *tx = ns_fuzz_step_text(x), *ty = ns_fuzz_step_text(y);
		if (observes)
			v = diverge(d, NS_FUZZ_TABLE, i, xstrdup("a mount table differs"),
				    xasprintf("table of sh%u differs after step %zu: %zu vs %zu lines, first difference at canonical line %zu",
					      term, i, count_lines(tx), count_lines(ty), first_diff_line(tx, ty)));
		else
			v = diverge(d, NS_FUZZ_OUTPUT, i, xasprintf("output of %s differs", shape),
				    xasprintf("step %zu (sh%u# %s): output differs at line %zu", i + 1,
					      term, cmd, first_diff_line(tx, ty)));
	} else if (observes && x->order && y->order && strcmp(x->order, y->order)) {
		v = diverge(d, NS_FUZZ_ORDER, i, xstrdup("a mount table's order differs"),
			    xasprintf("table of sh%u after step %zu lists the same mounts in another order: %.*s vs %.*s",
				      term, i, (int)strcspn(x->order, "\n"), x->order,
				      (int)strcspn(y->order, "\n"), y->order));
	}
	if (v == NS_FUZZ_DIVERGES) {
		/* the operation it is, or the one its round observes */
		size_t k = i;
		while (k > 0 && p->s[k].op == NS_FUZZ_NO_OP)
			k--;
		d->op = p->s[k].op == NS_FUZZ_NO_OP ? 0 : p->s[k].op;
	}
	free(shape);
	return v;
}

/* Do the outcomes agree at every step both have, by compare_step's
 * tests? Most cases do, and then no step needs its command. */
static bool all_same(const struct ns_fuzz_outcome *a, const struct ns_fuzz_outcome *b)
{
	for (size_t i = 0; i < a->n && i < b->n; i++) {
		const struct ns_fuzz_step *x = &a->s[i], *y = &b->s[i];
		if (x->ran != y->ran)
			return false;
		if (!x->ran)
			continue;
		if (x->err != y->err || strcmp(ns_fuzz_step_text(x), ns_fuzz_step_text(y)) ||
		    (x->order && y->order && strcmp(x->order, y->order)))
			return false;
	}
	return true;
}

enum ns_fuzz_verdict ns_fuzz_compare(const struct ns_fuzz_case *c,
				     const struct ns_fuzz_outcome *a,
				     const struct ns_fuzz_outcome *b,
				     struct ns_fuzz_diff *d)
{
	struct ns_fuzz_plan p;
	enum ns_fuzz_verdict v = NS_FUZZ_SAME;

	memset(d, 0, sizeof(*d));
	if (a->unparsed || b->unparsed) {
		d->what = xstrdup((a->unparsed ? a : b)->aborted);
		return NS_FUZZ_UNJUDGED;
	}
	if (a->skipped || b->skipped) {
		d->what = xasprintf("skipped on the %s side", a->skipped ? "first" : "second");
		return NS_FUZZ_UNJUDGED;
	}
	/* a sandbox is set-up, never mount semantics: a side without one
	 * (a tool or a loop device missing on this host) judges nothing */
	if (a->setup_failed || b->setup_failed) {
		const struct ns_fuzz_outcome *f = a->setup_failed ? a : b;
		d->what = xasprintf("no sandbox on %s: %s",
				    a->setup_failed && b->setup_failed ? "either side" :
				    a->setup_failed ? "the first side" : "the second side",
				    f->aborted ? f->aborted : "?");
		return NS_FUZZ_UNJUDGED;
	}
	if (all_same(a, b))
		return NS_FUZZ_SAME;
	ns_fuzz_case_plan(c, &p);
	for (size_t i = 0; i < a->n && i < b->n && i < p.n && v == NS_FUZZ_SAME; i++)
		v = compare_step(&p, a, b, i, d);
	ns_fuzz_plan_free(&p);
	return v;
}
