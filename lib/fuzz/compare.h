/* compare.h - do two sides' outcomes of one fuzz case diverge, and how.
 * Steps are compared in order: whether each ran, its errno, and what it
 * printed (observation steps by their canonical tables); the first step
 * that differs is the divergence. A side that could not build its sandbox
 * judges nothing (unjudged, with why); one that stopped early differs
 * where the other side ran a step it did not. */
#ifndef NS_FUZZ_COMPARE_H
#define NS_FUZZ_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "fuzz/case.h"
#include "fuzz/outcome.h"

enum ns_fuzz_verdict {
	NS_FUZZ_SAME,           /* no divergence */
	NS_FUZZ_DIVERGES,
	NS_FUZZ_UNJUDGED,       /* both sides failed to set up, or one skipped */
};

/* What differs first: whether a step ran, its errno, its output, a
 * table (canonical form), or only a table's order. */
enum ns_fuzz_kind { NS_FUZZ_RAN, NS_FUZZ_ERRNO, NS_FUZZ_OUTPUT, NS_FUZZ_TABLE, NS_FUZZ_ORDER };

struct ns_fuzz_diff {
	enum ns_fuzz_kind kind;
	size_t step;            /* the first step that differs (0-based) */
	size_t op;              /* the operation it is, or the last one before
				 * it (an observation's); index into ops */
	/* What differs without saying where: the kind, the command's shape
	 * (its words other than paths), the errnos. A shrunk case must keep
	 * it. */
	char *cls;
	/* What differs, with the step: "step 3 (mount --move): errno EINVAL
	 * vs 0", "table of sh2 differs: 4 vs 3 mounts". */
	char *what;
};

/* Compare outcome a (first side) with b (second) of case c. On
 * NS_FUZZ_DIVERGES, *d is filled (free it with ns_fuzz_diff_free); on
 * NS_FUZZ_UNJUDGED, d->what says why. */
enum ns_fuzz_verdict ns_fuzz_compare(const struct ns_fuzz_case *c,
				     const struct ns_fuzz_outcome *a,
				     const struct ns_fuzz_outcome *b,
				     struct ns_fuzz_diff *d);
void ns_fuzz_diff_free(struct ns_fuzz_diff *d);

/* The words of cmd that are not paths or @handles: "mount --bind". */
char *ns_fuzz_cmd_shape(const char *cmd);


#endif
