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
 * A waiter that is no kthread (the case's thread in wait_event() or
 * kthread_stop()) runs ready kthreads itself rather than sleep, each on a
 * stack of its own (a fiber: kcompat/ctx.h, no system call), so
 * that a case that wakes one kthread and waits for it costs no context
 * switch. Such a waiter's wake_up_process() wakes no runner: the kthread
 * waits for the waiter, for a runner that comes for the rest of the
 * queues, or for an idle runner's periodic look (KC_RUNNER_LOOK_NS). The
 * fiber comes back to its waiter at its end, at each wake_up() (parked:
 * the waiter or a runner resumes it) and where it would sleep or poll
 * kthread_should_stop() (blocked: a runner takes it over and it sleeps
 * there). It carries its CPU and its vCPU hold across a switch, never a
 * vCPU held while off a thread. Only where the switch of our own exists and no
 * sanitizer runs (they are told of no such switch): elsewhere waiters
 * sleep as before.
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
#include <kcompat/ctx.h>
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
/*
 * With fibers, how often an idle runner looks for work nobody woke it
 * for (a waiter's deferred queues, a parked fiber its waiter left).
 */
#define KC_RUNNER_LOOK_NS	(10 * 1000 * 1000)
/* A fiber's stack, above a guard page. */
#define KC_FIBER_STACK	(256 * 1024)

enum kc_kstate { KC_K_CREATED, KC_K_QUEUED, KC_K_TAKEN };
/* Why a fiber gave its thread back. */
enum kc_fwhy { KC_F_EXIT, KC_F_PARK, KC_F_BLOCK };

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

/* A kthread run by a waiter, on a stack of its own. */
struct kc_fiber {
	struct xp_ctx self, host;	/* its context off a thread; the thread's */
	void *stack;			/* above a guard page (xp_ctx_stack_alloc()) */
	struct kc_kthread *k;
	struct kc_runner *runner;	/* the runner that took it over, or NULL */
	struct kc_rq *rq;		/* the queue it claims, until it blocks */
	enum kc_fwhy why;
	unsigned int cpu;		/* kc_cpu and the hold, across a switch */
	bool held;
	struct kc_fiber *next;		/* parked, blocked or free list */
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
/* Fibers, under kc_rq_lock: parked at a wake-up, blocked (for a runner), stacks to reuse. */
static struct kc_fiber *kc_parked, *kc_blocked, *kc_spare;
static __thread struct kc_kthread *kc_current_kthread;
static __thread struct kc_runner *kc_current_runner;
static __thread struct kc_fiber *kc_current_fiber, *kc_fiber_start;

static struct kc_kthread *to_kthread(struct task_struct *t)
{
	return (struct kc_kthread *)t;
}

static void futex_wait(_Atomic unsigned int *word, unsigned int val)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wait_look(_Atomic unsigned int *word, unsigned int val)
{
	struct timespec ts = { 0, KC_RUNNER_LOOK_NS };

	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, &ts, NULL, 0);
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
 * kc_target are busy (the busy ones take it when they are done); a
 * blocked fiber has no thread at all: it gets one whatever the count.
 * The runner to wake is returned: the caller wakes it after unlocking
 * kc_rq_lock (wake()), so that it does not wake only to wait for the lock.
 */
static struct kc_runner *kick(void)
{
	struct kc_runner *r;

	if ((!kc_ready_head && !kc_blocked) || kc_idle > kc_sleeping)
		return NULL;
	if (!kc_blocked && kc_runners - kc_idle >= kc_target)
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

/* Waiters run kthreads on fibers: our own switch, no sanitizer (ctx.c). */
static bool fibers(void)
{
	return xp_ctx_asm_available();
}

/* @defer: queue it for the waiting caller, no runner woken (a look will come). */
static struct kc_runner *rq_add(struct kc_kthread *k, bool defer)
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
	if (!defer)
		return kick();
	if (!kc_runners)	/* one to look, should the caller not wait */
		runner_spawn();
	return NULL;
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

/* A vCPU's queue is let go: the next runner may take it. */
static void rq_let_go(struct kc_rq *q)
{
	q->claimed = false;
	if (q->head && !q->ready)
		ready_push(q);
}

static void rq_release(struct kc_runner *r)
{
	struct kc_rq *q = r->rq;

	r->rq = NULL;
	rq_let_go(q);
}

/* Under kc_rq_lock: something a runner may take. */
static bool runner_has_work(void)
{
	return kc_ready_head || kc_blocked || kc_parked;
}

static void sleeper_remove(struct kc_runner *r)
{
	struct kc_runner **pp = &kc_sleepers;

	while (*pp != r)
		pp = &(*pp)->next_sleeper;
	*pp = r->next_sleeper;
	kc_sleeping--;
	atomic_store_explicit(&r->asleep, 0, memory_order_relaxed);
}

/*
 * Nothing ready: spin briefly, then sleep until kick() picks us; with
 * fibers, look every KC_RUNNER_LOOK_NS for what nobody woke us for.
 */
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
	if (runner_has_work())
		return;
	atomic_store_explicit(&r->asleep, 1, memory_order_relaxed);
	r->next_sleeper = kc_sleepers;
	kc_sleepers = r;
	kc_sleeping++;
	pthread_mutex_unlock(&kc_rq_lock);
	for (;;) {
		if (!fibers()) {
			futex_wait(&r->asleep, 1);
		} else {
			futex_wait_look(&r->asleep, 1);
			pthread_mutex_lock(&kc_rq_lock);
			if (atomic_load_explicit(&r->asleep, memory_order_relaxed) && runner_has_work())
				sleeper_remove(r);
			if (!atomic_load_explicit(&r->asleep, memory_order_relaxed))
				return;
			pthread_mutex_unlock(&kc_rq_lock);
		}
		if (!atomic_load_explicit(&r->asleep, memory_order_acquire))
			break;
	}
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

/*
 * Fibers. No thread-local address may be kept across a switch (the
 * fiber may come back on another thread): what the kthread's thread
 * state is, is set again after every switch, here, from the fiber.
 */

/* On the fiber, after any switch onto a thread: the thread runs its kthread. */
static __attribute__((__noinline__)) void fiber_enter(struct kc_fiber *f)
{
	kc_current_fiber = f;
	kc_current_kthread = f->k;
	kc_current_runner = f->runner;
	kc_set_cpu(f->cpu);
	if (f->held)
		kc_cpu_hold();
}

/* On the fiber: the thread back to its host, until resumed (never after KC_F_EXIT). */
static __attribute__((__noinline__)) void fiber_leave(struct kc_fiber *f, enum kc_fwhy why)
{
	f->held = kc_cpu_held;
	kc_cpu_unhold();
	f->cpu = kc_cpu;
	f->why = why;
	xp_ctx_switch(&f->self, &f->host);
	fiber_enter(f);
}

static void fiber_main(void)
{
	struct kc_fiber *f = kc_fiber_start;

	fiber_enter(f);
	kthread_exec(f->k);
	fiber_leave(f, KC_F_EXIT);
	abort();	/* never resumed */
}

/*
 * On a thread holding no vCPU: run @f until it gives the thread back
 * (@r: the runner that took it over, or NULL on a waiter); the thread's
 * own state comes back with it.
 */
static __attribute__((__noinline__)) enum kc_fwhy fiber_run(struct kc_fiber *f, struct kc_runner *r)
{
	unsigned int cpu = kc_cpu;

	f->runner = r;
	kc_fiber_start = f;
	xp_ctx_switch(&f->host, &f->self);
	kc_current_fiber = NULL;
	kc_current_kthread = NULL;
	kc_current_runner = r;
	kc_set_cpu(cpu);
	return f->why;
}

/* Under kc_rq_lock: a fiber to start @k on, its stack reused if one is spare. */
static struct kc_fiber *fiber_get(struct kc_kthread *k)
{
	struct kc_fiber *f = kc_spare;

	if (f) {
		kc_spare = f->next;
	} else {
		f = calloc(1, sizeof(*f));
		if (!f)
			return NULL;
		f->stack = xp_ctx_stack_alloc(KC_FIBER_STACK);
		if (!f->stack) {
			free(f);
			return NULL;
		}
	}
	f->k = k;
	f->cpu = k->cpu >= 0 ? (unsigned int)k->cpu : 0;
	f->held = false;
	xp_ctx_make(&f->self, f->stack, KC_FIBER_STACK, fiber_main);
	return f;
}

/* Under kc_rq_lock: its kthread is done, its stack spare. */
static void fiber_put(struct kc_fiber *f)
{
	f->k = NULL;
	f->rq = NULL;
	f->next = kc_spare;
	kc_spare = f;
}

/*
 * A waiter that is no kthread runs a parked fiber (@want's first) or the
 * next ready kthread on a fiber of its own instead of sleeping: true if
 * it ran one, false when there is nothing a waiter may run.
 */
static bool waiter_help(struct kc_kthread *want)
{
	struct kc_runner *r = NULL;
	struct kc_fiber *f, **pp;
	struct kc_kthread *k;
	enum kc_fwhy why;
	struct kc_rq *q;

	if (kc_current_kthread || kc_current_runner || !fibers())
		return false;
	pthread_mutex_lock(&kc_rq_lock);
	for (pp = &kc_parked; *pp && (*pp)->k != want; pp = &(*pp)->next)
		;
	if (!*pp)
		pp = &kc_parked;	/* @want is not parked: the first that is */
	f = *pp;
	if (f) {
		*pp = f->next;
	} else {
		if (!kc_ready_head) {
			pthread_mutex_unlock(&kc_rq_lock);
			return false;
		}
		q = ready_pop();
		k = q->head;
		if (!k || !(f = fiber_get(k))) {	/* emptied by kthread_stop(); or no memory */
			if (k)
				ready_push(q);
			pthread_mutex_unlock(&kc_rq_lock);
			return !k;
		}
		q->head = k->next;
		if (!q->head)
			q->tail = NULL;
		q->claimed = true;
		k->state = KC_K_TAKEN;
		f->rq = q;
		r = kick();	/* more ready queues: a runner for them */
	}
	pthread_mutex_unlock(&kc_rq_lock);
	wake(r);

	why = fiber_run(f, NULL);

	r = NULL;
	pthread_mutex_lock(&kc_rq_lock);
	if (why == KC_F_PARK) {		/* keeps its queue; the waiter or a runner resumes it */
		f->next = kc_parked;
		kc_parked = f;
		if (!kc_runners)
			runner_spawn();
	} else {
		if (f->rq)
			rq_let_go(f->rq);
		f->rq = NULL;
		if (why == KC_F_BLOCK) {	/* a runner takes it over; it sleeps there */
			f->next = kc_blocked;
			kc_blocked = f;
			r = kick();
		} else {
			fiber_put(f);
		}
	}
	pthread_mutex_unlock(&kc_rq_lock);
	wake(r);
	return true;
}

/* kc_wait_sleep()'s: run something rather than sleep (kthread_int.h). */
bool kc_kthread_help(void)
{
	return waiter_help(NULL);
}

/* After a wake_up(): a fiber on a waiter gives it back, whose wait may be over. */
void kc_kthread_woke(void)
{
	struct kc_fiber *f = kc_current_fiber;

	if (f && !f->runner)
		fiber_leave(f, KC_F_PARK);
}

static void *runner_main(void *arg)
{
	struct kc_runner *r = arg, *r2;
	struct kc_kthread *k;
	struct kc_fiber *f;
	struct kc_rq *q;

	kc_current_runner = r;
	pthread_mutex_lock(&kc_rq_lock);
	for (;;) {
		/* Idle (counted in kc_idle) until a queue is ready. */
		while (!runner_has_work())
			runner_wait(r);
		/* A blocked fiber first (it has no thread), a parked one last. */
		f = kc_blocked;
		if (f)
			kc_blocked = f->next;
		else if (!kc_ready_head && (f = kc_parked))
			kc_parked = f->next;
		if (f) {
			kc_idle--;
			r->rq = f->rq;
			if (!r->rq)	/* blocked: out of the pool, as a runner whose kthread slept */
				kc_runners--;
			r2 = kick();
			pthread_mutex_unlock(&kc_rq_lock);
			wake(r2);
			fiber_run(f, r);	/* on a runner a fiber only ends */
			pthread_mutex_lock(&kc_rq_lock);
			fiber_put(f);
			goto done;
		}
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
done:
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
	struct kc_fiber *f = kc_current_fiber;

	if (f && !f->runner) {		/* on a waiter: on to a runner, to sleep there */
		fiber_leave(f, KC_F_BLOCK);
		return;
	}
	if (!kc_current_kthread) {	/* a waiter: runners for the queues it left ready */
		if (!fibers() || !atomic_load_explicit(&kc_nr_ready, memory_order_relaxed))
			return;
		pthread_mutex_lock(&kc_rq_lock);
		r = kick();
		pthread_mutex_unlock(&kc_rq_lock);
		wake(r);
		return;
	}
	if (!r || !r->rq)
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
	if (kc_current_fiber) {		/* the thread is not its own: only the fiber ends */
		kc_current_kthread = NULL;
		kthread_done(k, -EINTR);
		fiber_leave(kc_current_fiber, KC_F_EXIT);
		abort();	/* never resumed */
	}
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
		r = rq_add(k, fibers() && !kc_current_kthread && !kc_current_runner);
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

	do {
		if (atomic_load_explicit(&k->exited, memory_order_acquire))
			return;
	} while (waiter_help(k));
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
