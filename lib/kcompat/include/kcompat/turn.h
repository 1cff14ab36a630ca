/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A turn passed between threads in a fixed order (lib/kcompat/turn.c):
 * exactly one thread holds the turn; it passes it to a named thread.
 * Waiting for the turn is an acquire of the turn word and passing it a
 * release, so ThreadSanitizer sees what the holders share as ordered.
 *
 * kc_turn_run() starts the participants itself: where kcompat's fiber
 * switch exists and no sanitizer runs (kcompat/ctx.h) they are fibers on
 * the caller's thread, and a wait for a turn another holds switches
 * straight to that holder, no system call; elsewhere they are threads.
 *
 * The layout is the same in both builds of turn.c (the default and
 * -DKC_HANDOFF_OLD, the mutex and broadcast it replaced), so that one
 * object file may be linked against either.
 */
#ifndef _KCOMPAT_TURN_H
#define _KCOMPAT_TURN_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

/* No thread holds the turn yet (kc_turn_init()). */
#define KC_TURN_NONE	(~0U)

struct kc_turn_slot {
	_Atomic unsigned int seq;	/* futex word: bumped by a pass to this slot */
	_Atomic unsigned int asleep;	/* the slot's thread sleeps on seq */
} __attribute__((aligned(64)));

struct kc_turn_fiber;

struct kc_turn {
	_Atomic unsigned int holder;	/* slot index, or KC_TURN_NONE */
	unsigned int n;
	struct kc_turn_slot *slot;
	struct kc_turn_fiber *fiber;	/* kc_turn_run()'s fibers, or NULL */
	pthread_mutex_t lock;		/* -DKC_HANDOFF_OLD only */
	pthread_cond_t cond;
};

/* @n slots, nobody holding: 0 or -ENOMEM / -EINVAL. */
int kc_turn_init(struct kc_turn *t, unsigned int n);
void kc_turn_destroy(struct kc_turn *t);
/* Return once slot @id holds the turn. */
void kc_turn_wait(struct kc_turn *t, unsigned int id);
/* The same with @rounds of backoff, then a few yields, before sleeping (0: sleep at once). */
void kc_turn_wait_spin(struct kc_turn *t, unsigned int id, unsigned int rounds);
/* Give the turn to slot @to (the holder, or anyone while nobody holds it). */
void kc_turn_pass(struct kc_turn *t, unsigned int to);
/*
 * Run @fn(@args[i]) as slot i's participant for each of the turn's slots,
 * slot 0 holding the turn first; return once every one has returned.
 * *@nr, written before slot 0 runs, is how many take part: fewer than the
 * slots only when a thread could not be created (then -ENOMEM once those
 * have run) or a fiber's stack not mapped (then 0: none runs, -ENOMEM).
 * A participant must not return holding the turn while others wait for
 * it (with threads that waits forever; with fibers it is reported and
 * aborts).
 */
int kc_turn_run(struct kc_turn *t, void *(*fn)(void *), void *const *args, unsigned int *nr);
/* kc_turn_run() makes threads even where fibers exist (tests, benchmarks). */
extern bool kc_turn_use_threads;
/* True when kc_turn_run() runs fibers (neither the threads above nor a build without the switch). */
bool kc_turn_fibers(void);
/* "spin" or "broadcast": which build this is (benchmark output). */
const char *kc_handoff_build(void);

#endif /* _KCOMPAT_TURN_H */
