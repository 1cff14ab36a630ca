/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the shim's wait queues (kapi.c), its kthreads (kthread.c or
 * kthread_old.c) and what both kthread paths share (kthread_common.c).
 */
#ifndef _KC_KTHREAD_INT_H
#define _KC_KTHREAD_INT_H

#include <stdbool.h>

/*
 * The calling thread is about to sleep (wait_event(), kthread_stop()) /
 * is awake again: a kthread that sleeps gives its run queue's thread to
 * the kthreads queued behind it (kthread.c). Any thread may call them.
 */
void kc_kthread_block(void);
void kc_kthread_unblock(void);

/*
 * kthread_should_stop() of the path built (kthread.c, or kthread_old.c
 * with -DKC_HANDOFF_OLD): false outside a kthread.
 */
bool kc_kthread_poll_stop(void);

/*
 * A waiter that is no kthread, about to sleep: run a kthread on a fiber
 * instead (kthread.c); true if it ran one (then look again), false if
 * there is nothing to run or the path built has no fibers.
 */
bool kc_kthread_help(void);
/* After a wake_up(): a kthread on its waiter's fiber gives the waiter its thread back. */
void kc_kthread_woke(void);

#endif /* _KC_KTHREAD_INT_H */
