/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ground truth for counters updated concurrently by the virtual CPUs
 * (spec/hpcc.md §5.3). Per thread and counter, monotonic sums of the
 * positive and negative increments and of the pending-carry bounds,
 * bumped before the update starts ("started") and after it returns
 * ("done"). A checker reads every thread's done sums, then the counter,
 * then every thread's started sums: every update not counted in the
 * first read and visible in the counter is counted in the last, so the
 * exact level-0 total at the counter read lies in
 *	[D - dneg, D + dpos],	D = base + done_pos - done_neg,
 *	dpos = started_pos - done_pos, dneg = started_neg - done_neg
 * and at most dbound = started_bound - done_bound of carries is pending.
 * All sums wrap (mod 2^64); only differences are used. The adds a thread
 * made as its own CPU are done_pos - done_neg - foreign.
 *
 * Ordering: truth_begin() ends with a release fence, so a checker that
 * observes any cell written by the update afterwards (and then issues an
 * acquire fence) sees its started sums; truth_end() publishes the done
 * sums with release stores after the update's cell writes.
 */
#ifndef _STRESS_TRUTH_H
#define _STRESS_TRUTH_H

#include <stdatomic.h>
#include <stdbool.h>

struct truth_cell {
	atomic_ulong started_pos, started_neg, started_bound;
	atomic_ulong done_pos, done_neg, done_bound;
	atomic_ulong foreign;	/* adds made as another CPU (those are in hop[]) */
};

struct truth {
	unsigned int nr_threads, nr_keys, stride;	/* stride: cells per thread */
	struct truth_cell *cells;
	atomic_ulong *hop;	/* [cpu * nr_keys + key]: adds made as a foreign CPU */
	unsigned long *base;	/* per key; changed only while every thread is parked */
};

/* A bracketed read of one counter's truth. */
struct truth_window {
	unsigned long done_pos, done_neg, done_bound;
	unsigned long started_pos, started_neg, started_bound;
	unsigned long base;
};

struct truth *truth_new(unsigned int nr_threads, unsigned int nr_keys);
void truth_free(struct truth *t);

static inline struct truth_cell *truth_cell(struct truth *t, unsigned int thread,
					    unsigned int key)
{
	return &t->cells[(size_t)thread * t->stride + key];
}

/* Owner-only read-modify-write: a load and a store, no locked instruction. */
static inline void truth_bump(atomic_ulong *p, unsigned long v, memory_order mo)
{
	atomic_store_explicit(p, atomic_load_explicit(p, memory_order_relaxed) + v, mo);
}

/*
 * Inline: every add of counter_storm brackets itself with these two. The
 * _at forms take the cell (a thread can keep truth_cell(t, thread, 0) and
 * index it by key).
 */
static inline void truth_begin_at(struct truth_cell *c, long inc, unsigned long bound)
{
	/* The sign picks the sum (a select, not a branch: signs are random). */
	truth_bump(inc >= 0 ? &c->started_pos : &c->started_neg,
		   inc >= 0 ? (unsigned long)inc : -(unsigned long)inc, memory_order_relaxed);
	if (bound)
		truth_bump(&c->started_bound, bound, memory_order_relaxed);
	/*
	 * Whoever observes a cell write of this update (all of them come
	 * after this fence) and then issues an acquire fence sees the
	 * started sums.
	 */
	atomic_thread_fence(memory_order_release);
}

/* @cpu: the CPU identity the add was made as (its level-0 word). */
static inline void truth_end_at(struct truth *t, struct truth_cell *c, unsigned int thread,
				unsigned int key, long inc, unsigned long bound,
				unsigned int cpu)
{
	if (cpu != thread) {
		truth_bump(&c->foreign, inc, memory_order_relaxed);
		atomic_fetch_add_explicit(&t->hop[(size_t)cpu * t->nr_keys + key], inc,
					  memory_order_relaxed);
	}
	if (bound)
		truth_bump(&c->done_bound, bound, memory_order_release);
	truth_bump(inc >= 0 ? &c->done_pos : &c->done_neg,
		   inc >= 0 ? (unsigned long)inc : -(unsigned long)inc, memory_order_release);
}

static inline void truth_begin(struct truth *t, unsigned int thread, unsigned int key,
			       long inc, unsigned long bound)
{
	truth_begin_at(truth_cell(t, thread, key), inc, bound);
}

static inline void truth_end(struct truth *t, unsigned int thread, unsigned int key, long inc,
			     unsigned long bound, unsigned int cpu)
{
	truth_end_at(t, truth_cell(t, thread, key), thread, key, inc, bound, cpu);
}

void truth_read_done(struct truth *t, unsigned int key, struct truth_window *w);
void truth_read_started(struct truth *t, unsigned int key, struct truth_window *w);

static inline unsigned long truth_exact(const struct truth_window *w)
{
	return w->base + w->done_pos - w->done_neg;
}
static inline unsigned long truth_dpos(const struct truth_window *w)
{
	return w->started_pos - w->done_pos;
}
static inline unsigned long truth_dneg(const struct truth_window *w)
{
	return w->started_neg - w->done_neg;
}
static inline unsigned long truth_dbound(const struct truth_window *w)
{
	return w->started_bound - w->done_bound;
}
/* Nothing in flight between the two reads: the counter was settled. */
static inline bool truth_quiet(const struct truth_window *w)
{
	return !truth_dpos(w) && !truth_dneg(w);
}

/* Every thread parked: the expected level-0 word of @cpu for @key. */
unsigned long truth_cpu_word(struct truth *t, unsigned int key, unsigned int cpu);
/* Every thread parked: true when no update of @key is in flight. */
bool truth_settled(struct truth *t, unsigned int key, unsigned int *thread);
/* The thread's own home total for @key (owner only). */
unsigned long truth_home(struct truth *t, unsigned int thread, unsigned int key);

#endif /* _STRESS_TRUTH_H */
