// SPDX-License-Identifier: GPL-2.0
/*
 * Turn passing (lib/kcompat/turn.c): each thread runs only in its turn,
 * the turns come in the order they were passed, and every pass reaches
 * its thread, asleep or spinning. Bounded by turns, not by time: a lost
 * wake-up hangs the case and the runner's per-case limit fails it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <kcompat/turn.h>
#include "ktap.h"

#define NTHREADS	4
#define TURNS		3000	/* per thread */

static struct kc_turn turn;
static unsigned int expected;		/* plain: only the holder touches it */
static unsigned long turns_run;
static atomic_uint inside, overlaps, out_of_order;

static void *taker(void *arg)
{
	unsigned int id = (unsigned int)(long)arg, i;

	for (i = 0; i < TURNS; i++) {
		kc_turn_wait(&turn, id);
		if (atomic_exchange(&inside, 1))
			atomic_fetch_add(&overlaps, 1);
		if (expected != id)
			atomic_fetch_add(&out_of_order, 1);
		turns_run++;
		expected = (id + 1) % NTHREADS;
		atomic_store(&inside, 0);
		kc_turn_pass(&turn, expected);
	}
	return NULL;
}

static void turn_round_robin(struct kt *t)
{
	pthread_t th[NTHREADS];
	unsigned int i, made = 0;

	KT_ASSERT(t, !kc_turn_init(&turn, NTHREADS), "kc_turn_init");
	for (i = 0; i < NTHREADS; i++)
		if (!pthread_create(&th[i], NULL, taker, (void *)(long)i))
			made++;
	KT_ASSERT(t, made == NTHREADS, "created %u of %u threads", made, NTHREADS);
	expected = 0;
	kc_turn_pass(&turn, 0);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	kc_turn_destroy(&turn);
	KT_EXPECT_EQU(t, turns_run, (unsigned long)NTHREADS * TURNS);
	KT_EXPECT_EQU(t, atomic_load(&overlaps), 0);
	KT_EXPECT_EQU(t, atomic_load(&out_of_order), 0);
}

static void turn_init_bounds(struct kt *t)
{
	struct kc_turn bad;

	KT_EXPECT_EQ(t, kc_turn_init(&bad, 0), -EINVAL);
	KT_EXPECT_EQ(t, kc_turn_init(&bad, KC_TURN_NONE), -EINVAL);
}

static const struct kt_case cases[] = {
	KT_CASE(turn_round_robin),
	KT_CASE(turn_init_bounds),
};

KT_MAIN("kcompat_turn", cases)
