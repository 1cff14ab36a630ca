/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_COMPILER_H
#define _KC_LINUX_COMPILER_H

#include <kcompat/kcompat.h>

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define noinline	__attribute__((__noinline__))
#define __maybe_unused	__attribute__((__unused__))
#define __must_check	__attribute__((__warn_unused_result__))
#define __aligned(x)	__attribute__((__aligned__(x)))
#define __packed	__attribute__((__packed__))
/*
 * Address spaces exist only for sparse (scripts/kernel-sparse): as in the
 * kernel, a __percpu or __rcu pointer may not be dereferenced, nor mixed
 * with a plain one without __force.
 */
#ifdef __CHECKER__
#define __percpu	__attribute__((noderef, address_space(__percpu)))
#define __rcu		__attribute__((noderef, address_space(__rcu)))
#define __user		__attribute__((noderef, address_space(__user)))
#define __iomem		__attribute__((noderef, address_space(__iomem)))
#define __force		__attribute__((force))
#define __kernel	__attribute__((address_space(0)))
#else
#define __percpu
#define __rcu
#define __user
#define __iomem
#define __force
#define __kernel
#endif
#define __read_mostly
#define __ro_after_init
#define __init
#define __exit
#define __initdata
#define __initconst
#define __refdata
#define __cold		__attribute__((__cold__))
#define __pure		__attribute__((__pure__))
#define __always_unused	__attribute__((__unused__))
#define fallthrough	__attribute__((__fallthrough__))
/* A deliberately racy plain access: relaxed atomics keep TSan quiet. */
#define data_race(expr)	(expr)
#define barrier()	__asm__ __volatile__("" : : : "memory")

/*
 * READ_ONCE/WRITE_ONCE are relaxed atomics: the kernel relies on them
 * being single untorn accesses, and ThreadSanitizer must see them as
 * atomic, so that concurrent precise-sum readers are not reported.
 */
#ifndef KC_EXPLORE
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, val)	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED)

#define smp_load_acquire(p)		__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#else
/*
 * The same accesses, each after a scheduling point (kcompat.h: kc_xp)
 * that says its size and order: a weak memory model buffers the store
 * or forwards the load around the real access (kc_xp_post).
 */
#define __kc_xp_load(p, kind, mo, xmo) ({				\
	typeof(p) __xp_p = (p);						\
	kc_xp_mem(__xp_p, sizeof(*__xp_p), kind, xmo);			\
	typeof(*__xp_p) __xp_v = __atomic_load_n(__xp_p, mo);		\
	kc_xp_post();							\
	__xp_v;								\
})
/* The value first: its own loads are points before this store's. */
#define __kc_xp_store(p, v, mo, xmo) ({					\
	typeof(p) __xp_q = (p);						\
	typeof(*__xp_q) __xp_v = (v);					\
	kc_xp_mem(__xp_q, sizeof(*__xp_q), KC_XP_WRITE, xmo);		\
	__atomic_store_n(__xp_q, __xp_v, mo);				\
	kc_xp_post();							\
})
#define __kc_xp_fence(xmo, mo) ({					\
	kc_xp_mem(NULL, 0, KC_XP_FENCE, xmo);				\
	__atomic_thread_fence(mo);					\
})
#define READ_ONCE(x)	__kc_xp_load(&(x), KC_XP_READ, __ATOMIC_RELAXED, KC_XP_MO_PLAIN)
#define WRITE_ONCE(x, val)	__kc_xp_store(&(x), (val), __ATOMIC_RELAXED, KC_XP_MO_PLAIN)
#define smp_load_acquire(p)	__kc_xp_load((p), KC_XP_READ, __ATOMIC_ACQUIRE, KC_XP_MO_ACQUIRE)
#define smp_store_release(p, v)	__kc_xp_store((p), (v), __ATOMIC_RELEASE, KC_XP_MO_RELEASE)
#define smp_mb()	__kc_xp_fence(KC_XP_MO_MB, __ATOMIC_SEQ_CST)
#define smp_rmb()	__kc_xp_fence(KC_XP_MO_RMB, __ATOMIC_ACQUIRE)
#define smp_wmb()	__kc_xp_fence(KC_XP_MO_WMB, __ATOMIC_RELEASE)
#endif

#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)

#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), "BUILD_BUG_ON: " #cond)

#endif /* _KC_LINUX_COMPILER_H */
