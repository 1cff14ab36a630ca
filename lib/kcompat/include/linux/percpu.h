/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_PERCPU_H
#define _KC_LINUX_PERCPU_H

/*
 * The kernel's percpu.h brings, through its own includes (mmdebug.h,
 * preempt.h, smp.h, init.h, cleanup.h, sched.h -> ... -> cache.h and
 * linkage.h -> export.h), what code including only <linux/percpu.h> relies
 * on: ____cacheline_aligned_in_smp, EXPORT_SYMBOL_GPL, __init, guard(),
 * WARN_ON_ONCE, ALIGN. The same names come in the same way here.
 */
#include <linux/types.h>
#include <linux/gfp.h>
#include <linux/bug.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/init.h>
#include <linux/cleanup.h>
#include <linux/cache.h>
#include <linux/linkage.h>
#include <linux/cpumask.h>

/*
 * Per-CPU memory: CPU i's area starts KC_PERCPU_UNIT * i bytes after CPU
 * 0's, and a __percpu pointer is the address in CPU 0's area. Any offset
 * inside an allocation therefore maps to every CPU's copy.
 */
void __percpu *__alloc_percpu_gfp(size_t size, size_t align, gfp_t gfp);
void __percpu *__alloc_percpu(size_t size, size_t align);
void free_percpu(void __percpu *ptr);

#define alloc_percpu_gfp(type, gfp)					\
	((type __percpu *)__alloc_percpu_gfp(sizeof(type), __alignof__(type), gfp))
#define alloc_percpu(type)	alloc_percpu_gfp(type, GFP_KERNEL)

#define per_cpu_ptr(ptr, cpu)						\
	((typeof(ptr))((char *)(ptr) + (size_t)(cpu) * KC_PERCPU_UNIT))
#define raw_cpu_ptr(ptr)	per_cpu_ptr(ptr, raw_smp_processor_id())
#define this_cpu_ptr(ptr)	raw_cpu_ptr(ptr)
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), cpu))

static inline void kc_after_pcpu_add(void)
{
	kc_hook_fn hook = kc_after_pcpu_add_hook;

	if (unlikely(hook))
		hook();
}

/*
 * this_cpu_*() take a per-CPU lvalue. The kernel makes them atomic w.r.t.
 * the local CPU only; here several threads may share a virtual CPU and a
 * thread may migrate, and precise-sum readers load the word concurrently,
 * so they are relaxed atomic RMWs on the current CPU's copy.
 */
#define this_cpu_add_return(pcp, val) ({				\
	typeof(pcp) *__p = per_cpu_ptr(&(pcp), raw_smp_processor_id());	\
	typeof(pcp) __ret = __atomic_add_fetch(__p, (val), __ATOMIC_RELAXED); \
	kc_after_pcpu_add();						\
	__ret;								\
})
#define this_cpu_sub_return(pcp, val)	this_cpu_add_return(pcp, -(val))
#define this_cpu_inc_return(pcp)	this_cpu_add_return(pcp, 1)
#define this_cpu_dec_return(pcp)	this_cpu_add_return(pcp, -1)
/* No preemption to disable here: the raw and __ forms are the same ops. */
#define raw_cpu_add_return(pcp, val)	this_cpu_add_return(pcp, val)
#define __this_cpu_add_return(pcp, val)	this_cpu_add_return(pcp, val)
#define this_cpu_add(pcp, val)	((void)__atomic_add_fetch(		\
	per_cpu_ptr(&(pcp), raw_smp_processor_id()), (val), __ATOMIC_RELAXED))
#define this_cpu_sub(pcp, val)	this_cpu_add(pcp, -(val))
#define this_cpu_inc(pcp)	this_cpu_add(pcp, 1)
#define this_cpu_dec(pcp)	this_cpu_add(pcp, -1)
#define this_cpu_read(pcp)						\
	__atomic_load_n(per_cpu_ptr(&(pcp), raw_smp_processor_id()), __ATOMIC_RELAXED)
#define this_cpu_write(pcp, val)					\
	__atomic_store_n(per_cpu_ptr(&(pcp), raw_smp_processor_id()), (val), __ATOMIC_RELAXED)

#define raw_cpu_add(pcp, val)		this_cpu_add(pcp, val)
#define __this_cpu_add(pcp, val)	this_cpu_add(pcp, val)
#define __this_cpu_sub(pcp, val)	this_cpu_sub(pcp, val)
#define __this_cpu_inc(pcp)		this_cpu_inc(pcp)
#define __this_cpu_dec(pcp)		this_cpu_dec(pcp)
#define raw_cpu_read(pcp)		this_cpu_read(pcp)
#define __this_cpu_read(pcp)		this_cpu_read(pcp)
#define __this_cpu_write(pcp, val)	this_cpu_write(pcp, val)
#define this_cpu_xchg(pcp, val)						\
	__atomic_exchange_n(per_cpu_ptr(&(pcp), raw_smp_processor_id()), (val), \
			    __ATOMIC_RELAXED)
#define this_cpu_cmpxchg(pcp, old, new) ({				\
	typeof(pcp) __old = (old);					\
	__atomic_compare_exchange_n(per_cpu_ptr(&(pcp), raw_smp_processor_id()), \
				    &__old, (new), false, __ATOMIC_RELAXED,	\
				    __ATOMIC_RELAXED);				\
	__old;								\
})

#endif /* _KC_LINUX_PERCPU_H */
