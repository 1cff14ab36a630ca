// SPDX-License-Identifier: GPL-2.0
/*
 * What hpcc buys and what it costs in memory, against nr_cpus: accuracy
 * bounds (hpcc contract and settled bound from lib/shape, checked against
 * the library's own accuracy query; the percpu_counter's batch x nr_cpus;
 * the RFC binary tree's batch x log2(n) x n) and bytes per counter.
 * Computed, not timed.
 */
#include <stdlib.h>
#include <linux/percpu_counter_tree.h>
#include <shape/hpcc_shape.h>
#include "util/child.h"
#include "bench.h"
#include "variants.h"

/* Cache-line sizes that matter for the item array: x86-64 and s390. */
#define LINE_X86	64UL
#define LINE_S390	256UL

static unsigned int ceil_log2(unsigned long n)
{
	unsigned int o = 0;

	while ((1UL << o) < n)
		o++;
	return o;
}

/* The library's own under/over for one counter at the current nr_cpu_ids. */
static int lib_accuracy(unsigned long batch, unsigned long *under, unsigned long *over)
{
	struct percpu_counter_tree c;
	void *items = bench_items_alloc();
	int ret = -1;

	*under = *over = 0;
	if (items && !percpu_counter_tree_init(&c, items, batch, GFP_KERNEL)) {
		percpu_counter_tree_approximate_accuracy_range(&c, under, over);
		percpu_counter_tree_destroy(&c);
		ret = 0;
	}
	free(items);
	return ret;
}

struct shape_point {
	const struct bench_cfg *cfg;
	unsigned long nr_cpus;
};

/* One CPU count's accuracy row, in a process of its own: one boot each. */
static int shape_point(struct json *j, void *arg)
{
	const struct shape_point *pt = arg;
	unsigned long b = pt->cfg->batch, n = pt->nr_cpus, lu, lo, kbatch;
	struct hpcc_shape s;
	int ret = CHILD_POINT_OK;

	if (hpcc_shape_compute(&s, n, b) || bench_set_cpus(n) || lib_accuracy(b, &lu, &lo)) {
		fprintf(stderr, "hpcc-bench: no shape at %lu CPUs\n", n);
		return CHILD_POINT_NO_VALUE;
	}
	if (lu != s.under || lo != s.over) {
		fprintf(stderr, "hpcc-bench: library accuracy %lu/%lu != shape %lu/%lu"
			" at %lu CPUs\n", lu, lo, s.under, s.over, n);
		ret = CHILD_POINT_CHECK_FAILED;
	}
	/* The kernel's default percpu_counter_batch: max(32, 2 * nr_cpus). */
	kbatch = 2 * n > 32 ? 2 * n : 32;
	json_obj_begin(j);
	json_ku64(j, "nr_cpus", n);
	json_ku64(j, "batch", b);
	json_key(j, "hpcc");
	json_obj_begin(j);
	json_ku64(j, "nr_levels", s.nr_levels);
	json_ku64(j, "nr_items", s.nr_items);
	json_ku64(j, "under", s.under);
	json_ku64(j, "over", s.over);
	json_ku64(j, "settled_max", s.settled_max);
	json_ku64(j, "m_top", s.m_top);
	json_ku64(j, "lib_under", lu);
	json_ku64(j, "lib_over", lo);
	json_obj_end(j);
	json_ku64(j, "percpu_counter", b * n);
	json_ku64(j, "percpu_counter_default_batch", kbatch * n);
	json_ku64(j, "binary_tree", b * ceil_log2(n) * (1UL << ceil_log2(n)));
	json_obj_end(j);
	return ret;
}

int bench_shape(const struct bench_cfg *cfg, struct json *j)
{
	unsigned long b = cfg->batch, n;
	struct hpcc_shape s;
	int v, ret = 0, r;

	json_key(j, "accuracy");
	json_arr_begin(j);
	for (n = 1; n <= cfg->max_sum_cpus; n *= 2) {
		struct shape_point pt = { cfg, n };

		r = json_point_in_child(j, "hpcc-bench", "shape", n, shape_point, &pt);
		if (r)
			ret = -1;
		if (r == CHILD_POINT_NO_VALUE)
			break;
	}
	json_arr_end(j);

	json_key(j, "memory");
	json_arr_begin(j);
	for (n = 1; n <= cfg->max_sum_cpus && !ret; n *= 2) {
		hpcc_shape_compute(&s, n, b);
		json_obj_begin(j);
		json_ku64(j, "nr_cpus", n);
		json_key(j, "bytes");
		json_obj_begin(j);
		for (v = 0; v < BV_NR; v++)
			json_ku64(j, bench_variant_name[v],
				    bench_mem_bytes(v, n, s.nr_items * LINE_X86));
		json_ku64(j, "hpcc_s390", bench_mem_bytes(BV_HPCC, n, s.nr_items * LINE_S390));
		json_obj_end(j);
		json_ku64(j, "hpcc_items_bytes", s.nr_items * LINE_X86);
		json_ku64(j, "hpcc_level0_bytes", n * sizeof(unsigned long));
		json_obj_end(j);
	}
	json_arr_end(j);
	return ret;
}
