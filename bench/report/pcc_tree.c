// SPDX-License-Identifier: GPL-2.0
/*
 * The percpu_counter column on the tree's own lib/percpu_counter.c and
 * include/linux/percpu_counter.h (pcc.h), built unchanged against kcompat
 * (mk/report.mk: KPCC_TREE). Only the kernel's interface is called.
 */
#include <linux/mm_types.h>
#include <linux/gfp.h>
#include <linux/percpu_counter.h>
#include "pcc.h"

struct pcc4 {
	struct percpu_counter c[NR_MM_COUNTERS];
};

const char pcc_source[] = KPCC_TREE_SOURCE;

size_t pcc_size(void)
{
	return sizeof(struct pcc4);
}

int pcc_init(struct pcc4 *c)
{
	return percpu_counter_init_many(c->c, 0, GFP_KERNEL, NR_MM_COUNTERS) ? -1 : 0;
}

void pcc_destroy(struct pcc4 *c)
{
	percpu_counter_destroy_many(c->c, NR_MM_COUNTERS);
}

void pcc_add(struct pcc4 *c, int member, s64 amount, s32 batch)
{
	percpu_counter_add_batch(&c->c[member], amount, batch);
}

s64 pcc_sum(struct pcc4 *c, int member)
{
	return percpu_counter_sum(&c->c[member]);
}

const void __percpu *pcc_block(struct pcc4 *c)
{
	return c->c[0].counters;
}
