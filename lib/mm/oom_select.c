// SPDX-License-Identifier: GPL-2.0
/*
 * select_bad_process(): the precise single pass (merged fix), the v16 3/3
 * two-pass as posted, and the bounded two-pass. spec/oom-two-pass.md
 * §1-§3 and docs/oom.md.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/rculist.h>
#include "hpcc_range.h"
#include "oom_select.h"

const char *const oom_algo_names[] = {
	[OOM_ALGO_PRECISE]	= "precise",
	[OOM_ALGO_V16]		= "v16",
	[OOM_ALGO_BOUNDED]	= "bounded",
};

void (*oom_between_passes_hook)(struct oom_control *oc);
void (*oom_pass2_task_hook)(struct task_struct *p, struct oom_control *oc);

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
			      unsigned long *under, unsigned long *over)
{
	hpcc_accuracy_add(&mm->rss_stat[member], under, over);
	return percpu_counter_tree_approximate_sum_positive(&mm->rss_stat[member]);
}

long oom_badness(struct task_struct *p, unsigned long totalpages,
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
	p = find_lock_task_mm(p);
	if (!p)
		return LONG_MIN;
	mm = p->mm;
	adj = (long)READ_ONCE(p->oom_score_adj);
	if (adj == OOM_SCORE_ADJ_MIN ||
	    (READ_ONCE(mm->flags) & (1UL << MMF_OOM_SKIP)) ||
	    READ_ONCE(p->in_vfork)) {
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
		points += approximate ? mm_counter_approx(mm, i, under, over) :
					mm_counter_sum(mm, i, stats);
	points += atomic_long_read(&mm->pgtables_bytes) / PAGE_SIZE;
	task_unlock(p);

	adj *= totalpages / 1000;
	return points + adj;
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

/* The per-task checks of §1 common to every algorithm. */
static int oom_task_checks(struct task_struct *task, struct oom_control *oc,
			   long *points)
{
	if (!oom_task_alive(task, "oom_evaluate_task")) {
		oc->poisoned = true;
		return EVAL_ABORT;
	}
	if (oom_unkillable_task(task))
		return EVAL_NEXT;
	if (!oc->sysrq && READ_ONCE(task->oom_victim)) {
		if (READ_ONCE(task->oom_mm_skip))
			return EVAL_NEXT;
		return EVAL_ABORT;
	}
	if (READ_ONCE(task->oom_origin)) {
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
	*points = oom_badness(task, oc->totalpages, true, &under, &over,
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
			*points = oom_badness(task, oc->totalpages, false, NULL,
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
	*points = oom_badness(task, oc->totalpages, true, &under, &over,
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
		*points = oom_badness(task, oc->totalpages, false, NULL, NULL,
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
	*points = oom_badness(task, oc->totalpages, false, NULL, NULL,
			      &oc->stats);
	if (*points == LONG_MIN || *points < oc->chosen_points)
		return EVAL_NEXT;
	return EVAL_SELECT;
}

/* oom_evaluate_task(): 1 stops the scan. */
static int oom_evaluate_task(struct task_struct *task, struct oom_control *oc)
{
	unsigned long accuracy_under = 0;
	long points = LONG_MIN, floor = LONG_MIN;
	int ret;

	if (oom_pass2_task_hook && !oc->approximate &&
	    oc->algo != OOM_ALGO_PRECISE)
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
	if (ret == EVAL_NEXT)
		return 0;
	if (ret == EVAL_ABORT) {
		if (oc->chosen && oc->chosen != OOM_ABORT)
			put_task_struct(oc->chosen);
		oc->chosen = OOM_ABORT;
		return 1;
	}
	if (oc->chosen)
		put_task_struct(oc->chosen);
	get_task_struct(task);
	oc->chosen = task;
	oc->chosen_points = points;
	oc->accuracy_under = accuracy_under;
	oc->chosen_floor = floor;
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

void oom_select_bad_process(struct oom_control *oc)
{
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
	struct oom_control oc = { .totalpages = totalpages, .algo = algo };
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
