// SPDX-License-Identifier: GPL-2.0
/*
 * select_bad_process(): the precise single pass (merged fix), the v16 3/3
 * two-pass as posted, and the bounded two-pass: docs/spec/oom.md and
 * docs/oom.md.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/rculist.h>
#include "hpcc_range.h"
#include "oom_select.h"
#include "oom_koom.h"

const char *const oom_algo_names[OOM_NR_ALGOS] = OOM_ALGO_NAMES;

void (*oom_between_passes_hook)(struct oom_control *oc);
void (*oom_pass2_task_hook)(struct task_struct *p, struct oom_control *oc);
void (*oom_candidate_hook)(const struct oom_candidate *c, struct oom_control *oc);

int oom_algo_parse(const char *name, enum oom_algo *algo)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(oom_algo_names); i++) {
		if (!strcmp(name, oom_algo_names[i])) {
			*algo = i;
			return 0;
		}
	}
	return -1;
}

/* Counting wrappers: the library may be a kernel tree's file. */
static long mm_counter_sum(struct mm_struct *mm, int member,
			   struct oom_select_stats *stats)
{
	if (stats)
		stats->precise_counter_sums++;
	return percpu_counter_tree_precise_sum_positive(&mm->rss_stat[member]);
}

static long mm_counter_approx(struct mm_struct *mm, int member,
			      unsigned long *under, unsigned long *over,
			      struct oom_select_stats *stats)
{
	if (stats)
		stats->approx_counter_reads++;
	hpcc_accuracy_add(&mm->rss_stat[member], under, over);
	return percpu_counter_tree_approximate_sum_positive(&mm->rss_stat[member]);
}

static bool oom_unkillable_task(struct task_struct *p)
{
	return READ_ONCE(p->kc_global_init) || (READ_ONCE(p->flags) & PF_KTHREAD);
}

static long model_badness(struct task_struct *p, unsigned long totalpages,
			  bool approximate, unsigned long *under, unsigned long *over,
			  struct oom_select_stats *stats)
{
	struct mm_struct *mm;
	long points, adj;
	int i;

	/* Model-only: poison check before the first field is read. */
	if (!oom_task_alive(p, "oom_badness"))
		return LONG_MIN;
	if (oom_unkillable_task(p))
		return LONG_MIN;
	p = oom_lock_task_mm(p);
	if (!p)
		return LONG_MIN;
	mm = p->mm;
	adj = (long)oom_task_adj(p);
	if (adj == OOM_SCORE_ADJ_MIN ||
	    mm_flags_test(MMF_OOM_SKIP, mm) ||
	    READ_ONCE(p->kc_in_vfork)) {
		task_unlock(p);
		return LONG_MIN;
	}
	if (stats) {
		if (approximate)
			stats->approx_evals++;
		else
			stats->precise_evals++;
	}
	points = 0;
	for (i = 0; i < NR_MM_COUNTERS; i++)
		points += approximate ? mm_counter_approx(mm, i, under, over, stats) :
					mm_counter_sum(mm, i, stats);
	points += atomic_long_read(&mm->pgtables_bytes) / PAGE_SIZE;
	task_unlock(p);

	adj *= totalpages / 1000;
	return points + adj;
}

static bool koom_badness_of(struct task_struct *p, unsigned long totalpages,
			    bool approximate, unsigned long *under,
			    unsigned long *over, struct oom_select_stats *stats,
			    long *points);

/* The implementation's badness: the tree's oom_badness() where it has one. */
long oom_badness(struct task_struct *p, unsigned long totalpages,
		 bool approximate, unsigned long *under, unsigned long *over,
		 struct oom_select_stats *stats)
{
	long points;

	if (!oom_task_alive(p, "oom_badness"))
		return LONG_MIN;
	if (koom_badness_of(p, totalpages, approximate, under, over, stats, &points))
		return points;
	return model_badness(p, totalpages, approximate, under, over, stats);
}

void oom_badness_accuracy(unsigned long *under, unsigned long *over)
{
	size_t isz = percpu_counter_tree_items_size();
	struct percpu_counter_tree c;
	void *items = isz ? kzalloc(isz, GFP_KERNEL) : NULL;
	unsigned long u = 0, o = 0;

	*under = *over = 0;
	if ((isz && !items) ||
	    percpu_counter_tree_init(&c, items, oom_model_batch(), GFP_KERNEL)) {
		kfree(items);
		return;
	}
	percpu_counter_tree_approximate_accuracy_range(&c, &u, &o);
	percpu_counter_tree_destroy(&c);
	kfree(items);
	*under = NR_MM_COUNTERS * u;
	*over = NR_MM_COUNTERS * o;
}

/* The kernel builds with -fno-strict-overflow: long arithmetic wraps. */
static inline long wrap_add(long a, long b)
{
	return (long)((unsigned long)a + (unsigned long)b);
}

static inline long sat_add(long a, long b)
{
	long r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? LONG_MAX : LONG_MIN;
	return r;
}

enum { EVAL_NEXT, EVAL_SELECT, EVAL_ABORT };

/* The per-task checks of docs/spec/oom.md#oom-badness common to every algorithm. */
static int oom_task_checks(struct task_struct *task, struct oom_control *oc,
			   long *points)
{
	if (!oom_task_alive(task, "oom_evaluate_task")) {
		oc->poisoned = true;
		return EVAL_ABORT;
	}
	if (oom_unkillable_task(task))
		return EVAL_NEXT;
	if (!oc->sysrq && oom_task_victim_mm(task)) {
		if (mm_flags_test(MMF_OOM_SKIP, oom_task_victim_mm(task)))
			return EVAL_NEXT;
		return EVAL_ABORT;
	}
	if (READ_ONCE(task->signal->oom_flag_origin)) {
		*points = LONG_MAX;
		return EVAL_SELECT;
	}
	return -1;
}

/* v16 3/3: pass 1 approximate max, pass 2 overlap filter + 16 precise. */
static int oom_evaluate_v16(struct task_struct *task, struct oom_control *oc,
			    long *points, unsigned long *accuracy_under)
{
	unsigned long under = 0, over = 0;
	int ret = oom_task_checks(task, oc, points);

	*accuracy_under = 0;
	if (ret >= 0)
		return ret;
	*points = model_badness(task, oc->totalpages, true, &under, &over,
			      &oc->stats);
	if (oc->approximate) {
		if (*points == LONG_MIN || *points < oc->chosen_points)
			return EVAL_NEXT;
	} else {
		if (*points == LONG_MIN ||
		    wrap_add(wrap_add(wrap_add(*points, over), oc->accuracy_under),
			     -oc->chosen_points) < 0) {
			if (*points != LONG_MIN)
				oc->stats.filtered++;
			return EVAL_NEXT;
		}
		if (oc->nr_precise < OOM_MAX_PRECISE_BADNESS_SUMS) {
			under = 0;
			over = 0;
			oc->nr_precise++;
			*points = model_badness(task, oc->totalpages, false, NULL,
					      NULL, &oc->stats);
#ifndef OOM_BUG_NO_PRECISE_RECHECK
			if (*points == LONG_MIN ||
			    wrap_add(wrap_add(*points, oc->accuracy_under),
				     -oc->chosen_points) < 0)
				return EVAL_NEXT;
#else
			if (*points == LONG_MIN)
				return EVAL_NEXT;
#endif
		} else {
			oc->stats.budget_hits++;
			oc->stats.fallback_selects++;
		}
	}
	*accuracy_under = under;
	return EVAL_SELECT;
}

/*
 * bounded: the same two passes and budget, but the choice carries a floor
 * (a value its precise badness is known to reach: the exact points, or
 * approx - over) and nothing replaces it without reaching that floor; on
 * the approximate fallback, without raising it.
 */
static int oom_evaluate_bounded(struct task_struct *task, struct oom_control *oc,
				long *points, long *floor)
{
	unsigned long under = 0, over = 0;
	int ret = oom_task_checks(task, oc, points);

	if (ret >= 0) {
		*floor = *points;
		return ret;
	}
	*points = model_badness(task, oc->totalpages, true, &under, &over,
			      &oc->stats);
	if (*points == LONG_MIN)
		return EVAL_NEXT;
	if (oc->approximate) {
		if (*points < oc->chosen_points)
			return EVAL_NEXT;
		*floor = sat_add(*points, -(long)over);
		return EVAL_SELECT;
	}
	/* Cannot reach the floor even at the top of its range: not the max. */
	if (sat_add(*points, (long)under) < oc->chosen_floor) {
		oc->stats.filtered++;
		return EVAL_NEXT;
	}
	if (oc->nr_precise < OOM_MAX_PRECISE_BADNESS_SUMS) {
		oc->nr_precise++;
		*points = model_badness(task, oc->totalpages, false, NULL, NULL,
				      &oc->stats);
		if (*points == LONG_MIN)
			return EVAL_NEXT;
#ifndef OOM_BUG_NO_PRECISE_RECHECK
		if (*points < oc->chosen_floor)
			return EVAL_NEXT;
#endif
		*floor = *points;
		return EVAL_SELECT;
	}
	oc->stats.budget_hits++;
	*floor = sat_add(*points, -(long)over);
	if (*floor <= oc->chosen_floor)
		return EVAL_NEXT;
	oc->stats.fallback_selects++;
	return EVAL_SELECT;
}

static int oom_evaluate_precise(struct task_struct *task, struct oom_control *oc,
				long *points)
{
	int ret = oom_task_checks(task, oc, points);

	if (ret >= 0)
		return ret;
	*points = model_badness(task, oc->totalpages, false, NULL, NULL,
			      &oc->stats);
	if (*points == LONG_MIN || *points < oc->chosen_points)
		return EVAL_NEXT;
	return EVAL_SELECT;
}

static void report_candidate(struct oom_control *oc, const struct oom_candidate *c)
{
	if (oom_candidate_hook)
		oom_candidate_hook(c, oc);
}

/* oom_evaluate_task(): 1 stops the scan. */
static int oom_evaluate_task(struct task_struct *task, struct oom_control *oc)
{
	struct oom_candidate c = {
		.task = task, .algo = oc->algo, .impl = OOM_IMPL_MODEL,
		.pass2 = !oc->approximate && oc->algo != OOM_ALGO_PRECISE,
		.chosen_before = oc->chosen, .points_before = oc->chosen_points,
		.accuracy_under_before = oc->accuracy_under,
		.nr_precise_before = oc->nr_precise,
	};
	unsigned long approx0 = oc->stats.approx_counter_reads;
	unsigned long precise0 = oc->stats.precise_counter_sums;
	unsigned long accuracy_under = 0;
	long points = LONG_MIN, floor = LONG_MIN;
	int ret;

	if (oom_pass2_task_hook && c.pass2)
		oom_pass2_task_hook(task, oc);
	switch (oc->algo) {
	case OOM_ALGO_V16:
		ret = oom_evaluate_v16(task, oc, &points, &accuracy_under);
		break;
	case OOM_ALGO_BOUNDED:
		ret = oom_evaluate_bounded(task, oc, &points, &floor);
		break;
	default:
		ret = oom_evaluate_precise(task, oc, &points);
		break;
	}
	c.approx_reads = oc->stats.approx_counter_reads - approx0;
	c.precise_reads = oc->stats.precise_counter_sums - precise0;
	if (ret == EVAL_NEXT) {
		c.result = OOM_CAND_SKIP;
		report_candidate(oc, &c);
		return 0;
	}
	if (ret == EVAL_ABORT) {
		if (oc->chosen && oc->chosen != OOM_ABORT)
			put_task_struct(oc->chosen);
		oc->chosen = OOM_ABORT;
		c.result = OOM_CAND_ABORT;
		report_candidate(oc, &c);
		return 1;
	}
	if (oc->chosen)
		put_task_struct(oc->chosen);
	get_task_struct(task);
	oc->chosen = task;
	oc->chosen_points = points;
	oc->accuracy_under = accuracy_under;
	oc->chosen_floor = floor;
	c.result = OOM_CAND_SELECT;
	c.points = points;
	c.accuracy_under = accuracy_under;
	report_candidate(oc, &c);
	return 0;
}

static void oom_scan(struct oom_control *oc)
{
	struct task_struct *p;

	rcu_read_lock();
	for_each_process(p) {
		if (oom_evaluate_task(p, oc))
			break;
	}
	rcu_read_unlock();
}

static void koom_select(struct oom_control *oc);

void oom_select_bad_process(struct oom_control *oc)
{
	if (!oc->force_model && oom_impl_of(oc->algo) == OOM_IMPL_KERNEL) {
		koom_select(oc);
		return;
	}
	oc->chosen = NULL;
	oc->chosen_points = LONG_MIN;
	oc->accuracy_under = 0;
	oc->chosen_floor = LONG_MIN;
	oc->nr_precise = 0;
	oc->poisoned = false;
	memset(&oc->stats, 0, sizeof(oc->stats));

	if (oc->algo == OOM_ALGO_PRECISE) {
		oc->approximate = false;
		oom_scan(oc);
		return;
	}
	oc->approximate = true;
	oom_scan(oc);
	if (oc->chosen == OOM_ABORT)
		return;
	if (oom_between_passes_hook)
		oom_between_passes_hook(oc);
	oc->approximate = false;
	oom_scan(oc);
}

void oom_select_put(struct oom_control *oc)
{
	if (oc->chosen && oc->chosen != OOM_ABORT)
		put_task_struct(oc->chosen);
	oc->chosen = NULL;
}

long oom_select_once(enum oom_algo algo, unsigned long totalpages,
		     struct oom_select_stats *stats)
{
	return oom_select_run(algo, false, totalpages, stats);
}

long oom_select_run(enum oom_algo algo, bool force_model, unsigned long totalpages,
		    struct oom_select_stats *stats)
{
	struct oom_control oc = { .totalpages = totalpages, .algo = algo,
				  .force_model = force_model };
	long pid;

	oom_select_bad_process(&oc);
	if (stats)
		*stats = oc.stats;
	if (oc.chosen == OOM_ABORT)
		return -1;
	pid = oc.chosen ? oc.chosen->pid : 0;
	oom_select_put(&oc);
	return pid;
}

/* --- the kernel tree's implementation (KERNEL_SRC with mm/oom_kill.c) --- */

#ifdef CONFIG_KOOM

enum oom_algo oom_kernel_algo(void)
{
	return koom_info.two_pass ? OOM_ALGO_V16 : OOM_ALGO_PRECISE;
}

/* The selection in progress in this thread, for the kernel's callbacks. */
static __thread struct oom_control *koom_oc;
static __thread bool koom_pass2_started;
static __thread unsigned long koom_gets0;

void koom_before_eval(struct task_struct *p, bool pass2)
{
	struct oom_control *oc = koom_oc;

	if (pass2 && !koom_pass2_started) {
		koom_pass2_started = true;
		/* Pass 2's section has begun: at its first task, as near as the
		 * kernel's code lets us get to "between the passes". */
		if (oom_between_passes_hook)
			oom_between_passes_hook(oc);
	}
	if (pass2 && oom_pass2_task_hook)
		oom_pass2_task_hook(p, oc);
	koom_gets0 = oom_task_gets();
}

void koom_after_eval(const struct koom_eval *e)
{
	struct oom_control *oc = koom_oc;
	struct oom_select_stats *st = &oc->stats;
	bool selected = oom_task_gets() != koom_gets0 && e->chosen_after == e->task;
	struct oom_candidate c = {
		.task = e->task, .algo = oc->algo, .impl = OOM_IMPL_KERNEL,
		.pass2 = e->pass2, .chosen_before = e->chosen_before,
		.points_before = e->points_before,
		.accuracy_under_before = e->acc_before,
		.nr_precise_before = e->nr_precise_before,
		.approx_reads = e->approx_reads, .precise_reads = e->precise_reads,
	};

	st->approx_counter_reads += e->approx_reads;
	st->precise_counter_sums += e->precise_reads;
	st->approx_evals += e->approx_reads != 0;
	st->precise_evals += e->precise_reads != 0;
	if (e->pass2 && e->approx_reads && e->nr_precise_after == e->nr_precise_before) {
		if (selected) {
			st->budget_hits++;
			st->fallback_selects++;
		} else {
			st->filtered++;
		}
	}
	oc->chosen = e->chosen_after;
	oc->chosen_points = e->points_after;
	oc->accuracy_under = e->acc_after;
	oc->nr_precise = e->nr_precise_after;
	oc->approximate = !e->pass2 && oc->algo != OOM_ALGO_PRECISE;
	if (!oom_candidate_hook)
		return;
	if (e->ret) {
		c.result = OOM_CAND_ABORT;
	} else if (selected) {
		c.result = OOM_CAND_SELECT;
		c.points = e->points_after;
		c.accuracy_under = e->acc_after;
	} else {
		c.result = OOM_CAND_SKIP;
	}
	report_candidate(oc, &c);
}

static void koom_select(struct oom_control *oc)
{
	struct koom_request rq = { .totalpages = oc->totalpages, .sysrq = oc->sysrq };
	unsigned long hits = oom_thread_poison_hits();

	oc->chosen = NULL;
	oc->chosen_points = LONG_MIN;
	oc->accuracy_under = 0;
	oc->chosen_floor = LONG_MIN;
	oc->nr_precise = 0;
	oc->approximate = oc->algo != OOM_ALGO_PRECISE;
	memset(&oc->stats, 0, sizeof(oc->stats));
	koom_oc = oc;
	koom_pass2_started = false;
	koom_select_bad_process(&rq);
	koom_oc = NULL;
	oc->chosen = rq.chosen == (void *)-1UL ? OOM_ABORT : rq.chosen;
	oc->chosen_points = rq.chosen_points;
	oc->poisoned = oom_thread_poison_hits() != hits;
}

static bool koom_badness_of(struct task_struct *p, unsigned long totalpages,
			    bool approximate, unsigned long *under,
			    unsigned long *over, struct oom_select_stats *stats,
			    long *points)
{
	unsigned int reads[2] = { 0, 0 };

	if (!koom_badness(p, totalpages, approximate, under, over, points, reads))
		return false;
	if (stats) {
		stats->approx_counter_reads += reads[0];
		stats->precise_counter_sums += reads[1];
		stats->approx_evals += reads[0] != 0;
		stats->precise_evals += reads[1] != 0;
	}
	return true;
}

enum oom_impl oom_impl_of(enum oom_algo algo)
{
	return algo == oom_kernel_algo() ? OOM_IMPL_KERNEL : OOM_IMPL_MODEL;
}

const char *oom_impl_describe(enum oom_impl impl)
{
	static char buf[512];

	if (impl == OOM_IMPL_MODEL)
		return "model (lib/mm/oom_select.c)";
	snprintf(buf, sizeof(buf), "kernel %s (%s%s%s%s; %s)", koom_info.source,
		 koom_info.two_pass ? "two-pass, " : "one precise pass",
		 koom_info.two_pass ? koom_info.acc_type : "",
		 koom_info.two_pass ? " accuracy" : "",
		 koom_info.acc_adapted ? " adapted to the hpcc header's type" : "",
		 koom_info.accessors);
	return buf;
}

#else /* the model only */

enum oom_algo oom_kernel_algo(void)
{
	return OOM_NR_ALGOS;
}

enum oom_impl oom_impl_of(enum oom_algo algo)
{
	return OOM_IMPL_MODEL;
}

const char *oom_impl_describe(enum oom_impl impl)
{
	return "model (lib/mm/oom_select.c)";
}

static void koom_select(struct oom_control *oc)
{
}

static bool koom_badness_of(struct task_struct *p, unsigned long totalpages,
			    bool approximate, unsigned long *under,
			    unsigned long *over, struct oom_select_stats *stats,
			    long *points)
{
	return false;
}

#endif /* CONFIG_KOOM */
