// SPDX-License-Identifier: GPL-2.0
/*
 * counter_storm on an older hpcc API (make adapt-stress, mk/adapt.mk;
 * docs/kernel-trees.md#older-apis-the-adapter): the counters are driven
 * through lib/hpcc_adapt alone, so that a tree the full suite refuses (int
 * values, the RFC's init and inaccuracy) is stressed with the checks its
 * API can express, against the ground truth of truth.h. The bounds are the
 * tree's own promise, read from it: a settled approximation lies within
 * [-over, +under] of the precise sum (hpcc_a_accuracy_range(); the RFC's
 * ± inaccuracy), not lib/shape's model of lib/hpcc.
 *  - precise_window: the precise sum is the exact total at the read, up
 *    to the updates in flight;
 *  - approx_window: the approximation within the range around that
 *    window, widened by the carries the updates in flight may hold (each
 *    at most |inc| rounded up to the carry unit, which no tree makes
 *    larger than its range lets a residual be: the range rounded up to a
 *    power of two);
 *  - compare: on counters with nothing in flight, compare_value against
 *    values at the range's edges and near the exact value, and pairs,
 *    against the exact values and the documented range;
 *  - at quiescent points: conservation (precise == exact), the settled
 *    range (settled_bound), every edge and every pair, set() now and then;
 *  - no WARN.
 * Not expressible here: each CPU's level-0 word and the residual edge
 * plans (the layout differs per version), approximate_min_max. Values
 * stay within ±2^31: every vCPU keeps its own share of a counter within
 * ±2^29 / nr_cpus (steering the sign of its adds) and set() picks values
 * within ±2^29, so no sum leaves an int API's range; a value beyond it is
 * refused by the adapter (checked at setup and at every edge), never
 * truncated.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <kcompat/kcompat.h>
#include "hpcc_adapt.h"
#include "util/json.h"
#include "scenario.h"
#include "truth.h"

enum { K_HOT, K_WARM, K_COLD0, K_COLD1, NR_KEYS };
enum { P_SMALL, P_LARGE, P_NEGRUN, P_OSC, P_HOP, NR_PATTERNS };

static const char *const key_names[NR_KEYS] = { "hot", "warm", "cold0", "cold1" };

struct as_cpu {
	struct truth_cell *truth;
	int pattern;
	unsigned long left;
	long home[NR_KEYS];		/* this thread's share of each counter */
	unsigned int hop_target;
	bool hopped;
	unsigned long adds, other_adds;
} __attribute__((aligned(64)));

struct astorm {
	struct hpcc_a ctr[NR_KEYS];
	unsigned long under[NR_KEYS], over[NR_KEYS];
	unsigned long unit;		/* carry unit bound: the widest range, rounded up */
	long share, max_inc;		/* per-thread share bound, largest add */
	struct truth *truth;
	struct as_cpu *cpus;
	unsigned int nr_cpus;
	bool checking;
	bool inited[NR_KEYS];
	struct stress_rng qrng;
	atomic_ulong compares, unsettled, sets, refused;
};

static int sgn(long v)
{
	return (v > 0) - (v < 0);
}

/* The documented answer of compare_value: 0 when v - approx is in [-over, +under]. */
static int range_answer(long d, unsigned long over, unsigned long under)
{
	if (d >= 0)
		return (unsigned long)d <= under ? 0 : 1;
	return -(unsigned long)d <= over ? 0 : -1;
}

/* --- the update side --- */

static long next_inc(struct astorm *st, struct as_cpu *c, struct stress_rng *r)
{
	unsigned long mag;

	switch (c->pattern) {
	case P_SMALL:
		return (long)stress_rng_below(r, 7) - 3;
	case P_NEGRUN:
		return -(long)(1 + stress_rng_below(r, (unsigned long)st->max_inc));
	case P_OSC:
		/* Back and forth across a carry boundary of the widest unit. */
		mag = st->unit / 2 < (unsigned long)st->max_inc ? st->unit / 2 :
		      (unsigned long)st->max_inc;
		return (c->left & 1) ? (long)mag : -(long)mag;
	default:	/* P_LARGE, P_HOP */
		if (c->pattern == P_HOP && stress_rng_below(r, 4))
			return (long)stress_rng_below(r, 7) - 3;
		mag = 1 + stress_rng_below(r, (unsigned long)st->max_inc);
		return stress_rng_below(r, 2) ? (long)mag : -(long)mag;
	}
}

static void add_one(struct stress *s, struct astorm *st, struct as_cpu *c, unsigned int cpu,
		    unsigned int key, long inc)
{
	unsigned int ident = kc_get_cpu();
	struct truth_op op = { 0 };

	/* Keep this thread's share within ±share: the sum stays an int. */
	if (c->home[key] + inc > st->share || c->home[key] + inc < -st->share)
		inc = -inc;
	if (st->checking)
		op = truth_begin_at(&c->truth[key], inc);
	if (hpcc_a_add(&st->ctr[key], inc))
		stress_fail(s, "set", cpu, "add(%s, %ld) refused: within int, the adapter must "
			    "pass it", key_names[key], inc);
	if (st->checking)
		truth_end_at(st->truth, &c->truth[key], &op, cpu, key, inc, ident);
	c->home[key] += inc;
	c->adds++;
	if (ident != cpu)
		c->other_adds++;
}

static void astorm_cpu_step(struct stress *s, unsigned int cpu, struct stress_rng *r)
{
	struct astorm *st = stress_priv(s);
	struct as_cpu *c = &st->cpus[cpu];
	unsigned long x = stress_rng_below(r, 1000);
	unsigned int key = x < 450 ? K_HOT : K_WARM;

	if (!c->left--) {
		c->pattern = (int)stress_rng_below(r, NR_PATTERNS);
		c->left = 16 + stress_rng_below(r, 256);
		c->hop_target = stress_rng_below(r, st->nr_cpus);
		/* A hop run acts as another (online) CPU; the next run goes back. */
		if (c->pattern == P_HOP) {
			kc_set_cpu(kc_cpu_online_fallback(c->hop_target));
			c->hopped = true;
		} else if (c->hopped) {
			c->hopped = false;
			kc_set_cpu(cpu);
		}
	}
	/* The cold counters: 1 in 1000 adds of their one CPU. */
	if (x == 0 && cpu == 0)
		key = K_COLD0;
	else if (x == 1 && cpu == st->nr_cpus - 1)
		key = K_COLD1;
	add_one(s, st, c, cpu, key, next_inc(st, c, r));
}

/* --- the checks --- */

static void check_precise(struct stress *s, struct astorm *st, unsigned int key)
{
	struct truth_window w;
	long v, err;

	truth_read_done(st->truth, key, &w);
	v = hpcc_a_precise_sum(&st->ctr[key]);
	truth_read_started(st->truth, key, &w);
	err = (long)((unsigned long)v - truth_exact(&w));
	stress_count_checks(s, 1);
	stress_margin(s, "precise_window", 0, 1);
	if (err < -(long)truth_dneg(&w) || err > (long)truth_dpos(&w))
		stress_fail(s, "precise_window", -1, "precise_sum of counter %s = %ld is %ld from "
			    "the exact total %ld at the read, allowed [-%lu, +%lu] (in flight)",
			    key_names[key], v, err, (long)truth_exact(&w), truth_dneg(&w),
			    truth_dpos(&w));
}

static void check_approx(struct stress *s, struct astorm *st, unsigned int key, unsigned int id)
{
	struct truth_window w;
	long v, err, lo, hi;

	truth_read_done_bounded(st->truth, key, &w, id, st->unit);
	v = hpcc_a_approximate_sum(&st->ctr[key]);
	truth_read_started(st->truth, key, &w);
	err = (long)((unsigned long)v - truth_exact(&w));
	lo = -(long)(truth_dneg(&w) + st->under[key] + truth_dbound(&w));
	hi = (long)(truth_dpos(&w) + st->over[key] + truth_dbound(&w));
	stress_count_checks(s, 1);
	stress_margin(s, "approx_window", err < 0 ? (double)-err : (double)err,
		      err < 0 ? (double)-lo : (double)hi);
	if (err < lo || err > hi)
		stress_fail(s, "approx_window", -1, "approximate_sum of counter %s = %ld is %ld "
			    "from the exact total %ld at the read, allowed [%ld, %ld]: range under "
			    "%lu over %lu, in flight +%lu/-%lu, pending carry bound %lu",
			    key_names[key], v, err, (long)truth_exact(&w), lo, hi, st->under[key],
			    st->over[key], truth_dpos(&w), truth_dneg(&w), truth_dbound(&w));
}

/* Both comparisons of settled counter @key with @v; the truth is @exact. */
static void compare_value_verdict(struct stress *s, struct astorm *st, unsigned int key,
				  long v, long exact, long approx, int ra, int rp)
{
	int truth = sgn(v - exact), expect = range_answer(v - approx, st->over[key],
							  st->under[key]);

	if (ra == -ERANGE || rp == -ERANGE) {
		/* v is beyond the API's values: the adapter refused it. */
		atomic_fetch_add_explicit(&st->refused, 1, memory_order_relaxed);
		return;
	}
	stress_count_checks(s, 3);
	stress_margin(s, "compare", rp != truth || ra != expect, 0);
	atomic_fetch_add_explicit(&st->compares, 1, memory_order_relaxed);
	/* Each function judged on its own: one may be a known finding (--known). */
	if (rp != truth) {
		stress_fail_fn(s, STRESS_WRONG_ANSWER, "compare", "precise_compare_value", -1,
			       "precise_compare_value(%s, %ld) = %d but the counter is %ld "
			       "(expected %d, the sign of v - counter)", key_names[key], v, rp,
			       exact, truth);
		if (stress_failed(s))
			return;
	}
	if (ra && ra != truth)
		stress_fail_fn(s, STRESS_WRONG_ANSWER, "compare", "approximate_compare_value", -1,
			       "approximate_compare_value(%s, %ld) = %d but the counter is %ld",
			       key_names[key], v, ra, exact);
	else if (ra != expect)
		stress_fail_fn(s, STRESS_CONTRACT, "compare", "approximate_compare_value", -1,
			       "approximate_compare_value(%s, %ld): v - approx = %+ld returns %d; "
			       "the documented range is [-over, +under] = [-%lu, +%lu], so the "
			       "answer must be %d", key_names[key], v, v - approx, ra,
			       st->over[key], st->under[key], expect);
}

static long edge_value(struct astorm *st, unsigned int key, long approx, long exact,
		       struct stress_rng *r)
{
	long u = (long)st->under[key], o = (long)st->over[key];

	switch (stress_rng_below(r, 8)) {
	case 0: return approx + u;
	case 1: return approx + u + 1;
	case 2: return approx - o;
	case 3: return approx - o - 1;
	case 4: return exact;
	case 5: return exact + 1;
	case 6: return exact - 1;
	default: return exact + (long)stress_rng_below(r, 4 * u + 3) - 2 * u - 1;
	}
}

static void check_compare_value(struct stress *s, struct astorm *st, unsigned int key,
				struct stress_rng *r)
{
	struct hpcc_a *c = &st->ctr[key];
	struct truth_window w;
	long a, a2, v;
	int ra, rp;

	truth_read_done(st->truth, key, &w);
	a = hpcc_a_approximate_sum(c);
	v = edge_value(st, key, a, (long)truth_exact(&w), r);
	ra = hpcc_a_approximate_compare_value(c, v);
	rp = hpcc_a_precise_compare_value(c, v);
	a2 = hpcc_a_approximate_sum(c);
	truth_read_started(st->truth, key, &w);
	if (!truth_quiet(&w) || a != a2) {
		atomic_fetch_add_explicit(&st->unsettled, 1, memory_order_relaxed);
		return;
	}
	compare_value_verdict(s, st, key, v, (long)truth_exact(&w), a, ra, rp);
}

/* precise_compare(a, b) is the sign of a - b; approximate_compare() 0 or that sign. */
static void compare_pair_verdict(struct stress *s, struct astorm *st, unsigned int ka,
				 unsigned int kb, long ea, long eb, int ra, int rp)
{
	int truth = sgn(ea - eb);

	stress_count_checks(s, 2);
	stress_margin(s, "compare", rp != truth || (ra && ra != truth), 0);
	atomic_fetch_add_explicit(&st->compares, 1, memory_order_relaxed);
	if (rp != truth) {
		stress_fail_fn(s, STRESS_WRONG_ANSWER, "compare", "precise_compare", -1,
			       "precise_compare(%s, %s) = %d but the counters are %ld and %ld",
			       key_names[ka], key_names[kb], rp, ea, eb);
		if (stress_failed(s))
			return;
	}
	if (ra && ra != truth)
		stress_fail_fn(s, STRESS_WRONG_ANSWER, "compare", "approximate_compare", -1,
			       "approximate_compare(%s, %s) = %d but the counters are %ld and %ld",
			       key_names[ka], key_names[kb], ra, ea, eb);
}

static void check_compare_pair(struct stress *s, struct astorm *st, struct stress_rng *r)
{
	unsigned int ka = stress_rng_below(r, NR_KEYS), kb = stress_rng_below(r, NR_KEYS);
	struct truth_window wa, wb;
	int ra, rp;

	if (ka == kb || hpcc_a_limit_pair())
		return;
	truth_read_done(st->truth, ka, &wa);
	truth_read_done(st->truth, kb, &wb);
	ra = hpcc_a_approximate_compare(&st->ctr[ka], &st->ctr[kb]);
	rp = hpcc_a_precise_compare(&st->ctr[ka], &st->ctr[kb]);
	truth_read_started(st->truth, ka, &wa);
	truth_read_started(st->truth, kb, &wb);
	if (!truth_quiet(&wa) || !truth_quiet(&wb)) {
		atomic_fetch_add_explicit(&st->unsettled, 1, memory_order_relaxed);
		return;
	}
	compare_pair_verdict(s, st, ka, kb, (long)truth_exact(&wa), (long)truth_exact(&wb), ra, rp);
}

static void astorm_select_step(struct stress *s, unsigned int id, struct stress_rng *r)
{
	struct astorm *st = stress_priv(s);
	unsigned int key = stress_rng_below(r, NR_KEYS);

	if (!st->checking)
		return;
	switch (stress_rng_below(r, 8)) {
	case 0: case 1:
		check_approx(s, st, key, id);
		break;
	case 2: case 3:
		check_precise(s, st, key);
		break;
	case 4: case 5:
		/* Mostly the cold counters: they are often settled. */
		if (stress_rng_below(r, 4))
			key = stress_rng_below(r, 2) ? K_COLD0 : K_COLD1;
		check_compare_value(s, st, key, r);
		break;
	case 6:
		check_compare_pair(s, st, r);
		break;
	default:
		stress_check_no_warn(s);
		break;
	}
}

/* --- quiescent points: every thread parked, nothing in flight --- */

static void quiescent_counter(struct stress *s, struct astorm *st, unsigned int key)
{
	struct hpcc_a *c = &st->ctr[key];
	struct truth_window w;
	long exact, precise, approx, d, v;
	unsigned int cpu, i;

	if (!truth_settled(st->truth, key, &cpu)) {
		stress_fail(s, "quiescence", cpu, "counter %s has an update of cpu %u in flight "
			    "while every thread is parked", key_names[key], cpu);
		return;
	}
	truth_read_done(st->truth, key, &w);
	exact = (long)truth_exact(&w);
	precise = hpcc_a_precise_sum(c);
	approx = hpcc_a_approximate_sum(c);
	stress_count_checks(s, 2);
	stress_margin(s, "conservation", precise != exact, 0);
	if (precise != exact) {
		stress_fail(s, "conservation", -1, "counter %s: precise sum %ld != exact total %ld "
			    "(difference %ld)", key_names[key], precise, exact, precise - exact);
		return;
	}
	d = precise - approx;
	stress_margin(s, "settled_bound", d < 0 ? (double)-d : (double)d,
		      d < 0 ? (double)st->over[key] : (double)st->under[key]);
	if (d > (long)st->under[key] || -d > (long)st->over[key])
		stress_fail(s, "settled_bound", -1, "counter %s settled: precise %ld - approximate "
			    "%ld = %ld, outside the tree's range [-over %lu, +under %lu]",
			    key_names[key], precise, approx, d, st->over[key], st->under[key]);
	for (i = 0; i < 8 && !stress_failed(s); i++) {
		v = edge_value(st, key, approx, exact, &st->qrng);
		compare_value_verdict(s, st, key, v, exact, approx,
				      hpcc_a_approximate_compare_value(c, v),
				      hpcc_a_precise_compare_value(c, v));
	}
}

/* Every counter near one region, within ±2^29: the adds that follow stay within int. */
static void set_all(struct stress *s, struct astorm *st)
{
	static const long regions[] = { 0, 1L << 28, -(1L << 28), (1L << 29) - 4096,
					-(1L << 29) + 4096 };
	long region = regions[stress_rng_below(&st->qrng, ARRAY_SIZE(regions))], v;
	struct truth_window w;
	unsigned int key;

	for (key = 0; key < NR_KEYS; key++) {
		v = region + (long)stress_rng_below(&st->qrng, 4096) - 2048;
		if (hpcc_a_set(&st->ctr[key], v)) {
			stress_fail(s, "set", -1, "set(%s, %ld) refused within int", key_names[key], v);
			return;
		}
		truth_read_done(st->truth, key, &w);
		st->truth->base[key] = (unsigned long)v - (w.done_pos - w.done_neg);
		stress_count_checks(s, 2);
		if (hpcc_a_precise_sum(&st->ctr[key]) != v)
			stress_fail(s, "set", -1, "set(%s, %ld): precise sum %ld", key_names[key], v,
				    hpcc_a_precise_sum(&st->ctr[key]));
		else if (hpcc_a_precise_compare_value(&st->ctr[key], v))
			stress_fail(s, "set", -1, "set(%s, %ld): precise_compare_value with %ld is "
				    "not 0", key_names[key], v, v);
	}
	atomic_fetch_add_explicit(&st->sets, 1, memory_order_relaxed);
}

static void astorm_quiescent(struct stress *s)
{
	struct astorm *st = stress_priv(s);
	struct truth_window wa, wb;
	unsigned int ka, kb;

	if (!st->checking)
		return;
	for (ka = 0; ka < NR_KEYS && !stress_failed(s); ka++)
		quiescent_counter(s, st, ka);
	for (ka = 0; ka < NR_KEYS && !stress_failed(s) && !hpcc_a_limit_pair(); ka++)
		for (kb = 0; kb < NR_KEYS; kb++) {
			if (ka == kb)
				continue;
			truth_read_done(st->truth, ka, &wa);
			truth_read_done(st->truth, kb, &wb);
			compare_pair_verdict(s, st, ka, kb, (long)truth_exact(&wa),
					     (long)truth_exact(&wb),
					     hpcc_a_approximate_compare(&st->ctr[ka], &st->ctr[kb]),
					     hpcc_a_precise_compare(&st->ctr[ka], &st->ctr[kb]));
		}
	stress_check_no_warn(s);
	if (!stress_failed(s) && !stress_stopping(s) && !stress_rng_below(&st->qrng, 4))
		set_all(s, st);
}

/* --- life cycle --- */

static void astorm_free(struct astorm *st)
{
	unsigned int i;

	for (i = 0; i < NR_KEYS; i++)
		if (st->inited[i])
			hpcc_a_destroy(&st->ctr[i]);
	truth_free(st->truth);
	free(st->cpus);
	free(st);
}

/*
 * The adapter refuses what an int API cannot hold: an add or set of 2^31
 * returns -ERANGE and leaves the counter as it was.
 */
static void refusal_check(struct stress *s, struct astorm *st)
{
	struct hpcc_a *c = &st->ctr[K_HOT];
	long before = hpcc_a_precise_sum(c);

	if (!hpcc_a_limit_long())
		return;
	stress_count_checks(s, 1);
	if (hpcc_a_add(c, 1L << 31) != -ERANGE || hpcc_a_set(c, -(1L << 31) - 1) != -ERANGE ||
	    hpcc_a_precise_compare_value(c, 1L << 32) != -ERANGE ||
	    hpcc_a_precise_sum(c) != before)
		stress_fail(s, "set", -1, "a value beyond int was not refused by the adapter "
			    "(precise sum %ld, was %ld)", hpcc_a_precise_sum(c), before);
}

static int astorm_setup(struct stress *s)
{
	struct astorm *st = calloc(1, sizeof(*st));
	unsigned long batch = stress_batch(s), w = 1;
	unsigned int i;

	if (!st)
		return -1;
	st->nr_cpus = stress_nr_cpus(s);
	st->checking = stress_checking(s);
	st->cpus = aligned_alloc(64, sizeof(*st->cpus) * st->nr_cpus);
	st->truth = st->checking ? truth_new(st->nr_cpus, NR_KEYS, stress_nr_selectors(s)) : NULL;
	if (!st->cpus || (st->checking && !st->truth))
		goto fail;
	memset(st->cpus, 0, sizeof(*st->cpus) * st->nr_cpus);
	for (i = 0; i < NR_KEYS; i++) {
		if (hpcc_a_init(&st->ctr[i], batch)) {
			fprintf(stderr, "stress: counter_storm: init(batch %lu) failed or the batch "
				"does not fit the tree's API\n", batch);
			goto fail;
		}
		st->inited[i] = true;
		hpcc_a_accuracy_range(&st->ctr[i], &st->under[i], &st->over[i]);
		if (st->under[i] + st->over[i] > w)
			w = st->under[i] + st->over[i];
	}
	st->unit = 1;
	while (st->unit <= w)
		st->unit <<= 1;
	st->share = (1L << 29) / st->nr_cpus;
	st->max_inc = st->share < (1L << 20) ? st->share : (1L << 20);
	if ((unsigned long)st->max_inc > 8 * st->unit)
		st->max_inc = 8 * st->unit;
	for (i = 0; i < st->nr_cpus; i++)
		st->cpus[i].truth = st->truth ? truth_cell(st->truth, i, 0) : NULL;
	stress_rng_seed(&st->qrng, stress_seed(s), "counter_storm/quiescent", 0);
	stress_set_priv(s, st);
	if (st->checking)
		refusal_check(s, st);	/* a failure stops the run, which reports it */
	return 0;
fail:
	astorm_free(st);
	return -1;
}

static void astorm_teardown(struct stress *s)
{
	struct astorm *st = stress_priv(s);

	if (!st)
		return;
	astorm_free(st);
	stress_set_priv(s, NULL);
}

/* Every thread has stopped: the adds, and those made as another CPU. */
static void astorm_sums(struct astorm *st, unsigned long *adds, unsigned long *other)
{
	unsigned int i;

	*adds = *other = 0;
	for (i = 0; i < st->nr_cpus; i++) {
		*adds += st->cpus[i].adds;
		*other += st->cpus[i].other_adds;
	}
}

static void astorm_report_text(struct stress *s, FILE *out)
{
	struct astorm *st = stress_priv(s);
	unsigned long adds, other;
	unsigned int i;

	astorm_sums(st, &adds, &other);
	fprintf(out, "# counter_storm through the adapter (%s): range", HPCC_ADAPT_API_DESC);
	for (i = 0; i < NR_KEYS; i++)
		fprintf(out, " %s=-%lu/+%lu", key_names[i], st->over[i], st->under[i]);
	fprintf(out, " carry_unit=%lu\n# counter_storm final", st->unit);
	for (i = 0; i < NR_KEYS; i++)
		fprintf(out, " %s=%ld", key_names[i], hpcc_a_precise_sum(&st->ctr[i]));
	fprintf(out, "\n# counter_storm not run through the adapter: each CPU's level-0 word "
		"and the residual edge plans (they read lib/hpcc's layout), approximate_min_max"
		"\n# counter_storm adds=%lu adds_as_other_cpu=%lu compares=%lu "
		"unsettled_skips=%lu sets=%lu refused=%lu\n", adds, other,
		atomic_load(&st->compares), atomic_load(&st->unsettled), atomic_load(&st->sets),
		atomic_load(&st->refused));
}

static void astorm_report_json(struct stress *s, struct json *j)
{
	struct astorm *st = stress_priv(s);
	unsigned long adds, other;

	astorm_sums(st, &adds, &other);
	json_ku64(j, "adds", adds);
	json_ku64(j, "adds_as_other_cpu", other);
	json_ku64(j, "compares", atomic_load(&st->compares));
	json_ku64(j, "unsettled_skips", atomic_load(&st->unsettled));
	json_ku64(j, "sets", atomic_load(&st->sets));
}

static const struct stress_invariant astorm_invariants[] = {
	STRESS_INVARIANT("precise_window",
			 "a precise_sum() read lies in the bracketed truth's window",
			 "docs/spec/stress.md#stress-truth"),
	STRESS_INVARIANT("approx_window",
			 "an approximate read lies in that window widened by the tree's range",
			 "docs/spec/hpcc.md#hpcc-residual"),
	STRESS_INVARIANT("compare",
			 "comparisons agree with the truth, approximate ones with their window",
			 "docs/spec/hpcc.md#hpcc-compare"),
	STRESS_INVARIANT("conservation",
			 "quiescent: the precise sum equals the adds made",
			 "docs/spec/stress.md#stress-invariants"),
	STRESS_INVARIANT("settled_bound",
			 "quiescent: precise - approximate within the tree's range",
			 "docs/spec/hpcc.md#hpcc-settled"),
	STRESS_INVARIANT("set",
			 "add() and set() within int are taken, beyond it refused; set(v) reads "
			 "v",
			 "docs/spec/hpcc.md#hpcc-set"),
	STRESS_INVARIANT("quiescence",
			 "no update in flight while every thread is parked",
			 "docs/spec/stress.md#stress-invariants"),
	{ .name = NULL }
};

static const struct scenario counter_storm = {
	.name = "counter_storm",
	.summary = "hpcc counters of an older API through the adapter, checked against "
		   "ground truth and the tree's own accuracy range",
	.invariants = astorm_invariants,
	.setup = astorm_setup,
	.cpu_step = astorm_cpu_step,
	.select_step = astorm_select_step,
	.quiescent = astorm_quiescent,
	.teardown = astorm_teardown,
	.report_text = astorm_report_text,
	.report_json = astorm_report_json,
};
SCENARIO_REGISTER(counter_storm)
