// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel APIs KUnit files use around the code under test, beside the
 * kthreads (kthread.c): wait queues, a seeded get_random_*(), and
 * cpumask_any_distribute() when cpumask.h has none (kunit_fallback.h).
 */
#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <ck_pr.h>
#include <linux/random.h>
#include <linux/wait.h>
#include <kcompat/kcompat.h>
#include <kcompat/kunit_fallback.h>
#include "kthread_int.h"

/* Wait queues (linux/wait.h). */
void kc_wake_up(struct wait_queue_head *wq)
{
	atomic_fetch_add_explicit(&wq->seq, 1, memory_order_seq_cst);
	if (atomic_load_explicit(&wq->sleepers, memory_order_seq_cst))
		syscall(SYS_futex, &wq->seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
	kc_kthread_woke();
}

/* Pauses a waiter spins before it sleeps (kthread.c, KC_RUNNER_SPIN). */
#define KC_WAIT_SPIN	32

void kc_wait_sleep(struct wait_queue_head *wq, unsigned int seen)
{
	/* A bound on each sleep: a lost wake-up costs 10 ms, not a hang. */
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	bool held = kc_cpu_held;
	unsigned int i;

	kc_cpu_unhold();	/* a sleeping kthread runs no CPU */
	if (kc_kthread_help())	/* a waiter ran a kthread: the caller looks again */
		goto out;
	for (i = 0; i < KC_WAIT_SPIN; i++) {
		if (atomic_load_explicit(&wq->seq, memory_order_acquire) != seen)
			goto out;
		ck_pr_stall();
	}
	kc_kthread_block();	/* its run queue goes on without it */
	atomic_fetch_add_explicit(&wq->sleepers, 1, memory_order_seq_cst);
	syscall(SYS_futex, &wq->seq, FUTEX_WAIT_PRIVATE, seen, &ts, NULL, 0);
	atomic_fetch_sub_explicit(&wq->sleepers, 1, memory_order_relaxed);
	kc_kthread_unblock();
out:
	if (held)
		kc_cpu_hold();
}

/* splitmix64 over an atomic counter: any thread may draw. */
static _Atomic u64 kc_random_state = 1;

void kc_random_seed(u64 seed)
{
	atomic_store_explicit(&kc_random_state, seed, memory_order_relaxed);
}

u64 get_random_u64(void)
{
	u64 z = atomic_fetch_add_explicit(&kc_random_state, 0x9e3779b97f4a7c15ULL,
					  memory_order_relaxed) + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void get_random_bytes(void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len) {
		u64 v = get_random_u64();
		size_t n = len < sizeof(v) ? len : sizeof(v);

		memcpy(p, &v, n);
		p += n;
		len -= n;
	}
}

/* The CPU after the last one picked, wrapping (the kernel's per-CPU cursor). */
static _Atomic unsigned int kc_distribute_prev;

unsigned int kc_kunit_any_distribute(void)
{
	unsigned int prev = atomic_load_explicit(&kc_distribute_prev, memory_order_relaxed);
	unsigned int next;

#if !KUNIT_API_CPU_ONLINE_MASK
	/* Every possible CPU is online. */
	next = prev + 1 < nr_cpu_ids ? prev + 1 : 0;
	atomic_store_explicit(&kc_distribute_prev, next, memory_order_relaxed);
	return next;
#endif
	/* A word of the mask at a time: a walk from CPU 0 made a round of n picks O(n^2). */
	next = cpumask_next((int)prev, cpu_online_mask);
	if (next >= nr_cpu_ids)
		next = cpumask_first(cpu_online_mask);
	if (next < nr_cpu_ids)
		atomic_store_explicit(&kc_distribute_prev, next, memory_order_relaxed);
	return next;
}
