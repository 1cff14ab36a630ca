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

static void kc_rcu_trampoline(struct rcu_head *uhead)
{
	struct kc_rcu_head *head = (struct kc_rcu_head *)uhead;

	kc_tsan_acquire(&kc_rcu_gp_token);
	head->func(head);
}

void call_rcu(struct kc_rcu_head *head, void (*func)(struct kc_rcu_head *))
{
	head->func = func;
	urcu_memb_call_rcu((struct rcu_head *)head, kc_rcu_trampoline);
}

void rcu_barrier(void)
{
	urcu_memb_barrier();
}

void kc_rcu_barrier(void)
{
	urcu_memb_barrier();
}

void kc_rcu_register_thread(void)
{
	urcu_memb_register_thread();
}

void kc_rcu_unregister_thread(void)
{
	urcu_memb_unregister_thread();
}
