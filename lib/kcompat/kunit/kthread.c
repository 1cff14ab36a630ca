// SPDX-License-Identifier: GPL-2.0
/*
 * Kthreads on a run queue (docs/kunit.md). A KUnit case makes a kthread
 * per CPU per round, hundreds of thousands in all, each a few adds long: a
 * POSIX thread each, or a thread handed each kthread through a futex,
 * costs a thread create or two context switches per kthread, far more
 * than its adds (docs/bench.md).
 *
 * wake_up_process() queues the kthread on its vCPU's queue; a few runner
 * threads (as many as the host has CPUs) take the queues that have
 * kthreads, one vCPU per runner at a time, and run each kthread to its
 * end on their own stack, as that vCPU, holding it (kcompat.h): the
 * kthreads of one vCPU run one after another, as the kernel runs them on
 * that CPU, and two runners never wait for one vCPU. An idle runner spins
 * briefly, then sleeps on a futex word of its own until a queue is ready.
 *
 * A kthread that sleeps (wait_event(), kthread_stop()) or polls
 * kthread_should_stop() gives up its runner first: the runner leaves the
 * pool with it and another takes the rest of its vCPU's queue, so no
 * queued kthread waits behind a sleeping one. Done, the thread joins the
 * pool again. Every hand-off is under kc_rq_lock or a C11 acquire/release
 * pair, so ThreadSanitizer sees it.
 *
 * -DKC_HANDOFF_OLD builds kthread_old.c instead: a POSIX thread per kthread.
 */
#ifndef KC_HANDOFF_OLD
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <ck_pr.h>
#include <linux/kthread.h>
#include <kcompat/kcompat.h>
#include "kthread_int.h"
#include "kunit_run.h"

/* A runner's stack: a kthread's function is short; sanitizers want more. */
#if defined(KC_TSAN) || defined(__SANITIZE_ADDRESS__)
#define KC_RUNNER_STACK	(1024 * 1024)
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KC_RUNNER_STACK	(1024 * 1024)
#endif
#endif
#ifndef KC_RUNNER_STACK
#define KC_RUNNER_STACK	(256 * 1024)
#endif
/*
 * Pauses an idle runner spins before it sleeps: a microsecond or two (on 2
 * shared cores a longer spin cost more than it saved: docs/bench.md).
 */
#define KC_RUNNER_SPIN	32
/* The most runners kept busy at once, whatever the host's CPU count. */
#define KC_RUNNERS_MAX	64
/* The queue of kthreads bound to no CPU (they run as CPU 0, holding none). */
#define KC_RQ_ANY	NR_CPUS

enum kc_kstate { KC_K_CREATED, KC_K_QUEUED, KC_K_TAKEN };

struct kc_kthread {
	struct task_struct task;	/* the kernel's handle: first */
	int (*fn)(void *data);
	void *data;
	int cpu;			/* -1: any */
	enum kc_kstate state;		/* under kc_rq_lock */
	bool woken;			/* under kc_rq_lock */
	struct kc_kthread *next;	/* in its queue, under kc_rq_lock */
	_Atomic bool should_stop;
	int result;			/* written before exited is released */
	_Atomic unsigned int exited;	/* futex word: 1 once done */
	_Atomic unsigned int stop_waiters;
};

/* The woken kthreads of one vCPU, not yet taken. */
struct kc_rq {
	struct kc_kthread *head, *tail;
	struct kc_rq *next_ready;
	bool ready;			/* on the ready list */
	bool claimed;			/* a runner runs one of its kthreads */
};

struct kc_runner {
	struct kc_rq *rq;		/* claimed; NULL once its kthread slept */
	struct kc_runner *next_sleeper;
	_Atomic unsigned int asleep;	/* futex word */
};

static pthread_mutex_t kc_rq_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kc_rq kc_rqs[NR_CPUS + 1];
static struct kc_rq *kc_ready_head, *kc_ready_tail;
static _Atomic unsigned int kc_nr_ready;	/* ready queues, read by spinners */
static struct kc_runner *kc_sleepers;
static unsigned int kc_runners;		/* runner threads in the pool */
static unsigned int kc_idle;		/* of them, looking for a queue */
static unsigned int kc_sleeping;	/* of those, asleep */
static unsigned int kc_target;		/* busy runners wanted: the host's CPUs */
static __thread struct kc_kthread *kc_current_kthread;
static __thread struct kc_runner *kc_current_runner;

static struct kc_kthread *to_kthread(struct task_struct *t)
{
	return (struct kc_kthread *)t;
}

static void futex_wait(_Atomic unsigned int *word, unsigned int val)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(_Atomic unsigned int *word, int n)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

/* The last task_struct reference (get_task_struct(): kthread_common.c) frees the kthread. */
void put_task_struct(struct task_struct *t)
{
	if (atomic_dec_and_test(&t->usage))
		free(to_kthread(t));
}

/* Under kc_rq_lock from here to kick(). */
static void ready_push(struct kc_rq *q)
{
	q->ready = true;
	q->next_ready = NULL;
	if (kc_ready_tail)
		kc_ready_tail->next_ready = q;
	else
		kc_ready_head = q;
	kc_ready_tail = q;
	atomic_fetch_add_explicit(&kc_nr_ready, 1, memory_order_relaxed);
}

static struct kc_rq *ready_pop(void)
{
	struct kc_rq *q = kc_ready_head;

	kc_ready_head = q->next_ready;
	if (!kc_ready_head)
		kc_ready_tail = NULL;
	q->ready = false;
	atomic_fetch_sub_explicit(&kc_nr_ready, 1, memory_order_relaxed);
	return q;
}

static void *runner_main(void *arg);

/* One more runner thread, counted idle; false when none can be made. */
static bool runner_spawn(void)
{
	struct kc_runner *r = calloc(1, sizeof(*r));
	pthread_attr_t attr;
	pthread_t th;
	int err;

	if (!r)
		return false;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, KC_RUNNER_STACK);
	kc_runners++;
	kc_idle++;
	err = pthread_create(&th, &attr, runner_main, r);
	pthread_attr_destroy(&attr);
	if (err) {
		kc_runners--;
		kc_idle--;
		free(r);
		return false;
	}
	return true;
}

/*
 * A queue is ready: make sure a runner comes for it. A runner awake and
 * idle will; else wake a sleeping one, or make one, while fewer than
 * kc_target are busy (the busy ones take it when they are done). The
 * runner to wake is returned: the caller wakes it after unlocking
 * kc_rq_lock (wake()), so that it does not wake only to wait for the lock.
 */
static struct kc_runner *kick(void)
{
	struct kc_runner *r;

	if (!kc_ready_head || kc_idle > kc_sleeping || kc_runners - kc_idle >= kc_target)
		return NULL;
	r = kc_sleepers;
	if (r) {
		kc_sleepers = r->next_sleeper;
		kc_sleeping--;
		atomic_store_explicit(&r->asleep, 0, memory_order_release);
		return r;
	}
	if (!runner_spawn() && !kc_runners) {
		fprintf(stderr, "kunit: no thread can be made to run kthreads\n");
		abort();
	}
	return NULL;
}

/* After kick(), kc_rq_lock released (a runner's struct is never freed). */
static void wake(struct kc_runner *r)
{
	if (r)
		futex_wake(&r->asleep, 1);
}

static struct kc_runner *rq_add(struct kc_kthread *k)
{
	struct kc_rq *q = &kc_rqs[k->cpu >= 0 ? (unsigned int)k->cpu : KC_RQ_ANY];

	k->state = KC_K_QUEUED;
	k->next = NULL;
	if (q->tail)
		q->tail->next = k;
	else
		q->head = k;
	q->tail = k;
	if (q->claimed || q->ready)
		return NULL;
	ready_push(q);
	return kick();
}

/* Take @k off its queue (a stop before any runner took it). */
static void rq_del(struct kc_kthread *k)
{
	struct kc_rq *q = &kc_rqs[k->cpu >= 0 ? (unsigned int)k->cpu : KC_RQ_ANY];
	struct kc_kthread **pp = &q->head, *prev = NULL;

	while (*pp != k) {
		prev = *pp;
		pp = &(*pp)->next;
	}
	*pp = k->next;
	if (q->tail == k)
		q->tail = prev;
}

/* A runner lets its vCPU's queue go: the next runner may take it. */
static void rq_release(struct kc_runner *r)
{
	struct kc_rq *q = r->rq;

	r->rq = NULL;
	q->claimed = false;
	if (q->head && !q->ready)
		ready_push(q);
}

/* Nothing ready: spin briefly, then sleep until kick() picks us. */
static void runner_wait(struct kc_runner *r)
{
	unsigned int i;

	pthread_mutex_unlock(&kc_rq_lock);
	for (i = 0; i < KC_RUNNER_SPIN; i++) {
		if (atomic_load_explicit(&kc_nr_ready, memory_order_relaxed))
			break;
		ck_pr_stall();
	}
	pthread_mutex_lock(&kc_rq_lock);
	if (kc_ready_head)
		return;
	atomic_store_explicit(&r->asleep, 1, memory_order_relaxed);
	r->next_sleeper = kc_sleepers;
	kc_sleepers = r;
	kc_sleeping++;
	pthread_mutex_unlock(&kc_rq_lock);
	while (atomic_load_explicit(&r->asleep, memory_order_acquire))
		futex_wait(&r->asleep, 1);
	pthread_mutex_lock(&kc_rq_lock);
}

static void kthread_done(struct kc_kthread *k, int result)
{
	k->result = result;
	/* seq_cst: either the stopper sees it done, or we see the stopper waiting. */
	atomic_store_explicit(&k->exited, 1, memory_order_seq_cst);
	if (atomic_load_explicit(&k->stop_waiters, memory_order_seq_cst))
		futex_wake(&k->exited, INT_MAX);
	put_task_struct(&k->task);	/* the thread's own reference */
}

/*
 * Run @k as its CPU. A kthread bound to a CPU holds its vCPU for its whole
 * run, as the kernel runs it: its per-CPU adds are plain ones, and it lets
 * the vCPU go around its sleeps. An unbound one takes CPU 0 around each
 * per-CPU operation.
 */
static void kthread_exec(struct kc_kthread *k)
{
	int ret = -EINTR;

	kc_current_kthread = k;
	/* A stop that came before the run keeps the function from running. */
	if (!atomic_load_explicit(&k->should_stop, memory_order_acquire)) {
		kc_set_cpu(k->cpu >= 0 ? (unsigned int)k->cpu : 0);
		if (k->cpu >= 0)
			kc_cpu_hold();
		ret = k->fn(k->data);
		kc_cpu_unhold();
	}
	kc_current_kthread = NULL;
	kthread_done(k, ret);
}

static void *runner_main(void *arg)
{
	struct kc_runner *r = arg, *r2;
	struct kc_kthread *k;
	struct kc_rq *q;

	kc_current_runner = r;
	pthread_mutex_lock(&kc_rq_lock);
	for (;;) {
		/* Idle (counted in kc_idle) until a queue is ready. */
		while (!kc_ready_head)
			runner_wait(r);
		q = ready_pop();
		k = q->head;
		if (!k)		/* emptied by kthread_stop() */
			continue;
		q->head = k->next;
		if (!q->head)
			q->tail = NULL;
		q->claimed = true;
		k->state = KC_K_TAKEN;
		r->rq = q;
		kc_idle--;
		r2 = kick();	/* more ready queues: another runner */
		pthread_mutex_unlock(&kc_rq_lock);
		wake(r2);

		kthread_exec(k);

		pthread_mutex_lock(&kc_rq_lock);
		if (r->rq)
			rq_release(r);
		else		/* it slept and we left the pool: back in it */
			kc_runners++;
		kc_idle++;
	}
	return NULL;
}

/*
 * The calling kthread is about to sleep or to poll: its runner leaves the
 * pool, and the rest of its vCPU's queue goes to another runner. Once per
 * run; it joins again when the kthread is done.
 */
void kc_kthread_block(void)
{
	struct kc_runner *r = kc_current_runner;

	if (!r || !kc_current_kthread || !r->rq)
		return;
	pthread_mutex_lock(&kc_rq_lock);
	rq_release(r);
	kc_runners--;
	r = kick();
	pthread_mutex_unlock(&kc_rq_lock);
	wake(r);
}

void kc_kthread_unblock(void)
{
}

/* A failed KUnit assertion in a kthread ends it: it exits as killed. */
void kc_kthread_abort(void)
{
	struct kc_kthread *k = kc_current_kthread;

	kc_cpu_unhold();
	if (!k)
		return;
	kc_kthread_block();	/* its thread ends (pthread_exit()): out of the pool */
	kc_current_kthread = NULL;
	kc_current_runner = NULL;
	kthread_done(k, -EINTR);
	/* @r is not freed: a kick() may have picked it and wake it still. */
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
	atomic_set(&k->task.usage, 1);
	k->task.flags = PF_KTHREAD;
	return &k->task;
}

static void runners_init(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	kc_target = n < 1 ? 1 : n > KC_RUNNERS_MAX ? KC_RUNNERS_MAX : (unsigned int)n;
}

int wake_up_process(struct task_struct *p)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	struct kc_kthread *k = to_kthread(p);
	struct kc_runner *r = NULL;
	int woke;

	pthread_once(&once, runners_init);
	pthread_mutex_lock(&kc_rq_lock);
	woke = !k->woken;
	k->woken = true;
	if (k->state == KC_K_CREATED)	/* not stopped, not queued yet */
		r = rq_add(k);
	pthread_mutex_unlock(&kc_rq_lock);
	wake(r);
	return woke;
}

void kthread_bind(struct task_struct *p, unsigned int cpu)
{
	struct kc_kthread *k = to_kthread(p);

	pthread_mutex_lock(&kc_rq_lock);
	if (!k->woken)
		k->cpu = (int)cpu;
	pthread_mutex_unlock(&kc_rq_lock);
}

/* Wait until @k is done: spin briefly, then sleep on its exited word. */
static void kthread_wait_done(struct kc_kthread *k)
{
	unsigned int i;

	for (i = 0; i < KC_RUNNER_SPIN; i++) {
		if (atomic_load_explicit(&k->exited, memory_order_acquire))
			return;
		ck_pr_stall();
	}
	kc_kthread_block();
	/* seq_cst: either kthread_done() sees us waiting, or we see it done. */
	atomic_fetch_add_explicit(&k->stop_waiters, 1, memory_order_seq_cst);
	while (!atomic_load_explicit(&k->exited, memory_order_seq_cst))
		futex_wait(&k->exited, 0);
	atomic_fetch_sub_explicit(&k->stop_waiters, 1, memory_order_relaxed);
	kc_kthread_unblock();
}

/* Stop @k (never run if no runner took it yet) and wait for it: its result. */
int kthread_stop(struct task_struct *p)
{
	struct kc_kthread *k = to_kthread(p);
	bool end_here = false, held;
	int ret;

	get_task_struct(p);
	pthread_mutex_lock(&kc_rq_lock);
	atomic_store_explicit(&k->should_stop, true, memory_order_release);
	if (k->state != KC_K_TAKEN) {	/* never woken, or still queued */
		if (k->state == KC_K_QUEUED)
			rq_del(k);
		k->state = KC_K_TAKEN;
		end_here = true;
	}
	pthread_mutex_unlock(&kc_rq_lock);
	if (end_here)
		kthread_done(k, -EINTR);
	held = kc_cpu_held;
	kc_cpu_unhold();
	kthread_wait_done(k);
	ret = k->result;
	if (held)
		kc_cpu_hold();
	put_task_struct(p);
	return ret;
}

/* kthread_should_stop() (kthread_common.c) for this path. */
bool kc_kthread_poll_stop(void)
{
	struct kc_kthread *k = kc_current_kthread;

	if (!k)
		return false;
	/* A polling kthread runs until stopped: its queue goes on without it. */
	kc_kthread_block();
	kc_cpu_preempt();	/* and its vCPU's waiters run */
	return atomic_load_explicit(&k->should_stop, memory_order_acquire);
}
#endif /* !KC_HANDOFF_OLD */
