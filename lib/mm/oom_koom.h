/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the interface (oom_select.c) and the kernel tree's selection
 * compiled unchanged (oom_kernel.c). Plain types only: the kernel's
 * struct oom_control (kcompat linux/oom.h) and the suite's (oom_select.h)
 * never meet in one translation unit.
 */
#ifndef _MM_OOM_KOOM_H
#define _MM_OOM_KOOM_H

#include <linux/types.h>

struct task_struct;

/* What scripts/koom-probe found in the tree (oom_api.h). */
struct koom_info {
	const char *source;		/* DIR/mm/oom_kill.c */
	bool two_pass;			/* oc->approximate, select_bad_process_iter */
	const char *acc_type;		/* "unsigned int", "unsigned long", "" */
	const char *badness_sig;	/* oom_badness()'s declarator */
	const char *accessors;		/* RSS accessors taken from mm.h */
	bool acc_adapted;		/* mm.h and the hpcc header disagree on the type */
};
extern const struct koom_info koom_info;

/* One select_bad_process() of the tree's code over the task list. */
struct koom_request {
	unsigned long totalpages;
	bool sysrq;			/* oc->order = -1 */
	struct task_struct *chosen;	/* out: NULL, a reference, or -1 */
	long chosen_points;
};
void koom_select_bad_process(struct koom_request *rq);

/*
 * The tree's oom_badness(). @approximate needs a two-pass tree (returns
 * false otherwise); the accuracy is added to *under / *over as the kernel
 * adds it. *reads gets the counter reads (approximate, precise).
 */
bool koom_badness(struct task_struct *p, unsigned long totalpages, bool approximate,
		  unsigned long *under, unsigned long *over, long *points,
		  unsigned int reads[2]);

/* One oom_evaluate_task() call, observed from outside. */
struct koom_eval {
	struct task_struct *task;
	bool pass2;
	struct task_struct *chosen_before, *chosen_after;
	long points_before, points_after;
	unsigned long acc_before, acc_after;
	int nr_precise_before, nr_precise_after;
	unsigned int approx_reads, precise_reads;
	int ret;			/* oom_evaluate_task()'s return */
};

/* Callbacks into the interface (oom_select.c), in the selecting thread. */
void koom_before_eval(struct task_struct *p, bool pass2);
void koom_after_eval(const struct koom_eval *e);

#endif /* _MM_OOM_KOOM_H */
