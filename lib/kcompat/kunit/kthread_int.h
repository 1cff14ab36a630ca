/* SPDX-License-Identifier: GPL-2.0 */
/* Between the shim's wait queues (kapi.c) and its kthreads (kthread.c). */
#ifndef _KC_KTHREAD_INT_H
#define _KC_KTHREAD_INT_H

/*
 * The calling thread is about to sleep (wait_event(), kthread_stop()) /
 * is awake again: a kthread that sleeps gives its run queue's thread to
 * the kthreads queued behind it (kthread.c). Any thread may call them.
 */
void kc_kthread_block(void);
void kc_kthread_unblock(void);

#endif /* _KC_KTHREAD_INT_H */
