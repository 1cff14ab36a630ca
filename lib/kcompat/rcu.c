// SPDX-License-Identifier: GPL-2.0
/*
 * RCU for kcompat on liburcu's memb flavour, with the ThreadSanitizer
 * edges described in linux/rcupdate.h. This file includes liburcu and
 * must not include linux/rcupdate.h (both define struct rcu_head).
 */
#include <stddef.h>
#include <urcu/urcu-memb.h>
#include <kcompat/kcompat.h>

struct kc_rcu_head {
	void *kc_urcu[3];
	void (*func)(struct kc_rcu_head *head);
};

_Static_assert(sizeof(struct rcu_head) <= sizeof(((struct kc_rcu_head *)0)->kc_urcu),
	       "liburcu's rcu_head does not fit kcompat's");

char kc_rcu_gp_token;
static __thread int rcu_depth;

void kc_urcu_read_lock(void);
void kc_urcu_read_unlock(void);
void synchronize_rcu(void);
void call_rcu(struct kc_rcu_head *head, void (*func)(struct kc_rcu_head *));
void rcu_barrier(void);
int kc_rcu_read_depth(void);

void kc_urcu_read_lock(void)
{
	rcu_depth++;
	urcu_memb_read_lock();
}

void kc_urcu_read_unlock(void)
{
	urcu_memb_read_unlock();
	rcu_depth--;
}

int kc_rcu_read_depth(void)
{
	return rcu_depth;
}

void synchronize_rcu(void)
{
	urcu_memb_synchronize_rcu();
	kc_tsan_acquire(&kc_rcu_gp_token);
}

/*
 * liburcu's callback queue and rcu_barrier() completion are not visible
 * to TSan either: call_rcu() releases @head for its callback to acquire
 * (everything done before call_rcu()), and every callback releases
 * kc_rcu_cb_token for rcu_barrier() to acquire once they have all run.
 */
static char kc_rcu_cb_token;

static void kc_rcu_trampoline(struct rcu_head *uhead)
{
	struct kc_rcu_head *head = (struct kc_rcu_head *)uhead;

	kc_tsan_acquire(head);
	kc_tsan_acquire(&kc_rcu_gp_token);
	head->func(head);
	kc_tsan_release(&kc_rcu_cb_token);
}

void call_rcu(struct kc_rcu_head *head, void (*func)(struct kc_rcu_head *))
{
	head->func = func;
	kc_tsan_release(head);
	urcu_memb_call_rcu((struct rcu_head *)head, kc_rcu_trampoline);
}

#ifdef KC_TSAN
void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);
#else
static inline void __tsan_ignore_thread_begin(void) { }
static inline void __tsan_ignore_thread_end(void) { }
#endif

void rcu_barrier(void)
{
	/*
	 * urcu_memb_barrier() callocs a completion that a call_rcu worker
	 * frees, ordered by liburcu's own uninstrumented refcount. This
	 * thread runs only liburcu code meanwhile, so ignoring its accesses
	 * hides exactly that calloc from TSan (callbacks run elsewhere).
	 */
	__tsan_ignore_thread_begin();
	urcu_memb_barrier();
	__tsan_ignore_thread_end();
	kc_tsan_acquire(&kc_rcu_cb_token);
}

void kc_rcu_barrier(void)
{
	rcu_barrier();
}

void kc_rcu_register_thread(void)
{
	urcu_memb_register_thread();
}

void kc_rcu_unregister_thread(void)
{
	urcu_memb_unregister_thread();
}
