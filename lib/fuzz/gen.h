/* gen.h - the generator: a seed and an index make one fuzz case, always
 * the same one. Its operations are drawn from a small vocabulary that
 * interacts (directories /a /b /c and /a/x /b/x /c/x, stand-ins /dev/d1
 * to /dev/d3, terminals sh1 to shK), mostly valid, some not on purpose:
 * a wrong errno is a finding too. */
#ifndef NS_FUZZ_GEN_H
#define NS_FUZZ_GEN_H

#include <stdint.h>

#include "fuzz/case.h"

struct ns_fuzz_gen_opts {
	unsigned steps;         /* operations per case, >= 1 */
	unsigned terminals;     /* 1 .. NS_FUZZ_MAX_TERMS */
	unsigned features;      /* NS_FEAT_* both sides have: the new mount API */
};

/* Case `index` of run `seed` into *c (which it initializes). */
void ns_fuzz_generate(uint64_t seed, uint64_t index, const struct ns_fuzz_gen_opts *o,
		      struct ns_fuzz_case *c);

#endif
