// SPDX-License-Identifier: GPL-2.0
/*
 * Every bound an oracle or invariant of ./stress compares against, at the
 * bound and one step either side, both ways (tests/lib/kt_bound.h): the
 * 16 precise sums of a two-pass selection and their counter sums, the
 * window up to which a selection must be exact, bounded's window,
 * --max-shortfall, counter_storm's read windows, the documented window of
 * an approximate comparison. Each row calls the predicate the invariant
 * itself uses.
 */
#include <limits.h>
#include "ktap.h"
#include "kt_bound.h"
#include "stress.h"
#include "shape/hpcc_window.h"
#include "scenarios/counter_storm/storm.h"
#include "scenarios/oom_race/oom_bounds.h"

static bool budget_evals(long v, long arg)
{
	return oom_budget_ok(v, arg);
}

static bool budget_sums(long v, long arg)
{
	return oom_budget_ok(arg, v);
}

static bool exact_due(long v, long arg)
{
	return oom_exact_due(v);
}

static bool bounded(long v, long window)
{
	return oom_bounded_ok(v, window);
}

static bool v16_shortfall(long v, long max)
{
	return oom_v16_shortfall_ok(v, max);
}

static void oom_race_bounds(struct kt *t)
{
	const struct kt_bound rows[] = {
		{ "precise_budget evaluations", OOM_MAX_PRECISE_BADNESS_SUMS, KT_AT_MOST,
		  budget_evals, 0 },
		{ "precise_budget evaluations, sums at theirs", OOM_MAX_PRECISE_BADNESS_SUMS,
		  KT_AT_MOST, budget_evals, NR_MM_COUNTERS * OOM_MAX_PRECISE_BADNESS_SUMS },
		{ "precise_budget counter sums", NR_MM_COUNTERS * OOM_MAX_PRECISE_BADNESS_SUMS,
		  KT_AT_MOST, budget_sums, 0 },
		{ "exact_in_window tasks", OOM_MAX_PRECISE_BADNESS_SUMS, KT_AT_MOST, exact_due, 0 },
		{ "bounded_window", 4096, KT_AT_MOST, bounded, 4096 },
		{ "bounded_window of 1", 1, KT_AT_MOST, bounded, 1 },
		{ "v16_max_shortfall 0", 0, KT_AT_MOST, v16_shortfall, 0 },
		{ "v16_max_shortfall", 8192, KT_AT_MOST, v16_shortfall, 8192 },
	};

	kt_check_bounds(t, rows, ARRAY_SIZE(rows));
	/* Without --max-shortfall there is no bound to meet. */
	KT_EXPECT(t, oom_v16_shortfall_ok(LONG_MAX, -1), "no --max-shortfall");
}

static bool window_hi(long v, long lo)
{
	return storm_in_window(v, lo, 7);
}

static bool window_lo(long v, long hi)
{
	return storm_in_window(v, -5, hi);
}

/* approximate_compare's window: under_a 3, over_a 5, under_b 11, over_b 2. */
static bool pair_pos(long d, long arg)
{
	return hpcc_window_pair_answer(d, 3, 5, 11, 2) == 0;
}

static bool pair_neg(long d, long arg)
{
	return hpcc_window_pair_answer(d, 3, 5, 11, 2) == 0;
}

static void storm_bounds(struct kt *t)
{
	const struct kt_bound rows[] = {
		{ "read window, upper end", 7, KT_AT_MOST, window_hi, -5 },
		{ "read window, lower end", -5, KT_AT_LEAST, window_lo, 7 },
		{ "compare window, +(over_a + under_b)", 5 + 11, KT_AT_MOST, pair_pos, 0 },
		{ "compare window, -(under_a + over_b)", -(3 + 2), KT_AT_LEAST, pair_neg, 0 },
	};

	kt_check_bounds(t, rows, ARRAY_SIZE(rows));
}

static const struct kt_case cases[] = {
	KT_CASE(oom_race_bounds),
	KT_CASE(storm_bounds),
};

KT_MAIN("stress_bounds", cases)
