/* outcome.c - see outcome.h. */
#include "fuzz/outcome.h"

#include <string.h>

#include "fuzz/canon.h"

void ns_fuzz_outcome_take(struct ns_fuzz_outcome *o, const struct ns_run *run,
			  const struct ns_fuzz_plan *p)
{
	struct ns_fuzz_groups g = NS_FUZZ_GROUPS_INIT;
	size_t round = (size_t)-1, first = 0;

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
		if (p->s[i].op == NS_FUZZ_NO_OP) {
			struct ns_buf b = NS_BUF_INIT, ord = NS_BUF_INIT;
			const struct ns_fuzz_step *same = NULL;
			if (p->s[i].round != round) {
				ns_fuzz_groups_free(&g);
				round = p->s[i].round;
				first = i;
			}
			/* a table of the round printed as an earlier one (two
			 * terminals in one namespace): the renaming named all
			 * its numbers then, so it is what that one became */
			for (size_t k = first; k < i && !same; k++)
				if (o->s[k].canon && !strcmp(o->s[k].out, s->out))
					same = &o->s[k];
			if (same) {
				s->canon = xstrdup(same->canon);
				s->order = xstrdup(same->order);
				continue;
			}
			ns_fuzz_canon_mountinfo(s->out, &g, &b, &ord);
			s->canon = ns_buf_detach(&b);
			s->order = ns_buf_detach(&ord);
		}
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
