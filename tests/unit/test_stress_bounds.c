// SPDX-License-Identifier: GPL-2.0
/*
 * Every bound an oracle or invariant of ./stress compares against, at the
 * bound and one step either side, both ways (tests/lib/kt_bound.h): the
 * 16 precise sums of a two-pass selection and their counter sums, the
 * window up to which a selection must be exact, bounded's window,
 * --max-shortfall, counter_storm's read windows, the documented window of
 * an approximate comparison. Each row calls the predicate the invariant
 * itself uses. And every scenario option row with a range, parsed at its
 * ends and one step outside.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include "ktap.h"
#include "kt_bound.h"
#include "opts.h"
#include "scenario.h"
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

/* One row's value @v, printed as the command line would give it: the parse's answer. */
static bool opt_accepts(const struct stress_opt *o, const char *v)
{
	static long long field[64];	/* any row's field fits */
	char err[256];

	return !stress_opt_parse(o, field, v, err, sizeof(err));
}

/* @o, a row with a range, at its ends and one step outside: how many rows. */
static unsigned int row_at_bounds(struct kt *t, const char *owner, const struct stress_opt *o)
{
	char v[64];

	if (o->type == OPT_UINT) {
		snprintf(v, sizeof(v), "%llu", o->min);
		KT_EXPECT(t, opt_accepts(o, v), "%s --%s %s", owner, o->name, v);
		snprintf(v, sizeof(v), "%llu", o->max);
		KT_EXPECT(t, opt_accepts(o, v), "%s --%s %s", owner, o->name, v);
		if (o->min) {
			snprintf(v, sizeof(v), "%llu", o->min - 1);
			KT_EXPECT(t, !opt_accepts(o, v), "%s --%s %s", owner, o->name, v);
		}
		if (o->max < ULLONG_MAX) {
			snprintf(v, sizeof(v), "%llu", o->max + 1);
			KT_EXPECT(t, !opt_accepts(o, v), "%s --%s %s", owner, o->name, v);
		}
		return 1;
	}
	if (o->type == OPT_DOUBLE && isfinite(o->fmin) && isfinite(o->fmax)) {
		double step = 1e-6 * (o->fmax - o->fmin > 1 ? o->fmax - o->fmin : 1);
		const double at[] = { o->fmin, o->fmax, o->fmin - step, o->fmax + step };
		unsigned int k;

		for (k = 0; k < ARRAY_SIZE(at); k++) {
			snprintf(v, sizeof(v), "%.9f", at[k]);
			KT_EXPECT(t, opt_accepts(o, v) == (k < 2), "%s --%s %s", owner, o->name,
				  v);
		}
		return 1;
	}
	return 0;
}

/*
 * Every option row with a range, the engine's and each scenario's, at its
 * ends and one step outside (a whole number for integers, a millionth of
 * the range's scale for fractions): the ends taken, the outside refused.
 */
static void option_rows_at_bounds(struct kt *t)
{
	const struct stress_opt *o;
	unsigned int i, rows = 0;

	for (o = stress_engine_opts(); o->name; o++)
		rows += row_at_bounds(t, "engine", o);
	for (i = 0; i < scenario_count(); i++) {
		const struct scenario *sc = scenario_at(i);

		for (o = sc->opts; o && o->name; o++)
			rows += row_at_bounds(t, sc->name, o);
	}
	KT_EXPECT(t, rows > 3, "%u option rows with a range", rows);
	kt_diag(t, "%u option rows driven at their bounds", rows);
}

static const struct kt_case cases[] = {
	KT_CASE(oom_race_bounds),
	KT_CASE(storm_bounds),
	KT_CASE(option_rows_at_bounds),
};

KT_MAIN("stress_bounds", cases)
