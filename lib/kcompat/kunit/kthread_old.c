// SPDX-License-Identifier: GPL-2.0
/*
 * -DKC_HANDOFF_OLD kthreads (docs/kunit.md, bench/handoff): a POSIX thread
 * per kthread that never holds its vCPU, the path before the run queue of
 * kthread.c, kept so that make bench measures both in one run.
 */
#ifdef KC_HANDOFF_OLD
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/kthread.h>
#include <kcompat/kcompat.h>
#include <kcompat/turn.h>
#include "kthread_int.h"
#include "kunit_run.h"

/* A kthread's stack: its function is short; sanitizers want more. */
#if defined(KC_TSAN) || defined(__SANITIZE_ADDRESS__)
#define KC_KTHREAD_STACK	(1024 * 1024)
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KC_KTHREAD_STACK	(1024 * 1024)
#endif
#endif
#ifndef KC_KTHREAD_STACK
#define KC_KTHREAD_STACK	(128 * 1024)
#endif
/* pthread_create() of a new worker retries this often on EAGAIN. */
#define KC_KTHREAD_RETRIES	1000
/* Backoff rounds of a new worker before it sleeps until its kthread is given. */
#define KC_WORKER_SPIN_ROUNDS	2

/*
 * A kthread runs on a worker: a POSIX thread made at kthread_create() and
 * given the kthread at wake_up_process() (or at kthread_stop() if never
 * woken), through a kcompat/turn.h turn (slot 0: the creator's, slot 1:
 * the worker's). The worker ends after its one kthread.
 */
struct kc_worker {
	struct kc_turn turn;
	struct kc_kthread *job;		/* set before the pass to slot 1 */
};

struct kc_kthread {
	struct task_struct task;	/* the kernel's handle: first */
	int (*fn)(void *data);
	void *data;
	int cpu;			/* -1: any (CPU 0) */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool woken, exited, should_stop, dispatched;
	int result;
	struct kc_worker *worker;
};

static __thread struct kc_kthread *kc_current_kthread;
static __thread struct kc_worker *kc_current_worker;

static struct kc_kthread *to_kthread(struct task_struct *t)
{
	return (struct kc_kthread *)t;
}

/* The last task_struct reference (get_task_struct(): kthread_common.c) frees the kthread. */
void put_task_struct(struct task_struct *t)
{
	struct kc_kthread *k = to_kthread(t);

	if (atomic_dec_and_test(&t->usage)) {
		pthread_mutex_destroy(&k->lock);
		pthread_cond_destroy(&k->cond);
		free(k);
	}
}

static void kthread_done(struct kc_kthread *k, int result)
{
	pthread_mutex_lock(&k->lock);
	k->result = result;
	k->exited = true;
	pthread_cond_broadcast(&k->cond);
	pthread_mutex_unlock(&k->lock);
	put_task_struct(&k->task);	/* the thread's own reference */
}

/* A failed KUnit assertion in a kthread ends it: it exits as killed. */
void kc_kthread_abort(void)
{
	struct kc_kthread *k = kc_current_kthread;
	struct kc_worker *w = kc_current_worker;

	kc_cpu_unhold();
	if (k) {
		kc_current_kthread = NULL;
		kthread_done(k, -EINTR);
	}
	if (w) {	/* its thread ends (pthread_exit()) */
		kc_current_worker = NULL;
		kc_turn_destroy(&w->turn);
		free(w);
	}
}

static void kthread_run_job(struct kc_kthread *k)
{
	bool run;
	int ret = -EINTR;

	kc_current_kthread = k;
	pthread_mutex_lock(&k->lock);
	run = k->woken && !k->should_stop;
	pthread_mutex_unlock(&k->lock);
	if (run) {
		/* No vCPU held: each per-CPU operation takes it. */
		kc_set_cpu(k->cpu >= 0 ? (unsigned int)k->cpu : 0);
		ret = k->fn(k->data);
	}
	kc_current_kthread = NULL;
	kthread_done(k, ret);
}

static void *worker_main(void *arg)
{
	struct kc_worker *w = arg;
	struct kc_kthread *k;

	kc_current_worker = w;
	kc_turn_wait_spin(&w->turn, 1, KC_WORKER_SPIN_ROUNDS);
	k = w->job;
	w->job = NULL;
	kc_turn_pass(&w->turn, 0);
	kthread_run_job(k);
	kc_current_worker = NULL;
	kc_turn_destroy(&w->turn);
	free(w);
	return NULL;
}

/* A new worker; NULL when no thread can be made. */
static struct kc_worker *worker_get(void)
{
	struct kc_worker *w;
	pthread_attr_t attr;
	pthread_t th;
	int err = EAGAIN, i;

	w = calloc(1, sizeof(*w));
	if (!w || kc_turn_init(&w->turn, 2)) {
		free(w);
		return NULL;
	}
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, KC_KTHREAD_STACK);
	/* Threads that just exited may not be reaped yet: try again a while. */
	for (i = 0; i < KC_KTHREAD_RETRIES && err == EAGAIN; i++) {
		err = pthread_create(&th, &attr, worker_main, w);
		if (err == EAGAIN)
			usleep(1000);
	}
	pthread_attr_destroy(&attr);
	if (err) {
		kc_turn_destroy(&w->turn);
		free(w);
		return NULL;
	}
	return w;
}

/* The first of wake_up_process() and kthread_stop() gives @k its worker. */
static void kthread_dispatch(struct kc_kthread *k)
{
	struct kc_worker *w = k->worker;

	w->job = k;
	kc_turn_pass(&w->turn, 1);
}

struct task_struct *kc_kthread_create(int (*threadfn)(void *data), void *data, int cpu,
				      const char *name)
{
	struct kc_kthread *k;

	(void)name;
	if (cpu >= (int)nr_cpu_ids)
		return ERR_PTR(-EINVAL);
	k = calloc(1, sizeof(*k));
	if (!k)
		return ERR_PTR(-ENOMEM);
	k->fn = threadfn;
	k->data = data;
	k->cpu = cpu;
	pthread_mutex_init(&k->lock, NULL);
	pthread_cond_init(&k->cond, NULL);
	atomic_set(&k->task.usage, 1);
	k->task.flags = PF_KTHREAD;
	k->worker = worker_get();
	if (!k->worker) {
		pthread_mutex_destroy(&k->lock);
		pthread_cond_destroy(&k->cond);
		free(k);
		return ERR_PTR(-ENOMEM);
	}
	return &k->task;
}

int wake_up_process(struct task_struct *p)
{
	struct kc_kthread *k = to_kthread(p);
	bool dispatch;
	int woke;

	pthread_mutex_lock(&k->lock);
	woke = !k->woken;
	k->woken = true;
	dispatch = !k->dispatched;
	k->dispatched = true;
	pthread_mutex_unlock(&k->lock);
	if (dispatch)
		kthread_dispatch(k);
	return woke;
}

void kthread_bind(struct task_struct *p, unsigned int cpu)
{
	struct kc_kthread *k = to_kthread(p);

	pthread_mutex_lock(&k->lock);
	if (!k->woken)
		k->cpu = (int)cpu;
	pthread_mutex_unlock(&k->lock);
}

/* Stop @k (never run if not woken yet) and wait for it: its result. */
int kthread_stop(struct task_struct *p)
{
	struct kc_kthread *k = to_kthread(p);
	bool dispatch, held;
	int ret;

	get_task_struct(p);
	pthread_mutex_lock(&k->lock);
	k->should_stop = true;
	dispatch = !k->dispatched;
	k->dispatched = true;
	pthread_mutex_unlock(&k->lock);
	if (dispatch)	/* never woken: its worker ends it without running it */
		kthread_dispatch(k);
	held = kc_cpu_held;
	kc_cpu_unhold();
	pthread_mutex_lock(&k->lock);
	while (!k->exited)
		pthread_cond_wait(&k->cond, &k->lock);
	ret = k->result;
	pthread_mutex_unlock(&k->lock);
	if (held)
		kc_cpu_hold();
	put_task_struct(p);
	return ret;
}

/* kthread_should_stop() (kthread_common.c) for this path. */
bool kc_kthread_poll_stop(void)
{
	struct kc_kthread *k = kc_current_kthread;
	bool stop;

	if (!k)
		return false;
	kc_cpu_preempt();	/* a kthread's polling loop lets its vCPU's waiters run */
	pthread_mutex_lock(&k->lock);
	stop = k->should_stop;
	pthread_mutex_unlock(&k->lock);
	return stop;
}

/* Each kthread has a thread of its own: none is kept from running by a sleeper. */
void kc_kthread_block(void)
{
}

void kc_kthread_unblock(void)
{
}

/* No fibers on this path: a waiter sleeps, a waker goes on. */
bool kc_kthread_help(void)
{
	return false;
}

void kc_kthread_woke(void)
{
}
#endif /* KC_HANDOFF_OLD */
