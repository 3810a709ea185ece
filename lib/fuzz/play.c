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
	struct ns_runner_hooks hooks = { &h, NULL, on_result };
	struct ns_runner_opts o = { be, *ro, jobs, false };

	ns_runner_run(sc, n, &o, &hooks);
}

struct take_ctx {
	struct ns_fuzz_outcome *out;
	const struct ns_fuzz_case *cases;
	struct ns_scenario **sc;
};

static void take(void *p, size_t i, const struct ns_run *run)
{
	struct take_ctx *t = p;

	ns_fuzz_outcome_take(&t->out[i], run, t->sc[i]->nsteps, t->cases[i].n);
}

int ns_fuzz_play(const struct ns_fuzz_side *s, const struct ns_fuzz_case *cases, size_t n,
		 struct ns_fuzz_outcome *out, struct ns_buf *err)
{
	struct ns_scenario **sc;
	struct take_ctx t = { out, cases, NULL };
	int r = 0;

	if (!s->be)
		return ns_fuzz_vm_play(s, cases, n, out, err);
	sc = xcalloc(n ? n : 1, sizeof(*sc));
	for (size_t i = 0; i < n && r == 0; i++) {
		char path[64];
		snprintf(path, sizeof(path), "fuzz-%zu.scn", i);
		sc[i] = ns_fuzz_case_scenario(&cases[i], path, err);
		if (!sc[i])
			r = -1;
	}
	if (r == 0 && s->be->play_here) {
		/* a backend that touches nothing plays right here: no worker
		 * processes, no wire, no verdicts the fuzzer does not read */
		for (size_t i = 0; i < n; i++) {
			struct ns_run run;
			s->be->play_here(sc[i], &s->run, &run);
			ns_fuzz_outcome_take(&out[i], &run, sc[i]->nsteps, cases[i].n);
			ns_run_free(&run);
		}
	} else if (r == 0) {
		t.sc = sc;
		ns_fuzz_play_scenarios(s->be, &s->run, s->jobs, sc, n, take, &t);
	}
	for (size_t i = 0; i < n; i++)
		ns_scenario_free(sc[i]);
	free(sc);
	return r;
}
