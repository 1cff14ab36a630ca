/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_ATOMIC_H
#define _KC_LINUX_ATOMIC_H

#include <stdatomic.h>
#include <linux/types.h>
#include <kcompat/kcompat.h>

/*
 * Kernel atomics on C11 <stdatomic.h>. Plain ops and the _relaxed forms
 * are relaxed; value-returning ops without a suffix are fully ordered, as
 * in the kernel. Note the kernel's argument order: (i, v) for the
 * arithmetic, (v, i) for set.
 */
#define ATOMIC_INIT(i)		{ (i) }
#define ATOMIC_LONG_INIT(i)	{ (i) }

#define __KC_ATOMIC_OPS(pfx, atype, t)					\
static inline t pfx##_read(const atype *v)				\
{									\
	t __r;								\
									\
	kc_xp_mem(&v->counter, sizeof(t), KC_XP_READ, KC_XP_MO_PLAIN);	\
	__r = atomic_load_explicit((_Atomic t *)&v->counter, memory_order_relaxed); \
	kc_xp_post();							\
	return __r;							\
}									\
static inline void pfx##_set(atype *v, t i)				\
{									\
	kc_xp_mem(&v->counter, sizeof(t), KC_XP_WRITE, KC_XP_MO_PLAIN);	\
	atomic_store_explicit(&v->counter, i, memory_order_relaxed);	\
	kc_xp_post();							\
}									\
static inline void pfx##_add(t i, atype *v)				\
{									\
	kc_xp(&v->counter, KC_XP_RMW);				\
	atomic_fetch_add_explicit(&v->counter, i, memory_order_relaxed); \
}									\
static inline void pfx##_sub(t i, atype *v)				\
{									\
	kc_xp(&v->counter, KC_XP_RMW);				\
	atomic_fetch_sub_explicit(&v->counter, i, memory_order_relaxed); \
}									\
static inline void pfx##_inc(atype *v)					\
{									\
	pfx##_add(1, v);						\
}									\
static inline void pfx##_dec(atype *v)					\
{									\
	pfx##_sub(1, v);						\
}									\
static inline t pfx##_add_return_relaxed(t i, atype *v)		\
{									\
	kc_xp(&v->counter, KC_XP_RMW);				\
	return atomic_fetch_add_explicit(&v->counter, i, memory_order_relaxed) + i; \
}									\
static inline t pfx##_add_return(t i, atype *v)			\
{									\
	kc_xp(&v->counter, KC_XP_RMW);				\
	return atomic_fetch_add_explicit(&v->counter, i, memory_order_seq_cst) + i; \
}									\
static inline t pfx##_sub_return(t i, atype *v)			\
{									\
	kc_xp(&v->counter, KC_XP_RMW);				\
	return atomic_fetch_sub_explicit(&v->counter, i, memory_order_seq_cst) - i; \
}									\
static inline t pfx##_inc_return(atype *v)				\
{									\
	return pfx##_add_return(1, v);					\
}									\
static inline t pfx##_dec_return(atype *v)				\
{									\
	return pfx##_sub_return(1, v);					\
}									\
static inline bool pfx##_dec_and_test(atype *v)			\
{									\
	return pfx##_sub_return(1, v) == 0;				\
}									\
static inline t pfx##_fetch_add_relaxed(t i, atype *v)			\
{									\
	kc_xp(&v->counter, KC_XP_RMW);				\
	return atomic_fetch_add_explicit(&v->counter, i, memory_order_relaxed); \
}									\
static inline t pfx##_xchg(atype *v, t i)				\
{									\
	kc_xp(&v->counter, KC_XP_RMW);				\
	return atomic_exchange_explicit(&v->counter, i, memory_order_seq_cst); \
}									\
static inline t pfx##_cmpxchg(atype *v, t old, t new)			\
{									\
	kc_xp(&v->counter, KC_XP_RMW);				\
	atomic_compare_exchange_strong_explicit(&v->counter, &old, new,	\
		memory_order_seq_cst, memory_order_relaxed);		\
	return old;							\
}									\
static inline t pfx##_cmpxchg_relaxed(atype *v, t old, t new)		\
{									\
	kc_xp(&v->counter, KC_XP_RMW);				\
	atomic_compare_exchange_strong_explicit(&v->counter, &old, new,	\
		memory_order_relaxed, memory_order_relaxed);		\
	return old;							\
}									\
/* Adds @a unless the value is @u: whether it added. */		\
static inline bool pfx##_add_unless(atype *v, t a, t u)		\
{									\
	t __c;								\
									\
	kc_xp(&v->counter, KC_XP_RMW);				\
	__c = atomic_load_explicit(&v->counter, memory_order_relaxed);	\
	do {								\
		if (__c == u)						\
			return false;					\
	} while (!atomic_compare_exchange_weak_explicit(&v->counter, &__c, \
		__c + a, memory_order_seq_cst, memory_order_relaxed));	\
	return true;							\
}									\
static inline bool pfx##_try_cmpxchg(atype *v, t *old, t new)		\
{									\
	kc_xp(&v->counter, KC_XP_RMW);				\
	return atomic_compare_exchange_strong_explicit(&v->counter, old, new, \
		memory_order_seq_cst, memory_order_relaxed);		\
}									\
static inline bool pfx##_try_cmpxchg_relaxed(atype *v, t *old, t new)	\
{									\
	kc_xp(&v->counter, KC_XP_RMW);				\
	return atomic_compare_exchange_strong_explicit(&v->counter, old, new, \
		memory_order_relaxed, memory_order_relaxed);		\
}									\
static inline t pfx##_read_acquire(const atype *v)			\
{									\
	t __r;								\
									\
	kc_xp_mem(&v->counter, sizeof(t), KC_XP_READ, KC_XP_MO_ACQUIRE); \
	__r = atomic_load_explicit((_Atomic t *)&v->counter, memory_order_acquire); \
	kc_xp_post();							\
	return __r;							\
}									\
static inline void pfx##_set_release(atype *v, t i)			\
{									\
	kc_xp_mem(&v->counter, sizeof(t), KC_XP_WRITE, KC_XP_MO_RELEASE); \
	atomic_store_explicit(&v->counter, i, memory_order_release);	\
	kc_xp_post();							\
}									\
static inline t pfx##_sub_return_relaxed(t i, atype *v)		\
{									\
	kc_xp(&v->counter, KC_XP_RMW);				\
	return atomic_fetch_sub_explicit(&v->counter, i, memory_order_relaxed) - i; \
}									\
static inline t pfx##_inc_return_relaxed(atype *v)			\
{									\
	return pfx##_add_return_relaxed(1, v);				\
}									\
static inline t pfx##_dec_return_relaxed(atype *v)			\
{									\
	return pfx##_sub_return_relaxed(1, v);				\
}									\
static inline t pfx##_xchg_relaxed(atype *v, t i)			\
{									\
	kc_xp(&v->counter, KC_XP_RMW);				\
	return atomic_exchange_explicit(&v->counter, i, memory_order_relaxed); \
}

__KC_ATOMIC_OPS(atomic, atomic_t, int)
__KC_ATOMIC_OPS(atomic_long, atomic_long_t, long)

/* Not in the macro: atomic_fetch_add() is a C11 <stdatomic.h> name. */
static inline long atomic_long_fetch_add(long i, atomic_long_t *v)
{
	kc_xp(&v->counter, KC_XP_RMW);
	return atomic_fetch_add_explicit(&v->counter, i, memory_order_seq_cst);
}

/* The generic forms on plain words (fully ordered, as in the kernel). */
#define xchg(ptr, v) ({							\
	typeof(*(ptr)) __new = (v);					\
	kc_xp((ptr), KC_XP_RMW);					\
	__atomic_exchange_n((ptr), __new, __ATOMIC_SEQ_CST);		\
})
#define cmpxchg(ptr, old, new) ({					\
	typeof(*(ptr)) __old = (old), __new = (new);			\
	kc_xp((ptr), KC_XP_RMW);					\
	__atomic_compare_exchange_n((ptr), &__old, __new, false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);	\
	__old;								\
})
#define cmpxchg_relaxed(ptr, old, new) ({				\
	typeof(*(ptr)) __old = (old), __new = (new);			\
	kc_xp((ptr), KC_XP_RMW);					\
	__atomic_compare_exchange_n((ptr), &__old, __new, false,	\
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);	\
	__old;								\
})
#define try_cmpxchg(ptr, oldp, new) ({					\
	typeof(*(ptr)) __new = (new);					\
	kc_xp((ptr), KC_XP_RMW);					\
	__atomic_compare_exchange_n((ptr), (oldp), __new, false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);	\
})

#endif /* _KC_LINUX_ATOMIC_H */
