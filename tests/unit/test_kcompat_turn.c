// SPDX-License-Identifier: GPL-2.0
/*
 * Turn passing (lib/kcompat/turn.c): each thread runs only in its turn,
 * the turns come in the order they were passed, and every pass reaches
 * its thread, asleep or spinning. Bounded by turns, not by time: a lost
 * wake-up hangs the case and the runner's per-case limit fails it.
 * kc_turn_run() the same, with fibers and with threads.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
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

/* kc_turn_run()'s participants: slot ids, a drawn pass order, what they saw. */
#define RUN_N		5
#define RUN_SHARE	266	/* slot i takes (i + 1) shares of turns */
#define RUN_TURNS	(RUN_SHARE * RUN_N * (RUN_N + 1) / 2)

static unsigned int run_nr, run_log[RUN_TURNS], run_logged, run_left[RUN_N];
static unsigned int run_returned, run_bad_nr;
static pthread_t run_caller;
static atomic_uint run_other_thread;
static struct kt_rng run_rng;

static void run_reset(void)
{
	unsigned int i;

	kt_rng_seed(&run_rng, 42);
	for (i = 0; i < RUN_N; i++)
		run_left[i] = RUN_SHARE * (i + 1);
}

/* The next holder: drawn, skipping slots done (frag_model's way); KC_TURN_NONE at the end. */
static unsigned int run_next(void)
{
	unsigned int i, next = (unsigned int)kt_rng_below(&run_rng, RUN_N);

	for (i = 0; i < RUN_N; i++, next = (next + 1) % RUN_N)
		if (run_left[next])
			return next;
	return KC_TURN_NONE;
}

static void *run_participant(void *arg)
{
	unsigned int id = (unsigned int)(long)arg, next;
	/* A deep frame: a fiber's stack must hold what a thread's would. */
	volatile char deep[128 * 1024];
	bool more = true;

	deep[sizeof(deep) - 1] = (char)id;
	while (more) {
		kc_turn_wait(&turn, id);
		if (run_nr != RUN_N)
			run_bad_nr++;
		if (!pthread_equal(pthread_self(), run_caller))
			atomic_fetch_add(&run_other_thread, 1);
		run_log[run_logged++] = id;
		more = --run_left[id] > 0;
		/* Counted in the turn: a thread's count after its pass would race. */
		run_returned += !more;
		next = run_next();
		if (next != KC_TURN_NONE)
			kc_turn_pass(&turn, next);
	}
	return (void *)(long)deep[sizeof(deep) - 1];
}

/*
 * Every slot takes part, each turn goes to the slot it was passed to,
 * slots leave at uneven times, and kc_turn_run() returns once all have
 * returned: with fibers all on the caller's thread, with threads none.
 */
static void turn_run_one(struct kt *t, bool threads)
{
	static unsigned int want[RUN_TURNS];
	unsigned int i, n = 0, diff = 0;
	void *args[RUN_N];
	int ret;

	kc_turn_use_threads = threads;
	if (!threads && !kc_turn_fibers()) {
		kt_skip(t, "no fibers in this build (a sanitizer, or no switch of our own)");
		return;
	}
	/* The order the draws give, played first on this thread alone. */
	run_reset();
	for (i = 0; i != KC_TURN_NONE && n < RUN_TURNS; i = run_next()) {
		want[n++] = i;
		run_left[i]--;
	}
	KT_ASSERT(t, n == RUN_TURNS, "the model played %u turns", n);
	for (i = 0; i < RUN_N; i++)
		args[i] = (void *)(long)i;
	KT_ASSERT(t, !kc_turn_init(&turn, RUN_N), "kc_turn_init");
	run_reset();
	run_caller = pthread_self();
	ret = kc_turn_run(&turn, run_participant, args, &run_nr);
	kc_turn_destroy(&turn);
	KT_EXPECT_EQ(t, ret, 0);
	KT_EXPECT_EQU(t, run_nr, RUN_N);
	KT_EXPECT_EQU(t, run_bad_nr, 0);
	KT_EXPECT_EQU(t, run_returned, RUN_N);
	KT_EXPECT_EQU(t, run_logged, RUN_TURNS);
	for (i = 0; i < RUN_TURNS; i++)
		diff += run_log[i] != want[i];
	KT_EXPECT(t, !diff, "%u of %u turns out of the order passed", diff, RUN_TURNS);
	KT_EXPECT_EQU(t, atomic_load(&run_other_thread), threads ? RUN_TURNS : 0);
}

static void turn_run_fibers(struct kt *t)
{
	turn_run_one(t, false);
}

static void turn_run_threads(struct kt *t)
{
	turn_run_one(t, true);
}

static void *run_returns_holding(void *arg)
{
	unsigned int id = (unsigned int)(long)arg;

	kc_turn_wait(&turn, id);
	/* Slot 0 returns without passing; slot 1 waits for ever. */
	return NULL;
}

/* With fibers a participant that returns holding the turn is reported, not a hang. */
static void turn_run_returned_holder(struct kt *t)
{
	void *args[2] = { (void *)0L, (void *)1L };
	char buf[256] = "";
	int fd[2], status;
	ssize_t got;
	pid_t pid;

	if (!kc_turn_fibers()) {
		kt_skip(t, "no fibers in this build (threads would wait for ever)");
		return;
	}
	KT_ASSERT(t, !pipe(fd), "pipe");
	pid = fork();
	KT_ASSERT(t, pid >= 0, "fork");
	if (!pid) {
		dup2(fd[1], 2);
		if (!kc_turn_init(&turn, 2))
			kc_turn_run(&turn, run_returns_holding, args, &run_nr);
		_exit(0);
	}
	close(fd[1]);
	got = read(fd[0], buf, sizeof(buf) - 1);
	close(fd[0]);
	KT_ASSERT(t, waitpid(pid, &status, 0) == pid, "waitpid");
	KT_EXPECT(t, WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
		  "status %#x, not SIGABRT", status);
	KT_EXPECT(t, got > 0 && strstr(buf, "slot 0 holds the turn but has returned"),
		  "stderr: '%s'", buf);
}

static void turn_init_bounds(struct kt *t)
{
	struct kc_turn bad;

	KT_EXPECT_EQ(t, kc_turn_init(&bad, 0), -EINVAL);
	KT_EXPECT_EQ(t, kc_turn_init(&bad, KC_TURN_NONE), -EINVAL);
}

static const struct kt_case cases[] = {
	KT_CASE(turn_round_robin),
	KT_CASE(turn_run_fibers),
	KT_CASE(turn_run_threads),
	KT_CASE(turn_run_returned_holder),
	KT_CASE(turn_init_bounds),
};

KT_MAIN("kcompat_turn", cases)
