/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel-style percpu_counter (lib/percpu_counter.c, the variant for
 * architectures with a local cmpxchg): per-CPU s32 deltas, folded into a
 * lock-protected s64 once a delta reaches the batch. Written here against
 * kcompat so that it pays the same per-CPU memory model as hpcc.
 */
#ifndef _BENCH_KPCC_H
#define _BENCH_KPCC_H

#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct kpcc {
	spinlock_t lock;
	s64 count;
	s32 __percpu *counters;
};

/*
 * sizeof(struct percpu_counter) in an x86-64 kernel without lock
 * debugging: raw_spinlock_t (4, padded to 8), s64, list_head (hotplug),
 * the per-CPU pointer. Ours holds a pthread mutex instead.
 */
#define KPCC_KERNEL_STRUCT_SIZE	40UL

int kpcc_init(struct kpcc *c);
void kpcc_destroy(struct kpcc *c);
/* percpu_counter_add_batch(); out of line, as in the kernel. */
void kpcc_add_batch(struct kpcc *c, s64 amount, s32 batch);
/* percpu_counter_sum(): lock, fold every CPU's delta, unlock. */
s64 kpcc_sum(struct kpcc *c);

/* percpu_counter_read(): the global count only. */
static inline s64 kpcc_read(struct kpcc *c)
{
	return __atomic_load_n(&c->count, __ATOMIC_RELAXED);
}

#endif /* _BENCH_KPCC_H */
