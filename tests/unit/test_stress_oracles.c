// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the testers: each expected answer, window and coverage the
 * scenarios judge by is compared with the spec's value, computed
 * independently (lib/shape), for equality. A check laxer than its spec
 * passes every correct run, so no stress run can show it; these can.
 */
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include "ktap.h"
#include "shape/hpcc_shape.h"
#include "shape/hpcc_residual.h"
#include "shape/hpcc_window.h"
#include "scenarios/counter_storm/storm.h"

/*
 * approximate_compare(a, b)'s expected answer over every boundary delta
 * of pairs with asymmetric tolerances: equal to the spec's, and each band
 * (within both tolerances, between them, beyond both) reached, where the
 * tolerances taken the wrong way round would give another answer.
 */
static void pair_expect_is_the_spec(struct kt *t)
{
	static const struct { unsigned int cpus; unsigned long batch; } sh[] = {
		{ 2, 2 }, { 9, 2 }, { 64, 32 }, { 300, 1024 }, { 1, 2 },
	};
	static struct storm st;
	unsigned long band[3] = { 0 }, differs = 0, wrong = 0, swapped_caught = 0;
	long d[HPCC_EDGE_MAX_OFFSETS];
	unsigned int i, j, k, n;

	for (i = 0; i < sizeof(sh) / sizeof(sh[0]); i++)
	for (j = 0; j < sizeof(sh) / sizeof(sh[0]); j++) {
		struct hpcc_shape a, b;
		unsigned int ka = K_EDGE0, kb = K_EDGE1;

		KT_ASSERT(t, !hpcc_shape_compute(&a, sh[i].cpus, sh[i].batch), "shape a");
		KT_ASSERT(t, !hpcc_shape_compute(&b, sh[j].cpus, sh[j].batch), "shape b");
		st.under[ka] = a.under;
		st.over[ka] = a.over;
		st.under[kb] = b.under;
		st.over[kb] = b.over;
		n = hpcc_edge_pair_offsets(a.under, a.over, 0, b.under, b.over, 0, d);
		for (k = 0; k < n; k++) {
			int want = hpcc_window_pair_answer(d[k], a.under, a.over, b.under, b.over);
			int got = storm_pair_expect(&st, ka, kb, d[k]);
			int bd = hpcc_window_pair_band(d[k], a.under, a.over, b.under, b.over);

			band[bd]++;
			if (got != want && !wrong++)
				kt_diag(t, "a (%u cpus, batch %lu), b (%u, %lu), D %+ld: expected "
					"answer %d, spec %d", sh[i].cpus, sh[i].batch,
					sh[j].cpus, sh[j].batch, d[k], got, want);
			/* The tolerances swapped: does this delta tell them apart? */
			if (want != hpcc_window_pair_answer(d[k], a.over, a.under, b.over, b.under)) {
				differs++;
				swapped_caught += bd == 1;
			}
		}
	}
	kt_diag(t, "bands: within %lu, between %lu, beyond %lu; %lu deltas tell swapped "
		"tolerances apart", band[0], band[1], band[2], differs);
	KT_EXPECT(t, wrong == 0, "%lu expected answers differ from the spec's", wrong);
	KT_EXPECT(t, band[0] && band[1] && band[2], "every band reached");
	KT_EXPECT(t, swapped_caught > 0, "a delta between the tolerances tells them apart");
}

/* The band and answer helpers themselves, by hand (under 3, over 1 against 0/0). */
static void pair_bands_by_hand(struct kt *t)
{
	/* tol_neg = a.under + b.over = 3, tol_pos = a.over + b.under = 1. */
	KT_EXPECT_EQ(t, hpcc_window_pair_answer(1, 3, 1, 0, 0), 0);
	KT_EXPECT_EQ(t, hpcc_window_pair_answer(2, 3, 1, 0, 0), 1);
	KT_EXPECT_EQ(t, hpcc_window_pair_answer(-3, 3, 1, 0, 0), 0);
	KT_EXPECT_EQ(t, hpcc_window_pair_answer(-4, 3, 1, 0, 0), -1);
	KT_EXPECT_EQ(t, hpcc_window_pair_answer(LONG_MIN, 3, 1, 0, 0), -1);
	KT_EXPECT_EQ(t, hpcc_window_pair_band(1, 3, 1, 0, 0), 0);
	KT_EXPECT_EQ(t, hpcc_window_pair_band(-2, 3, 1, 0, 0), 1);
	KT_EXPECT_EQ(t, hpcc_window_pair_band(2, 3, 1, 0, 0), 1);
	KT_EXPECT_EQ(t, hpcc_window_pair_band(4, 3, 1, 0, 0), 2);
}

/* Every band edge, on both sides: 0 and each tolerance, one short and one past. */
static void pair_band_edges_by_hand(struct kt *t)
{
	/* tol_neg = 3 (a.under + b.over), tol_pos = 1: lo 1, hi 3 on both sides. */
	static const struct { long d; int band; } want[] = {
		{ 0, 0 }, { 1, 0 }, { -1, 0 }, { 2, 1 }, { -2, 1 }, { 3, 1 }, { -3, 1 },
		{ 4, 2 }, { -4, 2 }, { LONG_MAX, 2 }, { LONG_MIN, 2 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		KT_EXPECT(t, hpcc_window_pair_band(want[i].d, 2, 1, 0, 1) == want[i].band,
			  "D %+ld: band %d, want %d", want[i].d,
			  hpcc_window_pair_band(want[i].d, 2, 1, 0, 1), want[i].band);
}

/* A failure names its delta against the tolerances the same way everywhere. */
static void window_names_by_hand(struct kt *t)
{
	static const struct { long d; const char *name; } want[] = {
		{ 3, "+over" }, { 4, "+over+1" }, { 2, "+over-1" },
		{ -10, "-under" }, { -11, "-under-1" }, { -9, "-under+1" },
		{ 10, "+under" }, { 11, "+under+1" }, { -3, "-over" }, { -2, "-over+1" },
		{ -20, "-20" }, { 20, "+20" }, { 0, "+0" },
	};
	char buf[32];
	unsigned int i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		strcpy(buf, "?");
		hpcc_window_name(buf, sizeof(buf), want[i].d, 10, "under", 3, "over");
		KT_EXPECT(t, !strcmp(buf, want[i].name), "D %+ld named '%s', want '%s'",
			  want[i].d, buf, want[i].name);
	}
}

static bool has(const long *d, unsigned int n, long x)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (d[i] == x)
			return true;
	return false;
}

static bool strictly_sorted(const long *d, unsigned int n)
{
	unsigned int i;

	for (i = 1; i < n; i++)
		if (d[i - 1] >= d[i])
			return false;
	return true;
}

/*
 * The edges the comparison tests are driven at, as the header states
 * them: a generator that drops one tests less and passes everything.
 */
static void edge_offsets_by_hand(struct kt *t)
{
	/* 0, +-3, +-2, 10 and 5, each -1, 0, +1. */
	static const long val[] = { -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 9, 10, 11 };
	long d[HPCC_EDGE_MAX_OFFSETS];
	unsigned int n, i, e, k, sg;
	/* ua, oa, ub, ob; ra and rb far apart so that rb - ra stands alone. */
	const long ua = 3, oa = 1, ub = 5, ob = 4, ra = 1000, rb = 10;
	const long outer[] = { oa + ub, ua + ob }, inner_b[] = { ub, ob }, inner_a[] = { ua, oa };

	n = hpcc_edge_value_offsets(3, 2, 10, 5, d);
	KT_EXPECT(t, n == sizeof(val) / sizeof(val[0]), "%u value offsets, want %zu", n,
		  sizeof(val) / sizeof(val[0]));
	for (i = 0; i < n && i < sizeof(val) / sizeof(val[0]); i++)
		KT_EXPECT(t, d[i] == val[i], "value offset %u: %ld, want %ld", i, d[i], val[i]);

	n = hpcc_edge_pair_offsets(ua, oa, ra, ub, ob, rb, d);
	KT_EXPECT(t, n <= HPCC_EDGE_MAX_OFFSETS && strictly_sorted(d, n), "sorted, unique");
	for (e = 0; e < 3; e++) {
		long o = (long)e - 1;

		KT_EXPECT(t, has(d, n, o), "0%+ld missing", o);
		KT_EXPECT(t, has(d, n, rb - ra + o), "equal precise %ld missing", rb - ra + o);
		for (k = 0; k < 2; k++)
			for (sg = 0; sg < 2; sg++) {
				long x = sg ? -1 : 1;

				KT_EXPECT(t, has(d, n, x * outer[k] + o), "outer %ld missing",
					  x * outer[k] + o);
				KT_EXPECT(t, has(d, n, x * inner_b[k] + o - ra),
					  "re-test against b %ld missing", x * inner_b[k] + o - ra);
				KT_EXPECT(t, has(d, n, x * inner_a[k] + o + rb),
					  "re-test against a %ld missing", x * inner_a[k] + o + rb);
			}
	}
}

/* The residual sums the comparisons are checked at: exactly the header's list. */
static void edge_extremes_by_hand(struct kt *t)
{
	static const struct { unsigned int cpus; unsigned long batch; } sh[] = {
		{ 8, 8 }, { 300, 1024 }, { 2, 2 }, { 1, 4 },
	};
	long r[HPCC_EDGE_MAX_EXTREMES];
	unsigned int i, n, k, m;

	for (i = 0; i < sizeof(sh) / sizeof(sh[0]); i++) {
		struct hpcc_shape s;
		long o, T;

		KT_ASSERT(t, !hpcc_shape_compute(&s, sh[i].cpus, sh[i].batch), "shape");
		o = s.over;
		T = s.settled_max;
		{
			const long all[] = { 0, 1, o - 1, o, o + 1, T - 1, T };
			long want[7];

			/* Those inside [0, T], in this order, each once. */
			for (k = m = 0; k < 7; k++)
				if (all[k] >= 0 && all[k] <= T && !has(want, m, all[k]))
					want[m++] = all[k];
			n = hpcc_edge_extremes(&s, r);
			KT_EXPECT(t, n == m, "%u CPUs: %u extremes, want %u", sh[i].cpus, n, m);
			for (k = 0; k < n && k < m; k++)
				KT_EXPECT(t, r[k] == want[k], "%u CPUs (over %ld, T %ld): extreme "
					  "%u is %ld, want %ld", sh[i].cpus, o, T, k, r[k], want[k]);
		}
	}
}

/*
 * The cells of a residual state against the tree's own layout
 * (docs/spec/hpcc.md#hpcc-index), counted independently: the CPUs on each
 * cell's path, the cells per level, each item cell's index.
 */
static void residual_cells_by_count(struct kt *t)
{
	static const unsigned int cpus[] = { 2, 6, 9, 300 };
	unsigned int i;

	for (i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		struct hpcc_shape s;
		unsigned long idx, n, per_level[HPCC_MAX_LEVELS + 1] = { 0 };
		unsigned long cpus_per_level[HPCC_MAX_LEVELS + 1] = { 0 }, bad = 0;
		unsigned int l;

		KT_ASSERT(t, !hpcc_shape_compute(&s, cpus[i], 8), "shape");
		n = hpcc_residual_cells(&s);
		KT_EXPECT(t, n == cpus[i] + s.nr_items - 1, "%u CPUs: %lu cells", cpus[i], n);
		for (idx = 0; idx < n; idx++) {
			unsigned int lv = hpcc_residual_cell_level(&s, idx), k, on = 0;
			unsigned long j = lv ? idx - cpus[i] : idx;
			int c;

			for (l = 1; l < lv; l++)
				j -= s.level_items[l];
			for (k = 0; (c = hpcc_residual_cell_cpu(&s, idx, k)) >= 0; k++) {
				on++;
				if (lv ? ((unsigned long)c & (s.level_items[lv] - 1)) != j :
				    (unsigned long)c != j)
					bad++;
			}
			if (on != hpcc_residual_cell_nr_cpus(&s, idx) && !bad++)
				kt_diag(t, "%u CPUs, cell %lu: %u CPUs on its path, nr_cpus says %u",
					cpus[i], idx, on, hpcc_residual_cell_nr_cpus(&s, idx));
			if (lv && hpcc_residual_cell_item(&s, idx) !=
			    hpcc_shape_item_index(&s, lv, (unsigned int)j) && !bad++)
				kt_diag(t, "%u CPUs, cell %lu: item %lu", cpus[i], idx,
					hpcc_residual_cell_item(&s, idx));
			if (lv <= s.nr_levels) {
				per_level[lv]++;
				cpus_per_level[lv] += on;
			}
		}
		KT_EXPECT(t, bad == 0, "%u CPUs: %lu cells off the layout", cpus[i], bad);
		KT_EXPECT(t, per_level[0] == cpus[i] && cpus_per_level[0] == cpus[i],
			  "%u CPUs: level 0 has %lu cells", cpus[i], per_level[0]);
		for (l = 1; l < s.nr_levels; l++)
			KT_EXPECT(t, per_level[l] == s.level_items[l] &&
				  cpus_per_level[l] == cpus[i],
				  "%u CPUs, level %u: %lu cells, %lu CPUs", cpus[i], l,
				  per_level[l], cpus_per_level[l]);
	}
}

/*
 * hpcc_residual_fill() for every sum 0..T of small shapes: a valid state
 * summing to r, its cells all written, laid out in the order asked: TOP
 * leaves each level below a step of the level above (or that one full),
 * BOTTOM gives level 0 the most it can while the rest stays a multiple of
 * the batch.
 */
static void residual_fill_every_sum(struct kt *t)
{
	static const struct { unsigned int cpus; unsigned long batch; } sh[] = {
		{ 2, 2 }, { 6, 4 }, { 9, 2 },
	};
	unsigned long cell[64], bad = 0;
	unsigned int i;

	for (i = 0; i < sizeof(sh) / sizeof(sh[0]); i++) {
		struct hpcc_shape s;
		unsigned long r, n, idx, cap0 = 0, cap_above = 0;
		int how;

		KT_ASSERT(t, !hpcc_shape_compute(&s, sh[i].cpus, sh[i].batch), "shape");
		n = hpcc_residual_cells(&s);
		KT_ASSERT(t, n <= 64, "%lu cells", n);
		for (idx = 0; idx < n; idx++)
			if (!hpcc_residual_cell_level(&s, idx))
				cap0 += hpcc_residual_cell_max(&s, idx);
			else
				cap_above += hpcc_residual_cell_max(&s, idx);
		for (how = HPCC_FILL_TOP; how <= HPCC_FILL_BOTTOM; how++)
		for (r = 0; r <= s.settled_max; r++) {
			unsigned long sum = 0, level0 = 0, want0;

			for (idx = 0; idx < n; idx++)
				cell[idx] = 0xdead;
			if (hpcc_residual_fill(&s, r, how, cell)) {
				if (!bad++)
					kt_diag(t, "%u CPUs: fill %lu refused", sh[i].cpus, r);
				continue;
			}
			for (idx = 0; idx < n; idx++) {
				sum += cell[idx];
				if (!hpcc_residual_cell_level(&s, idx))
					level0 += cell[idx];
			}
			if (how == HPCC_FILL_TOP)
				want0 = r - r % s.batch <= cap_above ? r % s.batch : level0;
			else
				for (want0 = r < cap0 ? r : cap0; (r - want0) % s.batch; want0--)
					;
			if ((sum != r || hpcc_residual_valid(&s, cell) ||
			     hpcc_residual_sum(&s, cell) != r || level0 != want0) && !bad++)
				kt_diag(t, "%u CPUs, batch %lu, %s, R %lu: sum %lu (says %lu), "
					"level 0 %lu want %lu, valid %d", sh[i].cpus, sh[i].batch,
					how == HPCC_FILL_TOP ? "top" : "bottom", r, sum,
					hpcc_residual_sum(&s, cell), level0, want0,
					hpcc_residual_valid(&s, cell));
		}
		KT_EXPECT(t, hpcc_residual_fill(&s, s.settled_max + 1, HPCC_FILL_TOP, cell) == -1,
			  "R = T + 1 refused");
	}
	KT_EXPECT(t, bad == 0, "%lu fills wrong", bad);
}

/*
 * hpcc_residual_valid() judges every cell: in small shapes, each cell
 * alone at its maximum is a reachable residual, one above it is not, and
 * (a cell above level 0 moves by its step) neither is one below a step.
 */
static void residual_valid_every_cell(struct kt *t)
{
	static const struct { unsigned int cpus; unsigned long batch; } sh[] = {
		{ 2, 2 }, { 6, 4 }, { 9, 2 },
	};
	unsigned long cell[64] = { 0 }, n, idx, max, step, bad = 0;
	struct hpcc_shape s;
	unsigned int i;

	for (i = 0; i < sizeof(sh) / sizeof(sh[0]); i++) {
		KT_ASSERT(t, !hpcc_shape_compute(&s, sh[i].cpus, sh[i].batch), "shape");
		n = hpcc_residual_cells(&s);
		KT_ASSERT(t, n <= 64, "%lu cells", n);
		for (idx = 0; idx < n; idx++) {
			max = hpcc_residual_cell_max(&s, idx);
			step = hpcc_residual_cell_step(&s, idx);
			cell[idx] = max;
			bad += hpcc_residual_valid(&s, cell) != 0;
			cell[idx] = max + 1;
			bad += hpcc_residual_valid(&s, cell) != -1;
			cell[idx] = step - 1;
			bad += step > 1 && hpcc_residual_valid(&s, cell) != -1;
			if (bad)
				kt_diag(t, "%u CPUs, batch %lu: cell %lu (max %lu, step %lu) judged "
					"wrong", sh[i].cpus, sh[i].batch, idx, max, step);
			cell[idx] = 0;
			if (bad)
				break;
		}
	}
	KT_EXPECT(t, bad == 0, "%lu verdicts wrong", bad);
}

/* The add that moves a cell between two residuals (hpcc_residual.h). */
static void residual_inc_by_hand(struct kt *t)
{
	struct hpcc_shape s;

	KT_ASSERT(t, !hpcc_shape_compute(&s, 4, 4), "shape");
	KT_EXPECT(t, hpcc_residual_inc(&s, 0, 1, 3, false) == 2, "1 -> 3");
	KT_EXPECT(t, hpcc_residual_inc(&s, 0, 3, 1, false) == -2, "3 -> 1");
	KT_EXPECT(t, hpcc_residual_inc(&s, 0, 1, 3, true) == 2 - (long)s.m_top, "1 -> 3 from above");
	KT_EXPECT(t, hpcc_residual_inc(&s, 0, 2, 2, true) == 0, "nothing to do");
}

static const struct kt_case cases[] = {
	KT_CASE(pair_expect_is_the_spec),
	KT_CASE(pair_bands_by_hand),
	KT_CASE(pair_band_edges_by_hand),
	KT_CASE(window_names_by_hand),
	KT_CASE(edge_offsets_by_hand),
	KT_CASE(edge_extremes_by_hand),
	KT_CASE(residual_cells_by_count),
	KT_CASE(residual_fill_every_sum),
	KT_CASE(residual_valid_every_cell),
	KT_CASE(residual_inc_by_hand),
};

KT_MAIN("stress_oracles", cases);
