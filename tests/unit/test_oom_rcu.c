// SPDX-License-Identifier: GPL-2.0
/*
 * Task lifetime in the OOM model: an exited task is freed only after a
 * grace period and its last reference, and the poison check reports a
 * selector that touches a freed task (proven with a deliberately early
 * free through the test-only oom_free_without_gp path).
 */
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <kcompat/kcompat.h>
#include <linux/rculist.h>
#include "mm/oom_select.h"
#include "ktap.h"

static unsigned long hits;
static char last_where[64];

static void count_poison(const void *obj, const char *where)
{
	hits++;
	snprintf(last_where, sizeof(last_where), "%s", where);
}

static bool setup(struct kt *t)
{
	static bool registered;

	if (!registered) {
		kc_rcu_register_thread();
		registered = true;
	}
	oom_model_reset();
	if (!kt_hpcc_setup(t, 16))
		return false;
	KT_EXPECT_EQ(t, oom_model_init(32), 0);
	oom_poison_hook = count_poison;
	hits = 0;
	return true;
}

static struct task_struct *mk(long pages)
{
	struct oom_task_attr a = { 0 };
	struct task_struct *p = oom_task_create(&a);

	if (p)
		oom_mm_add(p->mm, MM_ANONPAGES, pages);
	return p;
}

/* Reading the quarantined object on purpose: order after its poisoning. */
static bool poisoned(struct task_struct *p)
{
	kc_tsan_acquire(p);
	return !oom_task_alive(p, "test");
}

static volatile int barrier_done;

static void *barrier_thread(void *arg)
{
	kc_rcu_barrier();
	__atomic_store_n(&barrier_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* A reader inside its section keeps the exited task alive. */
static void oom_rcu_free_after_grace_period(struct kt *t)
{
	struct task_struct *p;
	pthread_t th;
	int i;

	if (!setup(t))
		return;
	p = mk(1000);
	KT_ASSERT(t, p, "create");
	rcu_read_lock();
	oom_task_exit(p);
	__atomic_store_n(&barrier_done, 0, __ATOMIC_RELAXED);
	KT_ASSERT(t, !pthread_create(&th, NULL, barrier_thread, NULL), "thread");
	/* The barrier cannot finish while this reader is inside. */
	for (i = 0; i < 20; i++) {
		usleep(1000);
		KT_EXPECT(t, !__atomic_load_n(&barrier_done, __ATOMIC_ACQUIRE),
			  "grace period ended under a reader");
		KT_EXPECT(t, oom_task_alive(p, "reader"), "freed under a reader");
	}
	KT_EXPECT_EQ(t, oom_badness(p, 1000, false, NULL, NULL, NULL), LONG_MIN);
	rcu_read_unlock();
	pthread_join(th, NULL);
	KT_EXPECT(t, barrier_done, "barrier done");
	KT_EXPECT(t, poisoned(p), "freed after the grace period");
	KT_EXPECT_EQU(t, hits, 1);
	oom_model_reset();
}

/* A task reference outlives the grace period; the last put frees. */
static void oom_rcu_reference_outlives(struct kt *t)
{
	struct task_struct *p;

	if (!setup(t))
		return;
	p = mk(10);
	KT_ASSERT(t, p, "create");
	get_task_struct(p);
	oom_task_exit(p);
	kc_rcu_barrier();
	KT_EXPECT(t, oom_task_alive(p, "held"), "referenced task freed");
	KT_EXPECT_EQ(t, oom_live_tasks(), 1);
	put_task_struct(p);
	KT_EXPECT_EQ(t, oom_live_tasks(), 0);
	KT_EXPECT(t, poisoned(p), "last put frees");
	KT_EXPECT_EQU(t, hits, 1);
	oom_model_reset();
}

/* The deliberately early free: every selector access is reported. */
static void oom_rcu_early_free_is_caught(struct kt *t)
{
	struct task_struct *p, *q, *next;
	struct oom_control oc = { .totalpages = 1000, .algo = OOM_ALGO_V16 };

	if (!setup(t))
		return;
	KT_ASSERT(t, mk(5) && mk(7) && mk(9), "create");
	rcu_read_lock();
	p = list_first_or_null_rcu(&oom_task_list, struct task_struct, tasks);
	oom_free_without_gp = true;
	oom_task_exit(p);		/* the bug: this reader is on it */
	oom_free_without_gp = false;
	KT_EXPECT_EQ(t, oom_badness(p, 1000, true, &oc.accuracy_under,
				    &oc.accuracy_under, NULL), LONG_MIN);
	KT_EXPECT_EQU(t, hits, 1);
	KT_EXPECT(t, !strcmp(last_where, "oom_badness"), "where: %s", last_where);
	get_task_struct(p);
	KT_EXPECT_EQU(t, hits, 2);
	/* The walk can go on from the freed node: the link is kept. */
	next = list_entry_rcu(p->tasks.next, struct task_struct, tasks);
	KT_EXPECT(t, oom_task_alive(next, "next"), "list continues");
	rcu_read_unlock();
	/* The same sequence with a grace period reports nothing. */
	rcu_read_lock();
	q = list_first_or_null_rcu(&oom_task_list, struct task_struct, tasks);
	oom_task_exit(q);
	KT_EXPECT_EQ(t, oom_badness(q, 1000, false, NULL, NULL, NULL), LONG_MIN);
	KT_EXPECT(t, oom_task_alive(q, "gp"), "alive under the reader");
	rcu_read_unlock();
	KT_EXPECT_EQU(t, hits, 2);
	oom_model_reset();
	KT_EXPECT_EQU(t, hits, 2);	/* quarantine: the bad get wrote nothing */
}

/* A write into a freed task is found when the quarantine releases it. */
static void oom_rcu_write_after_free(struct kt *t)
{
	struct task_struct *p;

	if (!setup(t))
		return;
	p = mk(3);
	KT_ASSERT(t, p, "create");
	oom_task_exit(p);
	kc_rcu_barrier();
	KT_EXPECT(t, poisoned(p), "freed");
	p->pid = 42;			/* the deliberate stray write */
	oom_quarantine_drain();
	KT_EXPECT_EQU(t, hits, 2);
	KT_EXPECT(t, !strcmp(last_where, "write after free"), "where: %s", last_where);
	oom_model_reset();
}

/* More frees than the quarantine holds: the oldest are checked and freed. */
static void oom_rcu_quarantine_overflow(struct kt *t)
{
	struct task_struct *p;
	unsigned int i, made = 0;

	if (!setup(t))
		return;
	for (i = 0; i < 5000; i++) {
		p = mk(i);
		if (!p)
			break;
		made++;
		oom_task_exit(p);
		if (i % 1000 == 999)
			kc_rcu_barrier();
	}
	KT_EXPECT_EQU(t, made, 5000);
	kc_rcu_barrier();
	KT_EXPECT_EQ(t, oom_live_tasks(), 0);
	oom_quarantine_drain();
	KT_EXPECT_EQU(t, hits, 0);
	oom_model_reset();
}

/*
 * Pass 2 keeps its read-side section: at pass 2's first task a helper
 * exits that task, then waits for a grace period and the callbacks.
 * Correct code: the helper stays in synchronize_rcu() until pass 2 ends,
 * whatever the timing, so the task is alive when pass 2 reads it. Without
 * the section it is freed and poisoned first. The timed wait only bounds
 * how long the buggy case takes to show.
 */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct task_struct *victim;
	bool fired, done, done_in_hook;
} p2 = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
};
static pthread_t p2_thread;

static void *p2_helper(void *arg)
{
	kc_rcu_register_thread();
	oom_task_exit(p2.victim);
	synchronize_rcu();
	kc_rcu_barrier();
	kc_rcu_unregister_thread();
	pthread_mutex_lock(&p2.lock);
	p2.done = true;
	pthread_cond_signal(&p2.cond);
	pthread_mutex_unlock(&p2.lock);
	return NULL;
}

static void p2_hook(struct task_struct *p, struct oom_control *oc)
{
	struct timespec ts;

	if (p2.fired)
		return;
	p2.fired = true;
	p2.victim = p;
	if (pthread_create(&p2_thread, NULL, p2_helper, NULL))
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 200 * 1000 * 1000;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&p2.lock);
	while (!p2.done)
		if (pthread_cond_timedwait(&p2.cond, &p2.lock, &ts))
			break;
	p2.done_in_hook = p2.done;
	pthread_mutex_unlock(&p2.lock);
}

static void oom_rcu_pass2_holds_reader(struct kt *t)
{
	static const enum oom_algo two_pass[] = { OOM_ALGO_V16, OOM_ALGO_BOUNDED };
	struct task_struct *small, *big;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(two_pass); i++) {
		struct oom_control oc = { .totalpages = 1000, .algo = two_pass[i] };

		if (!setup(t))
			return;
		small = mk(10);
		big = mk(100000);
		KT_ASSERT(t, small && big && mk(20), "create");
		KT_ASSERT(t, list_first_or_null_rcu(&oom_task_list,
						    struct task_struct, tasks) == small,
			  "list order");
		p2.victim = NULL;
		p2.fired = p2.done = p2.done_in_hook = false;
		oom_pass2_task_hook = p2_hook;
		oom_select_bad_process(&oc);
		oom_pass2_task_hook = NULL;
		KT_ASSERT(t, p2.fired && p2.victim == small, "hook at the first task");
		pthread_join(p2_thread, NULL);
		KT_EXPECT(t, !p2.done_in_hook,
			  "%s: grace period ended inside pass 2",
			  oom_algo_names[two_pass[i]]);
		KT_EXPECT(t, !oc.poisoned, "%s: pass 2 read a freed task",
			  oom_algo_names[two_pass[i]]);
		KT_EXPECT_EQU(t, hits, 0);
		KT_EXPECT(t, oc.chosen == big, "%s: victim",
			  oom_algo_names[two_pass[i]]);
		oom_select_put(&oc);
		KT_EXPECT(t, p2.done, "helper done");
		KT_EXPECT(t, poisoned(small), "freed after pass 2");
		oom_model_reset();
	}
}

static const struct kt_case cases[] = {
	KT_CASE(oom_rcu_free_after_grace_period),
	KT_CASE(oom_rcu_reference_outlives),
	KT_CASE(oom_rcu_early_free_is_caught),
	KT_CASE(oom_rcu_write_after_free),
	KT_CASE(oom_rcu_quarantine_overflow),
	KT_CASE(oom_rcu_pass2_holds_reader),
};

KT_MAIN("oom_rcu", cases)
