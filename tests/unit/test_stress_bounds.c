// SPDX-License-Identifier: GPL-2.0
/*
 * Every bound an invariant of ./stress declares (struct stress_bound: the
 * 16 precise sums of a two-pass selection and their counter sums, the
 * window up to which a selection must be exact, bounded's window,
 * --max-shortfall, counter_storm's read windows, the documented window of
 * an approximate comparison, ...), at the bound and one step either side,
 * both ways (tests/lib/kt_bound.h). Each row calls the predicate the
 * invariant itself uses. And every option row with a range, parsed at its
 * ends and one step outside.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include "ktap.h"
#include "kt_bound.h"
#include "opts.h"
#include "scenario.h"
#include "cli.h"
#include "registry.h"
#include "scenarios/oom_race/oom_bounds.h"

/*
 * Every bound an invariant declares (struct stress_bound, in its scenario's
 * files or the engine's), driven at the bound and one step either side:
 * a new invariant with a bound gets these cases without writing them.
 */
static unsigned int drive_declared(struct kt *t, const char *owner,
				   const struct stress_invariant *inv)
{
	const struct stress_bound *b;
	unsigned int nr = 0;
	char name[160];

	for (; inv && inv->name; inv++) {
		for (b = inv->bounds; b && b->ok; b++) {
			struct kt_bound row = {
				.name = name, .bound = b->at, .ok = b->ok, .arg = b->arg,
				.kind = b->kind == STRESS_AT_MOST ? KT_AT_MOST : KT_AT_LEAST,
			};

			snprintf(name, sizeof(name), "%s %s, %s", owner, inv->name, b->what);
			kt_check_bounds(t, &row, 1);
			nr++;
		}
	}
	return nr;
}

static void declared_bounds(struct kt *t)
{
	const struct scenario *sc;
	unsigned int i, nr = drive_declared(t, "engine", stress_engine_invariants());

	for (i = 0; (sc = scenario_declared_at(i)); i++)
		nr += drive_declared(t, sc->name, sc->invariants);
	KT_EXPECT(t, nr >= 12, "%u declared bounds", nr);
	kt_diag(t, "%u declared bounds driven at their bounds", nr);
	/* Without --max-shortfall there is no bound to meet. */
	KT_EXPECT(t, oom_v16_shortfall_ok(LONG_MAX, -1), "no --max-shortfall");
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
	if (o->type == OPT_DURATION) {
		/* Its minimum (or the parse's own 1 ms) and the parse's year. */
		double lo = o->fmin > 0 ? o->fmin : 0.001, step = 1e-6 * lo;
		const double at[] = { lo, 365.0 * 86400, lo - step, 365.0 * 86400 + 1 };
		unsigned int k;

		for (k = 0; k < ARRAY_SIZE(at); k++) {
			snprintf(v, sizeof(v), "%.9fs", at[k]);
			KT_EXPECT(t, opt_accepts(o, v) == (k < 2), "%s --%s %s", owner, o->name,
				  v);
		}
		/* 0 is "none" only where no minimum is set. */
		KT_EXPECT(t, opt_accepts(o, "0") == !(o->fmin > 0), "%s --%s 0", owner, o->name);
		return 1;
	}
	return 0;
}

/*
 * Every option row with a range, the engine's and each scenario's, at its
 * ends and one step outside (a whole number for integers, a millionth of
 * the range's scale for fractions and durations): the ends taken, the
 * outside refused.
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
	KT_CASE(declared_bounds),
	KT_CASE(option_rows_at_bounds),
};

KT_MAIN("stress_bounds", cases)
