// SPDX-License-Identifier: GPL-2.0
/* Ground truth (see truth.h for the protocol and why it is exact). */
#include <stdlib.h>
#include <string.h>
#include "truth.h"

#define cell truth_cell

struct truth *truth_new(unsigned int nr_threads, unsigned int nr_keys, unsigned int nr_readers)
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
	t->nr_readers = nr_readers;
	t->flight = calloc((size_t)(nr_readers ? nr_readers : 1) * nr_threads * 2,
			   sizeof(*t->flight));
	if (!t->cells || !t->hop || !t->base || !t->flight) {
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
	free(t->flight);
	free(t);
}

static void read_done(struct truth *t, unsigned int key, struct truth_window *w)
{
	unsigned long pos = 0, neg = 0, p, n;
	unsigned int i;

	for (i = 0; i < t->nr_threads; i++) {
		struct truth_cell *c = cell(t, i, key);

		p = atomic_load_explicit(&c->done_pos, memory_order_acquire);
		n = atomic_load_explicit(&c->done_neg, memory_order_acquire);
		if (w->flight) {
			w->flight[2 * i] = p;
			w->flight[2 * i + 1] = n;
		}
		pos += p;
		neg += n;
	}
	w->done_pos = pos;
	w->done_neg = neg;
	w->base = t->base[key];
	atomic_thread_fence(memory_order_seq_cst);
}

void truth_read_done(struct truth *t, unsigned int key, struct truth_window *w)
{
	w->flight = NULL;
	w->unit = 0;
	read_done(t, key, w);
}

void truth_read_done_bounded(struct truth *t, unsigned int key, struct truth_window *w,
			     unsigned int reader, unsigned long unit)
{
	w->flight = t->flight + (size_t)reader * t->nr_threads * 2;
	w->unit = unit;
	read_done(t, key, w);
}

/* roundup(@v, @unit), @unit a power of two; 0 without carries. */
static unsigned long carry_bound(unsigned long v, unsigned long unit)
{
	return unit ? (v + unit - 1) & ~(unit - 1) : 0;
}

void truth_read_started(struct truth *t, unsigned int key, struct truth_window *w)
{
	unsigned long pos = 0, neg = 0, bound = 0, p, n;
	unsigned int i;

	atomic_thread_fence(memory_order_seq_cst);
	for (i = 0; i < t->nr_threads; i++) {
		struct truth_cell *c = cell(t, i, key);

		p = atomic_load_explicit(&c->started_pos, memory_order_acquire);
		n = atomic_load_explicit(&c->started_neg, memory_order_acquire);
		if (w->flight) {
			/* Its one update that may be mid-carry is among these. */
			unsigned long dp = p - w->flight[2 * i], dn = n - w->flight[2 * i + 1];

			bound += carry_bound(dp > dn ? dp : dn, w->unit);
		}
		pos += p;
		neg += n;
	}
	w->started_pos = pos;
	w->started_neg = neg;
	w->bound = bound;
}

/* The adds thread @thread made as its own CPU. */
static unsigned long truth_own(struct truth *t, unsigned int thread, unsigned int key)
{
	struct truth_cell *c = cell(t, thread, key);

	return atomic_load_explicit(&c->done_pos, memory_order_relaxed) -
	       atomic_load_explicit(&c->done_neg, memory_order_relaxed) -
	       atomic_load_explicit(&c->foreign, memory_order_relaxed);
}

unsigned long truth_cpu_word(struct truth *t, unsigned int key, unsigned int cpu)
{
	return truth_own(t, cpu, key) +
	       atomic_load_explicit(&t->hop[(size_t)cpu * t->nr_keys + key],
				    memory_order_relaxed);
}

bool truth_settled(struct truth *t, unsigned int key, unsigned int *thread)
{
	unsigned int i;

	for (i = 0; i < t->nr_threads; i++) {
		struct truth_cell *c = cell(t, i, key);

		if (atomic_load(&c->started_pos) != atomic_load(&c->done_pos) ||
		    atomic_load(&c->started_neg) != atomic_load(&c->done_neg)) {
			*thread = i;
			return false;
		}
	}
	return true;
}

unsigned long truth_home(struct truth *t, unsigned int thread, unsigned int key)
{
	return truth_own(t, thread, key);
}
