// SPDX-License-Identifier: GPL-2.0
/*
 * percpu_counter_tree_set() (docs/spec/hpcc.md#hpcc-set, #hpcc-properties):
 * precise == v and, on a fresh counter, approx == v; then add(v), add(-2v)
 * gives 0. On a counter holding residuals the approximation keeps its lag:
 * approx == v - R.
 */
#include <limits.h>
#include <stdlib.h>
#include <linux/kernel.h>
#include <kcompat/kcompat.h>
#include <linux/percpu_counter_tree.h>
#include "hpcc_util.h"

static unsigned int set_values(unsigned long batch, long *v)
{
	static const long kunit[] = { 5, 100, 127, 128, 255, 256, 4095, 4096, 500000 };
	unsigned int n = 0, k;

	v[n++] = 0;
	v[n++] = LONG_MAX;
	v[n++] = LONG_MIN;
	for (k = 0; k < ARRAY_SIZE(kunit); k++) {
		v[n++] = kunit[k];
		v[n++] = -kunit[k];
	}
	for (k = 0; k < 3; k++) {
		v[n++] = (long)batch - 1 + k;
		v[n++] = -((long)batch - 1 + k);
	}
	v[n++] = 1;
	v[n++] = -1;
	for (k = 1; k < 63; k++) {
		v[n++] = 1L << k;
		v[n++] = -(1L << k);
	}
	return n;
}

static const unsigned int fresh_cpus[] = { 1, 2, 3, 4, 256 };

/* @arg: the index of the CPU count; both batches in one process. */
static void fresh_one(struct kt *t, void *arg)
{
	static const unsigned long batches[] = { 2, 32 };
	unsigned int i = *(unsigned int *)arg, j, k, n;
	const unsigned int *cpus = fresh_cpus;
	long v[200];

	for (j = 0; j < ARRAY_SIZE(batches); j++) {
		struct hpcc_shape s;

		KT_ASSERT(t, hpcc_shape_compute(&s, cpus[i], batches[j]) == 0, "");
		n = set_values(batches[j], v);
		for (k = 0; k < n; k++) {
			struct hu_counter hc;
			long d;

			if (!hu_counter_init(t, &hc, batches[j]))
				return;
			percpu_counter_tree_set(&hc.c, v[k]);
			KT_EXPECT(t, percpu_counter_tree_precise_sum(&hc.c) == v[k] &&
				  percpu_counter_tree_approximate_sum(&hc.c) == v[k],
				  "%u CPUs set(%ld): precise %ld approx %ld", cpus[i], v[k],
				  percpu_counter_tree_precise_sum(&hc.c),
				  percpu_counter_tree_approximate_sum(&hc.c));
			KT_EXPECT(t, percpu_counter_tree_approximate_compare_value(&hc.c, v[k]) == 0 &&
				  percpu_counter_tree_precise_compare_value(&hc.c, v[k]) == 0,
				  "set(%ld): compare_value", v[k]);
			kc_set_cpu(cpus[i] - 1);
			percpu_counter_tree_add(&hc.c, v[k]);
			KT_EXPECT(t, percpu_counter_tree_precise_sum(&hc.c) ==
				  (long)(2 * (unsigned long)v[k]), "set(%ld) + v", v[k]);
			kc_set_cpu(0);
			percpu_counter_tree_add(&hc.c, (long)(-2 * (unsigned long)v[k]));
			KT_EXPECT(t, percpu_counter_tree_precise_sum(&hc.c) == 0,
				  "%u CPUs batch %lu: set(%ld), add(v), add(-2v): %ld", cpus[i],
				  batches[j], v[k], percpu_counter_tree_precise_sum(&hc.c));
			d = -percpu_counter_tree_approximate_sum(&hc.c);
			KT_EXPECT(t, d >= 0 && (unsigned long)d <= s.settled_max,
				  "set(%ld): settled approx %ld", v[k], -d);
			hu_counter_destroy(&hc);
		}
	}
}

static void set_fresh_counter(struct kt *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fresh_cpus); i++)
		kt_run_config(t, fresh_cpus[i], fresh_one, &i);
}

static const unsigned int residual_cpus[] = { 2, 3, 8, 64 };

/* set() on a counter whose cells hold residuals, from every CPU. */
static void residual_one(struct kt *t, void *arg)
{
	unsigned int i = *(unsigned int *)arg, r;
	const unsigned int *cpus = residual_cpus;

	{
		struct hu_counter hc;
		struct hpcc_shape s;
		struct kt_rng rng;

		if (!hu_counter_init(t, &hc, 32))
			return;
		KT_ASSERT(t, hpcc_shape_compute(&s, cpus[i], 32) == 0, "");
		kt_rng_seed(&rng, 9 + i);
		for (r = 0; r < 300; r++) {
			long v = hu_rand_inc(&rng, 32);
			unsigned long res;

			hu_add_migrating(&hc.c, kt_rng_below(&rng, cpus[i]),
					 kt_rng_below(&rng, cpus[i]), hu_rand_inc(&rng, 64));
			percpu_counter_tree_set(&hc.c, v);
			res = hu_residual(&hc.c, &s);
			KT_EXPECT(t, percpu_counter_tree_precise_sum(&hc.c) == v,
				  "set(%ld): precise %ld", v, percpu_counter_tree_precise_sum(&hc.c));
			KT_EXPECT(t, percpu_counter_tree_approximate_sum(&hc.c) ==
				  (long)((unsigned long)v - res), "set(%ld): approx %ld, residual %lu",
				  v, percpu_counter_tree_approximate_sum(&hc.c), res);
			KT_EXPECT(t, percpu_counter_tree_precise_compare_value(&hc.c, v) == 0,
				  "set(%ld)", v);
			if (t->failures)
				break;
		}
		hu_counter_destroy(&hc);
	}
}

static void set_with_residual(struct kt *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(residual_cpus); i++)
		kt_run_config(t, residual_cpus[i], residual_one, &i);
}

static const struct kt_case cases[] = {
	KT_CASE(set_fresh_counter),
	KT_CASE(set_with_residual),
};

KT_MAIN("hpcc_set", cases)
