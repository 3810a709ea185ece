/* outcome.c - see outcome.h. */
#include "fuzz/outcome.h"

#include <string.h>

#include "fuzz/canon.h"

/* The tables of a round, by step index, in order. */
struct round_tables {
	size_t v[NS_FUZZ_MAX_TERMS];
	size_t n;
	bool over;              /* more than v holds */
};

static void round_add(struct round_tables *r, size_t i)
{
	if (r->n < NS_ARRAY_SIZE(r->v))
		r->v[r->n++] = i;
	else
		r->over = true;
}

/* Table i of the round whose tables so far are cur, made canonical with
 * the round's renaming g: a copy of what an equal table became, or made. */
static void canon_step(struct ns_fuzz_outcome *o, size_t i, const struct round_tables *cur,
		       struct ns_fuzz_groups *g)
{
	struct ns_fuzz_step *s = &o->s[i];
	struct ns_buf b = NS_BUF_INIT, ord = NS_BUF_INIT;

	/* a table of the round printed as an earlier one (two terminals in
	 * one namespace): the renaming named all its numbers then, so it is
	 * what that one became */
	for (size_t k = 0; k < cur->n; k++)
		if (!strcmp(o->s[cur->v[k]].out, s->out)) {
			s->canon = xstrdup(o->s[cur->v[k]].canon);
			s->order = xstrdup(o->s[cur->v[k]].order);
			return;
		}
	ns_fuzz_canon_mountinfo(s->out, g, &b, &ord);
	s->canon = ns_buf_detach(&b);
	s->order = ns_buf_detach(&ord);
}

void ns_fuzz_outcome_take(struct ns_fuzz_outcome *o, const struct ns_run *run,
			  const struct ns_fuzz_plan *p)
{
	struct ns_fuzz_groups g = NS_FUZZ_GROUPS_INIT;
	struct round_tables prev = { { 0 }, 0, true }, cur = { { 0 }, 0, false };
	size_t round = (size_t)-1;
	/* the round so far printed what the round before did, table for
	 * table: the same tables from a fresh renaming are named the same,
	 * so each is a copy of that round's, and the renaming is left
	 * behind until a table differs */
	bool replay = false;

	memset(o, 0, sizeof(*o));
	o->n = p->n;
	o->s = xcalloc(p->n ? p->n : 1, sizeof(*o->s));
	if (!run) {
		o->skipped = true;
		return;
	}
	o->setup_failed = run->setup_failed;
	o->timed_out = run->timed_out;
	o->aborted = run->aborted ? xstrdup(run->aborted) : NULL;
	for (size_t i = 0; i < p->n && i < run->n; i++) {
		const struct ns_obs *ob = &run->obs[i];
		struct ns_fuzz_step *s = &o->s[i];
		s->ran = ob->ran;
		if (!ob->ran)
			continue;
		s->err = ob->out.err;
		s->out = xstrdup(ob->out.output ? ob->out.output : "");
		if (p->s[i].op != NS_FUZZ_NO_OP)
			continue;
		if (p->s[i].round != round) {
			ns_fuzz_groups_free(&g);
			round = p->s[i].round;
			prev = cur;
			cur = (struct round_tables){ { 0 }, 0, false };
			replay = !prev.over && prev.n;
		}
		if (replay && !cur.over && cur.n < prev.n &&
		    !strcmp(o->s[prev.v[cur.n]].out, s->out)) {
			s->canon = xstrdup(o->s[prev.v[cur.n]].canon);
			s->order = xstrdup(o->s[prev.v[cur.n]].order);
			round_add(&cur, i);
			continue;
		}
		if (replay) {
			/* the renaming as the round's tables so far left it */
			replay = false;
			for (size_t k = 0; k < cur.n; k++) {
				struct ns_buf b = NS_BUF_INIT;
				ns_fuzz_canon_mountinfo(o->s[cur.v[k]].out, &g, &b, NULL);
				ns_buf_free(&b);
			}
		}
		canon_step(o, i, &cur, &g);
		round_add(&cur, i);
	}
	ns_fuzz_groups_free(&g);
}

void ns_fuzz_outcome_free(struct ns_fuzz_outcome *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->s[i].out);
		free(o->s[i].canon);
		free(o->s[i].order);
	}
	free(o->s);
	free(o->aborted);
	memset(o, 0, sizeof(*o));
}

const char *ns_fuzz_step_text(const struct ns_fuzz_step *s)
{
	return s->canon ? s->canon : s->out ? s->out : "";
}
