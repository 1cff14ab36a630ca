// SPDX-License-Identifier: GPL-2.0
/* Ground truth (see truth.h for the protocol and why it is exact). */
#include <stdlib.h>
#include <string.h>
#include "truth.h"

static struct truth_cell *cell(struct truth *t, unsigned int thread, unsigned int key)
{
	return &t->cells[(size_t)thread * t->stride + key];
}

struct truth *truth_new(unsigned int nr_threads, unsigned int nr_keys)
{
	struct truth *t = calloc(1, sizeof(*t));
	size_t bytes;

	if (!t)
		return NULL;
	t->nr_threads = nr_threads;
	t->nr_keys = nr_keys;
	/* Pad each thread's cells to whole cache lines: no false sharing. */
	t->stride = nr_keys;
	while ((t->stride * sizeof(struct truth_cell)) % 64)
		t->stride++;
	bytes = (size_t)nr_threads * t->stride * sizeof(struct truth_cell);
	t->cells = aligned_alloc(64, bytes);
	t->hop = calloc((size_t)nr_threads * nr_keys, sizeof(*t->hop));
	t->base = calloc(nr_keys, sizeof(*t->base));
	if (!t->cells || !t->hop || !t->base) {
		truth_free(t);
		return NULL;
	}
	memset(t->cells, 0, bytes);
	return t;
}

void truth_free(struct truth *t)
{
	if (!t)
		return;
	free(t->cells);
	free(t->hop);
	free(t->base);
	free(t);
}

/* Owner-only read-modify-write: a load and a store, no locked instruction. */
static inline void bump(atomic_ulong *p, unsigned long v, memory_order mo)
{
	atomic_store_explicit(p, atomic_load_explicit(p, memory_order_relaxed) + v, mo);
}

void truth_begin(struct truth *t, unsigned int thread, unsigned int key, long inc,
		 unsigned long bound)
{
	struct truth_cell *c = cell(t, thread, key);

	if (inc >= 0)
		bump(&c->started_pos, inc, memory_order_relaxed);
	else
		bump(&c->started_neg, -(unsigned long)inc, memory_order_relaxed);
	bump(&c->started_bound, bound, memory_order_relaxed);
	/*
	 * Whoever observes a cell write of this update (all of them are
	 * atomic read-modify-writes after this fence) and then issues an
	 * acquire fence sees the started sums.
	 */
	atomic_thread_fence(memory_order_release);
}

void truth_end(struct truth *t, unsigned int thread, unsigned int key, long inc,
	       unsigned long bound, unsigned int cpu)
{
	struct truth_cell *c = cell(t, thread, key);

	if (cpu == thread)
		bump(&c->home, inc, memory_order_relaxed);
	else
		atomic_fetch_add_explicit(&t->hop[(size_t)cpu * t->nr_keys + key], inc,
					  memory_order_relaxed);
	bump(&c->done_bound, bound, memory_order_release);
	if (inc >= 0)
		bump(&c->done_pos, inc, memory_order_release);
	else
		bump(&c->done_neg, -(unsigned long)inc, memory_order_release);
}

void truth_read_done(struct truth *t, unsigned int key, struct truth_window *w)
{
	unsigned long pos = 0, neg = 0, bound = 0;
	unsigned int i;

	for (i = 0; i < t->nr_threads; i++) {
		struct truth_cell *c = cell(t, i, key);

		pos += atomic_load_explicit(&c->done_pos, memory_order_acquire);
		neg += atomic_load_explicit(&c->done_neg, memory_order_acquire);
		bound += atomic_load_explicit(&c->done_bound, memory_order_acquire);
	}
	w->done_pos = pos;
	w->done_neg = neg;
	w->done_bound = bound;
	w->base = t->base[key];
	atomic_thread_fence(memory_order_seq_cst);
}

void truth_read_started(struct truth *t, unsigned int key, struct truth_window *w)
{
	unsigned long pos = 0, neg = 0, bound = 0;
	unsigned int i;

	atomic_thread_fence(memory_order_seq_cst);
	for (i = 0; i < t->nr_threads; i++) {
		struct truth_cell *c = cell(t, i, key);

		pos += atomic_load_explicit(&c->started_pos, memory_order_acquire);
		neg += atomic_load_explicit(&c->started_neg, memory_order_acquire);
		bound += atomic_load_explicit(&c->started_bound, memory_order_acquire);
	}
	w->started_pos = pos;
	w->started_neg = neg;
	w->started_bound = bound;
}

unsigned long truth_cpu_word(struct truth *t, unsigned int key, unsigned int cpu)
{
	return atomic_load_explicit(&cell(t, cpu, key)->home, memory_order_relaxed) +
	       atomic_load_explicit(&t->hop[(size_t)cpu * t->nr_keys + key],
				    memory_order_relaxed);
}

bool truth_settled(struct truth *t, unsigned int key, unsigned int *thread)
{
	unsigned int i;

	for (i = 0; i < t->nr_threads; i++) {
		struct truth_cell *c = cell(t, i, key);

		if (atomic_load(&c->started_pos) != atomic_load(&c->done_pos) ||
		    atomic_load(&c->started_neg) != atomic_load(&c->done_neg) ||
		    atomic_load(&c->started_bound) != atomic_load(&c->done_bound)) {
			*thread = i;
			return false;
		}
	}
	return true;
}

unsigned long truth_home(struct truth *t, unsigned int thread, unsigned int key)
{
	return atomic_load_explicit(&cell(t, thread, key)->home, memory_order_relaxed);
}
