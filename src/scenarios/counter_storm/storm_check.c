// SPDX-License-Identifier: GPL-2.0
/*
 * counter_storm's checks: continuous ones from the selector threads (windows of
 * docs/spec/hpcc.md#hpcc-residual, comparisons of settled counters, WARN) and
 * the quiescent-point ones (conservation, settled bound, contract, min/max,
 * comparisons at every edge, set()). See counter_storm.c.
 */
#include <limits.h>
#include <kcompat/kcompat.h>
#include <hpcc_api.h>
#include "shape/hpcc_window.h"
#include "storm.h"

static int sgn(long v)
{
	return (v > 0) - (v < 0);
}

/* The documented comparison helper (docs/spec/hpcc.md#hpcc-compare), for semantics checks. */
static int compare_delta(long delta, unsigned long tol_neg, unsigned long tol_pos)
{
	if (delta >= 0)
		return (unsigned long)delta <= tol_pos ? 0 : 1;
	return -(unsigned long)delta <= tol_neg ? 0 : -1;
}

/* --- the checks --- */

/*
 * @val was read between truth_read_done() and truth_read_started(); check
 * it against the exact window (approximate: widened by T below and by the
 * pending carries both ways).
 */
static bool window_check(struct stress *s, struct storm *st, unsigned int key,
			 const struct truth_window *w, long val, bool approx,
			 const char *what, const char *fn)
{
	long err = (long)((unsigned long)val - truth_exact(w));
	__int128 lo = -(__int128)truth_dneg(w), hi = truth_dpos(w);
	const char *inv = approx ? "approx_window" : "precise_window";

	if (approx) {
		lo -= (__int128)st->kshape[key].settled_max + truth_dbound(w);
		hi += truth_dbound(w);
	}
	stress_count_checks(s, 1);
	/*
	 * Margin: how much of the slack beyond the level-0 window [-dneg,
	 * +dpos] was used (T + pending below, pending above). The precise
	 * sum has no such slack: its margin is 0 unless it fails.
	 */
	if (err < -(__int128)truth_dneg(w))
		stress_margin(s, inv, (double)(-(__int128)truth_dneg(w) - err),
			      (double)(-(__int128)truth_dneg(w) - lo));
	else if (err > (__int128)truth_dpos(w))
		stress_margin(s, inv, (double)(err - (__int128)truth_dpos(w)),
			      (double)(hi - (__int128)truth_dpos(w)));
	else
		stress_margin(s, inv, 0, 1);
	if (!storm_in_window(err, lo, hi)) {
		stress_fail_fn(s, STRESS_WRONG_ANSWER, inv, fn, -1,
			    "%s of counter %s = %ld is %ld from the exact total %ld at "
			    "the read, allowed [%lld, %lld]: in flight +%lu/-%lu, pending carry "
			    "bound %lu, T=%lu", what, key_names[key], val, err,
			    (long)truth_exact(w), (long long)lo, (long long)hi,
			    truth_dpos(w), truth_dneg(w), truth_dbound(w),
			    st->kshape[key].settled_max);
		return false;
	}
	return true;
}

static void check_approx(struct stress *s, struct storm *st, unsigned int key, unsigned int id)
{
	struct truth_window w;
	long v;

	truth_read_done_bounded(st->truth, key, &w, id, st->kshape[key].m_top);
	v = percpu_counter_tree_approximate_sum(st->ctr[key]);
	truth_read_started(st->truth, key, &w);
	window_check(s, st, key, &w, v, true, "approximate_sum", "approximate_sum");
	/* The clamped variant never goes negative (docs/spec/hpcc.md#hpcc-bugs bug 3). */
	if (percpu_counter_tree_approximate_sum_positive(st->ctr[key]) < 0)
		stress_fail_fn(s, STRESS_WRONG_ANSWER, "positive", "approximate_sum_positive", -1,
			       "approximate_sum_positive(%s) < 0", key_names[key]);
}

static void check_precise(struct stress *s, struct storm *st, unsigned int key)
{
	struct truth_window w;
	long v;

	truth_read_done(st->truth, key, &w);
	v = percpu_counter_tree_precise_sum(st->ctr[key]);
	truth_read_started(st->truth, key, &w);
	window_check(s, st, key, &w, v, false, "precise_sum", "precise_sum");
	if (percpu_counter_tree_precise_sum_positive(st->ctr[key]) < 0)
		stress_fail_fn(s, STRESS_WRONG_ANSWER, "positive", "precise_sum_positive", -1,
			       "precise_sum_positive(%s) < 0", key_names[key]);
}

static void check_min_max(struct stress *s, struct storm *st, unsigned int key, unsigned int id)
{
	struct truth_window w;
	long a, mn, mx;

	truth_read_done_bounded(st->truth, key, &w, id, st->kshape[key].m_top);
	percpu_counter_tree_approximate_min_max(st->ctr[key], &a, &mn, &mx);
	truth_read_started(st->truth, key, &w);
	if (!window_check(s, st, key, &w, a, true, "approximate_min_max's approximation",
			  "approximate_min_max") && stress_failed(s))
		return;
	stress_count_checks(s, 1);
	if ((unsigned long)mn != (unsigned long)a - st->over[key] ||
	    (unsigned long)mx != (unsigned long)a + st->under[key])
		stress_fail_fn(s, STRESS_WRONG_ANSWER, "min_max", "approximate_min_max", -1,
			       "approximate_min_max(%s): approx %ld gave [%ld, %ld], "
			    "expected [approx - over, approx + under] = [%ld, %ld]", key_names[key],
			    a, mn, mx, (long)((unsigned long)a - st->over[key]),
			    (long)((unsigned long)a + st->under[key]));
}

/* A value near the edges of @key's accuracy range or near its exact value. */
static long edge_value(struct storm *st, unsigned int key, long approx, unsigned long exact,
		       struct stress_rng *r)
{
	unsigned long u = st->under[key], o = st->over[key];

	switch (stress_rng_below(r, 8)) {
	case 0: return (long)((unsigned long)approx + u);
	case 1: return (long)((unsigned long)approx + u + 1);
	case 2: return (long)((unsigned long)approx - o);
	case 3: return (long)((unsigned long)approx - o - 1);
	case 4: return (long)exact;
	case 5: return (long)(exact + 1);
	case 6: return (long)(exact - 1);
	default:
		return (long)(exact + stress_rng_below(r, 4 * u + 3) - 2 * u - 1);
	}
}

/*
 * An approximate comparison that agrees with the truth but not with the
 * documented window: the contract is broken at an edge no settled counter
 * reaches. One line names the call, the delta against the tolerances and
 * the documented answer.
 */
static void contract_fail(struct stress *s, const char *fn, const char *args,
			  const char *what, long delta, int got, int want,
			  unsigned long tol_neg, const char *neg_name,
			  unsigned long tol_pos, const char *pos_name)
{
	char name[64];

	hpcc_window_name(name, sizeof(name), delta, tol_neg, neg_name, tol_pos, pos_name);
	stress_fail_fn(s, STRESS_CONTRACT, "compare", fn, -1,
			  "%s(%s): %s = %s (%+ld) returns %d; the documented range is "
			  "[-%s, +%s] = [-%lu, +%lu], so the answer must be %d", fn, args, what,
			  name, delta, got, neg_name, pos_name, tol_neg, tol_pos, want);
}

/* Check comparisons of a settled counter with a value; the truth is @exact. */
void storm_compare_value_verdict(struct stress *s, struct storm *st, unsigned int key,
				 long v, unsigned long exact, long approx, int ra, int rp)
{
	int truth = sgn((long)((unsigned long)v - exact));
	int expect = compare_delta((long)((unsigned long)v - approx), st->over[key],
				   st->under[key]);

	stress_count_checks(s, 3);
	stress_margin(s, "compare", rp != truth || (ra && ra != truth) || ra != expect, 0);
	atomic_fetch_add_explicit(&st->compares, 1, memory_order_relaxed);
	/* Each function judged on its own: one may be a known finding. */
	if (rp != truth) {
		stress_fail_fn(s, STRESS_WRONG_ANSWER, "compare", "precise_compare_value", -1,
			       "precise_compare_value(%s, %ld) = %d but the counter is %ld "
			       "(expected %d)", key_names[key], v, rp, (long)exact, truth);
		if (stress_failed(s))
			return;
	}
	if (ra && ra != truth)
		stress_fail_fn(s, STRESS_WRONG_ANSWER, "compare", "approximate_compare_value", -1,
			       "approximate_compare_value(%s, %ld) = %d but the counter is %ld",
			       key_names[key], v, ra, (long)exact);
	else if (ra != expect)
		contract_fail(s, "approximate_compare_value", key_names[key], "v - approx",
			      (long)((unsigned long)v - approx), ra, expect, st->over[key], "over",
			      st->under[key], "under");
}

static void check_compare_value(struct stress *s, struct storm *st, unsigned int key,
				struct stress_rng *r)
{
	struct percpu_counter_tree *c = st->ctr[key];
	struct truth_window w;
	long a, a2, v;
	int ra, rp;

	truth_read_done(st->truth, key, &w);
	a = percpu_counter_tree_approximate_sum(c);
	v = edge_value(st, key, a, truth_exact(&w), r);
	ra = percpu_counter_tree_approximate_compare_value(c, v);
	rp = percpu_counter_tree_precise_compare_value(c, v);
	a2 = percpu_counter_tree_approximate_sum(c);
	truth_read_started(st->truth, key, &w);
	if (!truth_quiet(&w) || a != a2) {
		atomic_fetch_add_explicit(&st->unsettled, 1, memory_order_relaxed);
		return;
	}
	storm_compare_value_verdict(s, st, key, v, truth_exact(&w), a, ra, rp);
}

/*
 * The documented answer of approximate_compare(a, b) for D = approx(a) -
 * approx(b): 0 within [-(under(a) + over(b)), +(over(a) + under(b))].
 */
int storm_pair_expect(const struct storm *st, unsigned int ka, unsigned int kb, long d)
{
	return compare_delta(d, st->under[ka] + st->over[kb], st->over[ka] + st->under[kb]);
}

void storm_compare_pair_verdict(struct stress *s, struct storm *st, unsigned int ka,
				unsigned int kb, unsigned long ea, unsigned long eb,
				long aa, long ab, int ra, int rp)
{
	long diff = (long)(ea - eb);
	int truth = sgn(diff);
	int expect = storm_pair_expect(st, ka, kb, (long)((unsigned long)aa - ab));

	/*
	 * No order is defined for values spread over more than LONG_MAX
	 * (docs/spec/hpcc.md#hpcc-compare).
	 */
	if (diff > (1L << 62) || diff < -(1L << 62)) {
		atomic_fetch_add_explicit(&st->far_pairs, 1, memory_order_relaxed);
		return;
	}
	stress_count_checks(s, 3);
	stress_margin(s, "compare", rp != truth || (ra && ra != truth) || ra != expect, 0);
	atomic_fetch_add_explicit(&st->compares, 1, memory_order_relaxed);
	if (rp != truth) {
		stress_fail_fn(s, STRESS_WRONG_ANSWER, "compare", "precise_compare", -1,
			       "precise_compare(%s, %s) = %d but the counters are %ld and %ld",
			       key_names[ka], key_names[kb], rp, (long)ea, (long)eb);
		if (stress_failed(s))
			return;
	}
	if (ra && ra != truth)
		stress_fail_fn(s, STRESS_WRONG_ANSWER, "compare", "approximate_compare", -1,
			       "approximate_compare(%s, %s) = %d but the counters are %ld and %ld",
			       key_names[ka], key_names[kb], ra, (long)ea, (long)eb);
	else if (ra != expect) {
		char who[64];

		snprintf(who, sizeof(who), "%s, %s", key_names[ka], key_names[kb]);
		contract_fail(s, "approximate_compare", who, "approx(a) - approx(b)",
			      (long)((unsigned long)aa - ab), ra, expect,
			      st->under[ka] + st->over[kb], "(under(a)+over(b))",
			      st->over[ka] + st->under[kb], "(over(a)+under(b))");
	}
}

static void check_compare_pair(struct stress *s, struct storm *st, struct stress_rng *r)
{
	unsigned int ka = stress_rng_below(r, 2) ? K_G3_COLD : stress_rng_below(r, NR_KEYS);
	unsigned int kb = stress_rng_below(r, 2) ? K_COLD : stress_rng_below(r, NR_KEYS);
	struct truth_window wa, wb;
	long aa, ab, aa2, ab2;
	int ra, rp;

	if (ka == kb)
		return;
	truth_read_done(st->truth, ka, &wa);
	truth_read_done(st->truth, kb, &wb);
	aa = percpu_counter_tree_approximate_sum(st->ctr[ka]);
	ab = percpu_counter_tree_approximate_sum(st->ctr[kb]);
	ra = percpu_counter_tree_approximate_compare(st->ctr[ka], st->ctr[kb]);
	rp = percpu_counter_tree_precise_compare(st->ctr[ka], st->ctr[kb]);
	aa2 = percpu_counter_tree_approximate_sum(st->ctr[ka]);
	ab2 = percpu_counter_tree_approximate_sum(st->ctr[kb]);
	truth_read_started(st->truth, ka, &wa);
	truth_read_started(st->truth, kb, &wb);
	if (!truth_quiet(&wa) || !truth_quiet(&wb) || aa != aa2 || ab != ab2) {
		atomic_fetch_add_explicit(&st->unsettled, 1, memory_order_relaxed);
		return;
	}
	storm_compare_pair_verdict(s, st, ka, kb, truth_exact(&wa), truth_exact(&wb), aa, ab, ra, rp);
}

void storm_select_step(struct stress *s, unsigned int id, struct stress_rng *r)
{
	struct storm *st = stress_priv(s);
	unsigned int key = stress_rng_below(r, NR_KEYS);

	if (!st->checking)
		return;
	switch (stress_rng_below(r, 9)) {
	case 0: case 1:
		check_approx(s, st, key, id);
		break;
	case 2: case 3:
		check_precise(s, st, key);
		break;
	case 4:
		check_min_max(s, st, key, id);
		break;
	case 5: case 6:
		/* Mostly the cold counters: they are often settled. */
		if (stress_rng_below(r, 4))
			key = stress_rng_below(r, 2) ? K_G3_COLD : K_COLD;
		check_compare_value(s, st, key, r);
		break;
	case 7:
		check_compare_pair(s, st, r);
		break;
	default:
		stress_check_no_warn(s);
		break;
	}
}

/* --- quiescent points: every thread parked, nothing in flight --- */

static void quiescent_counter(struct stress *s, struct storm *st, unsigned int key)
{
	struct percpu_counter_tree *c = st->ctr[key];
	unsigned long under, over, pre_u, pre_o, T = st->kshape[key].settled_max;
	struct truth_window w;
	unsigned long exact, word;
	long precise, approx, a, mn, mx, d, v;
	unsigned int cpu, i;

	if (!truth_settled(st->truth, key, &cpu)) {
		stress_fail(s, "quiescence", cpu, "counter %s has an update of cpu %u in flight "
			    "while every thread is parked", key_names[key], cpu);
		return;
	}
	truth_read_done(st->truth, key, &w);
	truth_read_started(st->truth, key, &w);
	exact = truth_exact(&w);
	precise = percpu_counter_tree_precise_sum(c);
	approx = percpu_counter_tree_approximate_sum(c);
	stress_count_checks(s, 6);

	/* (a) conservation, as a whole and word by word */
	stress_margin(s, "conservation", precise != (long)exact, 0);
	if (precise != (long)exact) {
		stress_fail(s, "conservation", -1, "counter %s: precise sum %ld != exact total %ld "
			    "(difference %ld)", key_names[key], precise, (long)exact,
			    (long)((unsigned long)precise - exact));
		if (stress_failed(s))
			return;
	}
	for (cpu = 0; cpu < st->nr_cpus; cpu++) {
		word = READ_ONCE(*per_cpu_ptr(c->level0, cpu));
		if (word != truth_cpu_word(st->truth, key, cpu)) {
			stress_fail(s, "conservation", cpu, "counter %s: level-0 word of cpu %u is "
				    "%ld, the adds made as that cpu total %ld", key_names[key], cpu,
				    (long)word, (long)truth_cpu_word(st->truth, key, cpu));
			if (stress_failed(s))
				return;
			break;
		}
	}

	/* (c) the settled one-sided bound and the declared contract */
	d = (long)((unsigned long)precise - approx);
	stress_margin(s, "settled_bound", d < 0 ? -(double)d : (double)d, T);
	if (d < 0 || (unsigned long)d > T)
		stress_fail(s, "settled_bound", -1, "counter %s settled: precise %ld - approximate "
			    "%ld = %ld, outside [0, T=%lu]", key_names[key], precise, approx, d, T);
	/*
	 * docs/spec/hpcc.md#hpcc-bug-6: the query adds into *under and *over,
	 * so that a sum of counters gets the sum of their ranges (OOM badness
	 * sums four). Preset them as such a sum would. A kernel tree of the
	 * assigning API (probed) is judged by its own contract; our lib/hpcc
	 * must add.
	 */
	pre_u = under = 7 + key;
	pre_o = over = 11 + key;
	percpu_counter_tree_approximate_accuracy_range(c, &under, &over);
	if (HPCC_API_ACCURACY_ACCUMULATES || !HPCC_API_KERNEL) {
		under -= pre_u;
		over -= pre_o;
	}
	if (under != st->kshape[key].under || over != st->kshape[key].over)
		stress_fail_fn(s, STRESS_WRONG_ANSWER, "contract", "approximate_accuracy_range", -1,
			       "counter %s: accuracy range under %lu over %lu "
			    "(added to preset %lu and %lu), the model says %lu and %lu",
			    key_names[key], under, over, pre_u, pre_o,
			    st->kshape[key].under, st->kshape[key].over);
	if (d > 0 && (unsigned long)d > under)
		stress_fail(s, "contract", -1, "counter %s: approximate %ld below precise %ld - "
			    "under %lu", key_names[key], approx, precise, under);
	if (d < 0 && -(unsigned long)d > over)
		stress_fail(s, "contract", -1, "counter %s: approximate %ld above precise %ld + "
			    "over %lu", key_names[key], approx, precise, over);
	if (percpu_counter_tree_approximate_sum_positive(c) != (approx > 0 ? approx : 0) ||
	    percpu_counter_tree_precise_sum_positive(c) != (precise > 0 ? precise : 0))
		stress_fail_fn(s, STRESS_WRONG_ANSWER, "positive", "sum_positive", -1,
			       "counter %s: _positive variants disagree with the "
			    "clamped sums %ld, %ld", key_names[key], approx, precise);

	/* (d) min/max contains the precise value */
	percpu_counter_tree_approximate_min_max(c, &a, &mn, &mx);
	stress_count_checks(s, 1);
	if (a != approx || (long)((unsigned long)precise - mn) < 0 ||
	    (long)((unsigned long)mx - precise) < 0)
		stress_fail_fn(s, STRESS_WRONG_ANSWER, "min_max", "approximate_min_max", -1,
			       "counter %s: approximate_min_max gave approx %ld "
			    "[%ld, %ld]; approximate %ld, precise %ld", key_names[key], a, mn, mx,
			    approx, precise);

	/* (e) comparisons with values at every edge */
	for (i = 0; i < 8; i++) {
		v = edge_value(st, key, approx, exact, &st->qrng);
		storm_compare_value_verdict(s, st, key, v, exact, approx,
				      percpu_counter_tree_approximate_compare_value(c, v),
				      percpu_counter_tree_precise_compare_value(c, v));
	}
}

static long region_value(struct stress_rng *r)
{
	switch (stress_rng_below(r, 5)) {
	case 0: return (long)stress_rng_below(r, 2000) - 1000;
	case 1: return (1L << 40) + (long)stress_rng_below(r, 1 << 20);
	case 2: return -(1L << 40) - (long)stress_rng_below(r, 1 << 20);
	case 3: return LONG_MAX - (long)stress_rng_below(r, 1 << 16);
	default: return LONG_MIN + (long)stress_rng_below(r, 1 << 16);
	}
}

/* Reset every counter near one region (0, +-2^40, LONG_MAX, LONG_MIN). */
static void set_all(struct stress *s, struct storm *st)
{
	long region = region_value(&st->qrng), v;
	struct truth_window w;
	unsigned int key;

	for (key = 0; key < NR_KEYS; key++) {
		unsigned long u = st->under[key] ? st->under[key] : 1;

		v = (long)((unsigned long)region + stress_rng_below(&st->qrng, 4 * u) - 2 * u);
		percpu_counter_tree_set(st->ctr[key], v);
		truth_read_done(st->truth, key, &w);
		st->truth->base[key] = (unsigned long)v - (w.done_pos - w.done_neg);
		stress_count_checks(s, 2);
		if (percpu_counter_tree_precise_sum(st->ctr[key]) != v)
			stress_fail_fn(s, STRESS_WRONG_ANSWER, "set", "set", -1,
				       "set(%s, %ld): precise sum %ld", key_names[key], v,
				    percpu_counter_tree_precise_sum(st->ctr[key]));
		/* The approximation keeps its residual R <= T <= under below v. */
		else if (percpu_counter_tree_approximate_compare_value(st->ctr[key], v))
			stress_fail_fn(s, STRESS_WRONG_ANSWER, "set", "approximate_compare_value", -1,
				       "set(%s, %ld): approximate_compare_value with %ld is not 0",
				       key_names[key], v, v);
		else if (percpu_counter_tree_precise_compare_value(st->ctr[key], v))
			stress_fail_fn(s, STRESS_WRONG_ANSWER, "set", "precise_compare_value", -1,
				       "set(%s, %ld): precise_compare_value with %ld is not 0",
				       key_names[key], v, v);
	}
	atomic_fetch_add_explicit(&st->sets, 1, memory_order_relaxed);
}

void storm_quiescent(struct stress *s)
{
	struct storm *st = stress_priv(s);
	struct truth_window wa, wb;
	unsigned int ka, kb;

	if (!st->checking)
		return;
	for (ka = 0; ka < NR_KEYS && !stress_failed(s); ka++)
		quiescent_counter(s, st, ka);
	for (ka = 0; ka < NR_KEYS && !stress_failed(s); ka++) {
		for (kb = 0; kb < NR_KEYS; kb++) {
			if (ka == kb)
				continue;
			truth_read_done(st->truth, ka, &wa);
			truth_read_done(st->truth, kb, &wb);
			storm_compare_pair_verdict(s, st, ka, kb, truth_exact(&wa), truth_exact(&wb),
				percpu_counter_tree_approximate_sum(st->ctr[ka]),
				percpu_counter_tree_approximate_sum(st->ctr[kb]),
				percpu_counter_tree_approximate_compare(st->ctr[ka], st->ctr[kb]),
				percpu_counter_tree_precise_compare(st->ctr[ka], st->ctr[kb]));
		}
	}
	if (!stress_failed(s))
		storm_edge_quiescent(s, st);
	if (!stress_failed(s))
		storm_set_race_quiescent(s, st);
	stress_check_no_warn(s);
	/* Now and then, move every counter to another region (not at the very end). */
	if (!stress_stopping(s) && !stress_rng_below(&st->qrng, 4))
		set_all(s, st);
}
