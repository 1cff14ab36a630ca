// SPDX-License-Identifier: GPL-2.0
/* The percpu_counter column on our model of it (bench/kpcc.c): pcc.h. */
#include <linux/mm_types.h>
#include <linux/percpu.h>
#include "../kpcc.h"
#include "pcc.h"

struct pcc4 {
	struct kpcc k[NR_MM_COUNTERS];
};

const char pcc_source[] = "bench/kpcc.c";

size_t pcc_size(void)
{
	return sizeof(struct pcc4);
}

/* Four kpcc counters in one per-CPU block, as percpu_counter_init_many() lays them. */
int pcc_init(struct pcc4 *c)
{
	s32 __percpu *base = __alloc_percpu(NR_MM_COUNTERS * sizeof(s32), sizeof(s32));
	int m;

	if (!base)
		return -1;
	for (m = 0; m < NR_MM_COUNTERS; m++) {
		spin_lock_init(&c->k[m].lock);
		c->k[m].count = 0;
		c->k[m].counters = base + m;
	}
	return 0;
}

void pcc_destroy(struct pcc4 *c)
{
	if (c->k[0].counters)
		free_percpu(c->k[0].counters);
	c->k[0].counters = NULL;
}

void pcc_add(struct pcc4 *c, int member, s64 amount, s32 batch)
{
	kpcc_add_batch(&c->k[member], amount, batch);
}

s64 pcc_sum(struct pcc4 *c, int member)
{
	return kpcc_sum(&c->k[member]);
}

const void __percpu *pcc_block(struct pcc4 *c)
{
	return c->k[0].counters;
}
