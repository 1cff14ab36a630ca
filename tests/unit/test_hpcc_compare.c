// SPDX-License-Identifier: GPL-2.0
/*
 * The four comparisons (docs/spec/hpcc.md#hpcc-compare) at the exact edges of
 * the accuracy window: delta 0, ±under, ±over, each ±1; counter vs value and
 * counter vs counter; approximate and precise; a > b, a < b and a == b inside
 * and outside the window, with approximations that differ from the precise
 * values. Expected answers come from the spec's formulas (hu_compare_delta),
 * never from the library.
 */
#include <limits.h>
#include <stdlib.h>
#include <linux/kernel.h>
#include <kcompat/kcompat.h>
#include <linux/percpu_counter_tree.h>
#include "hpcc_util.h"

/* Leave a residual of about @amount below the root (approx != precise). */
static void add_residual(struct percpu_counter_tree *c, struct kt_rng *rng,
			 unsigned long amount)
{
	unsigned long batch = c->batch_size;

	while (amount) {
		unsigned long step = min(amount, batch - 1);

		kc_set_cpu(kt_rng_below(rng, nr_cpu_ids));
		percpu_counter_tree_add(c, (long)step);
		amount -= step;
	}
	kc_set_cpu(0);
}

struct cmp_cfg {
	unsigned int cpus;
	unsigned long batch, batch_b;
	unsigned long long seed;
};

/*
 * docs/spec/hpcc.md#hpcc-compare-edges on a fresh counter after set(base):
 * approx = precise = base.
 */
static void value_edges_one(struct kt *t, void *arg)
{
	static const long bases[] = { 0, 1000, -1000, LONG_MAX / 2 };
	const struct cmp_cfg *c = arg;
	struct hu_counter hc;
	unsigned int k, e;
	long u, o;

	if (!hu_counter_init(t, &hc, c->batch))
		return;
	u = hu_under(&hc.c);
	o = hu_over(&hc.c);
	KT_ASSERT(t, u > o && o > 0, "%u CPUs: under %ld over %ld", c->cpus, u, o);
	for (k = 0; k < ARRAY_SIZE(bases); k++) {
		long b = bases[k];
		/*
		 * The docs/spec/hpcc.md#hpcc-compare-edges edges (±under,
		 * ±over, each ±1) and a few more.
		 */
		const long d[] = { 0, 1, -1, u - 1, u, u + 1, -o + 1, -o, -o - 1,
				   o, o + 1, -u, -u - 1, 2 * u, -2 * u };

		percpu_counter_tree_set(&hc.c, b);
		KT_EXPECT(t, percpu_counter_tree_approximate_sum(&hc.c) == b, "fresh");
		KT_EXPECT(t, percpu_counter_tree_precise_compare_value(&hc.c, b + u) == 1 &&
			  percpu_counter_tree_precise_compare_value(&hc.c, b - o) == -1 &&
			  percpu_counter_tree_precise_compare_value(&hc.c, b) == 0,
			  "docs/spec/hpcc.md#hpcc-compare-edges precise, %u CPUs batch %lu base %ld",
			  c->cpus, c->batch, b);
		for (e = 0; e < ARRAY_SIZE(d); e++) {
			int ap = percpu_counter_tree_approximate_compare_value(&hc.c, b + d[e]);
			int pr = percpu_counter_tree_precise_compare_value(&hc.c, b + d[e]);

			HU_JUDGE_VALUE(t, &hc.c, b + d[e], ap, b, hu_sign(d[e]));
			KT_EXPECT(t, pr == hu_sign(d[e]), "precise(v = base %+ld) = %d", d[e], pr);
		}
	}
	hu_counter_destroy(&hc);
}

static void compare_value_edges(struct kt *t)
{
	static const unsigned int cpus[] = { 2, 3, 4, 256 };
	static const unsigned long batches[] = { 2, 32, 1024 };
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(cpus); i++)
		for (j = 0; j < ARRAY_SIZE(batches); j++) {
			struct cmp_cfg c = { .cpus = cpus[i], .batch = batches[j] };

			kt_run_config(t, c.cpus, value_edges_one, &c);
		}
}

/* Counter vs value when the approximation lags the precise value. */
static void value_residual_one(struct kt *t, void *arg)
{
	const struct cmp_cfg *c = arg;
	struct hu_counter hc;
	struct kt_rng rng;
	unsigned int r;
	long u, o;

	if (!hu_counter_init(t, &hc, 16))
		return;
	u = hu_under(&hc.c);
	o = hu_over(&hc.c);
	kt_rng_seed(&rng, c->seed);
	for (r = 0; r < 40; r++) {
		const long dv[] = { -2, -1, 0, 1, 2 };
		unsigned int e;
		long p, a, v;

		add_residual(&hc.c, &rng, kt_rng_below(&rng, 300));
		percpu_counter_tree_set(&hc.c, (long)kt_rng_below(&rng, 2000) - 1000);
		p = percpu_counter_tree_precise_sum(&hc.c);
		a = percpu_counter_tree_approximate_sum(&hc.c);
		for (e = 0; e < ARRAY_SIZE(dv); e++) {
			/* Around the precise value and around both window edges. */
			const long vs[] = { p + dv[e], a + u + dv[e], a - o + dv[e] };
			unsigned int w;

			for (w = 0; w < ARRAY_SIZE(vs); w++) {
				v = vs[w];
				KT_EXPECT(t, percpu_counter_tree_precise_compare_value(&hc.c, v) ==
					  hu_sign(v - p), "precise v %ld p %ld a %ld", v, p, a);
				HU_JUDGE_VALUE(t, &hc.c, v,
					       percpu_counter_tree_approximate_compare_value(&hc.c, v),
					       a, hu_sign(v - p));
			}
		}
	}
	hu_counter_destroy(&hc);
}

static void compare_value_with_residual(struct kt *t)
{
	static const unsigned int cpus[] = { 3, 8, 64 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cpus); i++) {
		struct cmp_cfg c = { .cpus = cpus[i], .seed = i };

		kt_run_config(t, c.cpus, value_residual_one, &c);
	}
}

/* Expected answers of both two-counter comparisons, from the spec. */
static void check_pair(struct kt *t, struct hu_counter *a, struct hu_counter *b,
		       const char *what)
{
	long pa = percpu_counter_tree_precise_sum(&a->c);
	long pb = percpu_counter_tree_precise_sum(&b->c);
	long d = percpu_counter_tree_approximate_sum(&a->c) -
		 percpu_counter_tree_approximate_sum(&b->c);
	int ap = percpu_counter_tree_approximate_compare(&a->c, &b->c);
	int ap_rev = percpu_counter_tree_approximate_compare(&b->c, &a->c);
	int pr = percpu_counter_tree_precise_compare(&a->c, &b->c);
	int pr_rev = percpu_counter_tree_precise_compare(&b->c, &a->c);

	/* a is certainly below b past under(a) + over(b), above past over(a) + under(b). */
	hu_judge_approx(t, __FILE__, __LINE__, "percpu_counter_tree_approximate_compare",
			"approximate_compare(a, b)", "approx(a) - approx(b)", ap, d,
			hu_under(&a->c) + hu_over(&b->c), "(under(a)+over(b))",
			hu_over(&a->c) + hu_under(&b->c), "(over(a)+under(b))",
			hu_sign(pa - pb));
	hu_judge_approx(t, __FILE__, __LINE__, "percpu_counter_tree_approximate_compare",
			"approximate_compare(b, a)", "approx(b) - approx(a)", ap_rev, -d,
			hu_under(&b->c) + hu_over(&a->c), "(under(b)+over(a))",
			hu_over(&b->c) + hu_under(&a->c), "(over(b)+under(a))",
			hu_sign(pb - pa));
	KT_EXPECT(t, pr == hu_sign(pa - pb), "%s: precise(a, b) %d, precise %ld vs %ld",
		  what, pr, pa, pb);
	KT_EXPECT(t, pr_rev == hu_sign(pb - pa), "%s: precise(b, a) %d, precise %ld vs %ld",
		  what, pr_rev, pa, pb);
}

static void counters_edges_one(struct kt *t, void *arg)
{
	static const long bases[] = { 0, -500, 123456 };
	const struct cmp_cfg *c = arg;
	struct hu_counter a, b;
	unsigned int k, e;
	long tp, tn;

	if (!hu_counter_init(t, &a, c->batch) || !hu_counter_init(t, &b, c->batch_b))
		return;
	tp = hu_over(&a.c) + hu_under(&b.c);	/* a certainly above b beyond this */
	tn = hu_under(&a.c) + hu_over(&b.c);	/* a certainly below b beyond this */
	for (k = 0; k < ARRAY_SIZE(bases); k++) {
		const long d[] = { 0, 1, -1, 2, -2, tp - 1, tp, tp + 1, -tn + 1, -tn,
				   -tn - 1, tn, tn + 1, -tp, -tp - 1, 3 * tp, -3 * tn };

		for (e = 0; e < ARRAY_SIZE(d); e++) {
			percpu_counter_tree_set(&b.c, bases[k]);
			percpu_counter_tree_set(&a.c, bases[k] + d[e]);
			check_pair(t, &a, &b, "edge");
		}
	}
	hu_counter_destroy(&a);
	hu_counter_destroy(&b);
}

/* The literal docs/spec/hpcc.md#hpcc-compare-edges pairs (same batch, combined = u + o). */
static void counters_literal(struct kt *t, void *arg)
{
	struct hu_counter a, b;
	long comb;

	if (!hu_counter_init(t, &a, 32) || !hu_counter_init(t, &b, 32))
		return;
	comb = hu_under(&a.c) + hu_over(&a.c);
	percpu_counter_tree_set(&a.c, comb);
	percpu_counter_tree_set(&b.c, 0);
	KT_EXPECT_EQ(t, percpu_counter_tree_approximate_compare(&a.c, &b.c), 0);
	KT_EXPECT_EQ(t, percpu_counter_tree_precise_compare(&a.c, &b.c), 1);
	percpu_counter_tree_set(&a.c, comb + 1);
	KT_EXPECT_EQ(t, percpu_counter_tree_approximate_compare(&a.c, &b.c), 1);
	KT_EXPECT_EQ(t, percpu_counter_tree_precise_compare(&a.c, &b.c), 1);
	percpu_counter_tree_set(&a.c, -comb);
	KT_EXPECT_EQ(t, percpu_counter_tree_approximate_compare(&a.c, &b.c), 0);
	KT_EXPECT_EQ(t, percpu_counter_tree_precise_compare(&a.c, &b.c), -1);
	percpu_counter_tree_set(&a.c, -comb - 1);
	KT_EXPECT_EQ(t, percpu_counter_tree_approximate_compare(&a.c, &b.c), -1);
	KT_EXPECT_EQ(t, percpu_counter_tree_precise_compare(&a.c, &b.c), -1);
	percpu_counter_tree_set(&a.c, 42);
	percpu_counter_tree_set(&b.c, 42);
	KT_EXPECT_EQ(t, percpu_counter_tree_approximate_compare(&a.c, &b.c), 0);
	KT_EXPECT_EQ(t, percpu_counter_tree_precise_compare(&a.c, &b.c), 0);
	hu_counter_destroy(&a);
	hu_counter_destroy(&b);
}

static void compare_counters_edges(struct kt *t)
{
	static const unsigned int cpus[] = { 2, 4, 64 };
	static const unsigned long bpairs[][2] = { { 32, 32 }, { 32, 64 }, { 2, 256 },
						   { 256, 2 }, { 4, 8 } };
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(cpus); i++)
		for (j = 0; j < ARRAY_SIZE(bpairs); j++) {
			struct cmp_cfg c = { cpus[i], bpairs[j][0], bpairs[j][1], 0 };

			kt_run_config(t, c.cpus, counters_edges_one, &c);
		}
	kt_run_config(t, 4, counters_literal, NULL);
}

/*
 * Counters whose approximations lag their precise values by different
 * residuals, with precise values a few units apart: every step of
 * precise_compare (either counter summed first) must give sign(a - b),
 * and each of -1, 0, +1 must occur both inside and outside the window.
 */
static void compare_counters_with_residual(struct kt *t)
{
	static const unsigned long bpairs[][2] = { { 2, 256 }, { 256, 2 }, { 32, 32 },
						   { 16, 64 } };
	unsigned long seen[2][3] = { { 0 } };
	unsigned int j, r;

	if (!kt_hpcc_setup(t, 8))
		return;
	for (j = 0; j < ARRAY_SIZE(bpairs); j++) {
		struct hu_counter a, b;
		struct kt_rng rng;

		if (!hu_counter_init(t, &a, bpairs[j][0]) || !hu_counter_init(t, &b, bpairs[j][1]))
			return;
		kt_rng_seed(&rng, 40 + j);
		for (r = 0; r < 300; r++) {
			long base = (long)kt_rng_below(&rng, 100000) - 50000;
			long spread = kt_rng_below(&rng, 2) ? 3 :
				      (long)(hu_under(&a.c) + hu_under(&b.c)) * 2;
			long pa = base + (long)kt_rng_below(&rng, 2 * spread + 1) - spread;
			int in_window;

			add_residual(&a.c, &rng, kt_rng_below(&rng, 200));
			add_residual(&b.c, &rng, kt_rng_below(&rng, 200));
			percpu_counter_tree_set(&a.c, pa);
			percpu_counter_tree_set(&b.c, base);
			check_pair(t, &a, &b, "residual");
			in_window = !percpu_counter_tree_approximate_compare(&a.c, &b.c);
			seen[in_window][hu_sign(pa - base) + 1]++;
			if (t->failures)
				break;
		}
		hu_counter_destroy(&a);
		hu_counter_destroy(&b);
	}
	/* Outside the window a == b is impossible; the other five must occur. */
	KT_EXPECT(t, seen[1][0] && seen[1][1] && seen[1][2], "in window: %lu %lu %lu",
		  seen[1][0], seen[1][1], seen[1][2]);
	KT_EXPECT(t, seen[0][0] && seen[0][2] && !seen[0][1], "outside: %lu %lu %lu",
		  seen[0][0], seen[0][1], seen[0][2]);
}

/* One CPU: under = over = 0, so every comparison is exact. */
static void compare_single_cpu(struct kt *t)
{
	struct hu_counter a, b;
	static const long d[] = { 0, 1, -1, 1000, -1000 };
	unsigned int e;

	if (!kt_hpcc_setup(t, 1) || !hu_counter_init(t, &a, 32) || !hu_counter_init(t, &b, 32))
		return;
	KT_EXPECT(t, hu_under(&a.c) == 0 && hu_over(&a.c) == 0, "1 CPU: %lu/%lu",
		  hu_under(&a.c), hu_over(&a.c));
	for (e = 0; e < ARRAY_SIZE(d); e++) {
		percpu_counter_tree_set(&b.c, 10);
		percpu_counter_tree_set(&a.c, 0);
		percpu_counter_tree_add(&a.c, 10 + d[e]);
		KT_EXPECT_EQ(t, percpu_counter_tree_approximate_compare(&a.c, &b.c), hu_sign(d[e]));
		KT_EXPECT_EQ(t, percpu_counter_tree_precise_compare(&a.c, &b.c), hu_sign(d[e]));
		KT_EXPECT_EQ(t, percpu_counter_tree_approximate_compare_value(&b.c, 10 + d[e]),
			     hu_sign(d[e]));
		KT_EXPECT_EQ(t, percpu_counter_tree_precise_compare_value(&b.c, 10 + d[e]),
			     hu_sign(d[e]));
	}
	hu_counter_destroy(&a);
	hu_counter_destroy(&b);
}

static const struct kt_case cases[] = {
	KT_CASE(compare_value_edges),
	KT_CASE(compare_value_with_residual),
	KT_CASE(compare_counters_edges),
	KT_CASE(compare_counters_with_residual),
	KT_CASE(compare_single_cpu),
};

KT_MAIN("hpcc_compare", cases)
