// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrent updates (docs/spec/hpcc.md#hpcc-precise, #hpcc-properties,
 * #hpcc-bug-4, #hpcc-bug-7): bounded multi-threaded conservation with threads
 * sharing virtual CPUs and migrating between the level-0 add and the carry; the
 * single-CPU configuration under contention; and a precise sum that is not a
 * snapshot, made to go negative by a controlled interleaving.
 */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/kernel.h>
#include <kcompat/kcompat.h>
#include <linux/percpu_counter_tree.h>
#include "hpcc_util.h"

/*
 * Workers run in rounds that start together on a barrier: on a loaded
 * 2-core machine a thread would otherwise finish its whole share within
 * one time slice, and the threads would hardly ever overlap.
 */
#ifdef KC_TSAN
#define ROUNDS_DIV	8	/* TSan reports the races itself; keep it fast */
#else
#define ROUNDS_DIV	1
#endif

struct worker {
	pthread_t tid;
	struct percpu_counter_tree *c;
	pthread_barrier_t *start;
	unsigned int cpu, nr_cpus;
	unsigned long rounds, burst;
	bool migrate;
	unsigned long long seed;
	unsigned long total;	/* exact sum of this thread's increments */
};

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	struct kt_rng rng;
	unsigned long n;

	kt_rng_seed(&rng, w->seed);
	kc_set_cpu(w->cpu);
	for (n = 0; n < w->rounds * w->burst; n++) {
		if (!(n % w->burst))
			pthread_barrier_wait(w->start);
		long inc = kt_rng_below(&rng, 4) ? (long)kt_rng_below(&rng, 129) - 64 :
			   hu_rand_inc(&rng, w->c->batch_size << kt_rng_below(&rng, 8));

		if (w->migrate) {
			unsigned int path = kt_rng_below(&rng, 2) ? w->cpu :
					    kt_rng_below(&rng, w->nr_cpus);

			hu_add_migrating(w->c, w->cpu, path, inc);
			/* Now and then the thread moves for good. */
			if (!kt_rng_below(&rng, 64))
				w->cpu = kt_rng_below(&rng, w->nr_cpus);
		} else {
			percpu_counter_tree_add(w->c, inc);
		}
		w->total += (unsigned long)inc;
	}
	return NULL;
}

/* Run @nr_threads workers on @cpus virtual CPUs; returns the exact total. */
static bool run_workers(struct kt *t, struct percpu_counter_tree *c, unsigned int cpus,
			unsigned int nr_threads, unsigned long rounds, unsigned long burst,
			bool migrate, unsigned long *total)
{
	struct worker *w = calloc(nr_threads, sizeof(*w));
	pthread_barrier_t start;
	unsigned int i;

	KT_EXPECT(t, w != NULL, "memory");
	if (!w)
		return false;
	if (migrate)
		hu_install_migrate_hook();
	pthread_barrier_init(&start, NULL, nr_threads);
	for (i = 0; i < nr_threads; i++) {
		w[i] = (struct worker){ .c = c, .start = &start, .cpu = i % cpus,
					.nr_cpus = cpus, .rounds = rounds / ROUNDS_DIV,
					.burst = burst, .migrate = migrate,
					.seed = 1000 * cpus + i };
		if (pthread_create(&w[i].tid, NULL, worker_fn, &w[i])) {
			kt_fail(t, __FILE__, __LINE__, "pthread_create");
			abort();	/* the barrier would never open */
		}
	}
	*total = 0;
	for (i = 0; i < nr_threads; i++) {
		pthread_join(w[i].tid, NULL);
		*total += w[i].total;
	}
	pthread_barrier_destroy(&start);
	free(w);
	return true;
}

static const struct {
	unsigned int cpus, threads;
	unsigned long batch, rounds, burst;
	bool migrate;
} conservation_cfg[] = {
	{ 2, 2, 2, 400, 200, false }, { 2, 6, 32, 200, 100, true },
		{ 3, 3, 2, 400, 200, true }, { 3, 9, 4, 100, 100, false },
		{ 4, 4, 2, 400, 200, false }, { 8, 8, 2, 200, 100, true },
		{ 8, 24, 32, 50, 100, true }, { 64, 64, 2, 20, 100, true },
		{ 64, 64, 32, 20, 100, false },
};

/* @arg: the index of the configuration. */
static void conservation_one(struct kt *t, void *arg)
{
	unsigned int i = *(unsigned int *)arg;
	typeof(&conservation_cfg[0]) cfg = conservation_cfg;

	{
		struct hu_counter hc;
		struct hpcc_shape s;
		unsigned long total, d;

		if (!hu_counter_init(t, &hc, cfg[i].batch))
			return;
		KT_ASSERT(t, hpcc_shape_compute(&s, cfg[i].cpus, cfg[i].batch) == 0, "");
		if (!run_workers(t, &hc.c, cfg[i].cpus, cfg[i].threads, cfg[i].rounds,
				 cfg[i].burst, cfg[i].migrate, &total))
			return;
		KT_EXPECT(t, percpu_counter_tree_precise_sum(&hc.c) == (long)total,
			  "%u CPUs, %u threads: precise %ld, exact %ld", cfg[i].cpus,
			  cfg[i].threads, percpu_counter_tree_precise_sum(&hc.c), (long)total);
		/* Quiescent: nothing pending, so precise - approx is the residual. */
		d = (unsigned long)(percpu_counter_tree_precise_sum(&hc.c) -
				    percpu_counter_tree_approximate_sum(&hc.c));
		KT_EXPECT(t, d == hu_residual(&hc.c, &s) && d <= s.settled_max,
			  "%u CPUs, %u threads: precise - approx %lu, residual %lu, T %lu",
			  cfg[i].cpus, cfg[i].threads, d, hu_residual(&hc.c, &s),
			  s.settled_max);
		hu_counter_destroy(&hc);
	}
}

static void concurrency_conservation(struct kt *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(conservation_cfg); i++)
		kt_run_config(t, conservation_cfg[i].cpus, conservation_one, &i);
}

/*
 * docs/spec/hpcc.md#hpcc-bug-7: one CPU, many threads on it; approx aliases the
 * only level-0 word.
 */
static void concurrency_single_cpu(struct kt *t)
{
	struct hu_counter hc;
	unsigned long total;
	struct kt_rng rng;
	unsigned int n;

	if (!kt_hpcc_setup(t, 1) || !hu_counter_init(t, &hc, 32))
		return;
	KT_EXPECT_EQ(t, percpu_counter_tree_items_size(), 0);
	KT_EXPECT(t, hu_under(&hc.c) == 0 && hu_over(&hc.c) == 0, "1 CPU: %lu/%lu",
		  hu_under(&hc.c), hu_over(&hc.c));
	kt_rng_seed(&rng, 1);
	for (n = 0; n < 5000; n++) {
		percpu_counter_tree_add(&hc.c, hu_rand_inc(&rng, 32));
		if (percpu_counter_tree_approximate_sum(&hc.c) !=
		    percpu_counter_tree_precise_sum(&hc.c))
			break;
	}
	KT_EXPECT(t, n == 5000, "approx != precise after %u adds", n);
	percpu_counter_tree_set(&hc.c, 0);
	if (!run_workers(t, &hc.c, 1, 4, 200, 2000, false, &total))
		return;
	KT_EXPECT(t, percpu_counter_tree_precise_sum(&hc.c) == (long)total,
		  "4 threads on CPU 0: precise %ld, exact %ld",
		  percpu_counter_tree_precise_sum(&hc.c), (long)total);
	KT_EXPECT(t, percpu_counter_tree_approximate_sum(&hc.c) == (long)total,
		  "4 threads on CPU 0: approx %ld, exact %ld",
		  percpu_counter_tree_approximate_sum(&hc.c), (long)total);
	hu_counter_destroy(&hc);
}

/*
 * docs/spec/hpcc.md#hpcc-bug-4 by a controlled interleaving: the reader's
 * precise sum faults on a protected per-CPU page in the middle of its walk; the
 * fault handler (the "other CPU") adds +1 on CPU 0, already read, then -1 on
 * the last CPU, not yet read. The counter's value was 0, 1, 0, never negative;
 * the sum observes only the -1.
 */
static struct {
	struct percpu_counter_tree *c;
	void *page;
	size_t page_size;
	unsigned int last;
	volatile sig_atomic_t hits;
} neg;

static void neg_fault(int sig, siginfo_t *si, void *uc)
{
	unsigned int cpu = kc_get_cpu();

	if ((char *)si->si_addr < (char *)neg.page ||
	    (char *)si->si_addr >= (char *)neg.page + neg.page_size)
		abort();	/* a real crash */
	mprotect(neg.page, neg.page_size, PROT_READ | PROT_WRITE);
	kc_set_cpu(0);
	percpu_counter_tree_add(neg.c, 1);
	kc_set_cpu(neg.last);
	percpu_counter_tree_add(neg.c, -1);
	kc_set_cpu(cpu);
	neg.hits++;
}

static void concurrency_precise_sum_not_a_snapshot(struct kt *t)
{
	struct sigaction sa = { .sa_sigaction = neg_fault, .sa_flags = SA_SIGINFO }, old;
	struct hu_counter hc;
	long raw, clamped;

	if (!kt_hpcc_setup(t, 8) || !hu_counter_init(t, &hc, 32))
		return;
	neg.c = &hc.c;
	neg.last = 7;
	neg.page_size = sysconf(_SC_PAGESIZE);
	neg.page = (void *)((uintptr_t)per_cpu_ptr(hc.c.level0, 4) & ~(neg.page_size - 1));
	neg.hits = 0;
	sigemptyset(&sa.sa_mask);
	KT_ASSERT(t, sigaction(SIGSEGV, &sa, &old) == 0, "sigaction");

	KT_ASSERT(t, mprotect(neg.page, neg.page_size, PROT_NONE) == 0, "mprotect");
	raw = percpu_counter_tree_precise_sum(&hc.c);
	KT_ASSERT(t, mprotect(neg.page, neg.page_size, PROT_NONE) == 0, "mprotect");
	clamped = percpu_counter_tree_precise_sum_positive(&hc.c);
	mprotect(neg.page, neg.page_size, PROT_READ | PROT_WRITE);
	sigaction(SIGSEGV, &old, NULL);

	KT_EXPECT(t, neg.hits == 2, "the interleaving ran %d times", (int)neg.hits);
	KT_EXPECT(t, raw == -1, "precise sum %ld during +1/-1 (value 0 or 1)", raw);
	KT_EXPECT(t, clamped == 0, "precise_sum_positive %ld", clamped);
	/* Quiescent again: the value is 0, and both sums say so. */
	KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&hc.c), 0);
	hu_counter_destroy(&hc);
}

/*
 * An "interrupt" at the first store of an add: the cells under test are
 * made read-only, so the add's first write faults; the fault handler (the
 * interrupting context) runs a whole nested add on the same cell and
 * re-enables writes, then the interrupted write re-executes. An atomic
 * read-modify-write re-reads the cell and loses nothing; one split into a
 * load and a store overwrites the nested add. No timing is involved.
 */
static struct {
	void *lo;
	size_t len;
	struct percpu_counter_tree *c;
	unsigned int cpu;
	long inc;
	volatile sig_atomic_t hits;
} irq;

static void irq_fault(int sig, siginfo_t *si, void *uc)
{
	unsigned int cpu = kc_get_cpu();

	if ((char *)si->si_addr < (char *)irq.lo ||
	    (char *)si->si_addr >= (char *)irq.lo + irq.len)
		abort();	/* a real crash */
	mprotect(irq.lo, irq.len, PROT_READ | PROT_WRITE);
	kc_set_cpu(irq.cpu);
	percpu_counter_tree_add(irq.c, irq.inc);
	kc_set_cpu(cpu);
	irq.hits++;
}

/*
 * @rounds adds of @inc on @cpu, each interrupted at its first store to
 * [lo, lo + len). With @s, check after every round that precise - approx
 * is the residual: a lost item update can be evened out later by the
 * duplicated carries it causes.
 */
static bool irq_rounds(struct kt *t, unsigned int rounds, unsigned int cpu, long inc,
		       const struct hpcc_shape *s)
{
	unsigned int r;

	irq.hits = 0;
	for (r = 0; r < rounds; r++) {
		if (mprotect(irq.lo, irq.len, PROT_READ)) {
			kt_fail(t, __FILE__, __LINE__, "mprotect");
			return false;
		}
		kc_set_cpu(cpu);
		percpu_counter_tree_add(irq.c, inc);
		if (s && (unsigned long)(percpu_counter_tree_precise_sum(irq.c) -
					 percpu_counter_tree_approximate_sum(irq.c)) !=
			 hu_residual(irq.c, s)) {
			kt_fail(t, __FILE__, __LINE__, "round %u: precise %ld - approx %ld is "
				"not the residual %lu", r, percpu_counter_tree_precise_sum(irq.c),
				percpu_counter_tree_approximate_sum(irq.c), hu_residual(irq.c, s));
			break;
		}
	}
	kc_set_cpu(0);
	mprotect(irq.lo, irq.len, PROT_READ | PROT_WRITE);
	KT_EXPECT(t, irq.hits == (int)rounds, "%d of %u adds interrupted", (int)irq.hits, rounds);
	return !t->failures;
}

/* One CPU: the level-0 word is also the approximation (docs/spec/hpcc.md#hpcc-bug-7). */
static void rmw_one_cpu(struct kt *t, void *arg)
{
	size_t page = sysconf(_SC_PAGESIZE);
	struct hu_counter hc;

	if (!hu_counter_init(t, &hc, 32))
		return;
	irq.c = &hc.c;
	irq.cpu = 0;
	irq.inc = 5;
	irq.lo = (void *)((uintptr_t)per_cpu_ptr(hc.c.level0, 0) & ~(page - 1));
	irq.len = page;
	if (irq_rounds(t, 50, 0, 3, NULL)) {
		KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&hc.c), 50 * 8);
		KT_EXPECT_EQ(t, percpu_counter_tree_approximate_sum(&hc.c), 50 * 8);
	}
	hu_counter_destroy(&hc);
}

static void rmw_eight_cpus(struct kt *t, void *arg)
{
	size_t page = sysconf(_SC_PAGESIZE);
	struct hu_counter hc;
	struct hpcc_shape s;
	void *items;

	/* 8 CPUs, batch 2: CPUs 0 and 4 share level-1 item 0; interrupt at the item. */
	items = aligned_alloc(page, page);
	if (hpcc_shape_compute(&s, 8, 2) || !items ||
	    percpu_counter_tree_init(&hc.c, items, 2, GFP_KERNEL)) {
		kt_fail(t, __FILE__, __LINE__, "init");
		free(items);
		return;
	}
	irq.c = &hc.c;
	irq.cpu = 4;
	/*
	 * Carries 6 into level-1 item 0 while the interrupted add carries 2:
	 * with equal amounts a lost update and the duplicated carry it
	 * causes would cancel out.
	 */
	irq.inc = 6;
	irq.lo = items;
	irq.len = page;
	if (irq_rounds(t, 50, 0, 2, &s)) {
		unsigned long d = percpu_counter_tree_precise_sum(&hc.c) -
				  percpu_counter_tree_approximate_sum(&hc.c);

		KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&hc.c), 50 * 8);
		KT_EXPECT(t, d == hu_residual(&hc.c, &s), "precise - approx %lu, residual %lu",
			  d, hu_residual(&hc.c, &s));
		KT_EXPECT(t, percpu_counter_tree_approximate_sum(&hc.c) == 50 * 8,
			  "approx %ld: carries lost", percpu_counter_tree_approximate_sum(&hc.c));
	}
	percpu_counter_tree_destroy(&hc.c);
	free(items);
}

static void concurrency_rmw_interrupted_at_store(struct kt *t)
{
	struct sigaction sa = { .sa_sigaction = irq_fault, .sa_flags = SA_SIGINFO }, old;

	sigemptyset(&sa.sa_mask);
	KT_ASSERT(t, sigaction(SIGSEGV, &sa, &old) == 0, "sigaction");
	kt_run_config(t, 1, rmw_one_cpu, NULL);
	kt_run_config(t, 8, rmw_eight_cpus, NULL);
	sigaction(SIGSEGV, &old, NULL);
}

/*
 * The same race left to the scheduler: updaters swing the value between
 * 0 and 1 on the first and last CPUs while a reader sums. The clamped
 * sums must never be negative; raw negatives are only counted.
 */
struct swing {
	struct percpu_counter_tree *c;
	unsigned int last;
	unsigned long rounds;
	_Atomic bool stop;
};

static void *swing_fn(void *arg)
{
	struct swing *s = arg;
	unsigned long n;

	for (n = 0; n < s->rounds && !atomic_load(&s->stop); n++) {
		kc_set_cpu(0);
		percpu_counter_tree_add(s->c, 1);
		kc_set_cpu(s->last);
		percpu_counter_tree_add(s->c, -1);
	}
	return NULL;
}

static void concurrency_positive_sums_never_negative(struct kt *t)
{
	unsigned int cpus = NR_CPUS < 4096 ? NR_CPUS : 4096;
	struct swing s = { .last = cpus - 1, .rounds = 2000000 };
	unsigned long n, negatives = 0, bad = 0;
	struct hu_counter hc;
	pthread_t tid;

	if (!kt_hpcc_setup(t, cpus) || !hu_counter_init(t, &hc, 32))
		return;
	s.c = &hc.c;
	KT_ASSERT(t, pthread_create(&tid, NULL, swing_fn, &s) == 0, "pthread_create");
	for (n = 0; n < 300; n++) {
		negatives += percpu_counter_tree_precise_sum(&hc.c) < 0;
		bad += percpu_counter_tree_precise_sum_positive(&hc.c) < 0;
		bad += percpu_counter_tree_approximate_sum_positive(&hc.c) < 0;
	}
	atomic_store(&s.stop, true);
	pthread_join(tid, NULL);
	kt_diag(t, "raw precise sum negative in %lu of %lu reads", negatives, n);
	KT_EXPECT(t, bad == 0, "%lu negative clamped sums", bad);
	KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&hc.c), 0);
	hu_counter_destroy(&hc);
}

static const struct kt_case cases[] = {
	KT_CASE(concurrency_single_cpu),
	KT_CASE(concurrency_conservation),
	KT_CASE(concurrency_precise_sum_not_a_snapshot),
	KT_CASE(concurrency_rmw_interrupted_at_store),
	KT_CASE(concurrency_positive_sums_never_negative),
};

KT_MAIN("hpcc_concurrency", cases)
