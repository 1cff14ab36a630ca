// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <kcompat/kcompat.h>
#include "kpcc.h"

int kpcc_init(struct kpcc *c)
{
	spin_lock_init(&c->lock);
	c->count = 0;
	c->counters = alloc_percpu(s32);
	return c->counters ? 0 : -1;
}

void kpcc_destroy(struct kpcc *c)
{
	free_percpu(c->counters);
	c->counters = NULL;
}

/*
 * The kernel's loop: try a local cmpxchg of the delta; once |delta| would
 * reach the batch, fold it into the global count under the lock. The
 * kernel's this_cpu_try_cmpxchg is CPU-local (no LOCK prefix); here it is
 * a real atomic because threads may share a virtual CPU.
 */
void kpcc_add_batch(struct kpcc *c, s64 amount, s32 batch)
{
	s32 *p = per_cpu_ptr(c->counters, raw_smp_processor_id());
	s32 count = __atomic_load_n(p, __ATOMIC_RELAXED);

	for (;;) {
		if (unlikely(llabs(count + amount) >= batch)) {
			spin_lock(&c->lock);
			count = __atomic_load_n(p, __ATOMIC_RELAXED);
			__atomic_store_n(&c->count, c->count + count + amount,
					 __ATOMIC_RELAXED);
			__atomic_fetch_sub(p, count, __ATOMIC_RELAXED);
			spin_unlock(&c->lock);
			return;
		}
		/* On failure @count is reloaded with the current delta. */
		if (__atomic_compare_exchange_n(p, &count, (s32)(count + amount), false,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return;
	}
}

s64 kpcc_sum(struct kpcc *c)
{
	s64 ret;
	int cpu;

	spin_lock(&c->lock);
	ret = c->count;
	for_each_possible_cpu(cpu)
		ret += __atomic_load_n(per_cpu_ptr(c->counters, cpu), __ATOMIC_RELAXED);
	spin_unlock(&c->lock);
	return ret;
}
