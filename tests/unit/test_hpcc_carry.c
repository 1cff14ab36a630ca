// SPDX-License-Identifier: GPL-2.0
/*
 * The carry function (docs/spec/hpcc.md#hpcc-carry) through its observable
 * effect: the cells along one add's path are set to arbitrary values (random,
 * edges around every threshold, near LONG_MIN/LONG_MAX), one add runs, and
 * every cell on the path must match the reference model, which computes the
 * carry by the identity (res & ~(M-1)) - (orig & ~(M-1)).
 */
#include <limits.h>
#include <stdlib.h>
#include <linux/kernel.h>
#include <kcompat/kcompat.h>
#include <linux/percpu_counter_tree.h>
#include "hpcc_util.h"

/* A cell value: random, or an edge relative to the cell's threshold @m. */
static unsigned long rand_cell(struct kt_rng *rng, unsigned long m)
{
	static const long extremes[] = { LONG_MIN, LONG_MAX, LONG_MIN + 1, LONG_MAX - 1 };
	unsigned long k = kt_rng_below(rng, 5);

	if (!m)
		m = 1;
	switch (kt_rng_below(rng, 8)) {
	case 0:
		return 0;
	case 1:	/* just below or at a multiple of M */
		return k * m - kt_rng_below(rng, 2);
	case 2:	/* negative multiples, ±1 */
		return -(k * m) + kt_rng_below(rng, 3) - 1;
	case 3:
		return m - 1;
	case 4:
		return extremes[kt_rng_below(rng, 4)] + (long)kt_rng_below(rng, 3) - 1;
	case 5:	/* a residual pattern: random low bits */
		return kt_rng_next(rng) & (m - 1);
	default:
		return kt_rng_next(rng);
	}
}

struct carry_cfg {
	unsigned int cpus;
	unsigned long batch;
	unsigned long cases;
};

/* Returns the number of (cell, increment) evaluations made. */
static unsigned long carry_run(struct kt *t, const struct carry_cfg *cfg, bool skip,
			       unsigned long long seed)
{
	struct hu_counter hc;
	struct hu_ref r;
	struct kt_rng rng;
	unsigned long n, bad = 0, evals = 0;

	if (!hu_counter_init(t, &hc, cfg->batch))
		return 0;
	t->checks++;
	if (!hu_ref_init(&r, cfg->batch, skip)) {
		kt_fail(t, __FILE__, __LINE__, "model for %u CPUs", cfg->cpus);
		hu_counter_destroy(&hc);
		return 0;
	}
	kt_rng_seed(&rng, seed);
	for (n = 0; n < cfg->cases && bad < 5; n++) {
		unsigned int cpu0 = kt_rng_below(&rng, cfg->cpus);
		unsigned int cpu_path = kt_rng_below(&rng, 4) ? cpu0 :
					kt_rng_below(&rng, cfg->cpus);
		unsigned int l, lvl;
		unsigned long m;
		long inc;

		/* Arbitrary state along the path, and an increment sized for a random level. */
		hu_ref_poke_level0(&r, &hc.c, cpu0, rand_cell(&rng, r.s.threshold[0]));
		for (l = 1; l < r.s.nr_levels; l++)
			hu_ref_poke_item(&r, &hc.c, hpcc_shape_item_index(&r.s, l, cpu_path),
					 rand_cell(&rng, r.s.threshold[l]));
		if (r.s.nr_items && kt_rng_below(&rng, 2))
			hu_ref_poke_item(&r, &hc.c, r.s.nr_items - 1, kt_rng_next(&rng));
		lvl = r.s.nr_levels ? kt_rng_below(&rng, r.s.nr_levels) : 0;
		m = r.s.nr_levels ? r.s.threshold[lvl] : 0;
		inc = hu_rand_inc(&rng, m);
		hu_add_migrating(&hc.c, cpu0, cpu_path, inc);
		hu_ref_add(&r, cpu0, cpu_path, inc);
		bad += hu_ref_check_path(t, &r, &hc.c, cpu0, cpu_path, "carry");
		evals += r.s.nr_levels ? r.s.nr_levels : 1;
	}
	if (!bad)
		hu_ref_check(t, &r, &hc.c, "carry, final state");
	hu_ref_free(&r);
	hu_counter_destroy(&hc);
	return evals;
}

static const struct carry_cfg configs[] = {
	{ 1, 32, 20000 },
	{ 2, 32, 60000 },
	{ 3, 2, 60000 },
	{ 4, 32, 60000 },
	{ 8, 1UL << 31, 40000 },	/* thresholds 2^31 .. 2^33: an int abs() fails */
	/* a batch >= 2^32 is carry_batch_4g's finding, not an identity case */
	{ 16, 4, 60000 },
	{ 64, 32, 60000 },
	{ 200, 8, 40000 },
	{ 256, 32, 60000 },
	{ 1024, 2, 40000 },
	{ 4096, 1UL << 20, 40000 },
	{ 4096, 1UL << 31, 20000 },
	{ 5000, 256, 30000 },
};

struct carry_job {
	struct carry_cfg cfg;
	bool skip;
	unsigned long long seed;
};

static void carry_one(struct kt *t, void *arg)
{
	struct carry_job *j = arg;

	hu_lib_set_skip(j->skip);
	t->tally[0] += carry_run(t, &j->cfg, j->skip, j->seed);
}

/* The skip-level path gets the full 10^6 cases, the every-level path a third. */
static void carry_identity(struct kt *t, bool skip)
{
	unsigned long min_evals = skip ? 1000000 : 300000;
	unsigned int i;

	if (!hu_lib_set_skip(skip) && !skip) {
		kt_skip(t, "the library has no skip-level switch");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(configs); i++) {
		struct carry_job j = { configs[i], skip, 0xca77 + i };

		if (!skip)
			j.cfg.cases /= 3;
		kt_run_config(t, j.cfg.cpus, carry_one, &j);
	}
	kt_diag(t, "%lu carry evaluations", t->tally[0]);
	KT_EXPECT(t, t->tally[0] >= min_evals, "only %lu carry cases", t->tally[0]);
}

static void carry_identity_skip_levels(struct kt *t)
{
	carry_identity(t, true);
}

static void carry_identity_every_level(struct kt *t)
{
	carry_identity(t, false);
}

/*
 * Named edges on a fresh 2-CPU counter (batch 32, one level: level 0 feeds
 * the root): value, increment, expected root.
 */
static void carry_named_edges(struct kt *t)
{
	static const struct {
		unsigned long orig;
		long inc;
		long root;
	} e[] = {
		{ 0, 0, 0 }, { 0, 1, 0 }, { 0, -1, -32 }, { 0, 31, 0 }, { 0, 32, 32 },
		{ 0, -32, -32 }, { 0, -31, -32 }, { 0, -33, -64 }, { 31, 1, 32 },
		{ 32, -1, -32 }, { 31, -31, 0 }, { 0, 33, 32 }, { 1, 63, 64 },
		{ 0, 320, 320 }, { 5, -320, -320 }, { 0, -321, -352 },
		{ LONG_MAX, 1, 32 },		/* wraps to LONG_MIN */
		{ (unsigned long)LONG_MIN, -1, -32 },
		{ 0, LONG_MAX, LONG_MAX - 31 },
		{ 0, LONG_MIN, LONG_MIN },
		{ 1, LONG_MIN, LONG_MIN },
		{ 31, LONG_MIN + 1, LONG_MIN + 32 },
		{ (unsigned long)-1, 1, 32 },	/* -1 + 1: bits above 32 all change */
		{ (unsigned long)-32, 32, 32 },
	};
	struct hu_counter hc;
	unsigned int i;

	if (!kt_hpcc_setup(t, 2) || !hu_counter_init(t, &hc, 32))
		return;
	for (i = 0; i < ARRAY_SIZE(e); i++) {
		hu_set_level0(&hc.c, 0, e[i].orig);
		hu_set_level0(&hc.c, 1, 0);
		hu_set_item(&hc.c, 0, 0);
		percpu_counter_tree_add(&hc.c, e[i].inc);
		KT_EXPECT(t, (long)hu_item(&hc.c, 0) == e[i].root,
			  "edge %u: %#lx + %ld: root %ld, want %ld", i, e[i].orig,
			  e[i].inc, (long)hu_item(&hc.c, 0), e[i].root);
		KT_EXPECT(t, hu_level0(&hc.c, 0) == e[i].orig + (unsigned long)e[i].inc,
			  "edge %u: level 0", i);
		KT_EXPECT(t, hu_carry(e[i].orig, e[i].orig + e[i].inc, 32) ==
			  (unsigned long)e[i].root, "edge %u: model", i);
	}
	hu_counter_destroy(&hc);
}

/*
 * |carry| >= 2^31 at an intermediate level: a skip test on an int abs()
 * would truncate. 64 CPUs (thresholds 32, 128, 512): a carry of 2^32 + 128
 * has bits below 512 and must go through level 2's item.
 */
static void carry_large_carry_levels(struct kt *t)
{
	static const long incs[] = { (1L << 32) + 128, -((1L << 32) + 128), 1L << 32,
				     -(1L << 32), (1L << 31) + 32, -(1L << 31) - 32,
				     (1L << 40) + 96, LONG_MIN + 128 };
	struct hu_counter hc;
	struct hu_ref r;
	unsigned int i;
	int skip;

	for (skip = 1; skip >= 0; skip--) {
		if (!hu_lib_set_skip(skip) && !skip)
			break;
		if (!kt_hpcc_setup(t, 64) || !hu_counter_init(t, &hc, 32))
			return;
		KT_ASSERT(t, hu_ref_init(&r, 32, skip), "model");
		for (i = 0; i < ARRAY_SIZE(incs); i++) {
			hu_add_migrating(&hc.c, i % 64, i % 64, incs[i]);
			hu_ref_add(&r, i % 64, i % 64, incs[i]);
			hu_ref_check(t, &r, &hc.c, "large carry");
		}
		hu_ref_free(&r);
		hu_counter_destroy(&hc);
	}
	hu_lib_set_skip(true);
}

/*
 * A batch >= 2^32 (64-bit only; its own test: a real finding). The carry
 * bit of level 0 must be the batch itself. Every kernel version passes
 * the unsigned long batch to get_count_order(), which takes an unsigned
 * int: the batch truncates to 0 and the carry bit is wrong.
 */
static void carry_batch_4g_one(struct kt *t, void *arg)
{
	static const unsigned int orders[] = { 32, 33, 40, 62 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(orders); i++) {
		unsigned long batch = 1UL << orders[i];
		struct hu_counter hc;
		long approx;

		if (!hu_counter_init(t, &hc, batch))
			return;
		kc_set_cpu(0);
		percpu_counter_tree_add(&hc.c, (long)batch);
		approx = percpu_counter_tree_approximate_sum(&hc.c);
		t->checks += 2;
		if (hc.c.level0_bit_mask != batch || approx != (long)batch)
			KT_FAIL_CLASS(t, KT_WRONG_ANSWER, "percpu_counter_tree_init",
				      "batch %#lx (2^%u): carry bit %#lx, want %#lx; add(batch) "
				      "left approximate %ld, want %ld", batch, orders[i],
				      hc.c.level0_bit_mask, batch, approx, (long)batch);
		hu_counter_destroy(&hc);
	}
}

static void carry_batch_4g(struct kt *t)
{
	if (BITS_PER_LONG < 64) {
		kt_skip(t, "32-bit: a batch cannot reach 2^32");
		return;
	}
	kt_run_config(t, 2, carry_batch_4g_one, NULL);
}

static const struct kt_case cases[] = {
	KT_CASE(carry_named_edges),
	KT_CASE(carry_batch_4g),
	KT_CASE(carry_large_carry_levels),
	KT_CASE(carry_identity_skip_levels),
	KT_CASE(carry_identity_every_level),
};

KT_MAIN("hpcc_carry", cases)
