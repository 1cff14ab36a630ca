// SPDX-License-Identifier: GPL-2.0
/*
 * liburcu's flavors for kcompat: memb (membarrier-based readers), qsbr
 * (readers report quiescent states; free read side) and bp ("bulletproof":
 * readers register themselves lazily). All three are driven through the
 * rcu_flavor_struct each liburcu flavor library exports, so one binary
 * links them side by side (distinct symbol prefixes).
 *
 * qsbr: a registered thread is kept offline, and its outermost read-side
 * section brings it online and back offline, unless the thread reports
 * its own quiescent states (kc_rcu_thread_online(): the engine's loops),
 * in which case sections cost nothing and the thread must go offline
 * before it blocks. The signal flavor is not offered: it deadlocks under
 * ThreadSanitizer (docs/spec/stress.md#stress-tsan).
 */
#include <stdbool.h>
#include <urcu/urcu-memb.h>
#include <urcu/urcu-qsbr.h>
#include <urcu/urcu-bp.h>
#include <kcompat/kcompat.h>
#include "rcu_flavor.h"

/*
 * The three headers share urcu/call-rcu.h and urcu/flavor.h, which
 * declare the first flavor's names only: declare the other tables.
 */
extern const struct rcu_flavor_struct urcu_memb_flavor, urcu_qsbr_flavor, urcu_bp_flavor;

_Static_assert(sizeof(struct rcu_head) <= sizeof(((struct kc_rcu_head *)0)->node),
	       "liburcu's rcu_head does not fit kcompat's");

#ifdef KC_TSAN
void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);
#else
static inline void __tsan_ignore_thread_begin(void) { }
static inline void __tsan_ignore_thread_end(void) { }
#endif

static void urcu_invoke(struct rcu_head *head)
{
	kc_rcu_invoke((struct kc_rcu_head *)head);
}

/*
 * liburcu's barrier callocs a completion that a call_rcu worker frees,
 * ordered by liburcu's own uninstrumented refcount. This thread runs only
 * liburcu code meanwhile, so ignoring its accesses hides exactly that
 * calloc from TSan (the callbacks run on the worker threads).
 */
#define URCU_FLAVOR_OPS(fl)						\
static void fl##_call(struct kc_rcu_head *head)				\
{									\
	urcu_##fl##_flavor.update_call_rcu((struct rcu_head *)head, urcu_invoke); \
}									\
static void fl##_barrier(void)						\
{									\
	__tsan_ignore_thread_begin();					\
	urcu_##fl##_flavor.barrier();					\
	__tsan_ignore_thread_end();					\
}

/* liburcu's call_rcu worker registered itself (and reports its own QS). */
static void urcu_adopt(void)
{
}

URCU_FLAVOR_OPS(memb)
URCU_FLAVOR_OPS(qsbr)
URCU_FLAVOR_OPS(bp)



const struct kc_rcu_flavor kc_rcu_memb = {
	.name			= "memb",
	.register_thread	= urcu_memb_register_thread,
	.unregister_thread	= urcu_memb_unregister_thread,
	.adopt_cb_thread	= urcu_adopt,
	.read_lock		= urcu_memb_read_lock,
	.read_unlock		= urcu_memb_read_unlock,
	.watching		= urcu_memb_read_ongoing,
	.synchronize		= urcu_memb_synchronize_rcu,
	.call			= memb_call,
	.cb_barrier		= memb_barrier,
};

/* qsbr: does this thread report its own quiescent states? */
static __thread bool qsbr_self;

static void qsbr_register(void)
{
	urcu_qsbr_register_thread();
	urcu_qsbr_thread_offline();
	qsbr_self = false;
}

static void qsbr_unregister(void)
{
	qsbr_self = false;
	urcu_qsbr_unregister_thread();	/* goes offline first */
}

static void qsbr_adopt(void)
{
	qsbr_self = true;
}

static void qsbr_read_lock(void)
{
	if (!qsbr_self)
		urcu_qsbr_thread_online();
}

static void qsbr_read_unlock(void)
{
	if (!qsbr_self)
		urcu_qsbr_thread_offline();
}

static void qsbr_quiescent_state(void)
{
	if (qsbr_self)
		urcu_qsbr_quiescent_state();
}

static void qsbr_thread_online(void)
{
	qsbr_self = true;
	urcu_qsbr_thread_online();
}

static void qsbr_thread_offline(void)
{
	qsbr_self = false;
	urcu_qsbr_thread_offline();
}


const struct kc_rcu_flavor kc_rcu_qsbr = {
	.name			= "qsbr",
	.register_thread	= qsbr_register,
	.unregister_thread	= qsbr_unregister,
	.adopt_cb_thread	= qsbr_adopt,
	.read_lock		= qsbr_read_lock,
	.read_unlock		= qsbr_read_unlock,
	.watching		= urcu_qsbr_read_ongoing,	/* online */
	.synchronize		= urcu_qsbr_synchronize_rcu,	/* an online caller goes offline for it */
	.call			= qsbr_call,
	.cb_barrier		= qsbr_barrier,
	.quiescent_state	= qsbr_quiescent_state,
	.thread_online		= qsbr_thread_online,
	.thread_offline		= qsbr_thread_offline,
};

/* bp registers a reader at its first section and unregisters it at exit. */
static void bp_register(void)
{
	urcu_bp_register_thread();
}

static void bp_unregister(void)
{
}

const struct kc_rcu_flavor kc_rcu_bp = {
	.name			= "bp",
	.register_thread	= bp_register,
	.unregister_thread	= bp_unregister,
	.adopt_cb_thread	= urcu_adopt,
	.read_lock		= urcu_bp_read_lock,
	.read_unlock		= urcu_bp_read_unlock,
	.watching		= urcu_bp_read_ongoing,
	.synchronize		= urcu_bp_synchronize_rcu,
	.call			= bp_call,
	.cb_barrier		= bp_barrier,
};
