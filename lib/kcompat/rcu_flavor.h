/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RCU flavors behind kcompat's kernel RCU API (rcu.c): liburcu's
 * memb, qsbr and bp flavors (rcu_urcu.c) and Concurrency Kit's ck_epoch
 * (rcu_ck.c). One is chosen per process before the first RCU call; the
 * generic layer keeps the nesting depth, thread registration and the
 * ThreadSanitizer edges, so a flavor only implements the outermost
 * section and its grace-period machinery. Private to lib/kcompat: the
 * backends include their library's headers, which define their own
 * struct rcu_head, so they never include linux/rcupdate.h.
 */
#ifndef _KC_RCU_FLAVOR_H
#define _KC_RCU_FLAVOR_H

/* linux/rcupdate.h's struct rcu_head, as the backends see it. */
struct kc_rcu_head {
	void *node[3];		/* the backend's queue node (liburcu, ck_epoch) */
	void (*func)(struct kc_rcu_head *head);
};

struct kc_rcu_flavor {
	const char *name;
	void (*init)(void);		/* once, before any other call */
	void (*register_thread)(void);
	void (*unregister_thread)(void);
	/*
	 * The flavor's own callback thread, which the library registered
	 * itself: adopt it as it is (NULL: register it like any thread).
	 */
	void (*adopt_cb_thread)(void);
	/* Outermost read-side section only: nesting is counted above. */
	void (*read_lock)(void);
	void (*read_unlock)(void);
	/* Does the flavor see this thread's section (NULL: no way to ask)? */
	int (*watching)(void);
	void (*synchronize)(void);
	/* After a grace period, kc_rcu_invoke(@head) on some thread. */
	void (*call)(struct kc_rcu_head *head);
	/* Every kc_rcu_invoke() of a call() made before it has returned. */
	void (*cb_barrier)(void);
	/*
	 * cb_barrier() requests the callback thread sees so far, and those
	 * it has completed (NULL: no way to ask): for tests that order a
	 * barrier against that thread (kc_rcu_barriers()).
	 */
	void (*barriers)(unsigned long *asked, unsigned long *done);
	/* qsbr only (NULL elsewhere): see kc_rcu_quiescent_state(). */
	void (*quiescent_state)(void);
	void (*thread_online)(void);
	void (*thread_offline)(void);
};

extern const struct kc_rcu_flavor kc_rcu_memb, kc_rcu_qsbr, kc_rcu_bp, kc_rcu_ck_epoch;

/* Runs @head's callback with the ThreadSanitizer edges of rcu.c. */
void kc_rcu_invoke(struct kc_rcu_head *head);

#endif /* _KC_RCU_FLAVOR_H */
