/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The percpu_counter column of hpcc-report (docs/report.md): one mm's four
 * RSS counters as the kernel's percpu_counters, in one per-CPU block as
 * percpu_counter_init_many() lays them. Two implementations, one per
 * build: the tree's own lib/percpu_counter.c when KERNEL_SRC has it
 * (pcc_tree.c), else our model of it (pcc_model.c, bench/kpcc.c).
 */
#ifndef _BENCH_REPORT_PCC_H
#define _BENCH_REPORT_PCC_H

#include <linux/types.h>
#include <linux/compiler.h>

/* One mm's four counters; an array of them is pcc_size() bytes apart. */
struct pcc4;

/* Where the code came from: "bench/kpcc.c" or the tree's file path. */
extern const char pcc_source[];

size_t pcc_size(void);
static inline struct pcc4 *pcc_at(void *arr, unsigned long i)
{
	return (struct pcc4 *)((char *)arr + i * pcc_size());
}

int pcc_init(struct pcc4 *c);
/* Safe on a zeroed, never initialised set. */
void pcc_destroy(struct pcc4 *c);
void pcc_add(struct pcc4 *c, int member, s64 amount, s32 batch);
/* percpu_counter_sum() of @member. */
s64 pcc_sum(struct pcc4 *c, int member);
/* The per-CPU block of the four s32 slots. */
const void __percpu *pcc_block(struct pcc4 *c);

#endif /* _BENCH_REPORT_PCC_H */
