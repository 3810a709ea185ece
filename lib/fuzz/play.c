/* play.c - see play.h. */
#include "fuzz/play.h"

#include <string.h>

#include "fuzz/vm.h"
#include "report/reporter.h"
#include "run/runner.h"

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
	const struct ns_fuzz_case *cases;
	size_t *index;          /* scenario i is case index[i] */
};

static void take_case(struct ns_fuzz_outcome *out, const struct ns_fuzz_case *c,
		      const struct ns_run *run)
{
	struct ns_fuzz_plan p;

	ns_fuzz_case_plan(c, &p);
	ns_fuzz_outcome_take(out, run, &p);
	ns_fuzz_plan_free(&p);
}

static void take(void *p, size_t i, const struct ns_run *run)
{
	struct take_ctx *t = p;
	size_t k = t->index[i];

	take_case(&t->out[k], &t->cases[k], run);
}

void ns_fuzz_parse_cases(const struct ns_fuzz_case *cases, size_t n, struct ns_fuzz_parsed *p)
{
	p->n = n;
	p->m = 0;
	p->sc = xcalloc(n ? n : 1, sizeof(*p->sc));
	p->index = xcalloc(n ? n : 1, sizeof(*p->index));
	p->why = xcalloc(n ? n : 1, sizeof(*p->why));
	for (size_t i = 0; i < n; i++) {
		char path[64];
		struct ns_buf why = NS_BUF_INIT;

		snprintf(path, sizeof(path), "fuzz-%zu.scn", i);
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
	for (size_t i = 0; i < p->m; i++)
		ns_scenario_free(p->sc[i]);
	for (size_t i = 0; i < p->n; i++)
		free(p->why[i]);
	free(p->sc);
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
	struct take_ctx t = { out, cases, NULL };

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
			take_case(&out[p->index[i]], &cases[p->index[i]], &run);
			ns_run_free(&run);
		}
	} else if (p->m) {
		t.index = p->index;
		ns_fuzz_play_scenarios(s->be, &s->run, s->jobs, p->sc, p->m, take, &t);
	}
	if (p == &own)
		ns_fuzz_parsed_free(&own);
	return 0;
}
