// SPDX-License-Identifier: GPL-2.0
/*
 * Turn passing (kcompat/turn.h). A waiter spins a round of Concurrency
 * Kit's backoff (ck_backoff_eb(): no system call; a pass from a thread
 * running on another core lands within it), then yields its core a few
 * times (sched_yield(): with more threads than cores the next holder is
 * mostly waiting for a core, and a yield hands it ours without the
 * futex sleep and wake a pass would otherwise cost both sides), then
 * sleeps on its own slot's futex word. A pass stores the new holder and
 * wakes that one thread, and only when it sleeps: the other waiters do not
 * run at all (the mutex and condition broadcast it replaces woke every
 * waiter at every pass, each to find the turn was not its own).
 *
 * -DKC_HANDOFF_OLD builds that mutex and broadcast instead, so that a
 * benchmark measures both side by side (bench/handoff).
 *
 * kc_turn_run()'s fibers: only one participant ever runs, so with more
 * participants than cores nearly every pass between threads was a
 * context switch in the kernel. As fibers on the caller's thread a pass
 * is a store, and a wait for a turn another holds switches to that
 * holder's stack (kcompat/ctx.h: the registers a call keeps, no system
 * call). Not where a sanitizer runs: it would have to be told of every
 * switch, and ThreadSanitizer is to see the threads' acquire and release.
 */
#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <ck_backoff.h>
#include <kcompat/ctx.h>
#include <kcompat/turn.h>

/*
 * Backoff rounds before yielding (2^9 compiler barriers), then yields
 * before sleeping (docs/bench.md: a longer spin keeps a core from the
 * thread the turn waits for).
 */
#define KC_TURN_SPIN_ROUNDS	1
#define KC_TURN_YIELDS		8

bool kc_turn_use_threads;

int kc_turn_init(struct kc_turn *t, unsigned int n)
{
	if (!n || n == KC_TURN_NONE)
		return -EINVAL;
	t->slot = calloc(n, sizeof(*t->slot));
	if (!t->slot)
		return -ENOMEM;
	t->n = n;
	t->fiber = NULL;
	atomic_init(&t->holder, KC_TURN_NONE);
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->cond, NULL);
	return 0;
}

void kc_turn_destroy(struct kc_turn *t)
{
	pthread_cond_destroy(&t->cond);
	pthread_mutex_destroy(&t->lock);
	free(t->slot);
	t->slot = NULL;
}

void kc_turn_wait(struct kc_turn *t, unsigned int id)
{
	kc_turn_wait_spin(t, id, KC_TURN_SPIN_ROUNDS);
}

/* Threads: all made before slot 0 gets the turn, so the order is fixed. */
static int turn_run_threads(struct kc_turn *t, void *(*fn)(void *), void *const *args,
			    unsigned int *nr)
{
	pthread_t *th = calloc(t->n, sizeof(*th));
	unsigned int i, made = 0;

	if (th)
		while (made < t->n && !pthread_create(&th[made], NULL, fn, args[made]))
			made++;
	*nr = made;
	if (made)
		kc_turn_pass(t, 0);
	for (i = 0; i < made; i++)
		pthread_join(th[i], NULL);
	free(th);
	return made == t->n ? 0 : -ENOMEM;
}

#ifdef KC_HANDOFF_OLD
const char *kc_handoff_build(void)
{
	return "broadcast";
}

bool kc_turn_fibers(void)
{
	return false;
}

int kc_turn_run(struct kc_turn *t, void *(*fn)(void *), void *const *args, unsigned int *nr)
{
	return turn_run_threads(t, fn, args, nr);
}

void kc_turn_wait_spin(struct kc_turn *t, unsigned int id, unsigned int rounds)
{
	pthread_mutex_lock(&t->lock);
	while (atomic_load_explicit(&t->holder, memory_order_relaxed) != id)
		pthread_cond_wait(&t->cond, &t->lock);
	pthread_mutex_unlock(&t->lock);
}

void kc_turn_pass(struct kc_turn *t, unsigned int to)
{
	pthread_mutex_lock(&t->lock);
	atomic_store_explicit(&t->holder, to, memory_order_relaxed);
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
}
#else
/* A fiber's stack: a thread's default would be 8 MiB (only what is touched is memory). */
#define KC_TURN_STACK	(1024 * 1024)

struct kc_turn_fiber {
	struct xp_ctx ctx;
	struct kc_turn *t;
	void *(*fn)(void *);
	void *arg;
	void *stack;
	bool started, done;
};

/* kc_turn_run()'s fibers: t->fiber points at f[0]. */
struct kc_turn_fibers {
	struct xp_ctx host;		/* kc_turn_run()'s caller */
	unsigned int live;		/* participants not yet returned */
	struct kc_turn_fiber f[];
};

/* The fiber a switch starts: read at its first instructions. */
static __thread struct kc_turn_fiber *kc_turn_starting;

const char *kc_handoff_build(void)
{
	return "spin";
}

bool kc_turn_fibers(void)
{
	return !kc_turn_use_threads && xp_ctx_asm_available();
}

static struct kc_turn_fibers *turn_fibers(struct kc_turn *t)
{
	return (struct kc_turn_fibers *)((char *)t->fiber - offsetof(struct kc_turn_fibers, f));
}

/* Leave @from (a fiber, or the caller) for the fiber that holds the turn. */
static void turn_fiber_switch(struct kc_turn *t, struct xp_ctx *from)
{
	unsigned int h = atomic_load_explicit(&t->holder, memory_order_relaxed);
	struct kc_turn_fiber *to = h < t->n ? &t->fiber[h] : NULL;

	if (!to || to->done) {
		/* Threads would wait here forever. */
		fprintf(stderr, "kc_turn: slot %u holds the turn but has returned (or is none) "
			"while others wait for it\n", h);
		abort();
	}
	if (!to->started) {
		to->started = true;
		kc_turn_starting = to;
	}
	xp_ctx_switch(from, &to->ctx);
}

static void turn_fiber_main(void)
{
	struct kc_turn_fiber *f = kc_turn_starting;
	struct kc_turn *t = f->t;
	struct kc_turn_fibers *fs = turn_fibers(t);

	f->fn(f->arg);
	f->done = true;
	if (!--fs->live)
		xp_ctx_switch(&f->ctx, &fs->host);
	else
		turn_fiber_switch(t, &f->ctx);
	/* A returned fiber is never switched to again. */
	abort();
}

static int turn_run_fibers(struct kc_turn *t, void *(*fn)(void *), void *const *args,
			   unsigned int *nr)
{
	struct kc_turn_fibers *fs = calloc(1, sizeof(*fs) + t->n * sizeof(fs->f[0]));
	unsigned int i, made = 0;
	int ret = -ENOMEM;

	*nr = 0;
	if (!fs)
		return -ENOMEM;
	for (; made < t->n; made++) {
		struct kc_turn_fiber *f = &fs->f[made];

		f->stack = xp_ctx_stack_alloc(KC_TURN_STACK);
		if (!f->stack)
			goto out;
		f->t = t;
		f->fn = fn;
		f->arg = args[made];
		xp_ctx_make(&f->ctx, f->stack, KC_TURN_STACK, turn_fiber_main);
	}
	*nr = t->n;
	fs->live = t->n;
	t->fiber = fs->f;
	atomic_store_explicit(&t->holder, 0, memory_order_relaxed);
	turn_fiber_switch(t, &fs->host);
	t->fiber = NULL;
	ret = 0;
out:
	for (i = 0; i < made; i++)
		xp_ctx_stack_free(fs->f[i].stack, KC_TURN_STACK);
	free(fs);
	return ret;
}

int kc_turn_run(struct kc_turn *t, void *(*fn)(void *), void *const *args, unsigned int *nr)
{
	if (kc_turn_fibers())
		return turn_run_fibers(t, fn, args, nr);
	return turn_run_threads(t, fn, args, nr);
}

void kc_turn_wait_spin(struct kc_turn *t, unsigned int id, unsigned int rounds)
{
	struct kc_turn_slot *s = &t->slot[id];
	ck_backoff_t backoff = CK_BACKOFF_INITIALIZER;
	unsigned int round, seen;

	if (t->fiber) {
		if (atomic_load_explicit(&t->holder, memory_order_relaxed) != id)
			turn_fiber_switch(t, &t->fiber[id].ctx);
		return;
	}
	for (round = 0; round < rounds; round++) {
		if (atomic_load_explicit(&t->holder, memory_order_acquire) == id)
			return;
		ck_backoff_eb(&backoff);
	}
	/* A waiter that would spin yields too (0 rounds: sleep at once). */
	for (round = 0; rounds && round < KC_TURN_YIELDS; round++) {
		if (atomic_load_explicit(&t->holder, memory_order_acquire) == id)
			return;
		sched_yield();
	}
	for (;;) {
		seen = atomic_load_explicit(&s->seq, memory_order_relaxed);
		/* seq_cst: either the passer sees us asleep, or we see its pass. */
		atomic_store_explicit(&s->asleep, 1, memory_order_seq_cst);
		if (atomic_load_explicit(&t->holder, memory_order_seq_cst) == id)
			break;
		syscall(SYS_futex, &s->seq, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
	}
	atomic_store_explicit(&s->asleep, 0, memory_order_relaxed);
}

void kc_turn_pass(struct kc_turn *t, unsigned int to)
{
	struct kc_turn_slot *s = &t->slot[to];

	if (t->fiber) {
		/* The next wait switches to it. */
		atomic_store_explicit(&t->holder, to, memory_order_relaxed);
		return;
	}
	atomic_store_explicit(&t->holder, to, memory_order_seq_cst);
	if (atomic_load_explicit(&s->asleep, memory_order_seq_cst)) {
		atomic_fetch_add_explicit(&s->seq, 1, memory_order_relaxed);
		syscall(SYS_futex, &s->seq, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	}
}
#endif
