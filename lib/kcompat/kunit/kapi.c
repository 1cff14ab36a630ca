// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel APIs KUnit files use around the code under test: kthreads
 * that run as a virtual CPU on pooled threads, wait queues, a seeded get_random_*(), and
 * cpumask_any_distribute() when cpumask.h has none (kunit_fallback.h).
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <linux/wait.h>
#include <kcompat/kcompat.h>
#include <kcompat/kunit_fallback.h>
#include <kcompat/turn.h>
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
/*
 * Backoff rounds of an idle worker before it sleeps: a test that runs one
 * kthread at a time hands the next one over within them; hundreds of idle
 * workers spinning longer would only take the CPU from the running ones.
 */
#define KC_WORKER_SPIN_ROUNDS	2

/*
 * A kthread runs on a worker: a POSIX thread taken from a pool at
 * kthread_create() and given the kthread at wake_up_process() (or at
 * kthread_stop() if never woken), through a kcompat/turn.h turn (slot 0:
 * the pool's, slot 1: the worker's). Done, the worker goes back to the
 * pool. A POSIX thread per kthread cost about eight system calls to
 * create and end (docs/bench.md); a KUnit case makes one kthread per CPU
 * per run. -DKC_HANDOFF_OLD ends every worker after its one kthread.
 */
struct kc_worker {
	struct kc_turn turn;
	struct kc_kthread *job;		/* set before the pass to slot 1 */
	struct kc_worker *next;		/* idle list, under kc_pool_lock */
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
static pthread_mutex_t kc_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kc_worker *kc_pool_idle;

static struct kc_kthread *to_kthread(struct task_struct *t)
{
	return (struct kc_kthread *)t;
}

/*
 * task_struct references (linux/sched/task.h); the last put frees the
 * kthread. The KUnit binary has no OOM task model, whose tasks these
 * would otherwise be (lib/mm/oom_task.c is not linked in).
 */
void get_task_struct(struct task_struct *t)
{
	atomic_inc(&t->usage);
}

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
	if (w) {	/* its thread ends (pthread_exit()): never back in the pool */
		kc_current_worker = NULL;
		kc_turn_destroy(&w->turn);
		free(w);
	}
}

/*
 * A kthread bound to a CPU runs as that CPU for its whole run, as the
 * kernel runs it: it holds its vCPU (kcompat.h), so its per-CPU adds are
 * plain ones instead of a take and a give of the vCPU each, and a vCPU
 * shared by many kthreads changes hands once per kthread (or per quantum)
 * instead of once per add. It lets the vCPU go around its sleeps
 * (wait_event(), kthread_stop()). An unbound kthread takes CPU 0 around
 * each operation, as before. -DKC_HANDOFF_OLD: none holds.
 */
static void kthread_hold(struct kc_kthread *k)
{
#ifndef KC_HANDOFF_OLD
	if (k->cpu >= 0)
		kc_cpu_hold();
#else
	(void)k;
#endif
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
		kc_set_cpu(k->cpu >= 0 ? (unsigned int)k->cpu : 0);
		kthread_hold(k);
		ret = k->fn(k->data);
		kc_cpu_unhold();
	}
	kc_current_kthread = NULL;
	kthread_done(k, ret);
}

static void *worker_main(void *arg)
{
	struct kc_worker *w = arg;
	struct kc_kthread *k;

	kc_current_worker = w;
	for (;;) {
		kc_turn_wait_spin(&w->turn, 1, KC_WORKER_SPIN_ROUNDS);
		k = w->job;
		w->job = NULL;
		kc_turn_pass(&w->turn, 0);
		kthread_run_job(k);
#ifdef KC_HANDOFF_OLD
		break;
#endif
		pthread_mutex_lock(&kc_pool_lock);
		w->next = kc_pool_idle;
		kc_pool_idle = w;
		pthread_mutex_unlock(&kc_pool_lock);
	}
	kc_current_worker = NULL;
	kc_turn_destroy(&w->turn);
	free(w);
	return NULL;
}

/* An idle worker, or a new one; NULL when no thread can be made. */
static struct kc_worker *worker_get(void)
{
	struct kc_worker *w;
	pthread_attr_t attr;
	pthread_t th;
	int err = EAGAIN, i;

	pthread_mutex_lock(&kc_pool_lock);
	w = kc_pool_idle;
	if (w)
		kc_pool_idle = w->next;
	pthread_mutex_unlock(&kc_pool_lock);
	if (w)
		return w;
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

int kthread_stop_put(struct task_struct *p)
{
	int ret = kthread_stop(p);

	put_task_struct(p);
	return ret;
}

bool kthread_should_stop(void)
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

/* Wait queues (linux/wait.h). */
void kc_wake_up(struct wait_queue_head *wq)
{
	atomic_fetch_add_explicit(&wq->seq, 1, memory_order_seq_cst);
	if (atomic_load_explicit(&wq->sleepers, memory_order_seq_cst))
		syscall(SYS_futex, &wq->seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

void kc_wait_sleep(struct wait_queue_head *wq, unsigned int seen)
{
	/* A bound on each sleep: a lost wake-up costs 10 ms, not a hang. */
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	bool held = kc_cpu_held;

	kc_cpu_unhold();	/* a sleeping kthread runs no CPU */
	atomic_fetch_add_explicit(&wq->sleepers, 1, memory_order_seq_cst);
	syscall(SYS_futex, &wq->seq, FUTEX_WAIT_PRIVATE, seen, &ts, NULL, 0);
	atomic_fetch_sub_explicit(&wq->sleepers, 1, memory_order_relaxed);
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
	unsigned int next = nr_cpu_ids, first = nr_cpu_ids, c;

#if !KUNIT_API_CPU_ONLINE_MASK
	/* Every possible CPU is online. */
	next = prev + 1 < nr_cpu_ids ? prev + 1 : 0;
	atomic_store_explicit(&kc_distribute_prev, next, memory_order_relaxed);
	return next;
#endif
	for_each_online_cpu(c) {
		if (first == nr_cpu_ids)
			first = c;
		if (c > prev) {
			next = c;
			break;
		}
	}
	if (next == nr_cpu_ids)
		next = first;
	if (next < nr_cpu_ids)
		atomic_store_explicit(&kc_distribute_prev, next, memory_order_relaxed);
	return next;
}
