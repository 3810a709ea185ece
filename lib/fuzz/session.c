/* session.c - see session.h. */
#include "fuzz/session.h"

#include <string.h>
#include <time.h>

#include "fuzz/compare.h"
#include "fuzz/explain.h"
#include "fuzz/shrink.h"
#include "fuzz/write.h"

struct session {
	const struct ns_fuzz_side *a, *b;
	const struct ns_fuzz_opts *o;
	const volatile sig_atomic_t *stop;
	const struct ns_fuzz_hooks *h;
	struct ns_fuzz_report *r;
	struct timespec t0;
};

static double elapsed(const struct session *s)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - s->t0.tv_sec) + (double)(now.tv_nsec - s->t0.tv_nsec) / 1e9;
}

static void progress(struct session *s)
{
	s->r->seconds = elapsed(s);
	if (s->h && s->h->progress)
		s->h->progress(s->h->ctx, s->r);
}

/* Play cases on both sides: 0, or -1 with r->error set. */
static int play_both(struct session *s, const struct ns_fuzz_case *cases, size_t n,
		     struct ns_fuzz_outcome *oa, struct ns_fuzz_outcome *ob)
{
	struct ns_buf err = NS_BUF_INIT;
	struct ns_fuzz_parsed p;
	int r = 0;

	memset(oa, 0, n * sizeof(*oa));
	memset(ob, 0, n * sizeof(*ob));
	/* parsed once for both sides (a VM side parses in its guest) */
	ns_fuzz_parse_cases(cases, n, &p);
	if (ns_fuzz_play(s->a, cases, n, &p, oa, &err) < 0 ||
	    ns_fuzz_play(s->b, cases, n, &p, ob, &err) < 0) {
		if (!s->r->error)
			s->r->error = ns_buf_detach(&err);
		r = -1;
	}
	ns_buf_free(&err);
	ns_fuzz_parsed_free(&p);
	return r;
}

static void free_outcomes(struct ns_fuzz_outcome *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ns_fuzz_outcome_free(&v[i]);
	free(v);
}

struct oracle_ctx {
	struct session *s;
	const char *cls;        /* the class the original diverges with */
	size_t spent;           /* candidates judged */
	bool over;              /* the budget ran out */
	bool kept;              /* a candidate was kept: the case changed */
};

static bool past_time(struct session *s)
{
	return s->o->seconds > 0 && !s->o->count && elapsed(s) >= s->o->seconds;
}

static int oracle(void *p, const struct ns_fuzz_case *cand, size_t n, bool *keep)
{
	struct oracle_ctx *k = p;
	size_t budget = k->s->o->shrink_candidates;
	struct ns_fuzz_outcome *oa, *ob;
	int r;

	if (k->spent + n > budget || past_time(k->s)) {
		k->over = true;
		return 1;
	}
	k->spent += n;
	oa = xcalloc(n, sizeof(*oa));
	ob = xcalloc(n, sizeof(*ob));
	r = play_both(k->s, cand, n, oa, ob);
	for (size_t i = 0; r == 0 && i < n; i++) {
		struct ns_fuzz_diff d;
		keep[i] = ns_fuzz_compare(&cand[i], &oa[i], &ob[i], &d) == NS_FUZZ_DIVERGES &&
			  !strcmp(d.cls, k->cls);
		k->kept |= keep[i];
		ns_fuzz_diff_free(&d);
	}
	free_outcomes(oa, n);
	free_outcomes(ob, n);
	progress(k->s);
	return r;
}

static bool imitates(const struct ns_fuzz_side *m)
{
	return m->be && m->be->has_quirks && m->be->play_here;
}

/* The known quirk whose imitation by the model side makes it agree with
 * the other side's outcome of c (oa or ob, the sides' outcomes; the
 * second side is the model unless only the first one is, as with
 * --first model --vs-kernel): "quirk NAME", or NULL. Two kernels have no
 * model, and no quirk explains what they differ in. */
static char *explain(struct session *s, const struct ns_fuzz_case *c,
		     const struct ns_fuzz_outcome *oa, const struct ns_fuzz_outcome *ob)
{
	bool first = !imitates(s->b) && imitates(s->a);
	const struct ns_fuzz_side *m = first ? s->a : s->b;
	const struct ns_fuzz_outcome *other = first ? ob : oa;
	struct ns_fuzz_variant *v;
	size_t nv;
	char *cause = NULL;

	if (!imitates(m))
		return NULL;
	nv = ns_fuzz_variants(m->run.config.quirks, m->be->release(&m->run), &v);
	for (size_t i = 0; i < nv && !cause; i++) {
		struct ns_fuzz_side alt = *m;
		struct ns_fuzz_outcome om;
		struct ns_fuzz_diff d;
		struct ns_buf err = NS_BUF_INIT;
		alt.run.config.quirks = v[i].quirks;
		memset(&d, 0, sizeof(d));
		if (ns_fuzz_play(&alt, c, 1, NULL, &om, &err) == 0 &&
		    ns_fuzz_compare(c, first ? &om : other, first ? other : &om, &d) == NS_FUZZ_SAME)
			cause = xstrdup(v[i].cause);
		ns_fuzz_diff_free(&d);
		ns_fuzz_outcome_free(&om);
		ns_buf_free(&err);
	}
	ns_fuzz_variants_free(v, nv);
	return cause;
}

/* A cause no quirk explains: how it differs, and the shape of the first
 * differing operation of the shrunk case (its words but paths and
 * handles), so that one rule broken at binds and at mounts of devices
 * is two causes, and the same rule reached from other places is one. */
static char *unexplained(const struct ns_fuzz_case *c, const struct ns_fuzz_diff *d)
{
	char *shape = ns_fuzz_cmd_shape(d->op < c->n ? c->ops[d->op].cmd : "?");
	char *r = xasprintf("unexplained: %s, after `%s`", d->cls, shape);

	free(shape);
	return r;
}

static struct ns_fuzz_cause *cause_of(struct ns_fuzz_report *r, const char *name)
{
	for (size_t i = 0; i < r->nc; i++)
		if (!strcmp(r->c[i].name, name))
			return &r->c[i];
	return NULL;
}

static struct ns_fuzz_cause *cause_add(struct ns_fuzz_report *r, const char *name, bool quirk)
{
	struct ns_fuzz_cause *c = cause_of(r, name);

	if (c)
		return c;
	ns_grow((void **)&r->c, &r->ccap, r->nc + 1, sizeof(*r->c));
	c = &r->c[r->nc++];
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	c->quirk = quirk;
	r->unexplained += !quirk;
	return c;
}

char *ns_fuzz_signature(const struct ns_fuzz_case *c, const struct ns_fuzz_diff *d)
{
	struct ns_fuzz_case norm;
	struct ns_buf b = NS_BUF_INIT;

	ns_fuzz_case_normalize(&norm, c);
	for (size_t i = 0; i < norm.n; i++)
		ns_buf_addf(&b, "sh%u# %s\n", norm.ops[i].term, norm.ops[i].cmd);
	ns_buf_addf(&b, "%s at step %zu", d->cls, d->step + 1);
	ns_fuzz_case_free(&norm);
	return ns_buf_detach(&b);
}

static struct ns_fuzz_finding *known(struct ns_fuzz_report *r, const char *sig)
{
	for (size_t i = 0; i < r->nf; i++)
		if (!strcmp(r->f[i].signature, sig))
			return &r->f[i];
	return NULL;
}

static void origin(const struct session *s, uint64_t index, size_t ops, struct ns_fuzz_origin *o)
{
	o->seed = s->o->seed;
	o->index = index;
	o->options = s->o->options_text;
	o->first = s->a->label;
	o->second = s->b->label;
	o->release = s->a->be ? s->a->be->release(&s->a->run) : NULL;
	o->quirks = s->o->quirks;
	o->original_ops = ops;
	o->cause = NULL;
}

/* Is a side a VM (every play of it a boot)? */
static bool has_vm(const struct session *s)
{
	return !s->a->be || !s->b->be;
}

/* Case index diverged as d0 (the sides' outcomes oa0, ob0): classify it,
 * shrink it, and count or write the finding. 0, or -1 when a side failed. */

static int finding(struct session *s, uint64_t index, const struct ns_fuzz_case *orig,
		   const struct ns_fuzz_outcome *oa0, const struct ns_fuzz_outcome *ob0,
		   const struct ns_fuzz_diff *d0)
{
	struct oracle_ctx k = { s, d0->cls, 0, false, false };
	struct ns_fuzz_case c;
	struct ns_fuzz_outcome oa, ob;
	struct ns_fuzz_diff d;
	const struct ns_fuzz_outcome *pa = oa0, *pb = ob0;
	const struct ns_fuzz_diff *pd = d0;
	bool replayed = false;
	struct ns_fuzz_finding *f;
	struct ns_fuzz_cause *cause;
	char *sig, *why = explain(s, orig, oa0, ob0);
	int r;

	/* a quirk already found explains it: counted, not shrunk again; and
	 * with a VM side, where each shrinking round is a boot, so is a
	 * divergence whose unshrunk case has an unexplained cause that
	 * already has a file */
	if (!why && has_vm(s))
		why = unexplained(orig, d0);
	cause = why ? cause_of(s->r, why) : NULL;
	if (cause && cause->file) {
		s->r->findings++;
		cause->findings++;
		free(why);
		return 0;
	}
	free(why);
	ns_fuzz_case_copy(&c, orig);
	if (ns_fuzz_shrink(&c, oracle, &k, s->stop, NULL) < 0) {
		ns_fuzz_case_free(&c);
		return -1;
	}
	s->r->findings++;
	s->r->shrink_spent += k.over;
	/* the shrunk case as it plays now, when shrinking changed it (the
	 * original's outcomes serve otherwise: a VM side would boot again for
	 * nothing); should it have stopped diverging (a flaky side), the
	 * original is what is written */
	if (k.kept) {
		if (play_both(s, &c, 1, &oa, &ob) < 0) {
			ns_fuzz_case_free(&c);
			return -1;
		}
		replayed = true;
		memset(&d, 0, sizeof(d));
		if (ns_fuzz_compare(&c, &oa, &ob, &d) == NS_FUZZ_DIVERGES) {
			pa = &oa;
			pb = &ob;
			pd = &d;
		} else {
			ns_fuzz_case_free(&c);
			ns_fuzz_case_copy(&c, orig);
		}
	}
	why = explain(s, &c, pa, pb);
	cause = why ? cause_add(s->r, why, true) : NULL;
	if (!why) {
		why = unexplained(&c, pd);
		cause = cause_add(s->r, why, false);
	}
	cause->findings++;
	sig = ns_fuzz_signature(&c, pd);
	f = known(s->r, sig);
	r = 0;
	if (f) {
		f->count++;
		free(sig);
	} else {
		struct ns_buf text = NS_BUF_INIT, err = NS_BUF_INIT;
		struct ns_fuzz_origin o;
		ns_grow((void **)&s->r->f, &s->r->fcap, s->r->nf + 1, sizeof(*s->r->f));
		f = &s->r->f[s->r->nf++];
		memset(f, 0, sizeof(*f));
		f->signature = sig;
		f->count = 1;
		f->what = xstrdup(pd->what);
		f->ops = c.n;
		f->file = ns_fuzz_file_name(s->o->seed, index);
		f->cause = xstrdup(why);
		cause->signatures++;
		if (!cause->file)
			cause->file = xstrdup(f->file);
		origin(s, index, orig->n, &o);
		o.cause = why;
		ns_fuzz_write_text(&c, pa, pb, pd, &o, &text);
		if (ns_fuzz_write_file(s->o->out_dir, f->file, &text, &err) < 0) {
			s->r->error = ns_buf_detach(&err);
			r = -1;
		}
		ns_buf_free(&text);
		ns_buf_free(&err);
	}
	free(why);
	if (replayed) {
		ns_fuzz_diff_free(&d);
		ns_fuzz_outcome_free(&oa);
		ns_fuzz_outcome_free(&ob);
	}
	ns_fuzz_case_free(&c);
	return r;
}

static void unjudged(struct ns_fuzz_report *r, const char *why)
{
	r->unjudged++;
	if (!r->unjudged_why)
		r->unjudged_why = xstrdup(why ? why : "?");
}

/* One batch of n cases from index first. 0, or -1. */
static int batch(struct session *s, uint64_t first, size_t n)
{
	struct ns_fuzz_case *cases = xcalloc(n, sizeof(*cases));
	struct ns_fuzz_outcome *oa = xcalloc(n, sizeof(*oa)), *ob = xcalloc(n, sizeof(*ob));
	int r;

	for (size_t i = 0; i < n; i++)
		ns_fuzz_generate(s->o->seed, first + i, &s->o->gen, &cases[i]);
	r = play_both(s, cases, n, oa, ob);
	for (size_t i = 0; r == 0 && i < n; i++) {
		struct ns_fuzz_diff d;
		enum ns_fuzz_verdict v = ns_fuzz_compare(&cases[i], &oa[i], &ob[i], &d);
		s->r->scenarios++;
		if (oa[i].unparsed || ob[i].unparsed) {
			/* the generator wrote a line the parser refuses: an
			 * nstest bug, never a finding */
			s->r->error = xstrdup(d.what);
			r = -1;
		} else if (v == NS_FUZZ_UNJUDGED)
			unjudged(s->r, d.what);
		else if (v == NS_FUZZ_DIVERGES && !*s->stop)
			r = finding(s, first + i, &cases[i], &oa[i], &ob[i], &d);
		ns_fuzz_diff_free(&d);
	}
	for (size_t i = 0; i < n; i++)
		ns_fuzz_case_free(&cases[i]);
	free(cases);
	free_outcomes(oa, n);
	free_outcomes(ob, n);
	progress(s);
	return r;
}

int ns_fuzz_session(const struct ns_fuzz_side *a, const struct ns_fuzz_side *b,
		    const struct ns_fuzz_opts *o, const volatile sig_atomic_t *stop,
		    const struct ns_fuzz_hooks *h, struct ns_fuzz_report *r)
{
	struct session s = { a, b, o, stop, h, r, { 0, 0 } };
	uint64_t next = 0;
	size_t size = o->batch ? o->batch : 64;

	memset(r, 0, sizeof(*r));
	clock_gettime(CLOCK_MONOTONIC, &s.t0);
	for (;;) {
		size_t n = size;
		if (*stop) {
			r->interrupted = true;
			break;
		}
		if (o->count && next >= o->count)
			break;
		if (!o->count && o->seconds > 0 && elapsed(&s) >= o->seconds)
			break;
		if (o->count && o->count - next < n)
			n = (size_t)(o->count - next);
		if (batch(&s, o->start + next, n) < 0)
			break;
		next += n;
	}
	r->interrupted |= *stop != 0;
	r->seconds = elapsed(&s);
	return r->error ? -1 : 0;
}

void ns_fuzz_report_free(struct ns_fuzz_report *r)
{
	for (size_t i = 0; i < r->nf; i++) {
		free(r->f[i].signature);
		free(r->f[i].file);
		free(r->f[i].what);
		free(r->f[i].cause);
	}
	free(r->f);
	for (size_t i = 0; i < r->nc; i++) {
		free(r->c[i].name);
		free(r->c[i].file);
	}
	free(r->c);
	free(r->unjudged_why);
	free(r->error);
	memset(r, 0, sizeof(*r));
}
