// SPDX-License-Identifier: GPL-2.0
/*
 * Tree shape and declared accuracy: the library (through items_size() and
 * under/over, the only ways the API exposes the shape) and lib/shape, both
 * against the tables of docs/spec/hpcc.md#hpcc-shape, #hpcc-example, which are
 * copied here by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <kcompat/kcompat.h>
#include <linux/kernel.h>
#include <linux/percpu_counter_tree.h>
#include "hpcc_util.h"

/* docs/spec/hpcc.md#hpcc-shape */
static const struct {
	unsigned int nr_levels;
	unsigned int arity[5];
	unsigned long level_items[5];	/* levels 1 .. root */
	unsigned long nr_items;
} spec_shape[21] = {
	[0]  = { 0, { 0 }, { 0 }, 0 },
	[1]  = { 1, { 1 }, { 1 }, 1 },
	[2]  = { 2, { 1, 1 }, { 2, 1 }, 3 },
	[3]  = { 3, { 1, 1, 1 }, { 4, 2, 1 }, 7 },
	[4]  = { 3, { 2, 1, 1 }, { 4, 2, 1 }, 7 },
	[5]  = { 3, { 2, 2, 1 }, { 8, 2, 1 }, 11 },
	[6]  = { 3, { 2, 2, 2 }, { 16, 4, 1 }, 21 },
	[7]  = { 3, { 3, 2, 2 }, { 16, 4, 1 }, 21 },
	[8]  = { 3, { 3, 3, 2 }, { 32, 4, 1 }, 37 },
	[9]  = { 3, { 3, 3, 3 }, { 64, 8, 1 }, 73 },
	[10] = { 4, { 3, 3, 2, 2 }, { 128, 16, 4, 1 }, 149 },
	[11] = { 4, { 3, 3, 3, 2 }, { 256, 32, 4, 1 }, 293 },
	[12] = { 4, { 3, 3, 3, 3 }, { 512, 64, 8, 1 }, 585 },
	[13] = { 5, { 3, 3, 3, 2, 2 }, { 1024, 128, 16, 4, 1 }, 1173 },
	[14] = { 5, { 3, 3, 3, 3, 2 }, { 2048, 256, 32, 4, 1 }, 2341 },
	[15] = { 5, { 3, 3, 3, 3, 3 }, { 4096, 512, 64, 8, 1 }, 4681 },
	[16] = { 5, { 4, 3, 3, 3, 3 }, { 4096, 512, 64, 8, 1 }, 4681 },
	[17] = { 5, { 4, 4, 3, 3, 3 }, { 8192, 512, 64, 8, 1 }, 8777 },
	[18] = { 5, { 4, 4, 4, 3, 3 }, { 16384, 1024, 64, 8, 1 }, 17481 },
	[19] = { 5, { 4, 4, 4, 4, 3 }, { 32768, 2048, 128, 8, 1 }, 34953 },
	[20] = { 5, { 4, 4, 4, 4, 4 }, { 65536, 4096, 256, 16, 1 }, 69905 },
};

/* docs/spec/hpcc.md#hpcc-example (batch 32) */
static const struct {
	unsigned int cpus, order, nr_levels;
	unsigned long nr_items, multiplier, under, over, t;
} spec_small[] = {
	{ 1, 0, 0, 0, 0, 0, 0, 0 },
	{ 2, 1, 1, 1, 2, 64, 62, 62 },
	{ 3, 2, 2, 3, 8, 256, 248, 157 },
	{ 4, 2, 2, 3, 8, 256, 248, 188 },
	{ 8, 3, 3, 7, 24, 768, 744, 504 },
	{ 64, 6, 3, 21, 192, 6144, 5952, 5056 },
	{ 256, 8, 3, 37, 768, 24576, 23808, 22272 },
	{ 512, 9, 3, 73, 1536, 49152, 47616, 44544 },
	{ 1024, 10, 4, 149, 4096, 131072, 126976, 113664 },
	{ 4096, 12, 4, 585, 16384, 524288, 507904, 471040 },
};

#define ITEM_SIZE	sizeof(struct percpu_counter_tree_level_item)

static unsigned int order_of(unsigned long n)
{
	unsigned int o = 0;

	while ((1UL << o) < n)
		o++;
	return o;
}

/* @arg: the order; the process booted with nr_cpu_ids CPUs of that order. */
static void items_size_one(struct kt *t, void *arg)
{
	unsigned int order = *(unsigned int *)arg;

	KT_EXPECT(t, percpu_counter_tree_items_size() == spec_shape[order].nr_items * ITEM_SIZE,
		  "order %u (%u CPUs): items_size %zu, spec %lu items", order, nr_cpu_ids,
		  percpu_counter_tree_items_size(), spec_shape[order].nr_items);
}

/* items_size() at the smallest and largest CPU count of every order 0..20. */
static void shape_items_size_every_order(struct kt *t)
{
	unsigned int order, k;

	for (order = 0; order <= 20; order++) {
		unsigned long counts[2] = { order ? (1UL << (order - 1)) + 1 : 1,
					    1UL << order };

		for (k = 0; k < 2; k++)
			kt_run_config(t, counts[k], items_size_one, &order);
	}
	KT_EXPECT(t, ITEM_SIZE == 64, "item size %zu (cache line)", ITEM_SIZE);
}

/* @arg: the CPU count; this process's one boot must fail. */
static void order_21_one(struct kt *t, void *arg)
{
	unsigned int bad = *(unsigned int *)arg;
	unsigned long before = kc_warn_count();
	char log[512] = "";
	FILE *tmp = tmpfile();
	int saved = dup(2);
	size_t n;

	kt_expect_warns(t);
	KT_ASSERT(t, tmp && saved >= 0, "tmpfile/dup");
	fflush(stderr);
	dup2(fileno(tmp), 2);
	KT_EXPECT(t, kc_set_nr_cpu_ids(bad) == 0, "%u", bad);
	KT_EXPECT(t, percpu_counter_tree_subsystem_init() == -1, "%u CPUs must be rejected", bad);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(log, 1, sizeof(log) - 1, tmp);
	log[n] = 0;
	fclose(tmp);
	KT_EXPECT(t, kc_warn_count() > before, "no warning for an unsupported CPU count");
	KT_EXPECT(t, strstr(log, "Unsupported number of CPUs") != NULL,
		  "log was \"%s\"", log);
}

static void order_20_one(struct kt *t, void *arg)
{
	KT_EXPECT(t, percpu_counter_tree_items_size() == 69905 * ITEM_SIZE, "order 20");
}

/* Subsystem init rejects order >= 21 with -1, a warning and a KERN_ERR line. */
static void shape_order_21_rejected(struct kt *t)
{
	static const unsigned int bad[] = { (1U << 20) + 1, 1U << 21, 3U << 20, 0xffffffffU };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		kt_run_config(t, bad[i] | KT_NO_BOOT, order_21_one, (void *)&bad[i]);
	/* The largest supported count boots. */
	kt_run_config(t, 1U << 20, order_20_one, NULL);
}

static unsigned long spec_multiplier(unsigned int order)
{
	return (unsigned long)spec_shape[order].nr_levels << order;
}

static const unsigned int pair_cpus[] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 100,
	127, 128, 129, 255, 256, 257, 500, 512, 513, 1000, 1024, 1025,
	2047, 2048, 2049, 4095, 4096, 4097, 8191, NR_CPUS
};

/*
 * @arg: the index of the CPU count. Batches stay below 2^32: above it is
 * carry_batch_4g's finding (the kernel's int get_count_order), not a
 * question of under/over.
 */
static void under_over_one(struct kt *t, void *arg)
{
	static const unsigned long batches[] = { 2, 4, 8, 16, 32, 64, 256, 1024, 1UL << 20,
						 1UL << 31 };
	unsigned int i = *(unsigned int *)arg, j, step;
	const unsigned int *cpus = pair_cpus;

	{
		unsigned int order = order_of(cpus[i]);

		/* Fewer batches where every per-CPU allocation is expensive. */
		step = cpus[i] > 1024 ? 3 : 1;
		for (j = step - 1; j < ARRAY_SIZE(batches); j += step) {
			struct hu_counter hc;
			struct hpcc_shape s;
			unsigned long b = batches[j], m = spec_multiplier(order);

			if (!hu_counter_init(t, &hc, b))
				return;
			KT_EXPECT(t, hu_under(&hc.c) == b * m,
				  "%u CPUs batch %lu: under %lu, want %lu",
				  cpus[i], b, hu_under(&hc.c), b * m);
			KT_EXPECT(t, hu_over(&hc.c) == (b - 1) * m,
				  "%u CPUs batch %lu: over %lu, want %lu",
				  cpus[i], b, hu_over(&hc.c), (b - 1) * m);
			KT_ASSERT(t, hpcc_shape_compute(&s, cpus[i], b) == 0, "shape");
			KT_EXPECT(t, s.under == b * m && s.over == (b - 1) * m,
				  "lib/shape %u CPUs batch %lu: %lu/%lu", cpus[i], b,
				  s.under, s.over);
			hu_counter_destroy(&hc);
		}
	}
}

/* 3 CPUs get the 4-CPU multiplier. */
static void three_cpus(struct kt *t, void *arg)
{
	struct hu_counter hc;

	if (!hu_counter_init(t, &hc, 32))
		return;
	KT_EXPECT_EQU(t, hu_under(&hc.c), 256);
	KT_EXPECT_EQU(t, hu_over(&hc.c), 248);
	hu_counter_destroy(&hc);
}

/* under/over of real counters for many (CPUs, batch) pairs, against the formulas. */
static void shape_under_over_pairs(struct kt *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pair_cpus); i++)
		if (pair_cpus[i] <= NR_CPUS)
			kt_run_config(t, pair_cpus[i], under_over_one, &i);
	kt_run_config(t, 3, three_cpus, NULL);
}

/* lib/shape against docs/spec/hpcc.md#hpcc-shape, row by row. */
static void shape_model_matches_spec_table(struct kt *t)
{
	unsigned int order, l;

	for (order = 0; order <= 20; order++) {
		struct hpcc_shape s;
		unsigned long m = 32, items = 0;

		KT_ASSERT(t, hpcc_shape_compute(&s, 1U << order, 32) == 0, "order %u", order);
		KT_EXPECT(t, s.order == order, "order %u: %u", order, s.order);
		KT_EXPECT(t, s.nr_levels == spec_shape[order].nr_levels,
			  "order %u: nr_levels %u", order, s.nr_levels);
		KT_EXPECT(t, s.nr_items == spec_shape[order].nr_items,
			  "order %u: nr_items %lu", order, s.nr_items);
		KT_EXPECT(t, s.multiplier == spec_multiplier(order),
			  "order %u: multiplier %lu", order, s.multiplier);
		KT_EXPECT(t, s.level_items[0] == 1UL << order, "order %u", order);
		for (l = 0; l < spec_shape[order].nr_levels; l++) {
			KT_EXPECT(t, s.arity[l] == spec_shape[order].arity[l],
				  "order %u level %u: arity %u", order, l, s.arity[l]);
			KT_EXPECT(t, s.level_items[l + 1] == spec_shape[order].level_items[l],
				  "order %u level %u: items %lu", order, l + 1,
				  s.level_items[l + 1]);
			KT_EXPECT(t, s.threshold[l] == m,
				  "order %u level %u: M %lu, want %lu", order, l,
				  s.threshold[l], m);
			items += spec_shape[order].level_items[l];
			m <<= spec_shape[order].arity[l];
		}
		/* The table is self-consistent: Σ arity = order, Σ items = nr_items. */
		KT_EXPECT(t, items == spec_shape[order].nr_items, "spec row %u", order);
		KT_EXPECT(t, s.m_top == (order ? m >> spec_shape[order].arity[s.nr_levels - 1] : 0),
			  "order %u: m_top %lu", order, s.m_top);
	}
}

/*
 * lib/shape against docs/spec/hpcc.md#hpcc-example (batch 32) and
 * docs/spec/hpcc.md#hpcc-example (256 CPUs).
 */
static void shape_model_matches_accuracy_tables(struct kt *t)
{
	struct hpcc_shape s;
	unsigned int i, cpu;

	for (i = 0; i < ARRAY_SIZE(spec_small); i++) {
		KT_ASSERT(t, hpcc_shape_compute(&s, spec_small[i].cpus, 32) == 0, "");
		KT_EXPECT(t, s.order == spec_small[i].order && s.nr_levels ==
			  spec_small[i].nr_levels && s.nr_items == spec_small[i].nr_items,
			  "%u CPUs: order %u levels %u items %lu", spec_small[i].cpus,
			  s.order, s.nr_levels, s.nr_items);
		KT_EXPECT(t, s.multiplier == spec_small[i].multiplier &&
			  s.under == spec_small[i].under && s.over == spec_small[i].over,
			  "%u CPUs: mult %lu under %lu over %lu", spec_small[i].cpus,
			  s.multiplier, s.under, s.over);
		KT_EXPECT(t, s.settled_max == spec_small[i].t,
			  "%u CPUs: T %lu, spec %lu", spec_small[i].cpus, s.settled_max,
			  spec_small[i].t);
	}
	/* docs/spec/hpcc.md#hpcc-example */
	KT_ASSERT(t, hpcc_shape_compute(&s, 256, 32) == 0, "");
	KT_EXPECT(t, s.threshold[0] == 32 && s.threshold[1] == 256 && s.threshold[2] == 2048,
		  "thresholds %lu %lu %lu", s.threshold[0], s.threshold[1], s.threshold[2]);
	KT_EXPECT_EQU(t, s.m_top, 2048);
	for (cpu = 0; cpu < 256; cpu++) {
		KT_EXPECT(t, hpcc_shape_item_index(&s, 1, cpu) == (cpu & 31), "cpu %u", cpu);
		KT_EXPECT(t, hpcc_shape_item_index(&s, 2, cpu) == 32 + (cpu & 3), "cpu %u", cpu);
	}
	KT_EXPECT_EQU(t, hpcc_shape_pending_bound(&s, 1), 2048);
	KT_EXPECT_EQU(t, hpcc_shape_pending_bound(&s, -2048), 2048);
	KT_EXPECT_EQU(t, hpcc_shape_pending_bound(&s, 2049), 4096);
	KT_EXPECT_EQU(t, hpcc_shape_pending_bound(&s, 0), 0);
	/* docs/spec/hpcc.md#hpcc-index: with 8 CPUs, CPUs 0 and 4 share level-1 node 0. */
	KT_ASSERT(t, hpcc_shape_compute(&s, 8, 32) == 0, "");
	KT_EXPECT(t, hpcc_shape_item_index(&s, 1, 0) == 0 && hpcc_shape_item_index(&s, 1, 4) == 0 &&
		  hpcc_shape_item_index(&s, 1, 1) == 1, "8-CPU mapping");
	KT_EXPECT(t, s.m_top == 128, "m_top %lu", s.m_top);
	/* Bad input. */
	KT_EXPECT(t, hpcc_shape_compute(&s, (1U << 20) + 1, 32) == -1, "order 21");
	KT_EXPECT(t, hpcc_shape_compute(&s, 0, 32) == -1, "0 CPUs");
	KT_EXPECT(t, hpcc_shape_compute(&s, 4, 0) == -1 && hpcc_shape_compute(&s, 4, 1) == -1 &&
		  hpcc_shape_compute(&s, 4, 3) == -1 && hpcc_shape_compute(&s, 4, 6) == -1,
		  "bad batches");
}

static void library_model_one(struct kt *t, void *arg)
{
	unsigned int cpus = nr_cpu_ids;

	{
		struct hpcc_shape s;
		struct hu_counter hc;

		KT_ASSERT(t, hpcc_shape_compute(&s, cpus, 64) == 0, "");
		KT_EXPECT(t, percpu_counter_tree_items_size() == s.nr_items * ITEM_SIZE,
			  "%u CPUs", cpus);
		if (!hu_counter_init(t, &hc, 64))
			return;
		KT_EXPECT(t, hu_under(&hc.c) == s.under && hu_over(&hc.c) == s.over,
			  "%u CPUs: %lu/%lu vs %lu/%lu", cpus, hu_under(&hc.c),
			  hu_over(&hc.c), s.under, s.over);
		hu_counter_destroy(&hc);
	}
}

/*
 * The library and lib/shape agree on items_size and under/over for every
 * count up to 64, then around each power of two up to 512 (one process
 * per count: the kernel boots once).
 */
static void shape_library_matches_model(struct kt *t)
{
	unsigned int cpus, p;

	for (cpus = 1; cpus <= 64; cpus++)
		kt_run_config(t, cpus, library_model_one, NULL);
	for (p = 128; p <= 512; p <<= 1)
		for (cpus = p - 1; cpus <= p + 1; cpus++)
			kt_run_config(t, cpus, library_model_one, NULL);
}

static const struct kt_case cases[] = {
	/* Small CPU counts first: per-CPU allocation cost grows with the largest count used. */
	KT_CASE(shape_library_matches_model),
	KT_CASE(shape_items_size_every_order),
	KT_CASE(shape_order_21_rejected),
	KT_CASE(shape_under_over_pairs),
	KT_CASE(shape_model_matches_spec_table),
	KT_CASE(shape_model_matches_accuracy_tables),
};

KT_MAIN("hpcc_shape", cases)
