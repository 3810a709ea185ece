/* play.c - see play.h. */
#include "fuzz/play.h"

#include <string.h>

#include "fuzz/vm.h"
#include "report/reporter.h"
#include "run/runner.h"
#include "scenario/plan.h"

struct ns_scenario *ns_fuzz_case_scenario(const struct ns_fuzz_case *c, const char *path,
					  struct ns_buf *err)
{
	struct ns_buf text = NS_BUF_INIT;
	struct ns_diag d = { NULL, 0 };
	struct ns_scenario *sc;

	ns_fuzz_case_text(c, "fuzz case", &text);
	sc = ns_scenario_parse(path, ns_buf_str(&text), text.len, &d);
	if (!sc)
		ns_buf_addf(err, "a generated scenario does not parse: %s", d.msg);
	ns_diag_free(&d);
	ns_buf_free(&text);
	return sc;
}

/* The observation steps, `shN# cat /proc/self/mountinfo` for every
 * terminal, parsed once: every case's plan borrows them, so the process
 * keeps them. NULL should they not parse (every case is then parsed
 * whole). */
static const struct ns_scenario *observations(void)
{
	static struct ns_scenario *sc;
	static bool tried;
	struct ns_buf text = NS_BUF_INIT;
	struct ns_diag d = { NULL, 0 };

	if (tried)
		return sc;
	tried = true;
	ns_buf_adds(&text, "title: fuzz observations\n\n");
	for (unsigned t = 1; t <= NS_FUZZ_MAX_TERMS; t++)
		ns_fuzz_session_line(&text, t, NS_FUZZ_OBSERVE);
	sc = ns_scenario_parse("fuzz-observations.scn", ns_buf_str(&text), text.len, &d);
	if (sc && sc->nsteps != NS_FUZZ_MAX_TERMS) {
		ns_scenario_free(sc);
		sc = NULL;
	}
	ns_diag_free(&d);
	ns_buf_free(&text);
	return sc;
}

/* Case c's scenario as ns_fuzz_case_scenario's, without parsing its
 * observations again: a parse of its operations alone (*ops, which the
 * plan borrows from and which must outlive it), and a plan of each
 * operation and observation in the order of the case's text, numbered by
 * that text's lines. NULL when the operations alone are no scenario of a
 * step each: the caller parses the whole text, for its message. */
static struct ns_scenario *case_plan_scenario(const struct ns_fuzz_case *c, const char *path,
					      const struct ns_fuzz_plan *p,
					      struct ns_scenario **ops)
{
	const struct ns_scenario *obs = observations();
	struct ns_buf text = NS_BUF_INIT;
	struct ns_diag d = { NULL, 0 };
	struct ns_scenario *plan;

	*ops = NULL;
	if (!obs)
		return NULL;
	ns_buf_adds(&text, "title: fuzz case\n\n");
	for (size_t i = 0; i < c->n; i++)
		ns_fuzz_session_line(&text, c->ops[i].term, c->ops[i].cmd);
	*ops = ns_scenario_parse(path, ns_buf_str(&text), text.len, &d);
	ns_diag_free(&d);
	ns_buf_free(&text);
	if (*ops && (*ops)->nsteps != c->n) {
		ns_scenario_free(*ops);
		*ops = NULL;
	}
	if (!*ops)
		return NULL;
	plan = ns_plan_new(*ops);
	for (size_t k = 0; k < p->n; k++) {
		const struct ns_fuzz_plan_step *s = &p->s[k];
		ns_plan_borrow(plan, s->op == NS_FUZZ_NO_OP ? &obs->steps[s->term - 1] :
							      &(*ops)->steps[s->op]);
		/* "title:", a blank line, then a step a line */
		plan->steps[k].line = 3 + (int)k;
	}
	if (p->n > c->n)
		for (size_t w = 0; w < NS_ARRAY_SIZE(plan->commands.w); w++)
			plan->commands.w[w] |= obs->commands.w[w];
	return plan;
}

struct hook_ctx {
	void (*fn)(void *ctx, size_t i, const struct ns_run *run);
	void *ctx;
};

static void on_result(void *p, size_t index, const struct ns_result *r)
{
	struct hook_ctx *h = p;

	h->fn(h->ctx, index, r->run);
}

void ns_fuzz_play_scenarios(const struct ns_backend *be, const struct ns_run_opts *ro,
			    unsigned jobs, struct ns_scenario *const *sc, size_t n,
			    void (*fn)(void *ctx, size_t i, const struct ns_run *run), void *ctx)
{
	struct hook_ctx h = { fn, ctx };
	struct ns_runner_hooks hooks = { &h, NULL, on_result, NULL, NULL };
	struct ns_runner_opts o = { be, *ro, jobs, false, NULL };

	ns_runner_run(sc, n, &o, &hooks);
}

struct take_ctx {
	struct ns_fuzz_outcome *out;
	const struct ns_fuzz_plan *plans;
	size_t *index;          /* scenario i is case index[i] */
};

static void take(void *p, size_t i, const struct ns_run *run)
{
	struct take_ctx *t = p;
	size_t k = t->index[i];

	ns_fuzz_outcome_take(&t->out[k], run, &t->plans[k]);
}

void ns_fuzz_parse_cases(const struct ns_fuzz_case *cases, size_t n, struct ns_fuzz_parsed *p)
{
	p->n = n;
	p->m = 0;
	p->sc = xcalloc(n ? n : 1, sizeof(*p->sc));
	p->ops = xcalloc(n ? n : 1, sizeof(*p->ops));
	p->plans = xcalloc(n ? n : 1, sizeof(*p->plans));
	p->index = xcalloc(n ? n : 1, sizeof(*p->index));
	p->why = xcalloc(n ? n : 1, sizeof(*p->why));
	for (size_t i = 0; i < n; i++) {
		char path[64];
		struct ns_buf why = NS_BUF_INIT;

		snprintf(path, sizeof(path), "fuzz-%zu.scn", i);
		ns_fuzz_case_plan(&cases[i], &p->plans[i]);
		p->sc[p->m] = case_plan_scenario(&cases[i], path, &p->plans[i], &p->ops[p->m]);
		if (!p->sc[p->m])
			p->sc[p->m] = ns_fuzz_case_scenario(&cases[i], path, &why);
		if (p->sc[p->m])
			p->index[p->m++] = i;
		else
			p->why[i] = ns_buf_detach(&why);
		ns_buf_free(&why);
	}
}

void ns_fuzz_parsed_free(struct ns_fuzz_parsed *p)
{
	for (size_t i = 0; i < p->m; i++) {
		/* the plan first: it borrows from the operations' parse */
		ns_scenario_free(p->sc[i]);
		ns_scenario_free(p->ops[i]);
	}
	for (size_t i = 0; i < p->n; i++) {
		free(p->why[i]);
		ns_fuzz_plan_free(&p->plans[i]);
	}
	free(p->plans);
	free(p->sc);
	free(p->ops);
	free(p->index);
	free(p->why);
	memset(p, 0, sizeof(*p));
}

int ns_fuzz_play(const struct ns_fuzz_side *s, const struct ns_fuzz_case *cases, size_t n,
		 const struct ns_fuzz_parsed *parsed, struct ns_fuzz_outcome *out,
		 struct ns_buf *err)
{
	struct ns_fuzz_parsed own;
	const struct ns_fuzz_parsed *p = parsed;
	struct take_ctx t = { out, NULL, NULL };

	if (!s->be)
		return ns_fuzz_vm_play(s, cases, n, out, err);
	if (!p) {
		ns_fuzz_parse_cases(cases, n, &own);
		p = &own;
	}
	for (size_t i = 0; i < n; i++) {
		if (!p->why[i])
			continue;
		/* a shrinker's candidate may not parse (a handle of a
		 * terminal it dropped): it is no candidate; the session
		 * says when a generated case does not */
		memset(&out[i], 0, sizeof(out[i]));
		out[i].unparsed = true;
		out[i].aborted = xstrdup(p->why[i]);
	}
	if (s->be->play_here) {
		/* a backend that touches nothing plays right here: no worker
		 * processes, no wire, no verdicts the fuzzer does not read */
		for (size_t i = 0; i < p->m; i++) {
			struct ns_run run;
			s->be->play_here(p->sc[i], &s->run, &run);
			ns_fuzz_outcome_take(&out[p->index[i]], &run, &p->plans[p->index[i]]);
			ns_run_free(&run);
		}
	} else if (p->m) {
		t.index = p->index;
		t.plans = p->plans;
		ns_fuzz_play_scenarios(s->be, &s->run, s->jobs, p->sc, p->m, take, &t);
	}
	if (p == &own)
		ns_fuzz_parsed_free(&own);
	return 0;
}
