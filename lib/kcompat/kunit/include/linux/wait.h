/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_WAIT_H
#define _KC_LINUX_WAIT_H

#include <stdatomic.h>
#include <linux/types.h>

/*
 * A wait queue is a wake-up sequence number: a waiter samples it, checks
 * its condition, and sleeps (futex) only while the number is unchanged,
 * so a wake_up() between the check and the sleep is never lost. There is
 * no lock, so re-initialising a queue whose last waker is still inside
 * wake_up() (KUnit files do) is harmless.
 */
struct wait_queue_head {
	_Atomic unsigned int seq;
	_Atomic unsigned int sleepers;
};
typedef struct wait_queue_head wait_queue_head_t;

#define __WAIT_QUEUE_HEAD_INITIALIZER(name)	{ 0, 0 }
#define DECLARE_WAIT_QUEUE_HEAD(name)	\
	struct wait_queue_head name = __WAIT_QUEUE_HEAD_INITIALIZER(name)

static inline void init_waitqueue_head(struct wait_queue_head *wq)
{
	atomic_store_explicit(&wq->seq, 0, memory_order_relaxed);
}

void kc_wake_up(struct wait_queue_head *wq);
void kc_wait_sleep(struct wait_queue_head *wq, unsigned int seen);

static inline unsigned int kc_wait_seq(struct wait_queue_head *wq)
{
	return atomic_load_explicit(&wq->seq, memory_order_seq_cst);
}

#define wake_up(wq)		kc_wake_up(wq)
#define wake_up_all(wq)		kc_wake_up(wq)
#define wake_up_interruptible(wq)	kc_wake_up(wq)

#define __wait_event(wq_head, condition)				\
do {									\
	for (;;) {							\
		unsigned int __kc_seen = kc_wait_seq(&(wq_head));	\
		if (condition)						\
			break;						\
		kc_wait_sleep(&(wq_head), __kc_seen);			\
	}								\
} while (0)

#define wait_event(wq_head, condition)					\
do {									\
	if (condition)							\
		break;							\
	__wait_event(wq_head, condition);				\
} while (0)

/* No signals reach a KUnit kthread: never interrupted. */
#define wait_event_interruptible(wq_head, condition)			\
({									\
	wait_event(wq_head, condition);					\
	0;								\
})

#endif /* _KC_LINUX_WAIT_H */
