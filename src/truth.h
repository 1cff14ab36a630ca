/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ground truth for counters updated concurrently by the virtual CPUs
 * (docs/spec/hpcc.md#hpcc-residual). Per thread and counter, monotonic sums of
 * the positive and negative increments, bumped before the update starts
 * ("started") and after it returns ("done"). A checker reads every thread's
 * done sums, then the counter, then every thread's started sums: every update
 * not counted in the first read and visible in the counter is counted in the
 * last, so the exact level-0 total at the counter read lies in
 *	[D - dneg, D + dpos],	D = base + done_pos - done_neg,
 *	dpos = started_pos - done_pos, dneg = started_neg - done_neg.
 * Pending carries: a thread has at most one update in flight, so at the
 * counter read at most one update per thread had done its level-0 add
 * and not yet its carry; it is among the thread's updates between the
 * two reads, so |its inc| <= max(that thread's dpos, dneg), and its carry
 * is at most roundup(|inc|, unit) (the top threshold). A bounded read
 * keeps each thread's done sums to sum that per thread: dbound. (The
 * writer used to publish the bounds as two more sums, two stores more
 * per add; this bound is never larger.)
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
#include <stddef.h>

struct truth_cell {
	atomic_ulong started_pos, started_neg;
	atomic_ulong done_pos, done_neg;
	atomic_ulong foreign;	/* adds made as another CPU (those are in hop[]) */
} __attribute__((aligned(64)));	/* one line: a checker's read moves one, not two */

struct truth {
	unsigned int nr_threads, nr_keys, stride;	/* stride: cells per thread */
	struct truth_cell *cells;
	atomic_ulong *hop;	/* [cpu * nr_keys + key]: adds made as a foreign CPU */
	unsigned long *base;	/* per key; changed only while every thread is parked */
	unsigned int nr_readers;	/* bounded reads at once (one per reader id) */
	unsigned long *flight;	/* [reader][thread][2]: done sums at a bounded read */
};

/* A bracketed read of one counter's truth. */
struct truth_window {
	unsigned long done_pos, done_neg;
	unsigned long started_pos, started_neg;
	unsigned long base;
	unsigned long bound;	/* pending carries, bounded reads only (else 0) */
	unsigned long *flight;	/* bounded read: each thread's done sums */
	unsigned long unit;	/* bounded read: carries are multiples of it (0: none) */
};

/* @nr_readers: how many threads may make a bounded read at once. */
struct truth *truth_new(unsigned int nr_threads, unsigned int nr_keys, unsigned int nr_readers);
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
 * An update in flight: the sums its end publishes. Between a thread's
 * updates its started and done sums are equal (it is their one writer),
 * so begin computes the new sums once and end stores them: no load.
 */
struct truth_op {
	atomic_ulong *done;		/* done_pos or done_neg */
	unsigned long sum;		/* its value once the update is done */
};

/* Owner-only: the new value of a sum the calling thread alone writes. */
static inline unsigned long truth_next(atomic_ulong *p, unsigned long v)
{
	return atomic_load_explicit(p, memory_order_relaxed) + v;
}

/*
 * The member at @pos_off, or the one @neg_step bytes on when @neg is 1:
 * arithmetic, not a branch (the signs are random; a compiler made the
 * select of two addresses a branch, mispredicted every other add).
 */
#define truth_sign_field(c, pos_off, neg_step, neg) \
	((atomic_ulong *)((char *)(c) + (pos_off) + (neg) * (neg_step)))

/*
 * Inline: every add of counter_storm brackets itself with these two. The
 * _at forms take the cell (a thread can keep truth_cell(t, thread, 0) and
 * index it by key).
 */
static inline struct truth_op truth_begin_at(struct truth_cell *c, long inc)
{
	/* The sign picks the sum: done_pos or done_neg, started_pos or started_neg. */
	unsigned long neg = (unsigned long)inc >> (8 * sizeof(long) - 1);
	unsigned long mag = ((unsigned long)inc ^ -neg) + neg;	/* |inc| */
	atomic_ulong *done = truth_sign_field(c, offsetof(struct truth_cell, done_pos),
					      offsetof(struct truth_cell, done_neg) -
					      offsetof(struct truth_cell, done_pos), neg);
	struct truth_op op = { .done = done, .sum = truth_next(done, mag) };

	atomic_store_explicit(truth_sign_field(c, offsetof(struct truth_cell, started_pos),
					       offsetof(struct truth_cell, started_neg) -
					       offsetof(struct truth_cell, started_pos), neg),
			      op.sum, memory_order_relaxed);
	/*
	 * Whoever observes a cell write of this update (all of them come
	 * after this fence) and then issues an acquire fence sees the
	 * started sums.
	 */
	atomic_thread_fence(memory_order_release);
	return op;
}

/* @cpu: the CPU identity the add was made as (its level-0 word). */
static inline void truth_end_at(struct truth *t, struct truth_cell *c, const struct truth_op *op,
				unsigned int thread, unsigned int key, long inc,
				unsigned int cpu)
{
	if (cpu != thread) {
		truth_bump(&c->foreign, inc, memory_order_relaxed);
		atomic_fetch_add_explicit(&t->hop[(size_t)cpu * t->nr_keys + key], inc,
					  memory_order_relaxed);
	}
	atomic_store_explicit(op->done, op->sum, memory_order_release);
}

/* One update by @thread, bracketed by hand (tests): begin, then end. */
static inline struct truth_op truth_begin(struct truth *t, unsigned int thread, unsigned int key,
					  long inc)
{
	return truth_begin_at(truth_cell(t, thread, key), inc);
}

static inline void truth_end(struct truth *t, const struct truth_op *op, unsigned int thread,
			     unsigned int key, long inc, unsigned int cpu)
{
	truth_end_at(t, truth_cell(t, thread, key), op, thread, key, inc, cpu);
}

void truth_read_done(struct truth *t, unsigned int key, struct truth_window *w);
/*
 * The same, for a read that needs dbound: @reader (< nr_readers) is the
 * caller's own, @unit the counter's top carry threshold (0: no carries).
 */
void truth_read_done_bounded(struct truth *t, unsigned int key, struct truth_window *w,
			     unsigned int reader, unsigned long unit);
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
	return w->bound;
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
