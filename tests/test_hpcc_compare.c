// SPDX-License-Identifier: GPL-2.0
/*
 * The four comparisons (spec/hpcc.md §6) at the exact edges of the
 * accuracy window: delta 0, ±under, ±over, each ±1; counter vs value and
 * counter vs counter; approximate and precise; a > b, a < b and a == b
 * inside and outside the window, with approximations that differ from
 * the precise values. Expected answers come from the spec's formulas
 * (hu_compare_delta), never from the library.
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

/* §6.3 on a fresh counter after set(base): approx = precise = base. */
static void compare_value_edges(struct kt *t)
{
	static const unsigned int cpus[] = { 2, 3, 4, 256 };
	static const unsigned long batches[] = { 2, 32, 1024 };
	static const long bases[] = { 0, 1000, -1000, LONG_MAX / 2 };
	unsigned int i, j, k, e;

	for (i = 0; i < ARRAY_SIZE(cpus); i++)
	for (j = 0; j < ARRAY_SIZE(batches); j++) {
		struct hu_counter hc;
		long u, o;

		if (!kt_hpcc_setup(t, cpus[i]) || !hu_counter_init(t, &hc, batches[j]))
			return;
		u = hu_under(&hc.c);
		o = hu_over(&hc.c);
		KT_ASSERT(t, u > o && o > 0, "%u CPUs: under %ld over %ld", cpus[i], u, o);
		for (k = 0; k < ARRAY_SIZE(bases); k++) {
			long b = bases[k];
			const long d[] = { 0, 1, -1, u - 1, u, u + 1, -o + 1, -o, -o - 1,
					   o, o + 1, -u, -u - 1, 2 * u, -2 * u };

			percpu_counter_tree_set(&hc.c, b);
			KT_EXPECT(t, percpu_counter_tree_approximate_sum(&hc.c) == b, "fresh");
			/* The literal §6.3 expectations. */
			KT_EXPECT(t, percpu_counter_tree_approximate_compare_value(&hc.c, b + u) == 0 &&
				  percpu_counter_tree_approximate_compare_value(&hc.c, b - o) == 0 &&
				  percpu_counter_tree_approximate_compare_value(&hc.c, b + u + 1) == 1 &&
				  percpu_counter_tree_approximate_compare_value(&hc.c, b - o - 1) == -1 &&
				  percpu_counter_tree_approximate_compare_value(&hc.c, b + o + 1) == 0,
				  "§6.3 approximate, %u CPUs batch %lu base %ld", cpus[i],
				  batches[j], b);
			KT_EXPECT(t, percpu_counter_tree_precise_compare_value(&hc.c, b + u) == 1 &&
				  percpu_counter_tree_precise_compare_value(&hc.c, b - o) == -1 &&
				  percpu_counter_tree_precise_compare_value(&hc.c, b) == 0,
				  "§6.3 precise, %u CPUs batch %lu base %ld", cpus[i],
				  batches[j], b);
			for (e = 0; e < ARRAY_SIZE(d); e++) {
				int ap = percpu_counter_tree_approximate_compare_value(&hc.c, b + d[e]);
				int pr = percpu_counter_tree_precise_compare_value(&hc.c, b + d[e]);

				KT_EXPECT(t, ap == hu_compare_delta(d[e], o, u),
					  "approx(v = base %+ld) = %d (u %ld o %ld)", d[e], ap, u, o);
				KT_EXPECT(t, pr == hu_sign(d[e]),
					  "precise(v = base %+ld) = %d", d[e], pr);
			}
		}
		hu_counter_destroy(&hc);
	}
}

/* Counter vs value when the approximation lags the precise value. */
static void compare_value_with_residual(struct kt *t)
{
	static const unsigned int cpus[] = { 3, 8, 64 };
	unsigned int i, r;

	for (i = 0; i < ARRAY_SIZE(cpus); i++) {
		struct hu_counter hc;
		struct kt_rng rng;
		long u, o;

		if (!kt_hpcc_setup(t, cpus[i]) || !hu_counter_init(t, &hc, 16))
			return;
		u = hu_under(&hc.c);
		o = hu_over(&hc.c);
		kt_rng_seed(&rng, i);
		for (r = 0; r < 40; r++) {
			long p, a, v;
			const long dv[] = { -2, -1, 0, 1, 2 };
			unsigned int e;

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
					KT_EXPECT(t, percpu_counter_tree_approximate_compare_value(&hc.c, v) ==
						  hu_compare_delta(v - a, o, u), "approx v %ld a %ld", v, a);
				}
			}
		}
		hu_counter_destroy(&hc);
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
	int want_ap = hu_compare_delta(d, hu_under(&a->c) + hu_over(&b->c),
				       hu_over(&a->c) + hu_under(&b->c));
	int want_ap_rev = hu_compare_delta(-d, hu_under(&b->c) + hu_over(&a->c),
					   hu_over(&b->c) + hu_under(&a->c));
	int ap = percpu_counter_tree_approximate_compare(&a->c, &b->c);
	int ap_rev = percpu_counter_tree_approximate_compare(&b->c, &a->c);
	int pr = percpu_counter_tree_precise_compare(&a->c, &b->c);
	int pr_rev = percpu_counter_tree_precise_compare(&b->c, &a->c);

	KT_EXPECT(t, ap == want_ap, "%s: approximate(a, b) %d, want %d (approx delta %ld, "
		  "precise %ld vs %ld)", what, ap, want_ap, d, pa, pb);
	KT_EXPECT(t, ap_rev == want_ap_rev, "%s: approximate(b, a) %d, want %d",
		  what, ap_rev, want_ap_rev);
	KT_EXPECT(t, pr == hu_sign(pa - pb), "%s: precise(a, b) %d, precise %ld vs %ld",
		  what, pr, pa, pb);
	KT_EXPECT(t, pr_rev == hu_sign(pb - pa), "%s: precise(b, a) %d, precise %ld vs %ld",
		  what, pr_rev, pa, pb);
	/* A conclusive approximate answer is never wrong for settled counters. */
	KT_EXPECT(t, !ap || ap == hu_sign(pa - pb), "%s: approximate %d contradicts "
		  "%ld vs %ld", what, ap, pa, pb);
}

static void compare_counters_edges(struct kt *t)
{
	static const unsigned int cpus[] = { 2, 4, 64 };
	static const unsigned long bpairs[][2] = { { 32, 32 }, { 32, 64 }, { 2, 256 },
						   { 256, 2 }, { 4, 8 } };
	static const long bases[] = { 0, -500, 123456 };
	unsigned int i, j, k, e;

	for (i = 0; i < ARRAY_SIZE(cpus); i++)
	for (j = 0; j < ARRAY_SIZE(bpairs); j++) {
		struct hu_counter a, b;
		long tp, tn;

		if (!kt_hpcc_setup(t, cpus[i]) || !hu_counter_init(t, &a, bpairs[j][0]) ||
		    !hu_counter_init(t, &b, bpairs[j][1]))
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
	/* The literal §6.3 pairs (same batch, combined = u + o). */
	{
		struct hu_counter a, b;
		long comb;

		if (!kt_hpcc_setup(t, 4) || !hu_counter_init(t, &a, 32) ||
		    !hu_counter_init(t, &b, 32))
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
