/* SPDX-License-Identifier: GPL-2.0 */
/*
 * OOM victim selection on the task model (docs/spec/oom.md):
 * badness, the precise single pass, the v16 3/3 two-pass exactly as
 * posted, and the "bounded" two-pass (docs/oom.md) that keeps v16's
 * 16-precise-sum budget but never lets the guaranteed floor of its choice
 * drop, so that the victim stays within one accuracy window of the true
 * maximum.
 */
#ifndef _MM_OOM_SELECT_H
#define _MM_OOM_SELECT_H

#include "oom_algo.h"
#include "oom_task.h"

/*
 * Two implementations behind this interface, chosen at build time: the
 * model (this file's .c, every algorithm) and, in a KERNEL_SRC build whose
 * tree has mm/oom_kill.c, the tree's own selection compiled unchanged
 * (lib/mm/oom_kernel.c), which serves the one algorithm the tree has
 * (v16's two passes or the precise pass); the model serves the others.
 */
enum oom_impl { OOM_IMPL_MODEL, OOM_IMPL_KERNEL };
enum oom_impl oom_impl_of(enum oom_algo algo);
/* "model (lib/mm)" or "kernel DIR/mm/oom_kill.c (two-pass, unsigned int accuracy)". */
const char *oom_impl_describe(enum oom_impl impl);
/* The algorithm the kernel tree implements, or OOM_NR_ALGOS (none). */
enum oom_algo oom_kernel_algo(void);

extern const char *const oom_algo_names[OOM_NR_ALGOS];
/* 0 and *algo set, or -1 for an unknown name. */
int oom_algo_parse(const char *name, enum oom_algo *algo);

#define OOM_MAX_PRECISE_BADNESS_SUMS	16

/* What a selection did, counted at this file's call sites. */
struct oom_select_stats {
	unsigned long approx_evals;	/* approximate badness evaluations */
	unsigned long precise_evals;	/* precise badness evaluations */
	unsigned long precise_counter_sums;	/* percpu_counter_tree precise sums */
	unsigned long approx_counter_reads;	/* ... approximate sums */
	unsigned long filtered;		/* pass 2: dropped by the overlap filter */
	unsigned long budget_hits;	/* pass 2: filter passed with no budget left */
	unsigned long fallback_selects;	/* ... and selected on approximate points */
};

#define OOM_ABORT	((struct task_struct *)-1UL)

struct oom_control {
	/* Input. */
	unsigned long totalpages;
	bool sysrq;			/* is_sysrq_oom() */
	enum oom_algo algo;
	bool force_model;		/* the model even where a kernel tree serves algo */
	/* Result: chosen holds a task reference (or is NULL / OOM_ABORT). */
	struct task_struct *chosen;
	long chosen_points;
	/* v16 3/3 state. */
	bool approximate;
	int nr_precise;
	unsigned long accuracy_under;
	/* bounded: the chosen task's precise badness is at least this. */
	long chosen_floor;
	struct oom_select_stats stats;
	bool poisoned;			/* a freed task was met (reported) */
};

/*
 * badness: LONG_MIN when not killable. @approximate reads the four RSS
 * counters' approximations and adds their accuracy into *under / *over.
 */
long oom_badness(struct task_struct *p, unsigned long totalpages,
		 bool approximate, unsigned long *under, unsigned long *over,
		 struct oom_select_stats *stats);

/*
 * select_bad_process() for oc->algo. On return oc->chosen is NULL, a
 * task with a reference the caller drops with oom_select_put(), or
 * OOM_ABORT. The caller must be a registered RCU thread outside any
 * read-side section.
 */
void oom_select_bad_process(struct oom_control *oc);
void oom_select_put(struct oom_control *oc);

/* The per-task accuracy of the badness (4 counters); the same for every mm. */
void oom_badness_accuracy(unsigned long *under, unsigned long *over);

/*
 * Benchmark hook: one selection with @algo over the current task list,
 * nothing timed. Returns the victim's pid (0 none, -1 abort) and fills
 * *stats. The bench helper times calls to this.
 */
long oom_select_once(enum oom_algo algo, unsigned long totalpages,
		     struct oom_select_stats *stats);
/* The same, with @force_model: the model even where a kernel tree serves @algo. */
long oom_select_run(enum oom_algo algo, bool force_model, unsigned long totalpages,
		    struct oom_select_stats *stats);

/*
 * One candidate's evaluation, as either implementation made it, reported
 * after it is made (per-candidate oracles). Counts are of this
 * task's counter reads; "before" is the choice the task was judged
 * against. The kernel's code is observed from outside (its state before
 * and after oom_evaluate_task()), so every field is what the code did,
 * not what it should have done.
 */
enum oom_cand_result { OOM_CAND_SKIP, OOM_CAND_SELECT, OOM_CAND_ABORT };

struct oom_candidate {
	struct task_struct *task;
	enum oom_algo algo;
	enum oom_impl impl;
	bool pass2;			/* the second (filter) pass of a two-pass */
	struct task_struct *chosen_before;
	long points_before;		/* chosen_points before this task */
	unsigned long accuracy_under_before;	/* 0 for the precise pass */
	int nr_precise_before;
	unsigned int approx_reads;	/* approximate counter sums */
	unsigned int precise_reads;	/* precise counter sums */
	enum oom_cand_result result;
	long points;			/* chosen_points after a SELECT */
	unsigned long accuracy_under;	/* ... and its under-accuracy */
};

/* Called in the selecting thread, inside the scan's read-side section. */
extern void (*oom_candidate_hook)(const struct oom_candidate *c,
				  struct oom_control *oc);

/* Test-only hook between the passes (e.g. to exit a task there). */
extern void (*oom_between_passes_hook)(struct oom_control *oc);
/* Test-only hook per task in pass 2, before it is evaluated (under RCU). */
extern void (*oom_pass2_task_hook)(struct task_struct *p,
				   struct oom_control *oc);

#endif /* _MM_OOM_SELECT_H */
