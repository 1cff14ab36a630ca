// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrency Kit's epoch-based reclamation (ck_epoch) as a kcompat RCU
 * flavor. Every thread that reads owns a ck_epoch record (recycled from
 * exited threads: records are never freed); a read-side section is
 * ck_epoch_begin()/ck_epoch_end() on it. synchronize_rcu() is
 * ck_epoch_synchronize_wait(), yielding while a reader holds an old epoch.
 *
 * call_rcu(): ck_epoch_call() defers to the caller's own record and only
 * that record's owner may dispatch it (ck_epoch_poll() and
 * ck_epoch_barrier() dispatch whole buckets: an entry pushed by another
 * thread between their scan and their dispatch would be freed without a
 * grace period). So call_rcu() pushes the head on a lock-free list, and
 * one reclaimer thread moves the list into its own record with
 * ck_epoch_call(), then ck_epoch_poll()s it until it is empty, the way
 * liburcu's call_rcu thread works. rcu_barrier() asks the reclaimer for a
 * ck_epoch_barrier_wait() after a move: every callback queued before it
 * has then run.
 *
 * ThreadSanitizer: records, epochs and the deferral buckets are touched
 * by libck (not instrumented) or by ck_pr inline assembly (invisible):
 * the edges that matter are those of rcu.c (section exit -> grace period
 * -> callback) plus the list's C11 release/acquire (tsan/ck-allowed).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ck_epoch.h>
#include <kcompat/kcompat.h>
#include "rcu_flavor.h"

_Static_assert(sizeof(ck_epoch_entry_t) <= 2 * sizeof(void *),
	       "ck_epoch_entry does not fit kcompat's rcu_head");
/* node[0..1]: the ck_epoch_entry; node[2]: the call_rcu() list link. */
#define CK_LINK(head)	(*(struct kc_rcu_head **)&(head)->node[2])

/* How often the reclaimer polls while callbacks wait for their epoch. */
#define CK_POLL_NS	(1000 * 1000)

static ck_epoch_t ck_global;
static __thread ck_epoch_record_t *ck_self;

static struct {
	pthread_once_t once;
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	unsigned long barrier_req, barrier_done;	/* under lock */
	_Atomic(struct kc_rcu_head *) list;		/* call_rcu()s not yet moved */
} R = {
	.once = PTHREAD_ONCE_INIT,
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.work = PTHREAD_COND_INITIALIZER,
	.done = PTHREAD_COND_INITIALIZER,
};

static void ck_die(const char *what, int err)
{
	fprintf(stderr, "kcompat: ck-epoch: %s: %s\n", what, strerror(err));
	abort();
}

static void ck_init(void)
{
	ck_epoch_init(&ck_global);
}

/*
 * An exited thread's record goes to the next thread that registers, handed
 * over by libck's invisible atomics: release it at unregister and acquire
 * it at recycle (its allocation counts as a write to TSan).
 */
static ck_epoch_record_t *ck_record(void)
{
	ck_epoch_record_t *r = ck_epoch_recycle(&ck_global, NULL);

	if (r) {
		kc_tsan_acquire(r);
		return r;
	}
	r = aligned_alloc(CK_MD_CACHELINE, sizeof(*r));
	if (!r)
		ck_die("record", ENOMEM);
	ck_epoch_register(&ck_global, r, NULL);	/* sets every field */
	return r;
}

static void ck_register(void)
{
	ck_self = ck_record();
}

static void ck_unregister(void)
{
	kc_tsan_release(ck_self);
	ck_epoch_unregister(ck_self);
	ck_self = NULL;
}

static void ck_read_lock(void)
{
	ck_epoch_begin(ck_self, NULL);
}

static void ck_read_unlock(void)
{
	ck_epoch_end(ck_self, NULL);
}

/* A reader still holds an older epoch: let it run (2 cores, many threads). */
static void ck_wait(ck_epoch_t *global, ck_epoch_record_t *cr, void *arg)
{
	sched_yield();
}

static void ck_synchronize(void)
{
	ck_epoch_synchronize_wait(&ck_global, ck_wait, NULL);
}

static void ck_dispatch(ck_epoch_entry_t *entry)
{
	kc_rcu_invoke((struct kc_rcu_head *)entry);
}

/* Move every queued head into the reclaimer's record (its owner). */
static void ck_move(ck_epoch_record_t *rec)
{
	struct kc_rcu_head *h = atomic_exchange_explicit(&R.list, NULL, memory_order_acquire);
	struct kc_rcu_head *next;

	for (; h; h = next) {
		next = CK_LINK(h);
		ck_epoch_call(rec, (ck_epoch_entry_t *)h, ck_dispatch);
	}
}

/*
 * Under R.lock, until there is work: a barrier request at once; while
 * callbacks wait for their epoch, one poll per CK_POLL_NS (new call_rcu()s
 * join the next one); with nothing pending, until call_rcu() queues one.
 */
static void ck_reclaimer_wait(ck_epoch_record_t *rec)
{
	struct timespec deadline;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_nsec += CK_POLL_NS;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	while (R.barrier_req == R.barrier_done) {
		if (rec->n_pending) {
			if (pthread_cond_timedwait(&R.work, &R.lock, &deadline) == ETIMEDOUT)
				return;
		} else if (atomic_load_explicit(&R.list, memory_order_relaxed)) {
			return;
		} else {
			pthread_cond_wait(&R.work, &R.lock);
		}
	}
}

static void *ck_reclaimer(void *arg)
{
	ck_epoch_record_t *rec = ck_record();
	unsigned long want;

	for (;;) {
		pthread_mutex_lock(&R.lock);
		ck_reclaimer_wait(rec);
		want = R.barrier_req;
		pthread_mutex_unlock(&R.lock);

		ck_move(rec);
		if (want == R.barrier_done) {
			ck_epoch_poll(rec);
			continue;
		}
		ck_epoch_barrier_wait(rec, ck_wait, NULL);
		pthread_mutex_lock(&R.lock);
		R.barrier_done = want;
		pthread_cond_broadcast(&R.done);
		pthread_mutex_unlock(&R.lock);
	}
	return NULL;
}

static void ck_start(void)
{
	pthread_attr_t attr;
	pthread_t tid;
	int err;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = pthread_create(&tid, &attr, ck_reclaimer, NULL);
	pthread_attr_destroy(&attr);
	if (err)
		ck_die("reclaimer thread", err);
}

static void ck_call(struct kc_rcu_head *head)
{
	struct kc_rcu_head *old = atomic_load_explicit(&R.list, memory_order_relaxed);

	pthread_once(&R.once, ck_start);
	do
		CK_LINK(head) = old;
	while (!atomic_compare_exchange_weak_explicit(&R.list, &old, head,
						      memory_order_release,
						      memory_order_relaxed));
	if (old)
		return;		/* not empty: the reclaimer was told already */
	pthread_mutex_lock(&R.lock);
	pthread_cond_signal(&R.work);
	pthread_mutex_unlock(&R.lock);
}

static void ck_barrier(void)
{
	unsigned long mine;

	pthread_once(&R.once, ck_start);
	pthread_mutex_lock(&R.lock);
	mine = ++R.barrier_req;
	pthread_cond_signal(&R.work);
	while (R.barrier_done < mine)
		pthread_cond_wait(&R.done, &R.lock);
	pthread_mutex_unlock(&R.lock);
}

static void ck_barriers(unsigned long *asked, unsigned long *done)
{
	pthread_mutex_lock(&R.lock);
	*asked = R.barrier_req;
	*done = R.barrier_done;
	pthread_mutex_unlock(&R.lock);
}

const struct kc_rcu_flavor kc_rcu_ck_epoch = {
	.name			= "ck-epoch",
	.init			= ck_init,
	.register_thread	= ck_register,
	.unregister_thread	= ck_unregister,
	.read_lock		= ck_read_lock,
	.read_unlock		= ck_read_unlock,
	.synchronize		= ck_synchronize,
	.call			= ck_call,
	.cb_barrier		= ck_barrier,
	.barriers		= ck_barriers,
};
