// SPDX-License-Identifier: GPL-2.0
/*
 * OOM badness and victim selection on constructed task sets: the precise
 * single pass, v16 3/3 and bounded against a brute-force oracle, the
 * 16-sum budget, and docs/spec/oom.md#oom-imprecision worked cases to the page
 * (256 CPUs, batch 32, settled counters).
 */
#include <setjmp.h>
#include <string.h>
#include <kcompat/kcompat.h>
#include <linux/slab.h>
#include "mm/oom_select.h"
#include "mm/oom_layout.h"
#include "mm/oom_ref.h"
#include "ktap.h"

#define TOTALPAGES	1000000UL	/* one adj unit = 1000 pages */
#define MAX_TASKS	64

struct set {
	struct task_struct *p[MAX_TASKS];
	long precise[MAX_TASKS];	/* ground truth, adj included */
	unsigned int n;
	unsigned long under, over, slack;	/* per task: U, O, 4T */
};

static bool setup_batch(struct kt *t, struct set *s, unsigned int cpus,
			unsigned long batch)
{
	static bool registered;

	if (!registered) {
		kc_rcu_register_thread();
		registered = true;
	}
	oom_model_reset();
	if (!kt_hpcc_setup(t, cpus))
		return false;
	KT_EXPECT_EQ(t, oom_model_init(batch), 0);
	s->n = 0;
	oom_badness_accuracy(&s->under, &s->over);
	s->slack = NR_MM_COUNTERS * oom_layout_counter_slack();
	return true;
}

static bool setup(struct kt *t, struct set *s, unsigned int cpus)
{
	return setup_batch(t, s, cpus, 32);
}

/*
 * Test-only: from the helper's @mk_fail_at-th call on (1-based; 0: never),
 * every layout fails, as a real one can. A caller that calls again more
 * than MAX_TASKS times after that loops on a failure: @mk_runaway ends it.
 */
static unsigned int mk_fail_at, mk_calls;
static jmp_buf mk_runaway;

/* A task with settled approx @a and precise @a + @r, adj @adj. */
static struct task_struct *mk(struct kt *t, struct set *s, long a,
			      unsigned long r, short adj)
{
	struct oom_task_attr attr = { .oom_score_adj = adj };
	struct task_struct *p = oom_task_create(&attr);
	bool planted = mk_fail_at && ++mk_calls >= mk_fail_at;

	t->checks++;
	if (planted && mk_calls > mk_fail_at + MAX_TASKS)
		longjmp(mk_runaway, 1);
	if (!p || planted || oom_layout_task(p, a, r)) {
		kt_fail(t, __FILE__, __LINE__, "layout %ld+%lu failed%s", a, r,
			planted ? " (planted)" : "");
		return p;
	}
	s->p[s->n] = p;
	s->precise[s->n++] = a + (long)r + adj * (long)(TOTALPAGES / 1000);
	return p;
}

static long precise_of(struct task_struct *p)
{
	return oom_badness(p, TOTALPAGES, false, NULL, NULL, NULL);
}

static long true_max(const struct set *s)
{
	long m = LONG_MIN;
	unsigned int i;

	for (i = 0; i < s->n; i++)
		m = max(m, s->precise[i]);
	return m;
}

/* Run @algo; return the victim's precise badness (LONG_MIN: none/abort). */
static long run(struct kt *t, enum oom_algo algo, struct oom_control *oc)
{
	long v = LONG_MIN;

	*oc = (struct oom_control){ .totalpages = TOTALPAGES, .algo = algo };
	oom_select_bad_process(oc);
	KT_EXPECT(t, !oc->poisoned, "no freed task met");
	if (oc->chosen && oc->chosen != OOM_ABORT)
		v = precise_of(oc->chosen);
	if (algo != OOM_ALGO_PRECISE) {
		KT_EXPECT(t, oc->stats.precise_evals <= OOM_MAX_PRECISE_BADNESS_SUMS,
			  "%lu precise evaluations", oc->stats.precise_evals);
		KT_EXPECT(t, oc->stats.precise_counter_sums <=
			  NR_MM_COUNTERS * OOM_MAX_PRECISE_BADNESS_SUMS,
			  "%lu precise counter sums", oc->stats.precise_counter_sums);
	}
	return v;
}

static struct task_struct *victim(struct kt *t, enum oom_algo algo, long *pts)
{
	struct oom_control oc;
	struct task_struct *p;

	*pts = run(t, algo, &oc);
	p = oc.chosen;
	oom_select_put(&oc);
	return p;	/* identity only: the reference is gone */
}

/* The accuracy constants the docs/spec/oom.md#oom-imprecision numbers are built on. */
static void oom_accuracy_constants(struct kt *t)
{
	struct set s;

	if (!setup(t, &s, 256))
		return;
	KT_EXPECT_EQU(t, s.under, 98304);
	KT_EXPECT_EQU(t, s.over, 95232);
	KT_EXPECT_EQU(t, s.slack, 89088);
	oom_model_reset();
}

static void oom_badness_edges(struct kt *t)
{
	struct oom_task_attr init = { .is_init = true }, kthread = { .kthread = true },
			     vfork = { .in_vfork = true };
	unsigned long u = 7, o = 9;
	struct task_struct *p;
	struct set s;

	if (!setup(t, &s, 8))
		return;
	p = mk(t, &s, 5000, 100, 0);
	KT_EXPECT_EQ(t, precise_of(p), 5100);
	/* Approximate: the accuracy of the four counters is added, not stored. */
	KT_EXPECT_EQ(t, oom_badness(p, TOTALPAGES, true, &u, &o, NULL), 5000);
	KT_EXPECT_EQU(t, u, 7 + s.under);
	KT_EXPECT_EQU(t, o, 9 + s.over);
	/* Page-table bytes count in whole pages. */
	atomic_long_add(PAGE_SIZE - 1, &p->mm->pgtables_bytes);
	KT_EXPECT_EQ(t, precise_of(p), 5100);
	atomic_long_add(1, &p->mm->pgtables_bytes);
	KT_EXPECT_EQ(t, precise_of(p), 5101);
	/* adj: points += adj * (totalpages / 1000), division first. */
	oom_set_score_adj(p, 1000);
	KT_EXPECT_EQ(t, precise_of(p), 5101 + 1000000);
	oom_set_score_adj(p, -999);
	KT_EXPECT_EQ(t, oom_badness(p, 1999, false, NULL, NULL, NULL), 5101 - 999);
	oom_set_score_adj(p, OOM_SCORE_ADJ_MIN);
	KT_EXPECT_EQ(t, precise_of(p), LONG_MIN);
	oom_set_score_adj(p, 0);
	/* A negative counter reads as 0 on both paths. */
	oom_mm_add(p->mm, MM_SHMEMPAGES, -3);
	KT_EXPECT_EQ(t, precise_of(p), 5101);
	oom_mm_add(p->mm, MM_SHMEMPAGES, 3);
	oom_set_mm_skip(p);
	KT_EXPECT_EQ(t, precise_of(p), LONG_MIN);

	KT_EXPECT_EQ(t, precise_of(oom_task_create(&init)), LONG_MIN);
	KT_EXPECT_EQ(t, precise_of(oom_task_create(&kthread)), LONG_MIN);
	KT_EXPECT_EQ(t, precise_of(oom_task_create(&vfork)), LONG_MIN);
	p = mk(t, &s, 100, 0, 0);
	get_task_struct(p);
	oom_task_exit(p);
	KT_EXPECT_EQ(t, precise_of(p), LONG_MIN);	/* no mm */
	put_task_struct(p);
	oom_model_reset();
}

/*
 * One borrow: precise 0, approximation -M_top. The approximate badness
 * must clamp each counter at 0 (sum_positive), never go below 0.
 */
static void oom_badness_approx_never_negative(struct kt *t)
{
	unsigned long u = 0, o = 0;
	struct task_struct *p;
	struct set s;

	if (!setup_batch(t, &s, 8, 32))
		return;
	p = mk(t, &s, 0, 0, 0);
	KT_ASSERT(t, p, "create");
	kc_set_cpu(1);
	oom_mm_add(p->mm, MM_ANONPAGES, 1);
	kc_set_cpu(0);
	oom_mm_add(p->mm, MM_ANONPAGES, -1);
	/* The case is the intended one: a negative raw approximation. */
	KT_EXPECT(t, percpu_counter_tree_approximate_sum(
			&p->mm->rss_stat[MM_ANONPAGES]) < 0,
		  "raw approximation not negative");
	KT_EXPECT_EQ(t, precise_of(p), 0);
	KT_EXPECT_EQ(t, oom_badness(p, TOTALPAGES, true, &u, &o, NULL), 0);
	oom_model_reset();
}

static const enum oom_algo algos[] = {
	OOM_ALGO_PRECISE, OOM_ALGO_V16, OOM_ALGO_BOUNDED
};

/* One clear maximum, with the hog before, inside and after the crowd. */
static void oom_select_clear_hog(struct kt *t)
{
	unsigned int pos, i, a;
	struct task_struct *hog;
	struct set s;
	long pts;

	for (pos = 0; pos < 3; pos++) {
		if (!setup(t, &s, 64))
			return;
		hog = NULL;
		for (i = 0; i < 30; i++) {
			if (i == pos * 14)
				hog = mk(t, &s, 4000000, 3000, 0);
			else
				mk(t, &s, 10000 + 2048 * i, i * 7, 0);
		}
		for (a = 0; a < ARRAY_SIZE(algos); a++) {
			KT_EXPECT(t, victim(t, algos[a], &pts) == hog,
				  "%s picks the hog", oom_algo_names[algos[a]]);
			KT_EXPECT_EQ(t, pts, 4003000);
		}
	}
	oom_model_reset();
}

/* Equal badness: the later task wins; >16 equal all stay at the max. */
/* @count tasks of approx @a, precise @a + @r: false at the first that fails. */
static bool mk_many(struct kt *t, struct set *s, unsigned int count, long a,
		    unsigned long r)
{
	unsigned int i, had;

	for (i = 0; i < count; i++) {
		had = s->n;
		mk(t, s, a, r, 0);
		if (s->n == had)
			return false;
	}
	return true;
}

static void oom_select_ties(struct kt *t)
{
	unsigned int n, a;
	struct set s;
	long pts;

	for (n = 2; n <= 20; n += 9) {
		if (!setup(t, &s, 64))
			return;
		mk(t, &s, 500, 0, 0);
		/* A helper that fails ends the case, with its reason. */
		if (!mk_many(t, &s, n, 100000, 777))
			break;
		mk(t, &s, 600, 0, 0);
		for (a = 0; a < ARRAY_SIZE(algos); a++) {
			struct task_struct *v = victim(t, algos[a], &pts);

			KT_EXPECT_EQ(t, pts, 100777);
			if (n <= OOM_MAX_PRECISE_BADNESS_SUMS)
				KT_EXPECT(t, v == s.p[n], "%s: later task wins the tie",
					  oom_algo_names[algos[a]]);
		}
	}
	oom_model_reset();
}

/*
 * A layout failure planted in oom_select_ties's helper (its third call,
 * inside the loop of equal tasks) fails the case at once: one failure,
 * the helper's, and no call after it.
 */
static void oom_select_ties_helper_fails(struct kt *t)
{
	struct kt inner = { .name = t->name };

	kt_diag(t, "planted: layouts fail from the 3rd on (its failure line follows)");
	mk_fail_at = 3;
	mk_calls = 0;
	if (setjmp(mk_runaway)) {
		KT_EXPECT(t, false, "the helper was called %u times after its failure",
			  mk_calls - mk_fail_at);
	} else {
		oom_select_ties(&inner);
		KT_EXPECT_EQU(t, inner.failures, 1);
		KT_EXPECT_EQU(t, mk_calls, 3);
	}
	mk_fail_at = 0;
	oom_model_reset();
}

static void oom_select_adj(struct kt *t)
{
	struct task_struct *big, *small;
	unsigned int a;
	struct set s;
	long pts;

	if (!setup(t, &s, 64))
		return;
	small = mk(t, &s, 2048, 0, 0);
	big = mk(t, &s, 900000, 0, OOM_SCORE_ADJ_MIN);
	mk(t, &s, 4096, 0, 0);
	for (a = 0; a < ARRAY_SIZE(algos); a++)
		KT_EXPECT(t, victim(t, algos[a], &pts) != big, "-1000 never chosen");
	oom_set_score_adj(big, 0);
	oom_set_score_adj(small, OOM_SCORE_ADJ_MAX);
	for (a = 0; a < ARRAY_SIZE(algos); a++) {
		KT_EXPECT(t, victim(t, algos[a], &pts) == small, "+1000 wins");
		KT_EXPECT_EQ(t, pts, 2048 + 1000000);
	}
	oom_model_reset();
}

static void oom_select_origin_and_victims(struct kt *t)
{
	struct oom_task_attr origin = { .oom_origin = true };
	struct task_struct *o, *killed;
	struct oom_control oc;
	unsigned int a;
	struct set s;

	if (!setup(t, &s, 64))
		return;
	mk(t, &s, 800000, 0, 0);
	o = oom_task_create(&origin);
	mk(t, &s, 900000, 0, 0);
	for (a = 0; a < ARRAY_SIZE(algos); a++) {
		run(t, algos[a], &oc);
		KT_EXPECT(t, oc.chosen == o, "%s: oom origin chosen",
			  oom_algo_names[algos[a]]);
		KT_EXPECT_EQ(t, oc.chosen_points, LONG_MAX);
		oom_select_put(&oc);
	}
	/* A kill in progress aborts every algorithm; sysrq ignores it. */
	killed = mk(t, &s, 10, 0, 0);
	oom_mark_victim(killed);
	for (a = 0; a < ARRAY_SIZE(algos); a++) {
		run(t, algos[a], &oc);
		KT_EXPECT(t, oc.chosen == OOM_ABORT, "%s aborts",
			  oom_algo_names[algos[a]]);
		oom_select_put(&oc);
		oc = (struct oom_control){ .totalpages = TOTALPAGES,
					   .algo = algos[a], .sysrq = true };
		oom_select_bad_process(&oc);
		KT_EXPECT(t, oc.chosen == o, "sysrq ignores the victim");
		oom_select_put(&oc);
	}
	/* Once reaped (MMF_OOM_SKIP) the victim is skipped. */
	oom_set_mm_skip(killed);
	for (a = 0; a < ARRAY_SIZE(algos); a++) {
		run(t, algos[a], &oc);
		KT_EXPECT(t, oc.chosen == o, "reaped victim skipped");
		oom_select_put(&oc);
	}
	oom_model_reset();
}

static struct task_struct *exit_target;

static void exit_between(struct oom_control *oc)
{
	if (exit_target == oc->chosen)
		get_task_struct(exit_target);	/* keep it to inspect */
	oom_task_exit(exit_target);
}

/* The pinned choice exits between the passes; another task exits too. */
static void oom_select_exit_between_passes(struct kt *t)
{
	struct task_struct *hog, *mid, *v;
	struct oom_control oc;
	unsigned int a;
	struct set s;

	for (a = 1; a < ARRAY_SIZE(algos); a++) {
		if (!setup(t, &s, 64))
			return;
		mk(t, &s, 1000, 0, 0);
		mid = mk(t, &s, 3000000, 0, 0);
		hog = mk(t, &s, 4000000, 0, 0);
		mk(t, &s, 2000, 0, 0);
		/* Non-chosen exit: the rest is judged as usual. */
		exit_target = mid;
		oom_between_passes_hook = exit_between;
		run(t, algos[a], &oc);
		oom_between_passes_hook = NULL;
		KT_EXPECT(t, oc.chosen == hog, "%s keeps the hog", oom_algo_names[algos[a]]);
		oom_select_put(&oc);
		/* The chosen task exits: it stays the choice, referenced, not freed. */
		exit_target = hog;
		oom_between_passes_hook = exit_between;
		run(t, algos[a], &oc);
		oom_between_passes_hook = NULL;
		v = oc.chosen;
		KT_EXPECT(t, v == hog, "the exited choice remains");
		KT_EXPECT(t, oom_task_alive(hog, "test") && oom_task_exited(hog),
			  "exited but alive");
		KT_EXPECT_EQ(t, precise_of(hog), LONG_MIN);
		oom_select_put(&oc);
		put_task_struct(hog);
		oom_model_reset();
	}
}

/*
 * docs/spec/oom.md#oom-imprecision row 1 (settled): the exact maximum displaced
 * by one later task: O.
 */
static void oom_v16_drift_row1(struct kt *t)
{
	struct task_struct *top, *last, *v;
	const long x = 3000000;
	unsigned int i;
	struct set s;
	long pts;

	if (!setup(t, &s, 256))
		return;
	top = mk(t, &s, x, 0, 0);
	for (i = 1; i < OOM_MAX_PRECISE_BADNESS_SUMS; i++)
		mk(t, &s, x - 4096, 0, 0);
	last = mk(t, &s, x - (long)s.over, 0, 0);
	v = victim(t, OOM_ALGO_V16, &pts);
	KT_EXPECT(t, v == last, "v16 takes the late task after the budget");
	KT_EXPECT_EQ(t, x - pts, 95232);
	v = victim(t, OOM_ALGO_BOUNDED, &pts);
	KT_EXPECT(t, v == top, "bounded keeps the exact maximum");
	KT_EXPECT_EQ(t, x - pts, 0);
	oom_model_reset();
}

/*
 * docs/spec/oom.md#oom-imprecision rows 2 and 3 (settled): the true maximum m
 * (residual 4T) is met after the budget, accepted on its approximation, then a
 * chain of k tasks each U + O lower displaces it: 4T + k (U + O). Bounded stays
 * within 4T.
 */
static void oom_v16_drift_chain(struct kt *t)
{
	struct oom_control oc;
	unsigned int k, i;
	const long am = 2000000;
	struct set s;
	long pts, w;

	for (k = 1; k <= 3; k += 2) {
		if (!setup(t, &s, 256))
			return;
		w = (long)(s.under + s.over);
		for (i = 0; i < OOM_MAX_PRECISE_BADNESS_SUMS; i++)
			mk(t, &s, am, 0, 0);
		mk(t, &s, am, s.slack, 0);		/* the true maximum */
		for (i = 1; i <= k; i++)
			mk(t, &s, am - (long)i * w, 0, 0);
		KT_EXPECT_EQ(t, true_max(&s), am + 89088);
		pts = run(t, OOM_ALGO_V16, &oc);
		KT_EXPECT(t, oc.chosen == s.p[s.n - 1], "v16 ends on the chain's tail");
		KT_EXPECT_EQ(t, true_max(&s) - pts, 89088 + (long)k * 193536);
		KT_EXPECT(t, true_max(&s) - pts > w, "v16 misses by more than a window");
		KT_EXPECT_EQU(t, oc.stats.precise_evals, 16);
		KT_EXPECT_EQU(t, oc.stats.precise_counter_sums, 64);
		KT_EXPECT_EQU(t, oc.stats.fallback_selects, k + 1);
		oom_select_put(&oc);
		pts = run(t, OOM_ALGO_BOUNDED, &oc);
		KT_EXPECT_EQ(t, true_max(&s) - pts, 89088);
		KT_EXPECT(t, true_max(&s) - pts <= w, "bounded within one window");
		KT_EXPECT_EQU(t, oc.stats.fallback_selects, 0);
		oom_select_put(&oc);
		oom_model_reset();
	}
}

/* Tasks whose range can reach the approximate maximum (docs/oom.md). */
static unsigned int window_count(const struct set *s, const long *approx)
{
	long amax = LONG_MIN;
	unsigned int i, n = 0;

	for (i = 0; i < s->n; i++)
		amax = max(amax, approx[i]);
	for (i = 0; i < s->n; i++)
		n += approx[i] + (long)(s->under + s->over) >= amax;
	return n;
}

/*
 * Seeded layouts: spreads from well inside one window to many windows,
 * random residuals, the maximum anywhere. Precise is always exact; both
 * two-pass variants are exact when <= 16 tasks are in the window; bounded
 * is within one window always; v16's worst miss is reported.
 */
/* @arg: the parity of the seeds run here (odd: 256 CPUs, even: 64). */
static void seeded_one(struct kt *t, void *arg)
{
	unsigned long parity = *(unsigned long *)arg;
	static const long spread_w[] = { 0, 1, 2, 8, 64 };	/* quarter windows */
	unsigned long seed, exact_cases = 0, crowded = 0;
	long approx[MAX_TASKS], worst_v16 = 0, worst_b = 0;
	struct oom_control oc;
	struct kt_rng rng;
	struct set s;

	for (seed = 2 - parity; seed <= 60; seed += 2) {
		unsigned int n, i, inwin;
		long w, spread, m, pts;

		if (!setup(t, &s, seed % 2 ? 256 : 64))
			return;
		kt_rng_seed(&rng, seed);
		w = (long)(s.under + s.over);
		n = 2 + kt_rng_below(&rng, 39);
		spread = spread_w[seed % ARRAY_SIZE(spread_w)] * w / 4 + 1;
		for (i = 0; i < n; i++) {
			approx[i] = 20 * w - (long)kt_rng_below(&rng, spread);
			mk(t, &s, approx[i], kt_rng_below(&rng, s.slack + 1), 0);
		}
		m = true_max(&s);
		inwin = window_count(&s, approx);

		KT_EXPECT_EQ(t, run(t, OOM_ALGO_PRECISE, &oc), m);
		KT_EXPECT_EQU(t, oc.stats.precise_evals, n);
		oom_select_put(&oc);

		pts = run(t, OOM_ALGO_V16, &oc);
		oom_select_put(&oc);
		if (inwin <= OOM_MAX_PRECISE_BADNESS_SUMS)
			KT_EXPECT(t, pts == m, "seed %lu v16: %ld != max %ld (%u in window)",
				  seed, pts, m, inwin);
		worst_v16 = max(worst_v16, m - pts);

		pts = run(t, OOM_ALGO_BOUNDED, &oc);
		if (inwin <= OOM_MAX_PRECISE_BADNESS_SUMS) {
			KT_EXPECT(t, pts == m, "seed %lu bounded: %ld != max %ld", seed, pts, m);
			KT_EXPECT(t, oc.stats.budget_hits == 0, "budget never hit");
			exact_cases++;
		} else {
			crowded++;
		}
		KT_EXPECT(t, m - pts <= w, "seed %lu bounded misses by %ld > %ld",
			  seed, m - pts, w);
		worst_b = max(worst_b, m - pts);
		oom_select_put(&oc);
	}
	kt_diag(t, "seeded, %s seeds: %lu exact-regime, %lu crowded; worst miss v16 %ld, "
		"bounded %ld pages", parity ? "odd" : "even", exact_cases, crowded,
		worst_v16, worst_b);
	t->tally[0] += exact_cases;
	t->tally[1] += crowded;
	oom_model_reset();
}

static void oom_select_seeded(struct kt *t)
{
	unsigned long parity;

	/* One process per CPU count: the kernel boots once. */
	for (parity = 0; parity < 2; parity++)
		kt_run_config(t, parity ? 256 : 64, seeded_one, &parity);
	KT_EXPECT(t, t->tally[0] >= 10 && t->tally[1] >= 10,
		  "both regimes covered: %lu exact, %lu crowded", t->tally[0], t->tally[1]);
}

/* Exactly 16 in the window: exact with the maximum first, middle, last. */
static void oom_select_sixteen_in_window(struct kt *t)
{
	unsigned int pos, i, a;
	const long x = 5000000;
	struct set s;
	long pts;

	for (pos = 0; pos < 16; pos += 5) {
		if (!setup(t, &s, 256))
			return;
		for (i = 0; i < 24; i++) {
			if (i >= 16)
				mk(t, &s, 100000 + i, 0, 0);		/* far below */
			else if (i == pos)
				mk(t, &s, x - 2048, s.slack, 0);	/* max, hidden */
			else
				mk(t, &s, x, 0, 0);
		}
		for (a = 1; a < ARRAY_SIZE(algos); a++) {
			victim(t, algos[a], &pts);
			KT_EXPECT_EQ(t, pts, x - 2048 + 89088);
		}
	}
	oom_model_reset();
}

/*
 * v16's exactness for <= 16 tasks in the window needs 4T <= O: the true maximum
 * must pass the filter against an exact anchor. With a batch smaller than a
 * fan-in T exceeds over (docs/spec/hpcc.md#hpcc-settled): 64 CPUs, batch 2 give
 * 4T = 1024 > O = 768. Two tasks in the window; v16 filters out the maximum,
 * bounded (filter a + U, and T <= under always) does not.
 */
static void oom_v16_exactness_needs_small_t(struct kt *t)
{
	struct task_struct *c, *m, *v;
	const long x = 100000;
	struct set s;
	long pts;

	if (!setup_batch(t, &s, 64, 2))
		return;
	KT_EXPECT_EQU(t, s.over, 768);
	KT_EXPECT_EQU(t, s.under, 1536);
	KT_EXPECT_EQU(t, s.slack, 1024);
	c = mk(t, &s, x, 0, 0);			/* approx = precise = x */
	m = mk(t, &s, x + 1 - 1024, 1024, 0);	/* precise x + 1 */
	KT_EXPECT_EQ(t, true_max(&s), x + 1);
	v = victim(t, OOM_ALGO_V16, &pts);
	KT_EXPECT(t, v == c, "v16 filters the maximum out against the exact anchor");
	KT_EXPECT_EQ(t, pts, x);
	v = victim(t, OOM_ALGO_BOUNDED, &pts);
	KT_EXPECT(t, v == m, "bounded is exact");
	KT_EXPECT_EQ(t, pts, x + 1);
	KT_EXPECT(t, victim(t, OOM_ALGO_PRECISE, &pts) == m, "precise");
	oom_model_reset();
}

/* Every candidate decision of a selection, from oom_candidate_hook. */
struct cand_log {
	unsigned int n;
	bool overflow;
	struct oom_candidate c[4 * MAX_TASKS];
};
static struct cand_log *cand_log;

static void log_candidate(const struct oom_candidate *c, struct oom_control *oc)
{
	if (!cand_log)
		return;
	if (cand_log->n == ARRAY_SIZE(cand_log->c)) {
		cand_log->overflow = true;
		return;
	}
	cand_log->c[cand_log->n++] = *c;
}

static void run_logged(struct kt *t, enum oom_algo algo, bool model, bool sysrq,
		       struct oom_control *oc, struct cand_log *log)
{
	log->n = 0;
	log->overflow = false;
	cand_log = log;
	oom_candidate_hook = log_candidate;
	*oc = (struct oom_control){ .totalpages = TOTALPAGES, .algo = algo,
				    .force_model = model, .sysrq = sysrq };
	oom_select_bad_process(oc);
	oom_candidate_hook = NULL;
	cand_log = NULL;
	KT_EXPECT(t, !log->overflow, "candidate log overflow");
}

/*
 * Which implementation ran is what the candidates say: the algorithm a
 * kernel tree serves is the tree's code, unless forced to the model.
 */
static void oom_impl_report(struct kt *t)
{
	static struct cand_log log;
	struct oom_control oc;
	unsigned int a, i;
	struct set s;

	if (!setup(t, &s, 8))
		return;
	for (i = 0; i < 5; i++)
		mk(t, &s, 1000 * (i + 1), 0, 0);
	for (a = 0; a < OOM_NR_ALGOS; a++) {
		enum oom_impl want = oom_impl_of(a);

		kt_diag(t, "impl %s: %s", oom_algo_names[a], oom_impl_describe(want));
		KT_EXPECT(t, want == (a == oom_kernel_algo() ? OOM_IMPL_KERNEL : OOM_IMPL_MODEL),
			  "%s served by the kernel only if the tree has it", oom_algo_names[a]);
		run_logged(t, a, false, false, &oc, &log);
		KT_EXPECT(t, log.n >= 5 && log.c[0].impl == want && log.c[log.n - 1].impl == want,
			  "%s: %u candidates, implementation %d", oom_algo_names[a], log.n,
			  log.n ? (int)log.c[0].impl : -1);
		KT_EXPECT(t, oc.chosen == s.p[4], "%s: the largest", oom_algo_names[a]);
		oom_select_put(&oc);
		run_logged(t, a, true, false, &oc, &log);
		KT_EXPECT(t, log.n && log.c[0].impl == OOM_IMPL_MODEL, "%s forced to the model",
			  oom_algo_names[a]);
		oom_select_put(&oc);
	}
	oom_model_reset();
}

#define CAND_SAME(f) do {						\
	if (k->f != m->f) {						\
		kt_fail(t, __FILE__, __LINE__,				\
			"seed %lu, candidate %u (pid %d, pass %d): " #f	\
			" kernel %ld, model %ld", seed, i, k->task->pid,	\
			k->pass2 + 1, (long)k->f, (long)m->f);		\
		return false;						\
	}								\
} while (0)

static bool same_candidates(struct kt *t, unsigned long seed,
			    const struct cand_log *kl, const struct cand_log *ml)
{
	unsigned int i;

	t->checks++;
	if (kl->n != ml->n) {
		kt_fail(t, __FILE__, __LINE__, "seed %lu: %u candidates from the kernel, %u from the model",
			seed, kl->n, ml->n);
		return false;
	}
	for (i = 0; i < kl->n; i++) {
		const struct oom_candidate *k = &kl->c[i], *m = &ml->c[i];

		CAND_SAME(task);
		CAND_SAME(pass2);
		CAND_SAME(chosen_before);
		CAND_SAME(points_before);
		CAND_SAME(accuracy_under_before);
		CAND_SAME(nr_precise_before);
		CAND_SAME(approx_reads);
		CAND_SAME(precise_reads);
		CAND_SAME(result);
		CAND_SAME(points);
		CAND_SAME(accuracy_under);
	}
	return true;
}

/*
 * Same oracle, real code: the tree's selection and the model's version of
 * the same algorithm, run over the same seeded task sets, must make the
 * same decision on every candidate (not only pick the same victim). Any
 * difference is a finding; the first one is reported with its seed.
 */
static void oom_kernel_matches_model(struct kt *t)
{
	static struct cand_log kl, ml;
	static const short adjs[] = { 0, 0, 0, 0, 10, -10, 0, -500, OOM_SCORE_ADJ_MIN, 1000 };
	enum oom_algo algo = oom_kernel_algo();
	unsigned long seed, cands = 0, budget = 0, aborts = 0;
	struct oom_control ko, mo;
	struct kt_rng rng;
	struct set s;

	if (algo == OOM_NR_ALGOS) {
		kt_skip(t, "no kernel tree: build with KERNEL_SRC=DIR holding mm/oom_kill.c");
		return;
	}
	for (seed = 1; seed <= 48; seed++) {
		unsigned int n, i;
		long w, spread;
		bool sysrq;

		if (!setup(t, &s, 256))
			return;
		kt_rng_seed(&rng, seed);
		w = (long)(s.under + s.over);
		n = 2 + kt_rng_below(&rng, MAX_TASKS - 2);
		spread = 1 + w * (long)(1UL << (seed % 6)) / 8;	/* w/8 .. 4w */
		for (i = 0; i < n; i++) {
			short adj = adjs[kt_rng_below(&rng, ARRAY_SIZE(adjs))];
			struct task_struct *p;

			p = mk(t, &s, 20 * w - (long)kt_rng_below(&rng, spread),
			       kt_rng_below(&rng, s.slack + 1), adj % 1000 ? adj : 0);
			if (p && adj == OOM_SCORE_ADJ_MIN)
				oom_set_score_adj(p, adj);
			else if (p && adj == 1000 && seed % 4 == 0)
				oom_mark_victim(p);	/* a kill in progress: abort */
			else if (p && adj == 1000 && seed % 4 == 1)
				oom_set_mm_skip(p);
		}
		sysrq = seed % 8 == 5;
		run_logged(t, algo, false, sysrq, &ko, &kl);
		run_logged(t, algo, true, sysrq, &mo, &ml);
		KT_EXPECT(t, ko.chosen == mo.chosen, "seed %lu: victim", seed);
		KT_EXPECT_EQ(t, ko.chosen_points, mo.chosen_points);
		KT_EXPECT_EQU(t, ko.stats.precise_counter_sums, mo.stats.precise_counter_sums);
		KT_EXPECT_EQU(t, ko.stats.approx_counter_reads, mo.stats.approx_counter_reads);
		KT_EXPECT_EQU(t, ko.stats.budget_hits, mo.stats.budget_hits);
		KT_EXPECT_EQU(t, ko.stats.fallback_selects, mo.stats.fallback_selects);
		KT_EXPECT_EQU(t, ko.stats.filtered, mo.stats.filtered);
		same_candidates(t, seed, &kl, &ml);
		cands += kl.n;
		budget += ko.stats.budget_hits != 0;
		aborts += ko.chosen == OOM_ABORT;
		oom_select_put(&ko);
		oom_select_put(&mo);
	}
	KT_EXPECT(t, aborts >= 2 && (algo == OOM_ALGO_PRECISE || budget >= 4),
		  "the layouts reach aborts (%lu) and the budget (%lu)", aborts, budget);
	kt_diag(t, "%s: kernel and model agree on %lu candidates in 48 selections (%lu aborted, %lu ran out of budget)",
		oom_algo_names[algo], cands, aborts, budget);
	oom_model_reset();
}

/* Move @p's badness by @delta pages (adj, then page tables); false if it cannot. */
static bool nudge(struct task_struct *p, long delta)
{
	short adj;
	long pages;

	if (!oom_ref_split_delta(delta, oom_task_adj(p), TOTALPAGES / 1000, &adj, &pages))
		return false;
	oom_set_score_adj(p, adj);
	atomic_long_add(pages * (long)PAGE_SIZE, &p->mm->pgtables_bytes);
	return true;
}

/* One configuration of oom_pass2_candidates (a process of its own). */
static void candidates_config(struct kt *t, void *arg)
{
	static const enum oom_algo algos[] = { OOM_ALGO_V16, OOM_ALGO_BOUNDED };
	const unsigned long *batch = arg;
	unsigned long edges[2][3] = { { 0 } };
	unsigned int a, rot, i, n;

	for (a = 0; a < ARRAY_SIZE(algos); a++)
	for (rot = 0; rot < 4; rot++) {
		struct oom_ref_cand cand[MAX_TASKS + 2];
		long delta[MAX_TASKS + 2], min_delta[MAX_TASKS + 2];
		struct oom_ref_report rp;
		struct task_struct *p;
		struct kt_rng rng;
		struct set s;

		if (!setup_batch(t, &s, nr_cpu_ids, *batch))
			return;
		kt_rng_seed(&rng, 100 * *batch + 10 * a + rot);
		for (i = 0; i < 40; i++) {
			/* One draw per statement: argument order is unspecified. */
			long ap = 5 * (long)(s.under + s.over) +
				  (long)kt_rng_below(&rng, 2 * (s.under + s.over));
			unsigned long r = kt_rng_below(&rng, s.slack + 1);

			mk(t, &s, ap, r, 0);
		}
		n = 0;
		rcu_read_lock();
		for_each_process(p) {
			if (n < ARRAY_SIZE(cand)) {
				oom_ref_read(p, TOTALPAGES, &cand[n]);
				min_delta[n] = -(long)(cand[n].adj - OOM_SCORE_ADJ_MIN - 1) *
					       (long)(TOTALPAGES / 1000);
				n++;
			}
		}
		rcu_read_unlock();
		oom_ref_plan_edges(algos[a], cand, n, rot, min_delta, delta);
		for (i = 0; i < n; i++)
			KT_EXPECT(t, !delta[i] || nudge(cand[i].task, delta[i]),
				  "move pid %d by %ld", cand[i].task->pid, delta[i]);
		if (!oom_ref_audit(algos[a], TOTALPAGES, &rp))
			t->checks += rp.candidates;
		else
			KT_FAIL_CLASS(t, KT_WRONG_ANSWER, "select_bad_process",
				      "%u CPUs batch %lu: %s", nr_cpu_ids, *batch, rp.msg);
		KT_EXPECT(t, rp.pass2 && rp.precise, "%s: %lu pass-2 candidates, %lu precise",
			  oom_algo_names[algos[a]], rp.pass2, rp.precise);
		for (i = 0; i < 3; i++)
			edges[a][i] += rp.edges[i];
		if (oom_ref_audit(OOM_ALGO_PRECISE, TOTALPAGES, &rp))
			KT_FAIL_CLASS(t, KT_WRONG_ANSWER, "select_bad_process", "precise: %s",
				      rp.msg);
		oom_model_reset();
	}
	KT_EXPECT(t, edges[0][0] && edges[0][1], "%u CPUs: v16 boundaries met: filter %lu, "
		  "re-check %lu", nr_cpu_ids, edges[0][0], edges[0][1]);
	KT_EXPECT(t, edges[1][0] && edges[1][1] && edges[1][2], "%u CPUs: bounded boundaries "
		  "met: filter %lu, re-check %lu, fallback %lu", nr_cpu_ids, edges[1][0],
		  edges[1][1], edges[1][2]);
}

/*
 * Every candidate's decision, in both passes, against the per-candidate
 * reference (lib/mm/oom_ref.c), on task sets the planner moved onto the
 * boundaries of pass 2: v16's overlap filter and precise re-check,
 * bounded's filter, re-check and approximate fallback, each at -1 and 0.
 * 40 tasks inside two windows, so the 16-sum budget runs out. 256 CPUs
 * with batch 32 (4T <= O) and 64 CPUs with batch 2 (4T > O), each in a
 * process of its own. Each kind of boundary must have been met (power).
 */
static void oom_pass2_candidates(struct kt *t)
{
	static const unsigned long b32 = 32, b2 = 2;

	kt_run_config(t, 256, candidates_config, (void *)&b32);
	kt_run_config(t, 64, candidates_config, (void *)&b2);
}

/*
 * The edge planner raises pass 1's choice (the last candidate) to one
 * above the best earlier task, no further (lib/mm/oom_ref.c): every other
 * task may then be moved up to it, which bounded's fallback edge needs.
 */
static void oom_plan_edges_winner_by_one(struct kt *t)
{
	static char tasks[3];
	struct oom_ref_cand c[3] = {
		{ .task = (struct task_struct *)&tasks[0], .eligible = true,
		  .approx = 100, .precise = 100 },
		{ .task = (struct task_struct *)&tasks[1], .eligible = true,
		  .approx = 70, .precise = 70 },
		{ .task = (struct task_struct *)&tasks[2], .eligible = true,
		  .approx = 50, .precise = 50 },
	};
	long min_delta[3] = { 0 }, delta[3];
	enum oom_algo algo;

	for (algo = OOM_ALGO_V16; algo <= OOM_ALGO_BOUNDED; algo++) {
		oom_ref_plan_edges(algo, c, 3, 0, min_delta, delta);
		KT_EXPECT(t, delta[2] == 100 + 1 - 50, "algo %d: the winner moved by %ld, want %d",
			  algo, delta[2], 100 + 1 - 50);
	}
}

/*
 * oom_layout_task() checks the layout it made through the counter API: a
 * task that reads one page low approximately and right precisely (as a
 * library that lost a carry would read: an uncarried +1 page from a first
 * layout, then one page less in page-table bytes) is refused, and so is
 * one that reads one page high both ways. A fresh task is laid out.
 */
static void oom_layout_checks_result(struct kt *t)
{
	static const struct oom_task_attr attr;
	struct task_struct *p;
	struct set s;
	int pre;

	if (!setup(t, &s, 8))
		return;
	for (pre = -1; pre <= 1; pre++) {
		p = oom_task_create(&attr);
		KT_ASSERT(t, p != NULL, "task");
		if (pre < 0) {
			KT_EXPECT_EQ(t, oom_layout_task(p, 0, 1), 0);
			atomic_long_add(-(long)PAGE_SIZE, &p->mm->pgtables_bytes);
		} else if (pre > 0) {
			atomic_long_add((long)PAGE_SIZE, &p->mm->pgtables_bytes);
		}
		KT_EXPECT(t, oom_layout_task(p, 5000, 2) == (pre ? -1 : 0),
			  "a task reading %+d page(s) approximately: laid out %s", pre,
			  pre ? "anyway" : "wrong");
		oom_task_exit(p);
	}
}

/*
 * poisoned is a result of the selection, like chosen: a control block
 * that met a freed task in an earlier selection says false after a
 * selection that met none, for every algorithm.
 */
static void oom_poisoned_is_a_result(struct kt *t)
{
	struct oom_control oc;
	unsigned int a;
	struct set s;

	if (!setup(t, &s, 8))
		return;
	mk(t, &s, 3000, 0, 0);
	mk(t, &s, 1000, 0, 0);
	for (a = 0; a < OOM_NR_ALGOS; a++) {
		oc = (struct oom_control){ .totalpages = TOTALPAGES, .algo = a,
					   .poisoned = true };
		oom_select_bad_process(&oc);
		KT_EXPECT(t, !oc.poisoned, "%s: a clean selection says poisoned",
			  oom_algo_names[a]);
		oom_select_put(&oc);
	}
}

/*
 * The selection the audit watches (oom_select_bad_process() wrapped at
 * link time, see the Makefile): the library's, or with every candidate
 * report altered by @tamper on its way to the audit.
 */
static void (*tamper)(struct oom_candidate *c);
static void (*tamper_next)(const struct oom_candidate *c, struct oom_control *oc);
void __real_oom_select_bad_process(struct oom_control *oc);
void __wrap_oom_select_bad_process(struct oom_control *oc);

static void tamper_hook(const struct oom_candidate *c, struct oom_control *oc)
{
	struct oom_candidate x = *c;

	tamper(&x);
	tamper_next(&x, oc);
}

void __wrap_oom_select_bad_process(struct oom_control *oc)
{
	if (!tamper || !oom_candidate_hook) {
		__real_oom_select_bad_process(oc);
		return;
	}
	tamper_next = oom_candidate_hook;
	oom_candidate_hook = tamper_hook;
	__real_oom_select_bad_process(oc);
	oom_candidate_hook = tamper_next;
}

static void precise_before_less(struct oom_candidate *c) { c->nr_precise_before--; }
static void precise_before_more(struct oom_candidate *c) { c->nr_precise_before++; }
static void points_before_less(struct oom_candidate *c) { c->points_before--; }
static void points_before_more(struct oom_candidate *c) { c->points_before++; }
static void skip_reported_selected(struct oom_candidate *c)
{
	if (c->result == OOM_CAND_SKIP)
		c->result = OOM_CAND_SELECT;
}

/*
 * The audit (oom_ref_audit()) fed reports the selection never made: each
 * candidate said to be judged against one precise evaluation or one point
 * less or more than the state the reference reaches (each fails the audit
 * as "judged against another state"), or every skip reported as a
 * selection (fails as "decision"). The unaltered reports pass.
 */
static void oom_audit_state_before(struct kt *t)
{
	static void (*const alter[])(struct oom_candidate *) = {
		NULL, precise_before_less, precise_before_more,
		points_before_less, points_before_more, skip_reported_selected,
	};
	static const long approx[] = { 3000, 1000, 5000, 2000, 4000 };
	static const enum oom_algo algos[] = { OOM_ALGO_V16, OOM_ALGO_BOUNDED };
	struct oom_ref_report rp;
	unsigned int a, i;
	struct set s;
	int ret;

	if (!setup(t, &s, 8))
		return;
	for (i = 0; i < ARRAY_SIZE(approx); i++)	/* some below the best so far: skips */
		mk(t, &s, approx[i], 0, 0);
	for (a = 0; a < ARRAY_SIZE(algos); a++) {
		for (i = 0; i < ARRAY_SIZE(alter); i++) {
			const char *why = alter[i] == skip_reported_selected ? "decision" :
					  "judged against another state";

			tamper = alter[i];
			ret = oom_ref_audit(algos[a], TOTALPAGES, &rp);
			tamper = NULL;
			if (!i)
				KT_EXPECT(t, !ret, "%s: the library's reports fail: %s",
					  oom_algo_names[algos[a]], rp.msg);
			else
				KT_EXPECT(t, ret && rp.mismatch && strstr(rp.msg, why),
					  "%s: report altered (%u) %s: %s", oom_algo_names[algos[a]],
					  i, ret ? "fails otherwise" : "passes", rp.msg);
		}
	}
}

/*
 * The reference's edge marks (lib/mm/oom_ref.h: a decision whose
 * difference is -1 or 0), by hand: the v16 and bounded filters, bounded's
 * re-check and its fallback, each at differences -3..2 around a state of
 * points and floor 1000. The coverage the oracles report counts these.
 */
static void oom_ref_edges_by_hand(struct kt *t)
{
	static char task;
	struct oom_ref_cand c = { .task = (struct task_struct *)&task, .eligible = true };
	struct oom_ref_state st;
	unsigned int edges, bit;
	bool precise;
	long k;
	int e;

	for (e = 0; e < 4; e++) {
		for (k = -3; k <= 2; k++) {
			oom_ref_init(&st);
			st.points = st.floor = 1000;
			c.approx = c.precise = 2000;
			if (e == 0 || e == 1)		/* v16's, bounded's filter */
				c.approx = 1000 + k;
			else if (e == 2)		/* bounded's re-check */
				c.precise = 1000 + k;
			else {				/* bounded's fallback: floor - approx */
				c.approx = 1000 - k;
				st.nr_precise = OOM_MAX_PRECISE_BADNESS_SUMS;
			}
			bit = e == 0 || e == 1 ? OOM_EDGE_FILTER :
			      e == 2 ? OOM_EDGE_RECHECK : OOM_EDGE_FALLBACK;
			oom_ref_eval(e ? OOM_ALGO_BOUNDED : OOM_ALGO_V16, true, &st, &c,
				     &precise, &edges);
			KT_EXPECT(t, !!(edges & bit) == (k == -1 || k == 0),
				  "edge %d at difference %ld: marks %#x", e, k, edges);
		}
	}
}

/*
 * A selection that meets a kill in progress aborts, and the candidate
 * report says so: the oracles read an abort from the report alone.
 */
static void oom_abort_reported(struct kt *t)
{
	static struct cand_log log;
	struct task_struct *killed;
	struct oom_control oc;
	unsigned int a, i, aborts;
	struct set s;

	if (!setup(t, &s, 8))
		return;
	mk(t, &s, 5000, 0, 0);
	killed = mk(t, &s, 10, 0, 0);
	mk(t, &s, 9000, 0, 0);
	oom_mark_victim(killed);
	for (a = 0; a < OOM_NR_ALGOS; a++) {
		run_logged(t, a, true, false, &oc, &log);
		KT_EXPECT(t, oc.chosen == OOM_ABORT, "%s aborts", oom_algo_names[a]);
		for (i = aborts = 0; i < log.n; i++) {
			if (log.c[i].result != OOM_CAND_ABORT)
				continue;
			aborts++;
			KT_EXPECT(t, log.c[i].task == killed, "%s: candidate %u aborts",
				  oom_algo_names[a], i);
		}
		KT_EXPECT(t, aborts == 1 && log.c[log.n - 1].task == killed,
			  "%s: %u aborts reported over %u candidates, the last the victim's",
			  oom_algo_names[a], aborts, log.n);
		oom_select_put(&oc);
	}
	oom_model_reset();
}

/*
 * Every allocation of task creation failing in turn: creation fails and
 * leaves no object behind (a leak on an error path shows in the count of
 * live kmalloc() objects).
 */
static void oom_task_create_fails_clean(struct kt *t)
{
#if defined(KC_ASAN_FREE)
	kt_skip(t, "ASan's leak check covers the error paths");
#else
	struct oom_task_attr attr = { .oom_score_adj = 0 };
	struct task_struct *p = NULL;
	unsigned long nth, fails = 0;
	struct set s;
	long live;

	if (!setup(t, &s, 8))
		return;
	live = kc_kmalloc_live();
	for (nth = 1; nth <= 16; nth++) {
		kc_kmalloc_fail_nth(nth);
		p = oom_task_create(&attr);
		kc_kmalloc_fail_nth(0);
		if (p)
			break;
		fails++;
		KT_EXPECT(t, kc_kmalloc_live() == live,
			  "allocation %lu failed: %ld objects leaked", nth,
			  kc_kmalloc_live() - live);
	}
	KT_EXPECT(t, p != NULL, "created with no failure injected");
	/* The task, its mm and the mm's counter items (and what init_many() allocates). */
	KT_EXPECT(t, fails >= (percpu_counter_tree_items_size() ? 3UL : 2UL),
		  "%lu allocations in task creation", fails);
	oom_model_reset();
	KT_EXPECT(t, kc_kmalloc_live() == live, "%ld objects left after the reset",
		  kc_kmalloc_live() - live);
#endif
}

static const struct kt_case cases[] = {
	KT_CASE(oom_impl_report),
	KT_CASE(oom_kernel_matches_model),
	KT_CASE(oom_accuracy_constants),
	KT_CASE(oom_badness_edges),
	KT_CASE(oom_badness_approx_never_negative),
	KT_CASE(oom_select_clear_hog),
	KT_CASE(oom_select_ties),
	KT_CASE(oom_select_ties_helper_fails),
	KT_CASE(oom_select_adj),
	KT_CASE(oom_select_origin_and_victims),
	KT_CASE(oom_select_exit_between_passes),
	KT_CASE(oom_v16_drift_row1),
	KT_CASE(oom_v16_drift_chain),
	KT_CASE(oom_select_sixteen_in_window),
	KT_CASE(oom_select_seeded),
	KT_CASE(oom_v16_exactness_needs_small_t),
	KT_CASE(oom_pass2_candidates),
	KT_CASE(oom_plan_edges_winner_by_one),
	KT_CASE(oom_ref_edges_by_hand),
	KT_CASE(oom_layout_checks_result),
	KT_CASE(oom_audit_state_before),
	KT_CASE(oom_poisoned_is_a_result),
	KT_CASE(oom_abort_reported),
	KT_CASE(oom_task_create_fails_clean),
};

KT_MAIN("oom", cases)
