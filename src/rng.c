// SPDX-License-Identifier: GPL-2.0
/*
 * Deterministic per-thread PRNG (splitmix64). Each stream is derived from
 * the run's seed, a stream name and a thread id, so that a thread's
 * sequence does not depend on other threads or other streams.
 */
#include "stress.h"

unsigned long long stress_mix(unsigned long long z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void stress_rng_seed(struct stress_rng *r, unsigned long long seed,
		     const char *stream, unsigned long long id)
{
	unsigned long long h = 0xcbf29ce484222325ULL;	/* FNV-1a of the name */

	while (stream && *stream)
		h = (h ^ (unsigned char)*stream++) * 0x100000001b3ULL;
	r->s = stress_mix(stress_mix(seed ^ h) + id);
}

unsigned long long stress_rng_next(struct stress_rng *r)
{
	unsigned long long z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

unsigned long long stress_rng_below(struct stress_rng *r, unsigned long long n)
{
	if (!n)
		return 0;
	/* 128-bit multiply: unbiased enough and no division. */
	return (unsigned long long)(((unsigned __int128)stress_rng_next(r) * n) >> 64);
}

bool stress_rng_chance(struct stress_rng *r, double p)
{
	if (p <= 0)
		return false;
	if (p >= 1)
		return true;
	return (stress_rng_next(r) >> 11) * (1.0 / 9007199254740992.0) < p;
}

void stress_rng_refill(struct stress_rng_batch *b, struct stress_rng *r)
{
	unsigned int i;

	for (i = 0; i < STRESS_RNG_BATCH; i++)
		b->v[i] = stress_rng_next(r);
	b->i = 0;
}
