// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include <linux/atomic.h>
#include <linux/percpu.h>
#include "bench.h"
#include "variants.h"

const char *const bench_variant_name[BV_NR_ADD] = {
	[BV_ATOMIC] = "atomic",
	[BV_KPCC] = "percpu_counter",
	[BV_SPLIT] = "split",
	[BV_HPCC] = "hpcc",
	[BV_SPLIT_CALL] = "split_call",
};

int bench_variant_parse(const char *name)
{
	int v;

	for (v = 0; v < BV_NR_ADD; v++)
		if (!strcmp(name, bench_variant_name[v]))
			return v;
	return -1;
}

void *bench_items_alloc(void)
{
	size_t isz = percpu_counter_tree_items_size();

	/* aligned_alloc() wants a multiple of the alignment, and not 0. */
	isz = (isz + 127) & ~127UL;
	return aligned_alloc(128, isz ? isz : 128);
}

struct bench_counters *bench_counters_new(unsigned long batch)
{
	struct bench_counters *bc;

	bc = aligned_alloc(128, sizeof(*bc));
	if (!bc)
		return NULL;
	memset(bc, 0, sizeof(*bc));
	bc->batch = batch;
	bc->hpcc_items = bench_items_alloc();
	bc->split = alloc_percpu(unsigned long);
	bc->split_call = alloc_percpu(unsigned long);
	if (!bc->hpcc_items || !bc->split || !bc->split_call || kpcc_init(&bc->kpcc))
		goto fail;
	if (percpu_counter_tree_init(&bc->hpcc, bc->hpcc_items, batch, GFP_KERNEL))
		goto fail;
	return bc;
fail:
	fprintf(stderr, "hpcc-bench: cannot create the counters at %u CPUs\n",
		nr_cpu_ids);
	kpcc_destroy(&bc->kpcc);
	free_percpu(bc->split);
	free_percpu(bc->split_call);
	free(bc->hpcc_items);
	free(bc);
	return NULL;
}

void bench_counters_free(struct bench_counters *bc)
{
	if (!bc)
		return;
	percpu_counter_tree_destroy(&bc->hpcc);
	kpcc_destroy(&bc->kpcc);
	free_percpu(bc->split);
	free_percpu(bc->split_call);
	free(bc->hpcc_items);
	free(bc);
}

/*
 * One tight loop per variant, so that the loop itself costs the same and
 * no indirect call is timed. The kernel's percpu_counter_add_batch() and
 * percpu_counter_tree_add() are out of line, atomic_long_add() and
 * this_cpu_add() inline: the same holds here.
 */
static noinline void add_atomic(struct bench_counters *bc, unsigned long n)
{
	while (n--)
		atomic_long_add(1, &bc->atomic);
}

static noinline void add_kpcc(struct bench_counters *bc, unsigned long n)
{
	s32 batch = bc->batch;

	while (n--)
		kpcc_add_batch(&bc->kpcc, 1, batch);
}

static noinline void add_split(struct bench_counters *bc, unsigned long n)
{
	while (n--)
		this_cpu_add(*bc->split, 1);
}

/* Out of line, as percpu_counter_tree_add() is: the call is part of the cost. */
static noinline void split_call_add(unsigned long __percpu *counter, long inc)
{
	this_cpu_add(*counter, inc);
}

static noinline void add_split_call(struct bench_counters *bc, unsigned long n)
{
	while (n--)
		split_call_add(bc->split_call, 1);
}

static noinline void add_hpcc(struct bench_counters *bc, unsigned long n)
{
	while (n--)
		percpu_counter_tree_add(&bc->hpcc, 1);
}

void bench_add_loop(struct bench_counters *bc, enum bench_variant v, unsigned long n)
{
	switch (v) {
	case BV_ATOMIC:
		add_atomic(bc, n);
		break;
	case BV_KPCC:
		add_kpcc(bc, n);
		break;
	case BV_SPLIT:
		add_split(bc, n);
		break;
	case BV_HPCC:
		add_hpcc(bc, n);
		break;
	case BV_SPLIT_CALL:
		add_split_call(bc, n);
		break;
	default:
		break;
	}
}

static unsigned long pcpu_sum(unsigned long __percpu *p)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += __atomic_load_n(per_cpu_ptr(p, cpu), __ATOMIC_RELAXED);
	return sum;
}

static unsigned long split_sum(struct bench_counters *bc)
{
	return pcpu_sum(bc->split);
}

long bench_precise(struct bench_counters *bc, enum bench_variant v)
{
	switch (v) {
	case BV_ATOMIC:
		return atomic_long_read(&bc->atomic);
	case BV_KPCC:
		return kpcc_sum(&bc->kpcc);
	case BV_SPLIT:
		return split_sum(bc);
	case BV_HPCC:
		return percpu_counter_tree_precise_sum(&bc->hpcc);
	case BV_SPLIT_CALL:
		return pcpu_sum(bc->split_call);
	default:
		return 0;
	}
}

void bench_approx_loop(struct bench_counters *bc, enum bench_variant v, unsigned long n)
{
	unsigned long acc = 0;

	switch (v) {
	case BV_ATOMIC:
		while (n--)
			acc += atomic_long_read(&bc->atomic);
		break;
	case BV_KPCC:
		while (n--)
			acc += kpcc_read(&bc->kpcc);
		break;
	case BV_SPLIT:
		while (n--)
			acc += split_sum(bc);
		break;
	case BV_HPCC:
		while (n--)
			acc += percpu_counter_tree_approximate_sum(&bc->hpcc);
		break;
	default:
		break;
	}
	bench_sink += acc;
}

void bench_precise_loop(struct bench_counters *bc, enum bench_variant v, unsigned long n)
{
	unsigned long acc = 0;

	switch (v) {
	case BV_ATOMIC:
		while (n--)
			acc += atomic_long_read(&bc->atomic);
		break;
	case BV_KPCC:
		while (n--)
			acc += kpcc_sum(&bc->kpcc);
		break;
	case BV_SPLIT:
		while (n--)
			acc += split_sum(bc);
		break;
	case BV_HPCC:
		while (n--)
			acc += percpu_counter_tree_precise_sum(&bc->hpcc);
		break;
	default:
		break;
	}
	bench_sink += acc;
}

unsigned long bench_mem_bytes(enum bench_variant v, unsigned int nr_cpus,
			      unsigned long hpcc_items_size)
{
	switch (v) {
	case BV_ATOMIC:
		return sizeof(atomic_long_t);
	case BV_KPCC:
		return KPCC_KERNEL_STRUCT_SIZE + (unsigned long)nr_cpus * sizeof(s32);
	case BV_SPLIT:
		return sizeof(void *) + (unsigned long)nr_cpus * sizeof(unsigned long);
	case BV_HPCC:
		return sizeof(struct percpu_counter_tree) + hpcc_items_size +
		       (unsigned long)nr_cpus * sizeof(unsigned long);
	default:
		return 0;
	}
}
