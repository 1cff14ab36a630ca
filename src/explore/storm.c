// SPDX-License-Identifier: GPL-2.0
/*
 * counter_storm, explored: @cpus adder fibers (one per vCPU) make @adds
 * adds each, of sizes chosen to cross the batch's carry boundaries both
 * ways; @readers reader fibers take, @reads times each, a precise sum,
 * an approximate sum and a precise compare against the truth at that
 * moment. The truth is what the adders published (started, done) through
 * READ_ONCE/WRITE_ONCE, so every truth access is a scheduling point too.
 *
 * A reader step brackets its call between lo (adds done before) and hi
 * (adds started after): a precise sum must equal bias + sum_c P_c(k_c)
 * for some lo_c <= k_c <= hi_c (P_c: CPU c's prefix sums); an
 * approximation must lie within docs/spec/hpcc.md#hpcc-residual of such
 * a value. At the end: the precise sum is the total, the settled window
 * 0 <= precise - approx <= T (docs/spec/hpcc.md#hpcc-settled), and
 * conservation: approx plus every cell's residual is the precise sum.
 *
 * Built with XP_ADAPT (an older API, docs/explore.md#older-apis), the
 * counter is driven through lib/hpcc_adapt alone: the windows are the
 * tree's own accuracy range (precise - approx in [-over, +under]) instead
 * of lib/shape's, and conservation, which reads the counter's layout, is
 * not checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/percpu_counter_tree.h>
#include <linux/compiler.h>
#include <linux/gfp.h>
#include <shape/hpcc_shape.h>
#include "xp.h"
#ifdef XP_ADAPT
#include "hpcc_adapt.h"
#endif

#define MAX_CPUS	4

static const struct xp_cfg *C;
static struct hpcc_shape shape;
#ifdef XP_ADAPT
static struct hpcc_a actr;
#define ctr (actr.c)
#else
static struct percpu_counter_tree ctr;
static struct percpu_counter_tree_level_item *items;
#endif
static long inc[MAX_CPUS][XP_MAX_ADDS];
static unsigned long started[MAX_CPUS], done[MAX_CPUS];
/* --plant: the harness's own lost update, to show the search finds one. */
static long planted_total;
/*
 * How far below (under) and above (over) the precise sum a settled
 * approximation may lie: lib/shape's T and 0, or the tree's accuracy range
 * (read once per execution, before the fibers run: no scheduling point).
 */
static unsigned long under, over;

/* Default sizes: up, across, down across, a multi-batch jump; shifted per CPU. */
static long default_size(unsigned int i, unsigned long batch)
{
	static const long pat[] = { 1, -1, 1, 2 };
	long b = (long)batch;

	switch ((i) % 4) {
	case 0: return pat[0] * (b - 1);
	case 1: return pat[1] * b;
	case 2: return pat[2] * (b + 1);
	default: return pat[3] * b;
	}
}

static int storm_init(const struct xp_cfg *cfg)
{
	unsigned int c, i;

	C = cfg;
	if (cfg->cpus < 2 || cfg->cpus > MAX_CPUS || cfg->adds < 1 || cfg->adds > XP_MAX_ADDS) {
		fprintf(stderr, "explore: counter_storm wants 2..%d cpus and 1..%d adds\n",
			MAX_CPUS, XP_MAX_ADDS);
		return -1;
	}
#ifdef XP_ADAPT
	if (cfg->batch > HPCC_A_BATCH_MAX) {
		fprintf(stderr, "explore: batch %lu does not fit the tree's API\n", cfg->batch);
		return -1;
	}
#endif
	if (kc_set_nr_cpu_ids(cfg->cpus) || percpu_counter_tree_subsystem_init() ||
	    hpcc_shape_compute(&shape, cfg->cpus, cfg->batch)) {
		fprintf(stderr, "explore: bad cpus/batch %u/%lu\n", cfg->cpus, cfg->batch);
		return -1;
	}
	for (c = 0; c < cfg->cpus; c++)
		for (i = 0; i < cfg->adds; i++)
			inc[c][i] = cfg->nr_sizes ? cfg->sizes[(c + i) % cfg->nr_sizes] :
				    default_size(c + i, cfg->batch);
#ifdef XP_ADAPT
	for (c = 0; c < cfg->cpus; c++)
		for (i = 0; i < cfg->adds; i++)
			if (!hpcc_a_fits(inc[c][i])) {
				fprintf(stderr, "explore: add %ld does not fit the tree's API\n",
					inc[c][i]);
				return -1;
			}
	return 0;
#else
	items = calloc(1, percpu_counter_tree_items_size() + 1);
	return items ? 0 : -1;
#endif
}

static unsigned int storm_nr_fibers(const struct xp_cfg *cfg)
{
	return cfg->cpus + cfg->readers;
}

static unsigned int storm_fiber_cpu(unsigned int id)
{
	return id < C->cpus ? id : 0;
}

static void storm_setup(void)
{
	memset(started, 0, sizeof(started));
	memset(done, 0, sizeof(done));
	planted_total = 0;
#ifdef XP_ADAPT
	if (hpcc_a_init(&actr, C->batch))
		abort();
	hpcc_a_accuracy_range(&actr, &under, &over);
#else
	if (percpu_counter_tree_init(&ctr, items, C->batch, GFP_KERNEL))
		abort();
	under = shape.settled_max;
	over = 0;
#endif
}

static void storm_teardown(void)
{
#ifdef XP_ADAPT
	hpcc_a_destroy(&actr);
#else
	percpu_counter_tree_destroy(&ctr);
#endif
}


static long prefix(unsigned int c, unsigned long k)
{
	long s = 0;
	unsigned long i;

	for (i = 0; i < k; i++)
		s += inc[c][i];
	return s;
}

/* The precise values possible between @lo and @hi: [min, max], and whether @v is one. */
static bool possible(const unsigned long *lo, const unsigned long *hi, long v,
		     long *min, long *max)
{
	unsigned long k[MAX_CPUS];
	unsigned int c;
	bool hit = false, first = true;

	memcpy(k, lo, sizeof(k));
	for (;;) {
		long s = 0;

		for (c = 0; c < C->cpus; c++)
			s += prefix(c, k[c]);
		if (s == v)
			hit = true;
		if (first || s < *min)
			*min = s;
		if (first || s > *max)
			*max = s;
		first = false;
		for (c = 0; c < C->cpus && k[c] == hi[c]; c++)
			k[c] = lo[c];
		if (c == C->cpus)
			return hit;
		k[c]++;
	}
}

/* Most that adds in flight between @lo and @hi may hold pending. */
static unsigned long pending(const unsigned long *lo, const unsigned long *hi)
{
	unsigned long p = 0, i;
	unsigned int c;

	for (c = 0; c < C->cpus; c++)
		for (i = lo[c]; i < hi[c]; i++)
			p += hpcc_shape_pending_bound(&shape, inc[c][i]);
	return p;
}

static void snap(unsigned long *v, unsigned long *src)
{
	unsigned int c;

	memset(v, 0, sizeof(*v) * MAX_CPUS);
	for (c = 0; c < C->cpus; c++)
		v[c] = READ_ONCE(src[c]);
}

static void reader_step(unsigned int r)
{
	unsigned long lo[MAX_CPUS], hi[MAX_CPUS];
	long v, a, min, max, probe;
	unsigned long p;
	int res;
	bool ok;

	snap(lo, done);
	v = percpu_counter_tree_precise_sum(&ctr);
	snap(hi, started);
	if (!possible(lo, hi, v, &min, &max))
		xp_fail("precise_sum", "precise sum %ld is no cut of the adds (range %ld..%ld)",
			v, min, max);

	snap(lo, done);
	a = percpu_counter_tree_approximate_sum(&ctr);
	snap(hi, started);
	possible(lo, hi, 0, &min, &max);
	p = pending(lo, hi);
	if (a < min - (long)under - (long)p || a > max + (long)over + (long)p)
		xp_fail("approx_window", "approximation %ld outside [%ld - %lu - %lu, %ld + %lu + %lu]",
			a, min, under, p, max, over, p);

	/* A value near the truth, on a side that alternates per read. */
	snap(lo, done);
	possible(lo, lo, 0, &min, &max);
	probe = min + ((r & 1) ? 1 : -1);
	res = percpu_counter_tree_precise_compare_value(&ctr, probe);
	snap(hi, started);
	possible(lo, hi, 0, &min, &max);
	/* Some x in [min, max] with sign(probe - x) == res: no walk over the range. */
	ok = (res == 1 && probe > min) || (res == -1 && probe < max) ||
	     (res == 0 && probe >= min && probe <= max);
	if (!ok)
		xp_fail("precise_compare", "compare_value(%ld) = %d, truth in [%ld, %ld]",
			probe, res, min, max);
}

static void storm_fiber(unsigned int id)
{
	unsigned int i;

	if (id >= C->cpus) {
		for (i = 0; i < C->reads; i++)
			reader_step(i + id);
		return;
	}
	for (i = 0; i < C->adds; i++) {
		WRITE_ONCE(started[id], i + 1);
		percpu_counter_tree_add(&ctr, inc[id][i]);
		if (C->plant)
			WRITE_ONCE(planted_total, READ_ONCE(planted_total) + inc[id][i]);
		WRITE_ONCE(done[id], i + 1);
	}
}

static void storm_final(void)
{
	long total = 0, precise = percpu_counter_tree_precise_sum(&ctr),
	     approx = percpu_counter_tree_approximate_sum(&ctr);
	unsigned int c;
#ifndef XP_ADAPT
	unsigned long resid = 0, idx;
	unsigned int l;
#endif

	for (c = 0; c < C->cpus; c++)
		total += prefix(c, C->adds);
	if (C->plant && planted_total != total)
		xp_fail("planted_total", "the planted read-then-write total %ld, adds total %ld",
			planted_total, total);
	if (precise != total)
		xp_fail("final_precise", "precise sum %ld, adds total %ld", precise, total);
	if (precise - approx < -(long)over || precise - approx > (long)under)
		xp_fail("settled_window", "precise %ld - approx %ld = %ld outside [-%lu, %lu]",
			precise, approx, precise - approx, over, under);
#ifndef XP_ADAPT
	for (c = 0; c < C->cpus; c++)
		resid += *__kc_per_cpu_ptr(ctr.level0, c) & (shape.threshold[0] - 1);
	for (l = 1; l < shape.nr_levels; l++)
		for (idx = 0; idx < shape.level_items[l]; idx++)
			resid += (unsigned long)atomic_long_read(&ctr.items[
				hpcc_shape_item_index(&shape, l, (unsigned int)idx)].count) &
				 (shape.threshold[l] - 1);
	if ((unsigned long)approx + resid != (unsigned long)precise)
		xp_fail("conservation", "approx %ld + residuals %lu != precise %ld",
			approx, resid, precise);
#endif
}

static const char *storm_addr_name(const void *addr, char *buf, size_t len)
{
	unsigned int c;

	for (c = 0; c < C->cpus; c++) {
#ifndef XP_ADAPT
		if (addr == __kc_per_cpu_ptr(ctr.level0, c))
			return snprintf(buf, len, "level0[cpu%u]", c), buf;
#endif
		if (addr == &started[c])
			return snprintf(buf, len, "started[%u]", c), buf;
		if (addr == &done[c])
			return snprintf(buf, len, "done[%u]", c), buf;
	}
	if (addr == &planted_total)
		return "planted_total";
#ifndef XP_ADAPT
	unsigned int i;

	if (addr == &ctr.bias)
		return "bias";
	if (addr == ctr.approx_sum.a)
		return "root";
	for (i = 0; i + 1 < shape.nr_items; i++)
		if (addr == &ctr.items[i].count)
			return snprintf(buf, len, "item[%u]", i), buf;
#endif
	return NULL;
}

static void storm_describe(const struct xp_cfg *cfg, char *buf, size_t len)
{
	snprintf(buf, len, " cpus %u adds %u readers %u reads %u batch %lu", cfg->cpus, cfg->adds,
		 cfg->readers, cfg->reads, cfg->batch);
}

static const struct xp_harness xp_storm_harness = {
	.name = "counter_storm",
	.alias = "storm",
	.describe = storm_describe,
	.init = storm_init,
	.nr_fibers = storm_nr_fibers,
	.fiber_cpu = storm_fiber_cpu,
	.setup = storm_setup,
	.fiber = storm_fiber,
	.final = storm_final,
	.teardown = storm_teardown,
	.addr_name = storm_addr_name,
};
XP_HARNESS_REGISTER(xp_storm_harness);
