// SPDX-License-Identifier: GPL-2.0
/*
 * The batch refill of the engine's generator (scenario.h): out of line so
 * the hot loop's draw stays a load and a well-predicted branch.
 */
#include "stress.h"

void stress_rng_refill(struct stress_rng_batch *b, struct stress_rng *r)
{
	unsigned int i;

	for (i = 0; i < STRESS_RNG_BATCH; i++)
		b->v[i] = stress_rng_next(r);
	b->i = 0;
}
