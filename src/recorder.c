// SPDX-License-Identifier: GPL-2.0
/*
 * Flight recorder: a ring of the last operations of every thread, dumped
 * when an invariant fails. Entries are C11 relaxed atomics, so a dump
 * made while other threads still run is race-free for TSan; a dumped
 * entry whose sequence number does not match was being overwritten and is
 * skipped. Each ring has one writer (its thread); stress_trace() from
 * another thread may lose an entry but never corrupts memory.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stress.h"

struct rec_entry {
	atomic_ulong seq;
	_Atomic(uintptr_t) op;
	atomic_long a, b;
};

struct rec_ring {
	atomic_ulong head;
	struct rec_entry *e;
} __attribute__((aligned(64)));

struct flight_recorder {
	unsigned int nr_rings, depth;
	struct rec_ring *rings;
	struct rec_entry *entries;
};

struct flight_recorder *recorder_new(unsigned int nr_rings, unsigned int depth)
{
	struct flight_recorder *r = calloc(1, sizeof(*r));
	unsigned int i;

	if (!r)
		return NULL;
	r->nr_rings = nr_rings;
	r->depth = depth;
	r->rings = aligned_alloc(64, sizeof(*r->rings) * (nr_rings ? nr_rings : 1));
	r->entries = calloc((size_t)nr_rings * depth, sizeof(*r->entries));
	if (!r->rings || !r->entries) {
		recorder_free(r);
		return NULL;
	}
	memset(r->rings, 0, sizeof(*r->rings) * nr_rings);
	for (i = 0; i < nr_rings; i++)
		r->rings[i].e = r->entries + (size_t)i * depth;
	return r;
}

void recorder_free(struct flight_recorder *r)
{
	if (!r)
		return;
	free(r->rings);
	free(r->entries);
	free(r);
}

void recorder_add(struct flight_recorder *r, unsigned int ring, const char *op,
		  long a, long b)
{
	struct rec_ring *rg;
	struct rec_entry *e;
	unsigned long h;

	if (!r || ring >= r->nr_rings)
		return;
	rg = &r->rings[ring];
	h = atomic_load_explicit(&rg->head, memory_order_relaxed);
	e = &rg->e[h % r->depth];
	atomic_store_explicit(&e->seq, ~0UL, memory_order_relaxed);
	atomic_store_explicit(&e->op, (uintptr_t)op, memory_order_relaxed);
	atomic_store_explicit(&e->a, a, memory_order_relaxed);
	atomic_store_explicit(&e->b, b, memory_order_relaxed);
	atomic_store_explicit(&e->seq, h, memory_order_release);
	atomic_store_explicit(&rg->head, h + 1, memory_order_release);
}

static size_t dump_ring(struct flight_recorder *r, unsigned int ring, unsigned int n,
			char *buf, size_t len)
{
	struct rec_ring *rg = &r->rings[ring];
	unsigned long h = atomic_load_explicit(&rg->head, memory_order_acquire), i;
	size_t used = 0;

	if (n > r->depth)
		n = r->depth;
	for (i = h > n ? h - n : 0; i < h && used < len; i++) {
		struct rec_entry *e = &rg->e[i % r->depth];
		unsigned long seq = atomic_load_explicit(&e->seq, memory_order_acquire);
		const char *op = (const char *)atomic_load_explicit(&e->op, memory_order_relaxed);
		long a = atomic_load_explicit(&e->a, memory_order_relaxed);
		long b = atomic_load_explicit(&e->b, memory_order_relaxed);

		if (seq != i || !op)
			continue;
		used += snprintf(buf + used, len - used, "#   %s %u op#%lu %s %ld %ld\n",
				 ring < r->nr_rings ? "thread" : "?", ring, i, op, a, b);
	}
	return used < len ? used : len;
}

char *recorder_dump(struct flight_recorder *r, int ring, unsigned int n)
{
	size_t len = 64 << 10, used = 0;
	char *buf;
	unsigned int i, shown = 0;

	if (!r || !(buf = malloc(len)))
		return NULL;
	buf[0] = 0;
	if (ring >= 0 && (unsigned int)ring < r->nr_rings) {
		used = dump_ring(r, ring, n, buf, len);
	} else {
		/* No single culprit: the busiest few rings' last entries. */
		for (i = 0; i < r->nr_rings && shown < 8 && used < len - 1; i++) {
			if (!atomic_load_explicit(&r->rings[i].head, memory_order_relaxed))
				continue;
			used += dump_ring(r, i, 4, buf + used, len - used);
			shown++;
		}
	}
	buf[used < len ? used : len - 1] = 0;
	return buf;
}
