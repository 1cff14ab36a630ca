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
void __percpu *(__alloc_percpu_gfp)(size_t size, size_t align, gfp_t gfp);
void __percpu *(__alloc_percpu)(size_t size, size_t align);
void (free_percpu)(void __percpu *ptr);

/*
 * Strict frees, as the kernel's percpu allocator WARNs: freeing a pointer
 * that is not the start of a live allocation (an interior pointer, one
 * never allocated, a double free) WARNs, naming the allocation's origin
 * and the free's site, and frees nothing. Calls through the macros
 * record their file:line; the functions record their caller's address.
 */
void __percpu *kc_alloc_percpu_at(size_t size, size_t align, gfp_t gfp, const char *file,
				  int line, const void *caller);
void kc_free_percpu_at(void __percpu *ptr, const char *file, int line);
#define __alloc_percpu_gfp(size, align, gfp)				\
	kc_alloc_percpu_at(size, align, gfp, __FILE__, __LINE__, NULL)
#define __alloc_percpu(size, align)					\
	kc_alloc_percpu_at(size, align, GFP_KERNEL, __FILE__, __LINE__, NULL)
#define free_percpu(ptr)	kc_free_percpu_at(ptr, __FILE__, __LINE__)

#define alloc_percpu_gfp(type, gfp)					\
	((type __percpu *)__alloc_percpu_gfp(sizeof(type), __alignof__(type), gfp))
#define alloc_percpu(type)	alloc_percpu_gfp(type, GFP_KERNEL)

#ifdef __CHECKER__
/* For sparse, as the kernel's: a __percpu pointer in, a plain one out. */
#define __kc_per_cpu_ptr(ptr, cpu)					\
	((typeof(*(ptr)) __kernel __force *)((char __force *)(ptr) +	\
					     (size_t)(cpu) * KC_PERCPU_UNIT))
#else
#define __kc_per_cpu_ptr(ptr, cpu)					\
	((typeof(ptr))((char *)(ptr) + (size_t)(cpu) * KC_PERCPU_UNIT))
#endif
#if defined(KC_EXPLORE) && defined(KC_XP_PCPU_READ)
/*
 * A kernel tree sums the per-CPU words with plain loads through
 * per_cpu_ptr(): the explorer (mk/explore.mk, KERNEL_SRC) takes each as a
 * read point, so that adds interleave with the sum as they do in the kernel.
 */
#define per_cpu_ptr(ptr, cpu) ({					\
	typeof(ptr) __kc_pp = __kc_per_cpu_ptr(ptr, cpu);		\
	kc_xp(__kc_pp, KC_XP_READ);					\
	__kc_pp;							\
})
#else
#define per_cpu_ptr(ptr, cpu)	__kc_per_cpu_ptr(ptr, cpu)
#endif
#define raw_cpu_ptr(ptr)	__kc_per_cpu_ptr(ptr, raw_smp_processor_id())
#define this_cpu_ptr(ptr)	raw_cpu_ptr(ptr)
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), cpu))

/*
 * The CPU-local forms of the operations (the kernel's x86 ones): a single
 * instruction without LOCK, so a signal on the same thread cannot split
 * it while another thread's access can. Elsewhere a relaxed load and
 * store (not signal-safe).
 */
#if defined(__x86_64__) || defined(__i386__)
#define __kc_local_xadd(p, v) ({					\
	typeof(*(p)) __kcx = (v);					\
	asm volatile("xadd %0, %1" : "+r" (__kcx), "+m" (*(p)) : : "cc"); \
	__kcx;								\
})
#define __kc_local_add(p, v) ({						\
	asm volatile("add %1, %0" : "+m" (*(p)) : "r" ((typeof(*(p)))(v)) : "cc"); \
	(typeof(*(p)))0;						\
})
#define __kc_local_cmpxchg(p, o, n) ({					\
	typeof(*(p)) __kco = (o);					\
	asm volatile("cmpxchg %2, %1" : "+a" (__kco), "+m" (*(p))	\
		     : "r" ((typeof(*(p)))(n)) : "cc");			\
	__kco;								\
})
#else
#define __kc_local_xadd(p, v) ({					\
	typeof(*(p)) __x = __atomic_load_n((p), __ATOMIC_RELAXED);	\
	__atomic_store_n((p), __x + (v), __ATOMIC_RELAXED);		\
	__x;								\
})
#define __kc_local_add(p, v)	((void)__kc_local_xadd(p, v), (typeof(*(p)))0)
#define __kc_local_cmpxchg(p, o, n) ({					\
	typeof(*(p)) __x = __atomic_load_n((p), __ATOMIC_RELAXED);	\
	if (__x == (o))							\
		__atomic_store_n((p), (n), __ATOMIC_RELAXED);		\
	__x;								\
})
#endif
#define __kc_local_store(p, v) ({					\
	__atomic_store_n((p), (v), __ATOMIC_RELAXED);			\
	(typeof(*(p)))0;						\
})
#define __kc_local_xchg(p, v) ({					\
	typeof(*(p)) __n = (v), __c = __atomic_load_n((p), __ATOMIC_RELAXED), __w; \
	while ((__w = __kc_local_cmpxchg((p), __c, __n)) != __c)	\
		__c = __w;						\
	__c;								\
})

/*
 * One per-CPU read-modify-write on the calling thread's CPU, in the
 * per-CPU model of kcompat.h: the CPU-local form by the vCPU's holder
 * (or under a per-operation hold), or the atomic form.
 */
#define __kc_pcpu_rmw(pcp, __p, __cpu, local, atomic, after) ({	\
	unsigned int __cpu = kc_get_cpu();				\
	kc_xp(__kc_per_cpu_ptr(&(pcp), __cpu), KC_XP_RMW);			\
	typeof(pcp) *__p = __kc_per_cpu_ptr(&(pcp), __cpu);			\
	typeof(pcp) __r;						\
	if (likely(kc_pcpu_fast == __cpu)) {				\
		kc_tsan_vcpu_use(__cpu);				\
		__r = (local);						\
	} else if (kc_pcpu_op_begin(__cpu)) {				\
		kc_tsan_vcpu_use(__cpu);				\
		__r = (local);						\
		kc_pcpu_op_end(__cpu);					\
	} else {							\
		__r = (atomic);						\
	}								\
	after;								\
	__r;								\
})

/*
 * A call from a per-CPU fast path to its out-of-line part that clobbers
 * no general register but %rax (the result), as the kernel's
 * preempt_schedule thunk: the fast path then saves no registers for its
 * cold paths. The thunk (percpu.c) keeps the red zone, aligns the stack
 * and saves the other caller-saved registers; the SSE registers are
 * declared clobbered (per-CPU users are integer code, the callee may not
 * be). Other architectures make a plain call.
 */
#if defined(__x86_64__)
#define KC_SSE_CLOBBERS	"xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5",	\
	"xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",	\
	"xmm13", "xmm14", "xmm15"
#define __kc_pcpu_thunk_call(fn, a0, a1, a2) ({				\
	unsigned long __tr = (unsigned long)(fn);			\
	asm volatile("lea -128(%%rsp), %%rsp\n\t"			\
		     "call kc_pcpu_thunk\n\t"				\
		     "lea 128(%%rsp), %%rsp"				\
		     : "+a" (__tr)					\
		     : "D" ((unsigned long)(a0)), "S" ((unsigned long)(a1)),	\
		       "d" ((unsigned long)(a2))				\
		     : "memory", "cc", KC_SSE_CLOBBERS);		\
	__tr;								\
})
#define __kc_pcpu_cold_call(fn, ret_type, a0, a1, a2)			\
	((ret_type)__kc_pcpu_thunk_call(fn, a0, a1, a2))
/* The same for a function without arguments or result. */
#define __kc_pcpu_thunk_call0(fn) do {					\
	unsigned long __tr = (unsigned long)(fn);			\
	asm volatile("lea -128(%%rsp), %%rsp\n\t"			\
		     "call kc_pcpu_thunk\n\t"				\
		     "lea 128(%%rsp), %%rsp"				\
		     : "+a" (__tr) : : "memory", "cc", KC_SSE_CLOBBERS);	\
} while (0)
#else
#define __kc_pcpu_cold_call(fn, ret_type, a0, a1, a2)	((ret_type)(fn)(a0, a1, a2))
#endif

/*
 * this_cpu_add_return(), the hot one (hpcc's level-0 add): everything but
 * the holder's CPU-local add is out of line (kc_pcpu_xadd_slow*()).
 */
#define __kc_pcpu_xadd_slow(p, v, cpu)					\
	__builtin_choose_expr(sizeof(*(p)) == 8,			\
		(typeof(*(p)))__kc_pcpu_cold_call(kc_pcpu_xadd_slow64, u64, (u64 *)(p), (u64)(v), cpu), \
	__builtin_choose_expr(sizeof(*(p)) == 4,			\
		(typeof(*(p)))__kc_pcpu_cold_call(kc_pcpu_xadd_slow32, u32, (u32 *)(p), (u32)(v), cpu), \
	__builtin_choose_expr(sizeof(*(p)) == 2,			\
		(typeof(*(p)))__kc_pcpu_cold_call(kc_pcpu_xadd_slow16, u16, (u16 *)(p), (u16)(v), cpu), \
		(typeof(*(p)))__kc_pcpu_cold_call(kc_pcpu_xadd_slow8, u8, (u8 *)(p), (u8)(v), cpu))))
u64 kc_pcpu_xadd_slow64(u64 *p, u64 v, unsigned int cpu);
u32 kc_pcpu_xadd_slow32(u32 *p, u32 v, unsigned int cpu);
u16 kc_pcpu_xadd_slow16(u16 *p, u16 v, unsigned int cpu);
u8 kc_pcpu_xadd_slow8(u8 *p, u8 v, unsigned int cpu);

/*
 * The after-add point: the injection hook, and a preemption point. One
 * test of the vCPU's attention word, almost never taken but while a hook
 * is installed; the rest is out of line.
 */
static inline void kc_pcpu_attention_call(void)
{
#if defined(__x86_64__)
	__kc_pcpu_thunk_call0(kc_pcpu_attention);
#else
	kc_pcpu_attention();
#endif
}

static inline void kc_after_pcpu_add(unsigned int cpu)
{
	if (unlikely(atomic_load_explicit(&kc_vcpus[cpu].attn, memory_order_relaxed)))
		kc_pcpu_attention_call();
}

/*
 * this_cpu_*() take a per-CPU lvalue and act on the calling thread's
 * CPU. Remote readers load the words concurrently (READ_ONCE, a relaxed
 * atomic load). There is no preemption to disable: the raw and __ forms
 * are the same operations.
 */
#define this_cpu_add_return(pcp, val) ({				\
	typeof(pcp) __v = (val), __o, *__a;				\
	unsigned int __c;						\
	kc_xp(__kc_per_cpu_ptr(&(pcp), kc_get_cpu()), KC_XP_RMW);		\
	__c = kc_pcpu_fast;						\
	if (likely(__c < NR_CPUS)) {					\
		__a = __kc_per_cpu_ptr(&(pcp), __c);				\
		kc_tsan_vcpu_use(__c);					\
		__o = __kc_local_xadd(__a, __v);			\
	} else {							\
		__c = kc_get_cpu();					\
		__a = __kc_per_cpu_ptr(&(pcp), __c);				\
		if (kc_pcpu_ops == KC_PCPU_ATOMIC)			\
			__o = __atomic_fetch_add(__a, __v, __ATOMIC_RELAXED); \
		else							\
			__o = __kc_pcpu_xadd_slow(__a, __v, __c);	\
	}								\
	kc_after_pcpu_add(__c);						\
	(typeof(pcp))(__o + __v);					\
})
#define this_cpu_sub_return(pcp, val)	this_cpu_add_return(pcp, -(val))
#define this_cpu_inc_return(pcp)	this_cpu_add_return(pcp, 1)
#define this_cpu_dec_return(pcp)	this_cpu_add_return(pcp, -1)
#define raw_cpu_add_return(pcp, val)	this_cpu_add_return(pcp, val)
#define __this_cpu_add_return(pcp, val)	this_cpu_add_return(pcp, val)
#define this_cpu_add(pcp, val) ({					\
	typeof(pcp) __v = (val);					\
	(void)__kc_pcpu_rmw(pcp, __pa, __ca, __kc_local_add(__pa, __v),	\
			    __atomic_fetch_add(__pa, __v, __ATOMIC_RELAXED), (void)0); \
})
#define this_cpu_sub(pcp, val)	this_cpu_add(pcp, -(val))
#define this_cpu_inc(pcp)	this_cpu_add(pcp, 1)
#define this_cpu_dec(pcp)	this_cpu_add(pcp, -1)
#define this_cpu_read(pcp) ({					\
	typeof(pcp) *__rp = __kc_per_cpu_ptr(&(pcp), raw_smp_processor_id());	\
	kc_xp(__rp, KC_XP_READ);					\
	__atomic_load_n(__rp, __ATOMIC_RELAXED);			\
})
#define this_cpu_write(pcp, val) ({					\
	typeof(pcp) __v = (val);					\
	(void)__kc_pcpu_rmw(pcp, __pa, __ca, __kc_local_store(__pa, __v),	\
			    __kc_local_store(__pa, __v), (void)0);	\
})
#define this_cpu_xchg(pcp, val) ({					\
	typeof(pcp) __v = (val);					\
	__kc_pcpu_rmw(pcp, __pa, __ca, __kc_local_xchg(__pa, __v),	\
		      __atomic_exchange_n(__pa, __v, __ATOMIC_RELAXED), (void)0); \
})
#define this_cpu_cmpxchg(pcp, old, new) ({				\
	typeof(pcp) __o = (old), __n = (new);				\
	__kc_pcpu_rmw(pcp, __pa, __ca, __kc_local_cmpxchg(__pa, __o, __n),	\
		      ({ typeof(pcp) __e = __o;				\
			 __atomic_compare_exchange_n(__pa, &__e, __n, false,	\
				__ATOMIC_RELAXED, __ATOMIC_RELAXED);	\
			 __e; }), (void)0);					\
})
/*
 * The kernel's fallback form: one cmpxchg; on a miss *@ovalp takes the
 * value found. @ovalp may be wider than @pcp (percpu_counter's s64 count
 * against its s32 slot): compared after narrowing, as the kernel does.
 */
#define this_cpu_try_cmpxchg(pcp, ovalp, nval) ({			\
	typeof(pcp) __to = *(ovalp), __tv;				\
	__tv = this_cpu_cmpxchg(pcp, __to, nval);			\
	if (__tv != __to)						\
		*(ovalp) = __tv;					\
	__tv == __to;							\
})

#define raw_cpu_add(pcp, val)		this_cpu_add(pcp, val)
#define __this_cpu_add(pcp, val)	this_cpu_add(pcp, val)
#define __this_cpu_sub(pcp, val)	this_cpu_sub(pcp, val)
#define __this_cpu_inc(pcp)		this_cpu_inc(pcp)
#define __this_cpu_dec(pcp)		this_cpu_dec(pcp)
#define raw_cpu_read(pcp)		this_cpu_read(pcp)
#define __this_cpu_read(pcp)		this_cpu_read(pcp)
#define __this_cpu_write(pcp, val)	this_cpu_write(pcp, val)

#endif /* _KC_LINUX_PERCPU_H */
