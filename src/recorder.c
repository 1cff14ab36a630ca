// SPDX-License-Identifier: GPL-2.0
/*
 * Flight recorder: a ring of the last operations of every thread, dumped
 * when an invariant fails. Entries are C11 relaxed atomics, so a dump
 * made while other threads still run is race-free for TSan. Each ring
 * has one writer (its thread); stress_trace() from another thread may
 * lose an entry but never corrupts memory.
 *
 * The fast path is three relaxed stores and the head's release store:
 * entry h goes to slot h & mask, then head becomes h + 1. A dump reads
 * the head, the entries, then the head again: entry i was overwritten
 * once the writer started entry i + depth, so only the entries above the
 * second head - depth are whole.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "recorder.h"
#include "run.h"

struct flight_recorder {
	unsigned int nr_rings, depth;	/* depth: a power of two */
	struct stress_trace_ring *rings;
	struct stress_trace_entry *entries;
};

struct flight_recorder *recorder_new(unsigned int nr_rings, unsigned int depth)
{
	struct flight_recorder *r = calloc(1, sizeof(*r));
	unsigned int i;

	if (!r)
		return NULL;
	r->nr_rings = nr_rings;
	r->depth = 1;
	while (r->depth < depth)
		r->depth <<= 1;
	depth = r->depth;
	r->rings = aligned_alloc(64, sizeof(*r->rings) * (nr_rings ? nr_rings : 1));
	r->entries = calloc((size_t)nr_rings * depth, sizeof(*r->entries));
	if (!r->rings || !r->entries) {
		recorder_free(r);
		return NULL;
	}
	memset(r->rings, 0, sizeof(*r->rings) * nr_rings);
	for (i = 0; i < nr_rings; i++) {
		r->rings[i].e = r->entries + (size_t)i * depth;
		r->rings[i].mask = depth - 1;
	}
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

static inline void ring_add(struct flight_recorder *r, unsigned int ring, const char *op,
			    long a, long b)
{
	if (r && ring < r->nr_rings)
		stress_trace_to(&r->rings[ring], op, a, b);
}

void recorder_add(struct flight_recorder *r, unsigned int ring, const char *op,
		  long a, long b)
{
	ring_add(r, ring, op, a, b);
}

/* The engine's services (scenario.h): here, so that the fast path is one call. */
void stress_trace(struct stress *s, unsigned int cpu, const char *op, long a, long b)
{
	ring_add(s->setup.rec, cpu, op, a, b);
}

struct stress_trace_ring *stress_trace_ring(struct stress *s, unsigned int cpu)
{
	return s->setup.rec && cpu < s->setup.rec->nr_rings ? &s->setup.rec->rings[cpu] : NULL;
}

static size_t dump_ring(struct flight_recorder *r, unsigned int ring, unsigned int n,
			char *buf, size_t len)
{
	struct stress_trace_ring *rg = &r->rings[ring];
	unsigned long h = atomic_load_explicit(&rg->head, memory_order_acquire), i, h2;
	struct { const char *op; long a, b; } got[256];
	size_t used = 0;

	if (n > r->depth)
		n = r->depth;
	if (n > 256)
		n = 256;
	for (i = h > n ? h - n : 0; i < h; i++) {
		struct stress_trace_entry *e = &rg->e[i & (r->depth - 1)];

		got[i % n].op = (const char *)atomic_load_explicit(&e->op, memory_order_relaxed);
		got[i % n].a = atomic_load_explicit(&e->a, memory_order_relaxed);
		got[i % n].b = atomic_load_explicit(&e->b, memory_order_relaxed);
	}
	atomic_thread_fence(memory_order_acquire);
	h2 = atomic_load_explicit(&rg->head, memory_order_relaxed);
	for (i = h > n ? h - n : 0; i < h && used < len; i++) {
		/* Overwritten (or being) while we read it. */
		if (i + r->depth <= h2 || !got[i % n].op)
			continue;
		used += snprintf(buf + used, len - used, "#   %s %u op#%lu %s %ld %ld\n",
				 "thread", ring, i, got[i % n].op, got[i % n].a, got[i % n].b);
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
