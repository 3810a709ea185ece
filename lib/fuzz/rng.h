/* rng.h - the fuzzer's own pseudo-random numbers: splitmix64 seeds a
 * xoshiro256** state, so that a seed and a scenario index always give the
 * same scenario, on every machine and whatever else the process did (no
 * rand(), no clock). */
#ifndef NS_FUZZ_RNG_H
#define NS_FUZZ_RNG_H

#include <stdint.h>

struct ns_rng {
	uint64_t s[4];
};

static inline uint64_t ns_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The stream of scenario `index` of run `seed`. */
static inline void ns_rng_seed(struct ns_rng *r, uint64_t seed, uint64_t index)
{
	uint64_t x = seed ^ (index * 0xd1342543de82ef95ULL + 0x2545f4914f6cdd1dULL);

	for (int i = 0; i < 4; i++)
		r->s[i] = ns_splitmix64(&x);
}

static inline uint64_t ns_rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t ns_rng_next(struct ns_rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = ns_rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = ns_rng_rotl(s[3], 45);
	return out;
}

/* A number in [0, n), n >= 1 (the slight bias of a modulo is harmless
 * here). */
static inline unsigned ns_rng_below(struct ns_rng *r, unsigned n)
{
	return (unsigned)(ns_rng_next(r) % n);
}

/* True with probability pct/100. */
static inline int ns_rng_pct(struct ns_rng *r, unsigned pct)
{
	return ns_rng_below(r, 100) < pct;
}

#endif
