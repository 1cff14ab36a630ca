/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The suite's one pseudo-random generator, used by src/, tests/, bench/
 * and lib/mm: splitmix64 (Steele, Lea and Flood, OOPSLA 2014). The state
 * is one 64-bit word advanced by the golden-ratio increment; every output
 * goes through the finaliser. Per-thread state, no locks, all inline:
 * the stress engine draws in its hot loop, with the state in a register
 * (counter_storm's step keeps a local copy).
 */
#ifndef _UTIL_RNG_H
#define _UTIL_RNG_H

#include <stdbool.h>
#include <stdint.h>

#define RNG_GOLDEN	0x9e3779b97f4a7c15ULL

struct rng {
	uint64_t s;
};

/* splitmix64's finaliser: a bijection that spreads every input bit. */
static inline uint64_t rng_fmix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The output of a generator in state @x: derives well-spread values from a seed. */
static inline uint64_t rng_mix(uint64_t x)
{
	return rng_fmix(x + RNG_GOLDEN);
}

static inline void rng_init(struct rng *r, uint64_t state)
{
	r->s = state;
}

/*
 * An independent stream per (seed, name, id): a thread's sequence does
 * not depend on other threads or other streams.
 */
static inline void rng_init_stream(struct rng *r, uint64_t seed, const char *name, uint64_t id)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a of the name */

	while (name && *name)
		h = (h ^ (unsigned char)*name++) * 0x100000001b3ULL;
	r->s = rng_mix(rng_mix(seed ^ h) + id);
}

static inline uint64_t rng_next(struct rng *r)
{
	return rng_fmix(r->s += RNG_GOLDEN);
}

/* Uniform in [0, n) by a 128-bit multiply (no division); 0 when n == 0. */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

/* Uniform in [0, 1), 53 bits. */
static inline double rng_unit(struct rng *r)
{
	return (rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* True with probability @p (0..1). */
static inline bool rng_chance(struct rng *r, double p)
{
	if (p <= 0)
		return false;
	if (p >= 1)
		return true;
	return rng_unit(r) < p;
}

#endif /* _UTIL_RNG_H */
