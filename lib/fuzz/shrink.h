/* shrink.h - make a diverging case as small as it gets while it still
 * diverges the same way: drop terminals, chunks, pairs and single
 * operations, merge directory names and devices (replace one with another
 * everywhere), and bring it to its normal form (case.h), round after
 * round until no candidate is kept. Each round's candidates are judged in
 * one call of the oracle, which can play them all in one batch; the first
 * kept candidate, in the order above (the biggest cuts first), wins the
 * round. */
#ifndef NS_FUZZ_SHRINK_H
#define NS_FUZZ_SHRINK_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "fuzz/case.h"

/* Judge cand[0..n): keep[i] true when cand[i] still diverges the way the
 * original does. 0; 1 when the budget is spent and it judged nothing
 * (shrinking stops, keeping what it has); -1 when it could not judge
 * (shrinking stops). */
typedef int ns_fuzz_oracle(void *ctx, const struct ns_fuzz_case *cand, size_t n, bool *keep);

struct ns_fuzz_shrink_stats {
	size_t rounds;          /* oracle calls */
	size_t candidates;      /* cases judged */
};

/* Shrink *c in place. stop, when not NULL and set, ends it after the
 * round under way (SIGINT). Returns 0, or -1 when the oracle failed (*c
 * is then the smallest case found so far). */
int ns_fuzz_shrink(struct ns_fuzz_case *c, ns_fuzz_oracle *oracle, void *ctx,
		   const volatile sig_atomic_t *stop, struct ns_fuzz_shrink_stats *stats);

#endif
