/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_RCUPDATE_H
#define _KC_LINUX_RCUPDATE_H

#include <linux/kernel.h>

/*
 * RCU over the flavor chosen at run time (kcompat/rcu.c: liburcu memb,
 * qsbr, bp or ck_epoch). None of them is TSan-instrumented, so the real
 * happens-before edges are made visible:
 * - publication: rcu_assign_pointer() is a C11 release store and
 *   rcu_dereference() an acquire load (stronger than the kernel's
 *   consume, same on x86), which TSan understands natively;
 * - read-side exit releases kc_rcu_gp_token; synchronize_rcu() and every
 *   call_rcu() callback acquire it, so a free after a grace period is
 *   ordered after every read-side access that preceded it. A free made
 *   without a grace period has no such edge and is reported.
 */
#define callback_head	rcu_head	/* kcompat names it rcu_head */
struct rcu_head {
	void *kc_node[3];	/* the flavor's queue node (kcompat/rcu_flavor.h) */
	void (*func)(struct rcu_head *head);
};
typedef void (*rcu_callback_t)(struct rcu_head *head);

extern char kc_rcu_gp_token;

void kc_rcu_read_lock(void);
void kc_rcu_read_unlock(void);
void synchronize_rcu(void);
void call_rcu(struct rcu_head *head, rcu_callback_t func);
void rcu_barrier(void);
int kc_rcu_read_depth(void);

static inline void rcu_read_lock(void)
{
	kc_xp(&kc_rcu_gp_token, KC_XP_RCU_LOCK);
	kc_rcu_read_lock();
}

static inline void rcu_read_unlock(void)
{
	kc_xp(&kc_rcu_gp_token, KC_XP_RCU_UNLOCK);
	kc_tsan_release(&kc_rcu_gp_token);
	kc_rcu_read_unlock();
}

/* True inside a read-side critical section of the calling thread. */
#define rcu_read_lock_held()	(kc_rcu_read_depth() > 0)

#ifndef KC_EXPLORE
#define rcu_dereference(p)	__atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#define rcu_dereference_protected(p, c)	__atomic_load_n(&(p), __ATOMIC_RELAXED)
#define rcu_access_pointer(p)	__atomic_load_n(&(p), __ATOMIC_RELAXED)
#define rcu_assign_pointer(p, v)	__atomic_store_n(&(p), (v), __ATOMIC_RELEASE)
#define RCU_INIT_POINTER(p, v)	__atomic_store_n(&(p), (v), __ATOMIC_RELAXED)
#define rcu_replace_pointer(p, v, c)					\
	__atomic_exchange_n(&(p), (v), __ATOMIC_ACQ_REL)
#else
/* Scheduling points first (compiler.h); the protected form is owner-only. */
#define rcu_dereference(p)	__kc_xp_load(&(p), KC_XP_READ, __ATOMIC_ACQUIRE, KC_XP_MO_ACQUIRE)
#define rcu_dereference_protected(p, c)	\
	__kc_xp_load(&(p), KC_XP_READ, __ATOMIC_RELAXED, KC_XP_MO_LOCAL)
#define rcu_access_pointer(p)	__kc_xp_load(&(p), KC_XP_READ, __ATOMIC_RELAXED, KC_XP_MO_PLAIN)
#define rcu_assign_pointer(p, v)	\
	__kc_xp_store(&(p), (v), __ATOMIC_RELEASE, KC_XP_MO_RELEASE)
#define RCU_INIT_POINTER(p, v)	__kc_xp_store(&(p), (v), __ATOMIC_RELAXED, KC_XP_MO_PLAIN)
#define rcu_replace_pointer(p, v, c) ({					\
	typeof(p) __xp_n = (v);						\
	kc_xp(&(p), KC_XP_RMW);						\
	__atomic_exchange_n(&(p), __xp_n, __ATOMIC_ACQ_REL);		\
})
#endif
#define rcu_dereference_check(p, c)	rcu_dereference(p)
#define rcu_dereference_raw(p)	rcu_dereference(p)

#define kfree_rcu_mightsleep(p)	do { synchronize_rcu(); kfree(p); } while (0)

/* As in the kernel's rcupdate.h: guard(rcu)() holds a read-side section. */
#include <linux/cleanup.h>
DEFINE_LOCK_GUARD_0(rcu, rcu_read_lock(), rcu_read_unlock())

#endif /* _KC_LINUX_RCUPDATE_H */
