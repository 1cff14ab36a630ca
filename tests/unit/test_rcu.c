// SPDX-License-Identifier: GPL-2.0
/*
 * kcompat's RCU under the flavor of this process (KC_RCU_FLAVOR: memb,
 * qsbr, bp or ck-epoch; `make check-rcu` runs this binary under each):
 * the flavor is the one asked for; a thread's RCU state (ck-epoch: its
 * record) passes to a later thread; a grace period waits for the
 * outermost section of a nested reader; rcu_barrier() waits for the
 * callbacks of other threads, live or exited, and for one queued while
 * the callback thread is busy; threads that never
 * registered read and exit cleanly; a reader that reports its own
 * quiescent states (the engine's workers under qsbr) is waited for inside
 * a section and not while offline; a quiescent state inside a section
 * WARNs; and a torture round: readers never see an object retired
 * (poisoned) by synchronize_rcu() or call_rcu() while they hold it.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <kcompat/kcompat.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include "ktap.h"

/* A two-party handshake on a condition variable. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int state;
} hs = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };

static void hs_wait(int state)
{
	pthread_mutex_lock(&hs.lock);
	while (hs.state < state)
		pthread_cond_wait(&hs.cond, &hs.lock);
	pthread_mutex_unlock(&hs.lock);
}

static void hs_set(int state)
{
	pthread_mutex_lock(&hs.lock);
	hs.state = state;
	pthread_cond_broadcast(&hs.cond);
	pthread_mutex_unlock(&hs.lock);
}

static void rcu_flavor_selected(struct kt *t)
{
	const char *env = getenv(KC_RCU_FLAVOR_ENV);
	const char *want = env && *env ? env : "memb";
	const char *names[] = { "memb", "qsbr", "bp", "ck-epoch" };
	unsigned int i;

	KT_EXPECT(t, !strcmp(kc_rcu_flavor(), want), "flavor %s, want %s", kc_rcu_flavor(), want);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		KT_EXPECT(t, kc_rcu_flavor_valid(names[i]), "%s", names[i]);
		/* Chosen once: only the flavor in use is accepted now. */
		KT_EXPECT_EQ(t, kc_rcu_set_flavor(names[i]), strcmp(names[i], want) ? -1 : 0);
	}
	KT_EXPECT(t, !kc_rcu_flavor_valid("signal"), "urcu-signal is not offered");
	KT_EXPECT(t, !kc_rcu_flavor_valid("") && !kc_rcu_flavor_valid(NULL), "empty");
	KT_EXPECT_EQ(t, kc_rcu_set_flavor("ck_epoch"), -1);
}

/*
 * A thread's RCU state goes to a thread that registers after it left
 * (ck-epoch: the same record, recycled). The handshake is a relaxed flag,
 * invisible to ThreadSanitizer: only kcompat's own hand-off orders the two
 * threads' use of the record. First threaded case: the pool of records
 * left by exited threads is empty, so the second thread gets the first's.
 */
static atomic_int handover_left;

static void *handover_first(void *arg)
{
	rcu_read_lock();
	rcu_read_unlock();
	kc_rcu_unregister_thread();
	atomic_store_explicit(&handover_left, 1, memory_order_relaxed);
	return NULL;
}

static void *handover_second(void *arg)
{
	while (!atomic_load_explicit(&handover_left, memory_order_relaxed))
		sched_yield();
	rcu_read_lock();
	*(bool *)arg = rcu_read_lock_held();
	rcu_read_unlock();
	return NULL;
}

static void rcu_thread_handover(struct kt *t)
{
	pthread_t a, b;
	bool held = false;

	KT_ASSERT(t, pthread_create(&b, NULL, handover_second, &held) == 0, "create");
	KT_ASSERT(t, pthread_create(&a, NULL, handover_first, NULL) == 0, "create");
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	KT_EXPECT(t, held, "second thread's section");
	synchronize_rcu();
}

/* A grace period waits for the outermost section, not the inner one. */
static atomic_bool nested_left;

static void *nested_reader(void *arg)
{
	kc_rcu_register_thread();
	rcu_read_lock();
	rcu_read_lock();
	rcu_read_unlock();
	hs_set(1);
	hs_wait(2);
	usleep(20000);	/* gives a broken grace period time to end (power only) */
	atomic_store(&nested_left, true);
	rcu_read_unlock();
	kc_rcu_unregister_thread();
	return NULL;
}

static void rcu_nested_section(struct kt *t)
{
	pthread_t tid;

	hs.state = 0;
	KT_ASSERT(t, pthread_create(&tid, NULL, nested_reader, NULL) == 0, "create");
	hs_wait(1);
	hs_set(2);
	synchronize_rcu();
	KT_EXPECT(t, atomic_load(&nested_left), "grace period ended inside the outer section");
	pthread_join(tid, NULL);
	KT_EXPECT(t, !rcu_read_lock_held(), "depth");
}

/* rcu_barrier() waits for callbacks queued by other threads. */
#define CB_THREADS	4
#define CB_PER_THREAD	64

struct cb_obj {
	struct rcu_head rcu;
	atomic_ulong *count;
};

static void cb_count(struct rcu_head *head)
{
	struct cb_obj *o = container_of(head, struct cb_obj, rcu);

	atomic_fetch_add(o->count, 1);
	kfree(o);
}

static atomic_ulong cb_ran;
static pthread_barrier_t cb_queued, cb_release;

static void *cb_thread(void *arg)
{
	bool stay = (long)arg & 1;
	int i;

	for (i = 0; i < CB_PER_THREAD; i++) {
		struct cb_obj *o = kmalloc(sizeof(*o), GFP_KERNEL);

		if (!o)
			abort();
		o->count = &cb_ran;
		call_rcu(&o->rcu, cb_count);
	}
	if (stay) {
		/* Alive, blocked and registered while the barrier runs. */
		pthread_barrier_wait(&cb_queued);
		pthread_barrier_wait(&cb_release);
	}
	return NULL;
}

static void rcu_barrier_other_threads(struct kt *t)
{
	pthread_t tid[CB_THREADS];
	long i;

	atomic_store(&cb_ran, 0);
	pthread_barrier_init(&cb_queued, NULL, CB_THREADS / 2 + 1);
	pthread_barrier_init(&cb_release, NULL, CB_THREADS / 2 + 1);
	for (i = 0; i < CB_THREADS; i++)
		KT_ASSERT(t, pthread_create(&tid[i], NULL, cb_thread, (void *)i) == 0, "create");
	for (i = 0; i < CB_THREADS; i += 2)
		pthread_join(tid[i], NULL);	/* the exited half */
	pthread_barrier_wait(&cb_queued);
	rcu_barrier();
	KT_EXPECT_EQU(t, atomic_load(&cb_ran), CB_THREADS * CB_PER_THREAD);
	pthread_barrier_wait(&cb_release);
	for (i = 1; i < CB_THREADS; i += 2)
		pthread_join(tid[i], NULL);
	pthread_barrier_destroy(&cb_queued);
	pthread_barrier_destroy(&cb_release);
}

/*
 * rcu_barrier() right after each call_rcu(): the callback queued last,
 * since the flavor last took in its queue, must run before it returns.
 */
static void rcu_barrier_right_after_call(struct kt *t)
{
	unsigned long i, lost = 0;

	atomic_store(&cb_ran, 0);
	for (i = 1; i <= 50; i++) {
		struct cb_obj *o = kmalloc(sizeof(*o), GFP_KERNEL);

		KT_ASSERT(t, o != NULL, "alloc");
		o->count = &cb_ran;
		call_rcu(&o->rcu, cb_count);
		rcu_barrier();
		if (atomic_load(&cb_ran) != i) {
			lost++;
			atomic_store(&cb_ran, i);
		}
	}
	rcu_barrier();
	KT_EXPECT(t, lost == 0, "%lu of 50 callbacks outlived the barrier after them", lost);
}

/*
 * A barrier asked for while the callback thread is busy in a callback: a
 * callback queued behind the busy one, which the flavor could not take in
 * yet, must run before that barrier completes. The busy callback returns
 * only once the flavor sees the barrier, and the one behind it notes how
 * many barriers had completed when it ran, so the verdict is the same on
 * every run (flavors that cannot say skip the case).
 */
static atomic_int busy_state;	/* 1: the busy callback runs; 2: let it return */
static atomic_ulong behind_saw_done;

static void cb_busy(struct rcu_head *head)
{
	atomic_store(&busy_state, 1);
	while (atomic_load(&busy_state) != 2)
		sched_yield();
	kfree(container_of(head, struct cb_obj, rcu));
}

static void cb_behind(struct rcu_head *head)
{
	unsigned long asked, done;

	kc_rcu_barriers(&asked, &done);
	atomic_store(&behind_saw_done, done);
	cb_count(head);
}

static void *barrier_thread(void *arg)
{
	rcu_barrier();
	return NULL;
}

static void rcu_barrier_behind_busy_callback(struct kt *t)
{
	unsigned long asked, done, now;
	struct cb_obj *busy, *behind;
	pthread_t tid;

	if (kc_rcu_barriers(&asked, &done) < 0) {
		kt_skip(t, "%s cannot say when it sees a barrier", kc_rcu_flavor());
		return;
	}
	atomic_store(&cb_ran, 0);
	atomic_store(&busy_state, 0);
	atomic_store(&behind_saw_done, ~0UL);
	busy = kmalloc(sizeof(*busy), GFP_KERNEL);
	behind = kmalloc(sizeof(*behind), GFP_KERNEL);
	KT_ASSERT(t, busy && behind, "alloc");
	call_rcu(&busy->rcu, cb_busy);
	while (atomic_load(&busy_state) != 1)
		sched_yield();
	behind->count = &cb_ran;
	call_rcu(&behind->rcu, cb_behind);
	KT_ASSERT(t, pthread_create(&tid, NULL, barrier_thread, NULL) == 0, "create");
	do
		sched_yield();
	while (kc_rcu_barriers(&now, &done), now == asked);
	atomic_store(&busy_state, 2);
	pthread_join(tid, NULL);
	KT_EXPECT_EQU(t, atomic_load(&cb_ran), 1);
	KT_EXPECT(t, atomic_load(&behind_saw_done) < now,
		  "the callback queued before barrier %lu ran after it completed", now);
	rcu_barrier();
}

/* Threads that never register: read, queue, exit; nothing waits for them. */
static void *unregistered(void *arg)
{
	struct cb_obj *o = kmalloc(sizeof(*o), GFP_KERNEL);

	rcu_read_lock();
	rcu_read_unlock();
	if (o) {
		o->count = arg;
		call_rcu(&o->rcu, cb_count);
	}
	return NULL;
}

static void rcu_unregistered_threads(struct kt *t)
{
	static atomic_ulong ran;
	pthread_t tid;
	int i;

	for (i = 0; i < 16; i++) {
		KT_ASSERT(t, pthread_create(&tid, NULL, unregistered, &ran) == 0, "create");
		pthread_join(tid, NULL);
	}
	synchronize_rcu();
	rcu_barrier();
	KT_EXPECT_EQU(t, atomic_load(&ran), 16);
}

/*
 * A reader that reports its own quiescent states (the engine's workers):
 * waited for inside its section, not while offline and blocked.
 */
static atomic_bool self_left;

static void *self_reader(void *arg)
{
	int i;

	kc_rcu_register_thread();
	kc_rcu_thread_online();
	for (i = 0; i < 100; i++) {
		rcu_read_lock();
		rcu_read_unlock();
		kc_rcu_quiescent_state();
	}
	rcu_read_lock();
	hs_set(1);
	hs_wait(2);
	usleep(20000);
	atomic_store(&self_left, true);
	rcu_read_unlock();
	kc_rcu_quiescent_state();
	kc_rcu_thread_offline();
	hs_wait(3);		/* blocked offline: grace periods go on */
	kc_rcu_thread_online();
	kc_rcu_quiescent_state();
	kc_rcu_thread_offline();
	kc_rcu_unregister_thread();
	return NULL;
}

static void rcu_self_reporting_reader(struct kt *t)
{
	pthread_t tid;

	hs.state = 0;
	KT_ASSERT(t, pthread_create(&tid, NULL, self_reader, NULL) == 0, "create");
	hs_wait(1);
	hs_set(2);
	synchronize_rcu();
	KT_EXPECT(t, atomic_load(&self_left), "grace period ended inside the section");
	/* The reader is now offline and blocked: this must not wait for it. */
	synchronize_rcu();
	rcu_barrier();
	hs_set(3);
	pthread_join(tid, NULL);
}

/*
 * A self-reporting reader goes offline, blocks, and comes back with a
 * plain read-side section: the grace period started inside it must wait
 * for it (under qsbr, going offline ends the self-reporting: the section
 * brings the thread online itself).
 */
static atomic_bool back_left;

static void *offline_reader(void *arg)
{
	kc_rcu_register_thread();
	kc_rcu_thread_online();
	rcu_read_lock();
	rcu_read_unlock();
	kc_rcu_quiescent_state();
	kc_rcu_thread_offline();
	hs_wait(1);		/* blocked offline */
	rcu_read_lock();
	hs_set(2);
	hs_wait(3);
	usleep(20000);
	atomic_store(&back_left, true);
	rcu_read_unlock();
	kc_rcu_unregister_thread();
	return NULL;
}

static void rcu_offline_reader_comes_back(struct kt *t)
{
	unsigned long w0 = kc_warn_count();
	pthread_t tid;

	hs.state = 0;
	atomic_store(&back_left, false);
	KT_ASSERT(t, pthread_create(&tid, NULL, offline_reader, NULL) == 0, "create");
	synchronize_rcu();	/* offline readers are not waited for */
	hs_set(1);
	hs_wait(2);
	hs_set(3);
	synchronize_rcu();
	KT_EXPECT(t, atomic_load(&back_left), "grace period ended inside the section of a "
		  "reader back from offline");
	pthread_join(tid, NULL);
	KT_EXPECT_EQU(t, kc_warn_count() - w0, 0);
}

static void rcu_quiescent_state_in_section_warns(struct kt *t)
{
	unsigned long w0 = kc_warn_count();

	kt_expect_warns(t);
	rcu_read_lock();
	kc_rcu_quiescent_state();
	rcu_read_unlock();
	KT_EXPECT_EQU(t, kc_warn_count(), w0 + 1);
	KT_EXPECT(t, !rcu_read_lock_held(), "depth");
}

/*
 * The PROVE_RCU_LIST check: a walk of an RCU list outside a read-side
 * section warns (once per site), inside one or under the caller's lock
 * condition it does not. oom-pass2-outside-rcu is caught by it at run time.
 */
struct walk_node {
	struct list_head node;
};

static unsigned int walk_list(struct list_head *head, bool locked, bool cond)
{
	struct walk_node *w;
	unsigned int n = 0;

	if (locked)
		rcu_read_lock();
	if (cond)
		list_for_each_entry_rcu(w, head, node, true)
			n++;
	else
		list_for_each_entry_rcu(w, head, node)
			n++;
	if (locked)
		rcu_read_unlock();
	return n;
}

static void rcu_list_walk_outside_reader_warns(struct kt *t)
{
	struct walk_node a, b;
	unsigned long w0 = kc_warn_count();
	LIST_HEAD(head);

	list_add_tail_rcu(&a.node, &head);
	list_add_tail_rcu(&b.node, &head);
	kt_expect_warns(t);
	KT_EXPECT_EQU(t, walk_list(&head, true, false), 2);
	KT_EXPECT_EQU(t, walk_list(&head, false, true), 2);
	KT_EXPECT_EQU(t, kc_warn_count(), w0);
	KT_EXPECT_EQU(t, walk_list(&head, false, false), 2);
	KT_EXPECT_EQU(t, kc_warn_count(), w0 + 1);
}

/*
 * Torture: readers (half reporting their own quiescent states) hold the
 * published object across a yield; the writer replaces it and retires the
 * old one after synchronize_rcu() (in batches) or from a call_rcu()
 * callback. Retiring
 * poisons the object, kept in a quarantine until the end: a reader that
 * sees the poison saw a grace period end under its feet.
 */
#define TORTURE_READERS	4
#define TORTURE_UPDATES	800
#define TORTURE_BATCH	8
#define ALIVE		0x600dUL
#define RETIRED		0xdeadUL

struct tobj {
	atomic_ulong magic;
	struct rcu_head rcu;
	struct tobj *next;	/* quarantine */
};

static struct tobj __rcu *tgp;
static atomic_bool torture_done;
static atomic_ulong torture_poison, torture_reads;
static struct tobj *quarantine;
static pthread_mutex_t quarantine_lock = PTHREAD_MUTEX_INITIALIZER;

static void retire(struct tobj *p)
{
	atomic_store(&p->magic, RETIRED);
	pthread_mutex_lock(&quarantine_lock);
	p->next = quarantine;
	quarantine = p;
	pthread_mutex_unlock(&quarantine_lock);
}

static void retire_rcu(struct rcu_head *head)
{
	retire(container_of(head, struct tobj, rcu));
}

static void *torture_reader(void *arg)
{
	bool self = (long)arg & 1;
	struct tobj *p;

	kc_rcu_register_thread();
	if (self)
		kc_rcu_thread_online();
	while (!atomic_load(&torture_done)) {
		rcu_read_lock();
		p = rcu_dereference(tgp);
		if (atomic_load(&p->magic) != ALIVE)
			atomic_fetch_add(&torture_poison, 1);
		sched_yield();
		if (atomic_load(&p->magic) != ALIVE)
			atomic_fetch_add(&torture_poison, 1);
		rcu_read_unlock();
		atomic_fetch_add(&torture_reads, 1);
		kc_rcu_quiescent_state();
	}
	if (self)
		kc_rcu_thread_offline();
	kc_rcu_unregister_thread();
	return NULL;
}

static struct tobj *tobj_new(void)
{
	struct tobj *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		abort();
	atomic_store(&p->magic, ALIVE);
	return p;
}

static void rcu_torture(struct kt *t)
{
	pthread_t tid[TORTURE_READERS];
	struct tobj *old, *batch[TORTURE_BATCH];
	unsigned int nr = 0;
	long i;

	rcu_assign_pointer(tgp, tobj_new());
	for (i = 0; i < TORTURE_READERS; i++)
		KT_ASSERT(t, pthread_create(&tid[i], NULL, torture_reader, (void *)i) == 0,
			  "create");
	for (i = 0; i < TORTURE_UPDATES; i++) {
		/* Readers run all along: a few reads between two updates. */
		while (atomic_load(&torture_reads) < (unsigned long)i * 2)
			sched_yield();
		old = rcu_replace_pointer(tgp, tobj_new(), 1);
		if (i & 1) {
			call_rcu(&old->rcu, retire_rcu);
			continue;
		}
		/* One grace period for a batch (bp's is milliseconds). */
		batch[nr++] = old;
		if (nr < TORTURE_BATCH)
			continue;
		synchronize_rcu();
		while (nr)
			retire(batch[--nr]);
	}
	synchronize_rcu();
	while (nr)
		retire(batch[--nr]);
	atomic_store(&torture_done, true);
	for (i = 0; i < TORTURE_READERS; i++)
		pthread_join(tid[i], NULL);
	rcu_barrier();
	KT_EXPECT_EQU(t, atomic_load(&torture_poison), 0);
	retire(rcu_replace_pointer(tgp, NULL, 1));
	while (quarantine) {
		old = quarantine;
		quarantine = old->next;
		kfree(old);
	}
}

static const struct kt_case cases[] = {
	KT_CASE(rcu_flavor_selected),
	KT_CASE(rcu_thread_handover),
	KT_CASE(rcu_nested_section),
	KT_CASE(rcu_barrier_other_threads),
	KT_CASE(rcu_barrier_right_after_call),
	KT_CASE(rcu_barrier_behind_busy_callback),
	KT_CASE(rcu_unregistered_threads),
	KT_CASE(rcu_self_reporting_reader),
	KT_CASE(rcu_offline_reader_comes_back),
	KT_CASE(rcu_quiescent_state_in_section_warns),
	KT_CASE(rcu_list_walk_outside_reader_warns),
	KT_CASE(rcu_torture),
};

KT_MAIN("rcu", cases)
