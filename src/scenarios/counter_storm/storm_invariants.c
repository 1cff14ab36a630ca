// SPDX-License-Identifier: GPL-2.0
/*
 * What counter_storm may fail with (struct stress_invariant), and the
 * bounds its windows compare against: tests drive each at the bound and
 * one step either side (the predicates the checks themselves call).
 */
#include "scenario.h"
#include "shape/hpcc_window.h"
#include "storm.h"

/* A read window of [-5, 7]: its upper end, then its lower end. */
static bool window_hi(long v, long lo)
{
	return storm_in_window(v, lo, 7);
}

static bool window_lo(long v, long hi)
{
	return storm_in_window(v, -5, hi);
}

/* approximate_compare's window for under_a 3, over_a 5, under_b 11, over_b 2: no answer. */
static bool pair_undecided(long d, long arg)
{
	return hpcc_window_pair_answer(d, 3, 5, 11, 2) == 0;
}

static const struct stress_bound read_window[] = {
	{ "read window, upper end", 7, STRESS_AT_MOST, window_hi, -5 },
	{ "read window, lower end", -5, STRESS_AT_LEAST, window_lo, 7 },
	{ .ok = NULL }
};

static const struct stress_bound compare_window[] = {
	{ "compare window, +(over_a + under_b)", 5 + 11, STRESS_AT_MOST, pair_undecided, 0 },
	{ "compare window, -(under_a + over_b)", -(3 + 2), STRESS_AT_LEAST, pair_undecided, 0 },
	{ .ok = NULL }
};

const struct stress_invariant storm_invariants[] = {
	STRESS_INVARIANT("precise_window",
			 "a precise_sum() read lies in the bracketed truth's window",
			 "docs/spec/stress.md#stress-truth", .bounds = read_window),
	STRESS_INVARIANT("approx_window",
			 "an approximate read lies in that window widened by T and the pending "
			 "carries",
			 "docs/spec/hpcc.md#hpcc-residual", .bounds = read_window),
	STRESS_INVARIANT("min_max",
			 "approximate_min_max() is approx - over, approx + under, and holds the "
			 "precise sum when quiescent",
			 "docs/spec/hpcc.md#hpcc-accuracy"),
	STRESS_INVARIANT("compare",
			 "comparisons agree with the truth, approximate ones with the documented "
			 "window",
			 "docs/spec/hpcc.md#hpcc-compare", .bounds = compare_window),
	STRESS_INVARIANT("conservation",
			 "quiescent: the precise sum and every level-0 word equal the adds made",
			 "docs/spec/stress.md#stress-invariants"),
	STRESS_INVARIANT("settled_bound",
			 "quiescent: 0 <= precise - approximate <= T",
			 "docs/spec/hpcc.md#hpcc-settled"),
	STRESS_INVARIANT("contract",
			 "quiescent: precise - under <= approximate <= precise + over, the "
			 "model's under/over",
			 "docs/spec/hpcc.md#hpcc-accuracy"),
	STRESS_INVARIANT("positive",
			 "the _positive reads are never negative, and the clamped sums when "
			 "quiescent",
			 "docs/spec/hpcc.md#hpcc-api"),
	STRESS_INVARIANT("set",
			 "after set(v): precise == v and both value comparisons with v give 0",
			 "docs/spec/hpcc.md#hpcc-set"),
	STRESS_INVARIANT("set_race",
			 "a counter set() under readers reads as one of the values set",
			 "docs/spec/hpcc.md#hpcc-set"),
	STRESS_INVARIANT("edge_state",
			 "an edge plan's counter holds the residual it was built with",
			 "docs/spec/hpcc.md#hpcc-compare-edges"),
	STRESS_INVARIANT("quiescence",
			 "no update in flight while every thread is parked",
			 "docs/spec/stress.md#stress-invariants"),
	{ .name = NULL }
};
