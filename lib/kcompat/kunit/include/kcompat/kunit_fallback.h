/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel APIs a KUnit file uses that the shared shims may lack. Each one
 * is defined here only when the probe (mk/probes/kunit, written to
 * $(BUILD)/kinc/kunit_api.h) found no definition in the shared header:
 * a later definition there wins without an edit here.
 */
#ifndef _KC_KUNIT_FALLBACK_H
#define _KC_KUNIT_FALLBACK_H

#include <stdatomic.h>
#include <linux/types.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/atomic.h>
#include <kcompat/kcompat.h>
#include <kunit_api.h>

/* Round-robin pick among online CPUs (the kernel keeps one cursor per CPU). */
unsigned int kc_kunit_any_distribute(void);

#if !KUNIT_API_CPU_ONLINE_MASK
/*
 * No hotplug in cpumask.h: every possible CPU is online, and the online
 * mask is only a token for the helpers below.
 */
struct kc_kunit_online_mask;
#define cpu_online_mask		((const struct kc_kunit_online_mask *)&nr_cpu_ids)
#ifndef cpu_possible_mask
#define cpu_possible_mask	cpu_online_mask
#endif
#define kc_kunit_online(cpu)	((unsigned int)(cpu) < nr_cpu_ids)
#else
static inline bool kc_kunit_online(unsigned int cpu)
{
	unsigned int c;

	for_each_online_cpu(c)
		if (c == cpu)
			return true;
	return false;
}
#endif

/* These know one mask, the online one: the only mask KUnit files pass. */
#if !KUNIT_API_CPUMASK_FIRST
static inline unsigned int kc_kunit_first_online(void)
{
	unsigned int c;

	for_each_online_cpu(c)
		return c;
	return nr_cpu_ids;
}
#define cpumask_first(mask)	((void)(mask), kc_kunit_first_online())
#endif

#if !KUNIT_API_CPUMASK_TEST_CPU
#define cpumask_test_cpu(cpu, mask)	((void)(mask), kc_kunit_online(cpu))
#endif

#if !KUNIT_API_CPUMASK_ANY_DISTRIBUTE
#define cpumask_any_distribute(mask)	((void)(mask), kc_kunit_any_distribute())
#endif

#if !KUNIT_API_KVMALLOC
#define kvmalloc(size, gfp)		kmalloc(size, gfp)
#define kvzalloc(size, gfp)		kzalloc(size, gfp)
#define kvcalloc(n, size, gfp)		kcalloc(n, size, gfp)
#define kvmalloc_array(n, size, gfp)	kmalloc_array(n, size, gfp)
#define kvfree(p)			kfree(p)
#endif

#ifdef KC_TSAN
/*
 * KUnit files wait for their kthreads with wait_event() on an
 * atomic_read() of a count that each kthread decrements last; the waiter
 * may see zero before the last one reaches wake_up(). The kernel orders
 * what follows by the architecture (x86 loads are acquire); TSan needs
 * the acquire spelled out, or it reports the test's free of the counters
 * as racing with the kthreads' adds. Only in the KUnit build.
 */
static inline int kc_kunit_atomic_read_acquire(const atomic_t *v)
{
	return atomic_load_explicit((_Atomic int *)&v->counter, memory_order_acquire);
}
#define atomic_read(v)	kc_kunit_atomic_read_acquire(v)
#endif

#endif /* _KC_KUNIT_FALLBACK_H */
