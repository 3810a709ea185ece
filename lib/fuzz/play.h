/* play.h - one side of the comparison, and playing a batch of fuzz cases
 * on it: a backend of this process through the runner (one runner call,
 * so its workers serve the whole batch), or the kernel of a VM booted
 * once for the batch (vm.h). */
#ifndef NS_FUZZ_PLAY_H
#define NS_FUZZ_PLAY_H

#include "base/util.h"
#include "fuzz/case.h"
#include "fuzz/outcome.h"
#include "run/backend.h"
#include "scenario/scenario.h"

struct ns_fuzz_side {
	const char *label;              /* "kernel", "model", "kernel in a VM" */
	const struct ns_backend *be;    /* NULL: a VM */
	const char *image;              /* the VM's kernel image (ci/vm-run) */
	const char *vm_run;             /* path of ci/vm-run */
	const char *nstest;             /* this program, for the VM */
	struct ns_run_opts run;
	unsigned jobs;
};

/* The scenario of case c, parsed; NULL (with the parser's message in
 * err) should the generator ever write a line the parser refuses. */
struct ns_scenario *ns_fuzz_case_scenario(const struct ns_fuzz_case *c, const char *path,
					  struct ns_buf *err);

/* A batch of cases parsed once for every side that plays it here: the
 * scenarios of the cases that parse, sc[k] being case index[k], and why
 * each other case did not (why[i] NULL for a case that parsed). sc[k] is
 * ns_fuzz_case_scenario's scenario, built faster: a plan (scenario/plan.h)
 * of the steps of a parse of the case's operations alone, ops[k], and of
 * observation steps parsed once for the process, each numbered by its
 * line in the case's text (ops[k] NULL: sc[k] is the whole text's parse,
 * which only a case whose operations do not parse alone needs). */
struct ns_fuzz_parsed {
	struct ns_scenario **sc;
	struct ns_scenario **ops;
	struct ns_fuzz_plan *plans;     /* plans[i]: case i's (case.h) */
	size_t *index, m;
	char **why;
	size_t n;
};
void ns_fuzz_parse_cases(const struct ns_fuzz_case *cases, size_t n, struct ns_fuzz_parsed *p);
void ns_fuzz_parsed_free(struct ns_fuzz_parsed *p);

/* Play cases[0..n) on side s into out[0..n), their parse p (NULL: s
 * parses them when it needs them). 0, or -1 with err set (the side could
 * not play at all). */
int ns_fuzz_play(const struct ns_fuzz_side *s, const struct ns_fuzz_case *cases, size_t n,
		 const struct ns_fuzz_parsed *p, struct ns_fuzz_outcome *out, struct ns_buf *err);

/* Play parsed scenarios on a backend of this process, handing each run
 * (NULL: skipped) to fn in order: shared by ns_fuzz_play and the guest
 * side of a VM (--play-dump). */
void ns_fuzz_play_scenarios(const struct ns_backend *be, const struct ns_run_opts *ro,
			    unsigned jobs, struct ns_scenario *const *sc, size_t n,
			    void (*fn)(void *ctx, size_t i, const struct ns_run *run), void *ctx);

#endif
