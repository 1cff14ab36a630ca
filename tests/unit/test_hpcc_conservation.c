// SPDX-License-Identifier: GPL-2.0
/*
 * Conservation (docs/spec/hpcc.md#hpcc-properties): after random adds of every
 * size and sign from random CPUs, with the thread moving to another CPU
 * between the level-0 add and the carry, the precise sum equals the exact
 * (wrapping) total and every cell matches the reference model. The
 * skip-level optimisation on and off give the same level-0 words, root and
 * item low bits.
 */
#include <limits.h>
#include <stdlib.h>
#include <linux/kernel.h>
#include <kcompat/kcompat.h>
#include <linux/percpu_counter_tree.h>
#include "hpcc_util.h"

static const unsigned int cpu_counts[] = { 1, 2, 3, 4, 5, 8, 13, 64, 100, 256, 1000, 4096 };
static const unsigned long batches[] = { 2, 32, 256 };

/* One random sequence; returns false after a mismatch. */
static bool conserve_run(struct kt *t, unsigned int cpus, unsigned long batch,
			 unsigned long nr_ops, unsigned long long seed)
{
	struct hu_counter hc;
	struct hu_ref r;
	struct kt_rng rng;
	unsigned long total = 0, n, bad = 0;
	int mode = hu_lib_skip_mode();

	if (!hu_counter_init(t, &hc, batch))
		return false;
	t->checks++;
	if (!hu_ref_init(&r, batch, mode != 0)) {
		kt_fail(t, __FILE__, __LINE__, "model for %u CPUs", cpus);
		hu_counter_destroy(&hc);
		return false;
	}
	kt_rng_seed(&rng, seed);
	for (n = 0; n < nr_ops; n++) {
		unsigned int cpu0 = kt_rng_below(&rng, cpus);
		unsigned int cpu_path = kt_rng_below(&rng, 3) ? cpu0 : kt_rng_below(&rng, cpus);
		long inc = hu_rand_inc(&rng, batch << kt_rng_below(&rng, 12));

		hu_add_migrating(&hc.c, cpu0, cpu_path, inc);
		hu_ref_add(&r, cpu0, cpu_path, inc);
		total += (unsigned long)inc;
		if (n % 64 == 0 || n == nr_ops - 1) {
			bad += hu_ref_check_path(t, &r, &hc.c, cpu0, cpu_path, "conservation");
			KT_EXPECT(t, percpu_counter_tree_precise_sum(&hc.c) == (long)total,
				  "%u CPUs batch %lu op %lu: precise %ld, exact %ld", cpus,
				  batch, n, percpu_counter_tree_precise_sum(&hc.c), (long)total);
			if (bad)
				break;
		}
	}
	hu_ref_check(t, &r, &hc.c, "conservation, end");
	/* Settled: precise - approx is exactly the residual below the root. */
	KT_EXPECT(t, (unsigned long)(percpu_counter_tree_precise_sum(&hc.c) -
				     percpu_counter_tree_approximate_sum(&hc.c)) ==
		  hu_residual(&hc.c, &r.s), "%u CPUs batch %lu: residual identity", cpus, batch);
	hu_ref_free(&r);
	hu_counter_destroy(&hc);
	return !t->failures;
}

/* @arg: i << 8 | j, the indices of the CPU count and the batch. */
static void random_adds_one(struct kt *t, void *arg)
{
	unsigned int ij = *(unsigned int *)arg;

	conserve_run(t, cpu_counts[ij >> 8], batches[ij & 0xff], 4000, ij + 0xc0de);
}

static void conservation_random_adds(struct kt *t)
{
	unsigned int i, j, ij;

	for (i = 0; i < ARRAY_SIZE(cpu_counts); i++)
		for (j = 0; j < ARRAY_SIZE(batches); j++) {
			ij = i << 8 | j;
			if (!kt_run_config(t, cpu_counts[i], random_adds_one, &ij))
				return;
		}
}

/* Small increments only: the common case of many sub-batch adds. */
static void conservation_small_adds(struct kt *t)
{
	unsigned int i, cpus = 8;
	struct hu_counter hc;
	struct kt_rng rng;
	long total = 0;

	if (!kt_hpcc_setup(t, cpus) || !hu_counter_init(t, &hc, 4))
		return;
	kt_rng_seed(&rng, 77);
	for (i = 0; i < 200000; i++) {
		long inc = (long)kt_rng_below(&rng, 11) - 5;

		hu_add_migrating(&hc.c, kt_rng_below(&rng, cpus), kt_rng_below(&rng, cpus), inc);
		total += inc;
	}
	KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&hc.c), total);
	hu_counter_destroy(&hc);
}

static const unsigned int wrapping_cpus[] = { 1, 2, 4, 256 };

/* @arg: the index of the CPU count. */
static void wrapping_one(struct kt *t, void *arg)
{
	unsigned int i = *(unsigned int *)arg;
	const unsigned int *cpus = wrapping_cpus;

	{
		struct hu_counter hc;
		struct hu_ref r;
		unsigned int last = cpus[i] - 1;

		if (!hu_counter_init(t, &hc, 32))
			return;
		KT_ASSERT(t, hu_ref_init(&r, 32, hu_lib_skip_mode() != 0), "model");
		hu_add_migrating(&hc.c, 0, 0, LONG_MAX);
		hu_ref_add(&r, 0, 0, LONG_MAX);
		KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&hc.c), LONG_MAX);
		hu_add_migrating(&hc.c, last, last, 1);
		hu_ref_add(&r, last, last, 1);
		KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&hc.c), LONG_MIN);
		hu_add_migrating(&hc.c, last, 0, -1);
		hu_ref_add(&r, last, 0, -1);
		KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&hc.c), LONG_MAX);
		hu_add_migrating(&hc.c, 0, last, LONG_MIN);
		hu_ref_add(&r, 0, last, LONG_MIN);
		KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&hc.c), -1);
		hu_add_migrating(&hc.c, last, last, LONG_MIN + 1);
		hu_ref_add(&r, last, last, LONG_MIN + 1);
		KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&hc.c), LONG_MIN);
		hu_add_migrating(&hc.c, 0, 0, LONG_MIN);
		hu_ref_add(&r, 0, 0, LONG_MIN);
		KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&hc.c), 0);
		hu_ref_check(t, &r, &hc.c, "wrapping");
		/* Settled at 0: the approximation is within [0 - T, 0]. */
		KT_EXPECT(t, percpu_counter_tree_approximate_sum(&hc.c) <= 0 &&
			  (unsigned long)-percpu_counter_tree_approximate_sum(&hc.c) <=
			  r.s.settled_max, "%u CPUs: approx %ld", cpus[i],
			  percpu_counter_tree_approximate_sum(&hc.c));
		hu_ref_free(&r);
		hu_counter_destroy(&hc);
	}
}

/* Totals that wrap past LONG_MAX and LONG_MIN stay exact (modulo 2^64). */
static void conservation_wrapping_totals(struct kt *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wrapping_cpus); i++)
		kt_run_config(t, wrapping_cpus[i], wrapping_one, &i);
}

/*
 * Skip-level on vs off on identical sequences (with migration): equal
 * level-0 words, equal root, equal item & (M_l - 1) for every item; and
 * each run matches the model of its own mode exactly.
 */
static const unsigned int skip_cpus[] = { 4, 8, 64, 256, 1024, 4096 };

/* @arg: the index of the CPU count. */
static void skip_levels_one(struct kt *t, void *arg)
{
	unsigned int i = *(unsigned int *)arg;
	const unsigned int *cpus = skip_cpus;

	{
		struct hu_counter on, off;
		struct hu_ref r_on, r_off;
		struct kt_rng rng;
		unsigned long n, idx, items_differ = 0;
		unsigned int cpu;

		if (!hu_counter_init(t, &on, 32) || !hu_counter_init(t, &off, 32))
			return;
		KT_ASSERT(t, hu_ref_init(&r_on, 32, true) && hu_ref_init(&r_off, 32, false),
			  "model");
		kt_rng_seed(&rng, 5 + i);
		for (n = 0; n < 5000; n++) {
			unsigned int cpu0 = kt_rng_below(&rng, cpus[i]);
			unsigned int path = kt_rng_below(&rng, 2) ? cpu0 :
					    kt_rng_below(&rng, cpus[i]);
			long inc = hu_rand_inc(&rng, 32UL << kt_rng_below(&rng, 14));

			hu_lib_set_skip(true);
			hu_add_migrating(&on.c, cpu0, path, inc);
			hu_lib_set_skip(false);
			hu_add_migrating(&off.c, cpu0, path, inc);
			hu_ref_add(&r_on, cpu0, path, inc);
			hu_ref_add(&r_off, cpu0, path, inc);
		}
		hu_lib_set_skip(true);
		for (cpu = 0; cpu < cpus[i]; cpu++)
			KT_EXPECT(t, hu_level0(&on.c, cpu) == hu_level0(&off.c, cpu),
				  "%u CPUs: level0[%u]", cpus[i], cpu);
		for (idx = 0; idx < r_on.s.nr_items; idx++) {
			unsigned long m = hu_ref_item_mask(&r_on, idx);
			unsigned long a = hu_item(&on.c, idx), b = hu_item(&off.c, idx);

			if (!m) {
				KT_EXPECT(t, a == b, "%u CPUs: root %#lx vs %#lx", cpus[i], a, b);
				continue;
			}
			KT_EXPECT(t, (a & (m - 1)) == (b & (m - 1)),
				  "%u CPUs: item %lu low bits %#lx vs %#lx", cpus[i], idx,
				  a & (m - 1), b & (m - 1));
			items_differ += a != b;
		}
		/* Skipping really happened: some high bits differ (power check). */
		KT_EXPECT(t, items_differ > 0, "%u CPUs: the two paths never diverged", cpus[i]);
		hu_lib_set_skip(true);
		hu_ref_check(t, &r_on, &on.c, "skip on");
		hu_lib_set_skip(false);
		hu_ref_check(t, &r_off, &off.c, "skip off");
		hu_lib_set_skip(true);
		hu_ref_free(&r_on);
		hu_ref_free(&r_off);
		hu_counter_destroy(&on);
		hu_counter_destroy(&off);
	}
}

static void conservation_skip_levels_equivalent(struct kt *t)
{
	unsigned int i;

	if (hu_lib_skip_mode() < 0) {
		kt_skip(t, "the library has no skip-level switch");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(skip_cpus); i++)
		kt_run_config(t, skip_cpus[i], skip_levels_one, &i);
}

static const struct kt_case cases[] = {
	KT_CASE(conservation_random_adds),
	KT_CASE(conservation_small_adds),
	KT_CASE(conservation_wrapping_totals),
	KT_CASE(conservation_skip_levels_equivalent),
};

KT_MAIN("hpcc_conservation", cases)
