/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The four counters compared: one global atomic, the kernel-style
 * percpu_counter, a plain per-CPU split counter (precise sum only) and
 * hpcc. One instance of each, created for the current nr_cpu_ids.
 */
#ifndef _BENCH_VARIANTS_H
#define _BENCH_VARIANTS_H

#include <linux/percpu_counter_tree.h>
#include "kpcc.h"

enum bench_variant {
	BV_ATOMIC,
	BV_KPCC,
	BV_SPLIT,
	BV_HPCC,
	BV_NR,
	/*
	 * Add loops only: the split counter's add behind an out-of-line call,
	 * the shape of percpu_counter_tree_add() (pointer and increment in,
	 * nothing out): what hpcc's carry logic costs on top of the same
	 * per-CPU add and call.
	 */
	BV_SPLIT_CALL = BV_NR,
	BV_NR_ADD,
};

extern const char *const bench_variant_name[BV_NR_ADD];

struct bench_counters {
	/* Each shared word on its own cache line. */
	atomic_long_t atomic __attribute__((aligned(128)));
	struct kpcc kpcc __attribute__((aligned(128)));
	struct percpu_counter_tree hpcc __attribute__((aligned(128)));
	void *hpcc_items;
	unsigned long __percpu *split;
	unsigned long __percpu *split_call;
	unsigned long batch;
};

/* Item memory for one hpcc counter (cache-line aligned), or NULL. */
void *bench_items_alloc(void);
/* NULL on failure (message on stderr). Call after bench_set_cpus(). */
struct bench_counters *bench_counters_new(unsigned long batch);
void bench_counters_free(struct bench_counters *bc);
/* -1 if @name is not a variant (add loops: BV_SPLIT_CALL too). */
int bench_variant_parse(const char *name);

/* @n adds of +1 by the calling thread on its virtual CPU. */
void bench_add_loop(struct bench_counters *bc, enum bench_variant v, unsigned long n);
/* @n approximate reads (BV_SPLIT has none: it sums). */
void bench_approx_loop(struct bench_counters *bc, enum bench_variant v, unsigned long n);
/* @n precise sums. */
void bench_precise_loop(struct bench_counters *bc, enum bench_variant v, unsigned long n);
/* The variant's precise value (for a sanity check after a run). */
long bench_precise(struct bench_counters *bc, enum bench_variant v);

/* Bytes one counter needs at nr_cpu_ids CPUs (kernel layout, x86-64). */
unsigned long bench_mem_bytes(enum bench_variant v, unsigned int nr_cpus,
			      unsigned long hpcc_items_size);

#endif /* _BENCH_VARIANTS_H */
