/* diff.c - see diff.h.
 *
 * The script comes from Myers' greedy O(ND) search for the furthest
 * reaching D-paths, run on what is left after the common prefix and suffix
 * are taken off. It keeps each step's frontier so the path can be walked
 * back, which costs O(D^2) memory; max_cost bounds D, past which the middle
 * is reported as replaced wholesale. Wildcards never compare equal during
 * the search; afterwards each one turns into context that swallows the
 * added lines of its change group. */
#include <stdlib.h>
#include <string.h>

#include "base/diff.h"

#define DEFAULT_MAX_COST 1000

static bool is_wild(const struct ns_diff_input *in, size_t i)
{
	return in->wild && in->wild(in, i);
}

static bool same(const struct ns_diff_input *in, size_t i, size_t j)
{
	if (is_wild(in, i))
		return false;
	if (in->eq)
		return in->eq(in, i, j);
	return strcmp(in->a[i], in->b[j]) == 0;
}

void ns_diff_push(struct ns_diff *d, enum ns_diff_op op, size_t a, size_t b,
		  size_t nb)
{
	void *v = d->v;

	ns_grow(&v, &d->cap, d->n + 1, sizeof(*d->v));
	d->v = v;
	d->v[d->n++] = (struct ns_diff_edit){ op, a, b, nb };
}

static void push_run(struct ns_diff *d, enum ns_diff_op op, size_t a,
		     size_t b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t da = op == NS_DIFF_ADD ? 0 : i;
		size_t db = op == NS_DIFF_DEL ? 0 : i;
		ns_diff_push(d, op, a + da, b + db, op == NS_DIFF_SAME);
	}
}

/* The search over a[x0..x0+n) against b[y0..y0+m), both non-empty. The
 * frontier of step d (diagonals -d..d, k = x - y) sits at hist[d*d ...];
 * -1 marks a diagonal no d-path reaches inside the grid. */
struct myers {
	const struct ns_diff_input *in;
	size_t x0, y0;
	ptrdiff_t n, m;
	ptrdiff_t *hist;
	size_t cap;
};

static ptrdiff_t *frontier(const struct myers *s, ptrdiff_t d)
{
	return s->hist + d * d + d; /* so that frontier(d)[k] works for |k| <= d */
}

/* Where step d first lands on diagonal k, before following the snake, or
 * -1. *down tells whether it got there by taking a b line (from k+1). */
static ptrdiff_t step_into(const struct myers *s, ptrdiff_t d, ptrdiff_t k,
			  bool *down)
{
	const ptrdiff_t *prev = frontier(s, d - 1);
	ptrdiff_t xd = -1, xr = -1;

	if (k + 1 <= d - 1 && prev[k + 1] >= 0 && prev[k + 1] - k <= s->m)
		xd = prev[k + 1];
	if (k - 1 >= -(d - 1) && prev[k - 1] >= 0 && prev[k - 1] + 1 <= s->n)
		xr = prev[k - 1] + 1;
	*down = xd >= xr;
	return *down ? xd : xr;
}

static ptrdiff_t snake(const struct myers *s, ptrdiff_t x, ptrdiff_t k)
{
	while (x < s->n && x - k < s->m &&
	       same(s->in, s->x0 + (size_t)x, s->y0 + (size_t)(x - k)))
		x++;
	return x;
}

/* Fill the frontiers until one reaches (n, m); return that D, or -1 when
 * it would exceed dmax. */
static ptrdiff_t search(struct myers *s, ptrdiff_t dmax)
{
	ptrdiff_t delta = s->n - s->m;

	for (ptrdiff_t d = 0; d <= dmax; d++) {
		void *h = s->hist;

		ns_grow(&h, &s->cap, (size_t)((d + 1) * (d + 1)), sizeof(ptrdiff_t));
		s->hist = h;
		ptrdiff_t *v = frontier(s, d);
		for (ptrdiff_t k = -d; k <= d; k += 2) {
			bool down;
			ptrdiff_t x = d ? step_into(s, d, k, &down) : 0;
			v[k] = x < 0 ? -1 : snake(s, x, k);
			if (k == delta && v[k] == s->n)
				return d;
		}
		for (ptrdiff_t k = -d + 1; k <= d - 1; k += 2)
			v[k] = -1; /* wrong parity: never reached in d steps */
	}
	return -1;
}

/* Walk back from (n, m) at step dend, appending the script in reverse. */
static void walk_back(const struct myers *s, ptrdiff_t dend, struct ns_diff *rev)
{
	ptrdiff_t k = s->n - s->m, x = s->n;

	for (ptrdiff_t d = dend; d > 0; d--) {
		bool down;
		ptrdiff_t xs = step_into(s, d, k, &down);
		for (; x > xs; x--)
			ns_diff_push(rev, NS_DIFF_SAME, (size_t)x - 1,
				     (size_t)(x - k) - 1, 1);
		if (down) {
			ns_diff_push(rev, NS_DIFF_ADD, (size_t)x,
				     (size_t)(x - k) - 1, 0);
			k++;
		} else {
			ns_diff_push(rev, NS_DIFF_DEL, (size_t)x - 1,
				     (size_t)(x - k), 0);
			x--;
			k--;
		}
	}
	for (; x > 0; x--)
		ns_diff_push(rev, NS_DIFF_SAME, (size_t)x - 1, (size_t)x - 1, 1);
}

/* Script for the differing middle a[x0..x0+n) / b[y0..y0+m). */
static void diff_middle(const struct ns_diff_input *in, size_t x0, size_t n,
			size_t y0, size_t m, size_t max_cost, struct ns_diff *out)
{
	struct myers s = { in, x0, y0, (ptrdiff_t)n, (ptrdiff_t)m, NULL, 0 };
	struct ns_diff rev = NS_DIFF_INIT;
	ptrdiff_t dend = -1;

	if (n && m)
		dend = search(&s, (ptrdiff_t)max_cost);
	if (dend < 0) {
		push_run(out, NS_DIFF_DEL, x0, y0, n);
		push_run(out, NS_DIFF_ADD, x0 + n, y0, m);
		free(s.hist);
		return;
	}
	walk_back(&s, dend, &rev);
	for (size_t i = rev.n; i-- > 0;) {
		struct ns_diff_edit e = rev.v[i];
		ns_diff_push(out, e.op, x0 + e.a, y0 + e.b, e.nb);
	}
	ns_diff_free(&rev);
	free(s.hist);
}

/* The unnormalised script: prefix, Myers middle, suffix. */
static void diff_raw(const struct ns_diff_input *in, struct ns_diff *out)
{
	size_t pre = 0, suf = 0;
	size_t max_cost = in->max_cost ? in->max_cost : DEFAULT_MAX_COST;

	while (pre < in->na && pre < in->nb && same(in, pre, pre))
		pre++;
	while (suf < in->na - pre && suf < in->nb - pre &&
	       same(in, in->na - 1 - suf, in->nb - 1 - suf))
		suf++;
	push_run(out, NS_DIFF_SAME, 0, 0, pre);
	diff_middle(in, pre, in->na - pre - suf, pre, in->nb - pre - suf,
		    max_cost, out);
	push_run(out, NS_DIFF_SAME, in->na - suf, in->nb - suf, suf);
}

/* Lay out a change group a[a0..a0+na) / b[b0..b0+nb) that holds a
 * wildcard: a lines before the first wildcard pair up with the first b
 * lines, those after the last with the last b lines, and the first
 * wildcard absorbs whatever b lines are left between them. */
static void emit_wild_group(const struct ns_diff_input *in, size_t a0,
			    size_t na, size_t b0, size_t nb, struct ns_diff *out)
{
	size_t first = a0, last = a0 + na - 1;

	while (!is_wild(in, first))
		first++;
	while (!is_wild(in, last))
		last--;
	size_t lead = first - a0 < nb ? first - a0 : nb;
	size_t tail = a0 + na - 1 - last;
	if (tail > nb - lead)
		tail = nb - lead;
	size_t absorbed = nb - lead - tail, b = b0 + lead;

	push_run(out, NS_DIFF_DEL, a0, b0, first - a0);
	push_run(out, NS_DIFF_ADD, first, b0, lead);
	for (size_t i = first; i <= last; i++) {
		if (!is_wild(in, i)) {
			ns_diff_push(out, NS_DIFF_DEL, i, b, 0);
			continue;
		}
		ns_diff_push(out, NS_DIFF_SAME, i, b, i == first ? absorbed : 0);
		b += i == first ? absorbed : 0;
	}
	push_run(out, NS_DIFF_DEL, last + 1, b, a0 + na - 1 - last);
	push_run(out, NS_DIFF_ADD, a0 + na, b, tail);
}

/* Lay out a change group: deletions first, then additions, as diff(1)
 * does, unless a wildcard is involved. */
static void emit_group(const struct ns_diff_input *in, size_t a0, size_t na,
		       size_t b0, size_t nb, struct ns_diff *out)
{
	for (size_t i = a0; i < a0 + na; i++) {
		if (is_wild(in, i)) {
			emit_wild_group(in, a0, na, b0, nb, out);
			return;
		}
	}
	push_run(out, NS_DIFF_DEL, a0, b0, na);
	push_run(out, NS_DIFF_ADD, a0 + na, b0, nb);
}

void ns_diff_compute(const struct ns_diff_input *in, struct ns_diff *d)
{
	struct ns_diff raw = NS_DIFF_INIT;
	size_t i = 0;

	d->n = 0;
	diff_raw(in, &raw);
	while (i < raw.n) {
		if (raw.v[i].op == NS_DIFF_SAME) {
			ns_diff_push(d, NS_DIFF_SAME, raw.v[i].a, raw.v[i].b, 1);
			i++;
			continue;
		}
		size_t a0 = raw.v[i].a, b0 = raw.v[i].b, na = 0, nb = 0;
		for (; i < raw.n && raw.v[i].op != NS_DIFF_SAME; i++) {
			na += raw.v[i].op == NS_DIFF_DEL;
			nb += raw.v[i].op == NS_DIFF_ADD;
		}
		emit_group(in, a0, na, b0, nb, d);
	}
	ns_diff_free(&raw);
}


static size_t next_change(const struct ns_diff *d, size_t i)
{
	while (i < d->n && d->v[i].op == NS_DIFF_SAME)
		i++;
	return i;
}

/* Unified diff convention: an empty range names the line before it. */
static size_t range_start(size_t start, size_t count)
{
	return count ? start + 1 : start;
}

static void emit_hunk(const struct ns_diff *d, size_t s, size_t e,
		      const char *const *a, const char *const *b,
		      struct ns_buf *out)
{
	size_t ca = 0, cb = 0;

	for (size_t i = s; i < e; i++) {
		ca += d->v[i].op != NS_DIFF_ADD;
		cb += d->v[i].op == NS_DIFF_SAME ? d->v[i].nb
						 : d->v[i].op == NS_DIFF_ADD;
	}
	ns_buf_addf(out, "@@ -%zu,%zu +%zu,%zu @@\n", range_start(d->v[s].a, ca),
		    ca, range_start(d->v[s].b, cb), cb);
	for (size_t i = s; i < e; i++) {
		const struct ns_diff_edit *ed = &d->v[i];
		if (ed->op == NS_DIFF_ADD)
			ns_buf_addf(out, "+%s\n", b[ed->b]);
		else
			ns_buf_addf(out, "%c%s\n", ed->op == NS_DIFF_DEL ? '-' : ' ',
				    a[ed->a]);
	}
}

void ns_diff_hunks(const struct ns_diff *d, const char *const *a,
		   const char *const *b, size_t context, struct ns_buf *out)
{
	size_t c = next_change(d, 0);

	while (c < d->n) {
		size_t s = c > context ? c - context : 0, last = c;

		/* join the next change while the gap fits two contexts */
		for (;;) {
			size_t nx = next_change(d, last + 1);
			if (nx >= d->n || nx - last - 1 > 2 * context)
				break;
			last = nx;
		}
		size_t e = d->n - last - 1 > context ? last + 1 + context : d->n;
		emit_hunk(d, s, e, a, b, out);
		c = next_change(d, e);
	}
}

void ns_diff_free(struct ns_diff *d)
{
	free(d->v);
	d->v = NULL;
	d->n = d->cap = 0;
}
