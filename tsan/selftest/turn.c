// SPDX-License-Identifier: GPL-2.0
/*
 * TSan self-test: the turn hand-off (lib/kcompat/turn.c), which orders
 * the fragmentation model's requesters.
 *
 * Correct form: the holder writes the shared word in its turn and passes
 * the turn; the second thread waits for the turn before its write: the
 * turn word's release and acquire order the two, so TSan is quiet, and
 * would not be if the spin or the futex sleep of kc_turn_wait() returned
 * without an acquire. Racy form: the intruder writes without waiting for
 * the turn (the handshake only orders it in time), so TSan must report it.
 */
#include <pthread.h>
#include <kcompat/turn.h>
#include "selftest.h"

#define PROG	"turn"

static struct kc_turn turn;
static long shared;
static int holder_done;

static void *holder(void *arg)
{
	kc_turn_wait(&turn, 0);
	shared++;
	kc_turn_pass(&turn, 1);
	st_flag_set(&holder_done);
	return NULL;
}

static void *intruder(void *arg)
{
#ifdef SELFTEST_RACY
	st_flag_wait(&holder_done, PROG);
#else
	kc_turn_wait(&turn, 1);
#endif
	shared++;
	return NULL;
}

int main(void)
{
	pthread_t a, b;

	if (kc_turn_init(&turn, 2))
		st_die(PROG, "init failed");
	pthread_create(&b, NULL, intruder, NULL);
	pthread_create(&a, NULL, holder, NULL);
	kc_turn_pass(&turn, 0);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	kc_turn_destroy(&turn);
	if (shared != 2)
		st_die(PROG, "writes lost");
	printf("%s (%s): two writes in turn order\n", PROG, ST_VARIANT);
	return 0;
}
