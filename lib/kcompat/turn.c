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
 */
#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <ck_backoff.h>
#include <kcompat/turn.h>

/*
 * Backoff rounds before yielding (2^9 compiler barriers), then yields
 * before sleeping (docs/bench.md: a longer spin keeps a core from the
 * thread the turn waits for).
 */
#define KC_TURN_SPIN_ROUNDS	1
#define KC_TURN_YIELDS		8

int kc_turn_init(struct kc_turn *t, unsigned int n)
{
	if (!n || n == KC_TURN_NONE)
		return -EINVAL;
	t->slot = calloc(n, sizeof(*t->slot));
	if (!t->slot)
		return -ENOMEM;
	t->n = n;
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

#ifdef KC_HANDOFF_OLD
const char *kc_handoff_build(void)
{
	return "broadcast";
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
const char *kc_handoff_build(void)
{
	return "spin";
}

void kc_turn_wait_spin(struct kc_turn *t, unsigned int id, unsigned int rounds)
{
	struct kc_turn_slot *s = &t->slot[id];
	ck_backoff_t backoff = CK_BACKOFF_INITIALIZER;
	unsigned int round, seen;

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

	atomic_store_explicit(&t->holder, to, memory_order_seq_cst);
	if (atomic_load_explicit(&s->asleep, memory_order_seq_cst)) {
		atomic_fetch_add_explicit(&s->seq, 1, memory_order_relaxed);
		syscall(SYS_futex, &s->seq, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	}
}
#endif
