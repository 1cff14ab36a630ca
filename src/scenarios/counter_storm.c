// SPDX-License-Identifier: GPL-2.0
/*
 * counter_storm: virtual CPUs hammer a few hpcc counters with seeded
 * patterns (small +-, large deltas crossing several levels, oscillation
 * around carry thresholds, long negative runs, a few hot CPUs, adds made
 * as another CPU); checkers verify them against the ground truth of
 * truth.h, exactly, with no fudge factor:
 *  (a) conservation: precise sum == exact total, and every level-0 word
 *      == the adds made as that CPU, at quiescent points;
 *  (b) at any instant, approximate and precise sums inside the window
 *      that the settled bound T and the updates in flight allow
 *      (spec/hpcc.md §5.3): precise in [lo, hi], approximate in
 *      [lo - T - pending, hi + pending];
 *  (c) 0 <= precise - approximate <= T at quiescent points (and the
 *      declared under/over contract);
 *  (d) approximate_min_max contains the precise value (quiescent) and
 *      follows its formula (always);
 *  (e) comparisons agree with the truth: continuously on counters with
 *      nothing in flight during the call, always at quiescent points;
 *  (f) no WARN (checked here continuously, and by the engine at the end).
 * Counters: two made with init(), four with init_many(); three hot, one
 * warm, two cold (updated rarely by one CPU each, so that continuous
 * comparisons often find them settled).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <linux/percpu_counter_tree.h>
#include <kcompat/kcompat.h>
#include "scenario.h"
#include "shape/hpcc_shape.h"
#include "truth.h"

enum { K_HOT, K_G0, K_G1, K_G2_WARM, K_G3_COLD, K_COLD, NR_KEYS };
#define NR_GROUP	4
#define HOT_BURST	8

enum pattern { P_SMALL, P_LARGE, P_OSC, P_NEGRUN, P_HOP, NR_PATTERNS };
static const char *const pattern_names[NR_PATTERNS] = {
	"small", "large", "osc", "negrun", "hop",
};

static int opt_pattern = -1;	/* -1: mixed */
static int opt_skip = -1;	/* -1: the library's default */

struct cs_cpu {
	int pattern;
	unsigned long left;
	unsigned int osc_key;
	long osc_unit;
	bool hot;
	unsigned long home[NR_KEYS];	/* our adds as our own CPU */
	unsigned long adds, other_adds;
} __attribute__((aligned(64)));

struct storm {
	struct percpu_counter_tree solo[2];
	struct percpu_counter_tree group[NR_GROUP];
	void *items[3];
	struct percpu_counter_tree *ctr[NR_KEYS];
	unsigned long under[NR_KEYS], over[NR_KEYS];
	struct truth *truth;
	struct cs_cpu *cpus;
	const struct hpcc_shape *shape;
	unsigned int nr_cpus;
	unsigned int cold_owner[NR_KEYS];
	bool checking;
	bool saved_skip;
	unsigned long warn_base;
	struct stress_rng qrng;		/* quiescent() runs on the controller only */
	atomic_ulong compares, unsettled, sets, far_pairs;
};

/* Summary kept for the report after teardown. */
static const char *const key_names[NR_KEYS] = {
	"hot", "group0", "group1", "group2-warm", "group3-cold", "cold",
};

static int sgn(long v)
{
	return (v > 0) - (v < 0);
}

/* The documented comparison helper (spec/hpcc.md §6.1), for semantics checks. */
static int compare_delta(long delta, unsigned long tol_neg, unsigned long tol_pos)
{
	if (delta >= 0)
		return (unsigned long)delta <= tol_pos ? 0 : 1;
	return -(unsigned long)delta <= tol_neg ? 0 : -1;
}

/* --- options --- */

static int parse_pattern(const char *val, char *err, size_t errlen)
{
	int i;

	if (!strcmp(val, "mixed")) {
		opt_pattern = -1;
		return 0;
	}
	for (i = 0; i < NR_PATTERNS; i++) {
		if (!strcmp(val, pattern_names[i])) {
			opt_pattern = i;
			return 0;
		}
	}
	snprintf(err, errlen, "'%s' is not one of mixed, small, large, osc, negrun, hop", val);
	return -1;
}

static int parse_skip(const char *val, char *err, size_t errlen)
{
#ifdef PERCPU_COUNTER_TREE_HAS_SKIP_SWITCH
	if (!strcmp(val, "on") || !strcmp(val, "off")) {
		opt_skip = !strcmp(val, "on");
		return 0;
	}
	snprintf(err, errlen, "'%s' is not on or off", val);
#else
	snprintf(err, errlen, "this hpcc build has no level-skip switch");
#endif
	return -1;
}

static const struct scenario_opt storm_opts[] = {
	{ "storm-pattern", "NAME", "counter_storm: only this pattern: mixed (default), small, "
	  "large, osc, negrun, hop", parse_pattern },
	{ "storm-skip-levels", "on|off", "counter_storm: the library's level-skip optimisation "
	  "(default: the library's default)", parse_skip },
	{ NULL, NULL, NULL, NULL },
};

/* --- the update side --- */

static unsigned long top_threshold(const struct storm *st)
{
	return st->shape->m_top ? st->shape->m_top : st->shape->batch;
}

static long big_delta(struct storm *st, struct stress_rng *r)
{
	unsigned int top_bits = 3, bits;
	unsigned long top = top_threshold(st), mag;

	while ((1UL << top_bits) <= top)
		top_bits++;
	top_bits += 3;				/* up to 8 x M_top and more */
	bits = 1 + stress_rng_below(r, top_bits);
	mag = 1 + stress_rng_below(r, 1UL << bits);
	return stress_rng_below(r, 2) ? (long)mag : -(long)mag;
}

static long small_delta(struct stress_rng *r)
{
	return (long)stress_rng_below(r, 7) - 3;
}

static unsigned int pick_key(struct storm *st, unsigned int cpu, struct stress_rng *r)
{
	unsigned long x = stress_rng_below(r, 1000);

	if (x == 0 && cpu == st->cold_owner[K_G3_COLD])
		return K_G3_COLD;
	if (x == 1 && cpu == st->cold_owner[K_COLD])
		return K_COLD;
	if (x < 400)
		return K_HOT;
	if (x < 700)
		return K_G0;
	if (x < 900)
		return K_G1;
	return K_G2_WARM;
}

static void do_add(struct stress *s, struct storm *st, unsigned int cpu, unsigned int key,
		   long inc)
{
	struct cs_cpu *c = &st->cpus[cpu];
	unsigned int ident = kc_get_cpu();	/* the level-0 word the add lands on */
	unsigned long bound = 0;

	if (st->checking) {
		bound = hpcc_shape_pending_bound(st->shape, inc);
		truth_begin(st->truth, cpu, key, inc, bound);
	}
	percpu_counter_tree_add(st->ctr[key], inc);
	if (st->checking) {
		truth_end(st->truth, cpu, key, inc, bound, ident);
		stress_trace(s, cpu, ident == cpu ? "add key|cpu<<8 inc" :
			     "add-as-other-cpu key|cpu<<8 inc", key | ((long)ident << 8), inc);
	}
	if (ident == cpu)
		c->home[key] += inc;
	else
		c->other_adds++;
	c->adds++;
}

static void new_run(struct storm *st, struct cs_cpu *c, struct stress_rng *r)
{
	const struct hpcc_shape *sh = st->shape;
	unsigned int l;

	c->pattern = opt_pattern >= 0 ? opt_pattern : (int)stress_rng_below(r, NR_PATTERNS);
	c->left = 16 + stress_rng_below(r, 512);
	c->osc_key = stress_rng_below(r, K_G2_WARM + 1);
	/* Oscillate by 1, by a batch or by a level threshold. */
	l = stress_rng_below(r, sh->nr_levels + 2);
	if (l == 0 || !sh->nr_levels)
		c->osc_unit = 1;
	else if (l > sh->nr_levels)
		c->osc_unit = sh->batch;
	else
		c->osc_unit = sh->threshold[l - 1];
}

static void one_op(struct stress *s, struct storm *st, unsigned int cpu,
		   struct stress_rng *r)
{
	struct cs_cpu *c = &st->cpus[cpu];
	unsigned int key = pick_key(st, cpu, r), target;
	unsigned long m;

	if (!c->left--)
		new_run(st, c, r);
	switch (c->pattern) {
	case P_SMALL:
		do_add(s, st, cpu, key, small_delta(r));
		break;
	case P_LARGE:
		do_add(s, st, cpu, key, big_delta(st, r));
		break;
	case P_OSC:
		/* Park our word just below a multiple of the unit's threshold, then +-unit. */
		m = c->osc_unit > 1 ? (unsigned long)c->osc_unit * 2 : st->shape->batch;
		if ((c->home[c->osc_key] & (m - 1)) != m - 1 && (c->left & 7) == 0)
			do_add(s, st, cpu, c->osc_key,
			       (long)((m - 1) - (c->home[c->osc_key] & (m - 1))));
		else
			do_add(s, st, cpu, c->osc_key, (c->left & 1) ? c->osc_unit : -c->osc_unit);
		break;
	case P_NEGRUN:
		do_add(s, st, cpu, key, -(long)(1 + stress_rng_below(r, 2 * st->shape->batch)));
		break;
	case P_HOP:
		/* Update as another CPU: its owner runs concurrently on the same word. */
		target = stress_rng_below(r, st->nr_cpus);
		kc_set_cpu(target);
		do_add(s, st, cpu, key, stress_rng_below(r, 4) ? small_delta(r) : big_delta(st, r));
		kc_set_cpu(cpu);
		break;
	}
}

static void storm_cpu_step(struct stress *s, unsigned int cpu, struct stress_rng *r)
{
	struct storm *st = stress_priv(s);
	unsigned int i, n = st->cpus[cpu].hot ? HOT_BURST : 1;

	for (i = 0; i < n; i++)
		one_op(s, st, cpu, r);
}

/* --- the checks --- */

/*
 * @val was read between truth_read_done() and truth_read_started(); check
 * it against the exact window (approximate: widened by T below and by the
 * pending carries both ways).
 */
static bool window_check(struct stress *s, struct storm *st, unsigned int key,
			 const struct truth_window *w, long val, bool approx,
			 const char *what)
{
	long err = (long)((unsigned long)val - truth_exact(w));
	__int128 lo = -(__int128)truth_dneg(w), hi = truth_dpos(w);
	const char *inv = approx ? "approx_window" : "precise_window";

	if (approx) {
		lo -= (__int128)st->shape->settled_max + truth_dbound(w);
		hi += truth_dbound(w);
	}
	stress_count_checks(s, 1);
	if (err < lo || err > hi) {
		stress_fail(s, inv, -1, "%s of counter %s = %ld is %ld from the exact total %ld at "
			    "the read, allowed [%lld, %lld]: in flight +%lu/-%lu, pending carry "
			    "bound %lu, T=%lu", what, key_names[key], val, err,
			    (long)truth_exact(w), (long long)lo, (long long)hi,
			    truth_dpos(w), truth_dneg(w), truth_dbound(w),
			    st->shape->settled_max);
		return false;
	}
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
	return true;
}

static void check_approx(struct stress *s, struct storm *st, unsigned int key)
{
	struct truth_window w;
	long v;

	truth_read_done(st->truth, key, &w);
	v = percpu_counter_tree_approximate_sum(st->ctr[key]);
	truth_read_started(st->truth, key, &w);
	window_check(s, st, key, &w, v, true, "approximate_sum");
	/* The clamped variant never goes negative (spec §10 bug 3). */
	if (percpu_counter_tree_approximate_sum_positive(st->ctr[key]) < 0)
		stress_fail(s, "positive", -1, "approximate_sum_positive(%s) < 0",
			    key_names[key]);
}

static void check_precise(struct stress *s, struct storm *st, unsigned int key)
{
	struct truth_window w;
	long v;

	truth_read_done(st->truth, key, &w);
	v = percpu_counter_tree_precise_sum(st->ctr[key]);
	truth_read_started(st->truth, key, &w);
	window_check(s, st, key, &w, v, false, "precise_sum");
	if (percpu_counter_tree_precise_sum_positive(st->ctr[key]) < 0)
		stress_fail(s, "positive", -1, "precise_sum_positive(%s) < 0", key_names[key]);
}

static void check_min_max(struct stress *s, struct storm *st, unsigned int key)
{
	struct truth_window w;
	long a, mn, mx;

	truth_read_done(st->truth, key, &w);
	percpu_counter_tree_approximate_min_max(st->ctr[key], &a, &mn, &mx);
	truth_read_started(st->truth, key, &w);
	if (!window_check(s, st, key, &w, a, true, "approximate_min_max's approximation"))
		return;
	stress_count_checks(s, 1);
	if ((unsigned long)mn != (unsigned long)a - st->over[key] ||
	    (unsigned long)mx != (unsigned long)a + st->under[key])
		stress_fail(s, "min_max", -1, "approximate_min_max(%s): approx %ld gave [%ld, %ld], "
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

/* Check comparisons of a settled counter with a value; the truth is @exact. */
static void compare_value_verdict(struct stress *s, struct storm *st, unsigned int key,
				  long v, unsigned long exact, long approx, int ra, int rp)
{
	int truth = sgn((long)((unsigned long)v - exact));
	int expect = compare_delta((long)((unsigned long)v - approx), st->over[key],
				   st->under[key]);

	stress_count_checks(s, 3);
	stress_margin(s, "compare", 0, 1);
	atomic_fetch_add_explicit(&st->compares, 1, memory_order_relaxed);
	if (rp != truth)
		stress_fail(s, "compare", -1, "precise_compare_value(%s, %ld) = %d but the counter "
			    "is %ld (expected %d)", key_names[key], v, rp, (long)exact, truth);
	else if (ra && ra != truth)
		stress_fail(s, "compare", -1, "approximate_compare_value(%s, %ld) = %d but the "
			    "counter is %ld", key_names[key], v, ra, (long)exact);
	else if (ra != expect)
		stress_fail(s, "compare", -1, "approximate_compare_value(%s, %ld) = %d, documented "
			    "result for approx %ld, under %lu, over %lu is %d", key_names[key], v,
			    ra, approx, st->under[key], st->over[key], expect);
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
	compare_value_verdict(s, st, key, v, truth_exact(&w), a, ra, rp);
}

static void compare_pair_verdict(struct stress *s, struct storm *st, unsigned int ka,
				 unsigned int kb, unsigned long ea, unsigned long eb,
				 long aa, long ab, int ra, int rp)
{
	long diff = (long)(ea - eb);
	int truth = sgn(diff);
	int expect = compare_delta((long)((unsigned long)aa - ab),
				   st->under[ka] + st->over[kb], st->over[ka] + st->under[kb]);

	/* No order is defined for values spread over more than LONG_MAX (§6.1). */
	if (diff > (1L << 62) || diff < -(1L << 62)) {
		atomic_fetch_add_explicit(&st->far_pairs, 1, memory_order_relaxed);
		return;
	}
	stress_count_checks(s, 3);
	stress_margin(s, "compare", 0, 1);
	atomic_fetch_add_explicit(&st->compares, 1, memory_order_relaxed);
	if (rp != truth)
		stress_fail(s, "compare", -1, "precise_compare(%s, %s) = %d but the counters are "
			    "%ld and %ld", key_names[ka], key_names[kb], rp, (long)ea, (long)eb);
	else if (ra && ra != truth)
		stress_fail(s, "compare", -1, "approximate_compare(%s, %s) = %d but the counters "
			    "are %ld and %ld", key_names[ka], key_names[kb], ra, (long)ea, (long)eb);
	else if (ra != expect)
		stress_fail(s, "compare", -1, "approximate_compare(%s, %s) = %d, documented result "
			    "for approximations %ld and %ld is %d", key_names[ka], key_names[kb],
			    ra, aa, ab, expect);
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
	compare_pair_verdict(s, st, ka, kb, truth_exact(&wa), truth_exact(&wb), aa, ab, ra, rp);
}

static void check_warn(struct stress *s, struct storm *st)
{
	struct kc_warn_info wi;

	stress_count_checks(s, 1);
	if (kc_warn_count() != st->warn_base) {
		kc_warn_get(&wi);
		stress_fail(s, "no_warn", -1, "WARN fired: %s", wi.first);
	}
}

static void storm_select_step(struct stress *s, unsigned int id, struct stress_rng *r)
{
	struct storm *st = stress_priv(s);
	unsigned int key = stress_rng_below(r, NR_KEYS);

	if (!st->checking)
		return;
	switch (stress_rng_below(r, 9)) {
	case 0: case 1:
		check_approx(s, st, key);
		break;
	case 2: case 3:
		check_precise(s, st, key);
		break;
	case 4:
		check_min_max(s, st, key);
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
		check_warn(s, st);
		break;
	}
}

/* --- quiescent points: every thread parked, nothing in flight --- */

static void quiescent_counter(struct stress *s, struct storm *st, unsigned int key)
{
	struct percpu_counter_tree *c = st->ctr[key];
	unsigned long under = 0, over = 0, T = st->shape->settled_max;
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
		return;
	}
	for (cpu = 0; cpu < st->nr_cpus; cpu++) {
		word = READ_ONCE(*per_cpu_ptr(c->level0, cpu));
		if (word != truth_cpu_word(st->truth, key, cpu)) {
			stress_fail(s, "conservation", cpu, "counter %s: level-0 word of cpu %u is "
				    "%ld, the adds made as that cpu total %ld", key_names[key], cpu,
				    (long)word, (long)truth_cpu_word(st->truth, key, cpu));
			return;
		}
	}

	/* (c) the settled one-sided bound and the declared contract */
	d = (long)((unsigned long)precise - approx);
	stress_margin(s, "settled_bound", d < 0 ? -(double)d : (double)d, T);
	if (d < 0 || (unsigned long)d > T)
		stress_fail(s, "settled_bound", -1, "counter %s settled: precise %ld - approximate "
			    "%ld = %ld, outside [0, T=%lu]", key_names[key], precise, approx, d, T);
	percpu_counter_tree_approximate_accuracy_range(c, &under, &over);
	if (under != st->shape->under || over != st->shape->over)
		stress_fail(s, "contract", -1, "counter %s: accuracy range under %lu over %lu, the "
			    "model says %lu and %lu", key_names[key], under, over,
			    st->shape->under, st->shape->over);
	if (d > 0 && (unsigned long)d > under)
		stress_fail(s, "contract", -1, "counter %s: approximate %ld below precise %ld - "
			    "under %lu", key_names[key], approx, precise, under);
	if (d < 0 && -(unsigned long)d > over)
		stress_fail(s, "contract", -1, "counter %s: approximate %ld above precise %ld + "
			    "over %lu", key_names[key], approx, precise, over);
	if (percpu_counter_tree_approximate_sum_positive(c) != (approx > 0 ? approx : 0) ||
	    percpu_counter_tree_precise_sum_positive(c) != (precise > 0 ? precise : 0))
		stress_fail(s, "positive", -1, "counter %s: _positive variants disagree with the "
			    "clamped sums %ld, %ld", key_names[key], approx, precise);

	/* (d) min/max contains the precise value */
	percpu_counter_tree_approximate_min_max(c, &a, &mn, &mx);
	stress_count_checks(s, 1);
	if (a != approx || (long)((unsigned long)precise - mn) < 0 ||
	    (long)((unsigned long)mx - precise) < 0)
		stress_fail(s, "min_max", -1, "counter %s: approximate_min_max gave approx %ld "
			    "[%ld, %ld]; approximate %ld, precise %ld", key_names[key], a, mn, mx,
			    approx, precise);

	/* (e) comparisons with values at every edge */
	for (i = 0; i < 8; i++) {
		v = edge_value(st, key, approx, exact, &st->qrng);
		compare_value_verdict(s, st, key, v, exact, approx,
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
			stress_fail(s, "set", -1, "set(%s, %ld): precise sum %ld", key_names[key], v,
				    percpu_counter_tree_precise_sum(st->ctr[key]));
		/* The approximation keeps its residual R <= T <= under below v. */
		else if (percpu_counter_tree_approximate_compare_value(st->ctr[key], v) ||
			 percpu_counter_tree_precise_compare_value(st->ctr[key], v))
			stress_fail(s, "set", -1, "set(%s, %ld): a comparison with %ld is not 0",
				    key_names[key], v, v);
	}
	atomic_fetch_add_explicit(&st->sets, 1, memory_order_relaxed);
}

static void storm_quiescent(struct stress *s)
{
	struct storm *st = stress_priv(s);
	struct truth_window wa, wb;
	unsigned int ka, kb;

	if (!st->checking)
		return;
	for (ka = 0; ka < NR_KEYS && !stress_stopping(s); ka++)
		quiescent_counter(s, st, ka);
	for (ka = 0; ka < NR_KEYS && !stress_stopping(s); ka++) {
		for (kb = 0; kb < NR_KEYS; kb++) {
			if (ka == kb)
				continue;
			truth_read_done(st->truth, ka, &wa);
			truth_read_done(st->truth, kb, &wb);
			compare_pair_verdict(s, st, ka, kb, truth_exact(&wa), truth_exact(&wb),
				percpu_counter_tree_approximate_sum(st->ctr[ka]),
				percpu_counter_tree_approximate_sum(st->ctr[kb]),
				percpu_counter_tree_approximate_compare(st->ctr[ka], st->ctr[kb]),
				percpu_counter_tree_precise_compare(st->ctr[ka], st->ctr[kb]));
		}
	}
	check_warn(s, st);
	/* Now and then, move every counter to another region (not at the very end). */
	if (!stress_stopping(s) && !stress_rng_below(&st->qrng, 4))
		set_all(s, st);
}

/* --- life cycle --- */

static void storm_free(struct storm *st)
{
	unsigned int i;

	truth_free(st->truth);
	free(st->cpus);
	for (i = 0; i < 3; i++)
		free(st->items[i]);
	free(st);
}

static int storm_setup(struct stress *s)
{
	struct storm *st = calloc(1, sizeof(*st));
	size_t isz = percpu_counter_tree_items_size();
	unsigned long batch = stress_batch(s);
	unsigned int i;

	if (!st)
		return -1;
	st->shape = stress_shape(s);
	st->nr_cpus = stress_nr_cpus(s);
	st->checking = stress_checking(s);
	st->warn_base = kc_warn_count();
	/* At least one cache line: a zero-size buffer would be a NULL pointer. */
	st->items[0] = aligned_alloc(64, isz ? isz : 64);
	st->items[1] = aligned_alloc(64, isz ? isz : 64);
	st->items[2] = aligned_alloc(64, isz ? NR_GROUP * isz : 64);
	st->cpus = aligned_alloc(64, sizeof(*st->cpus) * st->nr_cpus);
	st->truth = st->checking ? truth_new(st->nr_cpus, NR_KEYS) : NULL;
	if (!st->items[0] || !st->items[1] || !st->items[2] || !st->cpus ||
	    (st->checking && !st->truth)) {
		storm_free(st);
		return -1;
	}
	memset(st->cpus, 0, sizeof(*st->cpus) * st->nr_cpus);
#ifdef PERCPU_COUNTER_TREE_HAS_SKIP_SWITCH
	st->saved_skip = percpu_counter_tree_skip_levels;
	if (opt_skip >= 0)
		percpu_counter_tree_skip_levels = opt_skip;
#endif
	if (percpu_counter_tree_init(&st->solo[0], st->items[0], batch, GFP_KERNEL))
		goto fail;
	if (percpu_counter_tree_init(&st->solo[1], st->items[1], batch, GFP_KERNEL)) {
		percpu_counter_tree_destroy(&st->solo[0]);
		goto fail;
	}
	if (percpu_counter_tree_init_many(st->group, st->items[2], NR_GROUP, batch, GFP_KERNEL)) {
		percpu_counter_tree_destroy(&st->solo[0]);
		percpu_counter_tree_destroy(&st->solo[1]);
		goto fail;
	}
	st->ctr[K_HOT] = &st->solo[0];
	st->ctr[K_COLD] = &st->solo[1];
	for (i = 0; i < NR_GROUP; i++)
		st->ctr[K_G0 + i] = &st->group[i];
	for (i = 0; i < NR_KEYS; i++)
		percpu_counter_tree_approximate_accuracy_range(st->ctr[i], &st->under[i],
							       &st->over[i]);
	st->cold_owner[K_COLD] = 0;
	st->cold_owner[K_G3_COLD] = st->nr_cpus - 1;
	for (i = 0; i < st->nr_cpus; i++)
		st->cpus[i].hot = !(stress_mix(stress_seed(s) ^ i) & 31) ||
				  i == stress_seed(s) % st->nr_cpus;
	stress_rng_seed(&st->qrng, stress_seed(s), "counter_storm/quiescent", 0);
	stress_set_priv(s, st);
	return 0;
fail:
	storm_free(st);
	return -1;
}

static struct {
	unsigned long adds, other_adds;
} totals;

static void storm_teardown(struct stress *s)
{
	struct storm *st = stress_priv(s);

	if (!st)
		return;
	percpu_counter_tree_destroy_many(st->group, NR_GROUP);
	percpu_counter_tree_destroy(&st->solo[0]);
	percpu_counter_tree_destroy(&st->solo[1]);
#ifdef PERCPU_COUNTER_TREE_HAS_SKIP_SWITCH
	percpu_counter_tree_skip_levels = st->saved_skip;
#endif
	storm_free(st);
	stress_set_priv(s, NULL);
}

static void storm_sums(struct storm *st)
{
	unsigned int i;

	totals.adds = totals.other_adds = 0;
	for (i = 0; i < st->nr_cpus; i++) {
		totals.adds += st->cpus[i].adds;
		totals.other_adds += st->cpus[i].other_adds;
	}
}

static void storm_report_text(struct stress *s, FILE *out)
{
	struct storm *st = stress_priv(s);

	storm_sums(st);
	fprintf(out, "# counter_storm adds=%lu adds_as_other_cpu=%lu compares=%lu "
		"unsettled_skips=%lu far_pairs=%lu sets=%lu pattern=%s skip_levels=%s\n",
		totals.adds, totals.other_adds, atomic_load(&st->compares),
		atomic_load(&st->unsettled), atomic_load(&st->far_pairs), atomic_load(&st->sets),
		opt_pattern < 0 ? "mixed" : pattern_names[opt_pattern],
		opt_skip < 0 ? "default" : opt_skip ? "on" : "off");
}

static void storm_report_json(struct stress *s, FILE *out)
{
	struct storm *st = stress_priv(s);

	storm_sums(st);
	fprintf(out, ",\"adds\":%lu,\"adds_as_other_cpu\":%lu,\"compares\":%lu,"
		"\"unsettled_skips\":%lu,\"far_pairs\":%lu,\"sets\":%lu,\"pattern\":\"%s\","
		"\"skip_levels\":\"%s\"", totals.adds, totals.other_adds,
		atomic_load(&st->compares), atomic_load(&st->unsettled),
		atomic_load(&st->far_pairs), atomic_load(&st->sets),
		opt_pattern < 0 ? "mixed" : pattern_names[opt_pattern],
		opt_skip < 0 ? "default" : opt_skip ? "on" : "off");
}

static const struct scenario counter_storm = {
	.name = "counter_storm",
	.summary = "hpcc counters under seeded update patterns, checked exactly against "
		   "ground truth (spec/hpcc.md §5.3)",
	.opts = storm_opts,
	.setup = storm_setup,
	.cpu_step = storm_cpu_step,
	.select_step = storm_select_step,
	.quiescent = storm_quiescent,
	.teardown = storm_teardown,
	.report_text = storm_report_text,
	.report_json = storm_report_json,
};
SCENARIO_REGISTER(counter_storm)
