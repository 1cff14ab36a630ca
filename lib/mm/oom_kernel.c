// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel tree's OOM victim selection, compiled unchanged against the
 * kcompat task model, as tools/testing/vma builds mm/vma.c. Built only by
 * a KERNEL_SRC build whose tree has mm/oom_kill.c (mk/koom.mk):
 * scripts/kextract copies the tree's functions and the RSS accessors they
 * call into $(BUILD)/koom/, scripts/koom-probe describes the tree in
 * oom_api.h, and this file includes them between the shims.
 *
 * Nothing in the extracted text is edited. What this file does around it:
 * - the hpcc read functions the accessors call are wrapped (a macro that
 *   counts, then calls the real function) so precise sums are counted;
 * - oom_evaluate_task() is wrapped after its definition, before its
 *   callers, so each candidate's decision is observed from outside: the
 *   choice before and after, the counter reads, the return value;
 * - the tree's global symbols (oom_badness, find_lock_task_mm) are
 *   renamed koom_* so that they do not clash with the suite's interface.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/cleanup.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sched/mm.h>
#include <linux/mm.h>
#include <linux/oom.h>
#include <linux/percpu_counter_tree.h>
#include "oom_koom.h"

/* Counter reads of the evaluation in progress (this thread). */
static __thread unsigned int koom_reads[2];

static inline void koom_count(int precise)
{
	koom_reads[precise]++;
}

/* A function-like macro is not expanded inside itself: the inner call is real. */
#define percpu_counter_tree_approximate_sum_positive(c)			\
	(koom_count(0), percpu_counter_tree_approximate_sum_positive(c))
#define percpu_counter_tree_precise_sum_positive(c)			\
	(koom_count(1), percpu_counter_tree_precise_sum_positive(c))

#if OOM_API_ACC_ADAPT
/*
 * The tree's mm.h and its percpu_counter_tree.h disagree on the accuracy
 * type (files from different versions: scripts/koom-probe said so). The
 * accessors' call goes through a copy of the header's type, narrowed.
 */
static inline void koom_accuracy_range(struct percpu_counter_tree *c,
				       OOM_API_ACC_TYPE *under, OOM_API_ACC_TYPE *over)
{
	OOM_API_HPCC_ACC_TYPE u = 0, o = 0;	/* either header semantics: assign or add */

	percpu_counter_tree_approximate_accuracy_range(c, &u, &o);
	*under = u;
	*over = o;
}
#define percpu_counter_tree_approximate_accuracy_range(c, u, o)		\
	koom_accuracy_range(c, u, o)
#endif

#define oom_badness		koom_oom_badness
#define find_lock_task_mm	koom_find_lock_task_mm

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "koom_mm.c"		/* the tree's RSS accessors (include/linux/mm.h) */
#include "koom_select1.c"	/* mm/oom_kill.c up to oom_evaluate_task() */

/* Observe every call the tree's scan loop makes. */
static int koom_observe(struct task_struct *task, void *arg)
{
	struct oom_control *oc = arg;
#if OOM_API_TWO_PASS
	bool pass2 = !oc->approximate;
#else
	bool pass2 = false;
#endif
	struct koom_eval e = {
		.task = task, .pass2 = pass2, .chosen_before = oc->chosen,
		.points_before = oc->chosen_points,
#if OOM_API_TWO_PASS
		.acc_before = oc->accuracy_under, .nr_precise_before = oc->nr_precise,
#endif
	};

	koom_before_eval(task, pass2);
	koom_reads[0] = koom_reads[1] = 0;
	e.ret = oom_evaluate_task(task, arg);
	e.approx_reads = koom_reads[0];
	e.precise_reads = koom_reads[1];
	e.chosen_after = oc->chosen;
	e.points_after = oc->chosen_points;
#if OOM_API_TWO_PASS
	e.acc_after = oc->accuracy_under;
	e.nr_precise_after = oc->nr_precise;
#endif
	koom_after_eval(&e);
	return e.ret;
}
#define oom_evaluate_task(task, arg)	koom_observe(task, arg)

#include "koom_select2.c"	/* the scan: select_bad_process[_iter]() */
#pragma GCC diagnostic pop

void koom_select_bad_process(struct koom_request *rq)
{
	struct oom_control oc = {
		.totalpages = rq->totalpages,
		.order = rq->sysrq ? -1 : 0,
		.gfp_mask = GFP_KERNEL,
		.constraint = CONSTRAINT_NONE,
	};

	select_bad_process(&oc);
	rq->chosen = oc.chosen;
	rq->chosen_points = oc.chosen_points;
}

bool koom_badness(struct task_struct *p, unsigned long totalpages, bool approximate,
		  unsigned long *under, unsigned long *over, long *points,
		  unsigned int reads[2])
{
#if OOM_API_TWO_PASS
	OOM_API_ACC_TYPE u = 0, o = 0;

	koom_reads[0] = koom_reads[1] = 0;
	*points = oom_badness(p, totalpages, approximate,
			      approximate ? &u : NULL, approximate ? &o : NULL);
	if (approximate && under && over) {
		*under += u;
		*over += o;
	}
#else
	if (approximate)
		return false;
	koom_reads[0] = koom_reads[1] = 0;
	*points = oom_badness(p, totalpages);
#endif
	reads[0] = koom_reads[0];
	reads[1] = koom_reads[1];
	return true;
}

const struct koom_info koom_info = {
	.source = OOM_API_SOURCE,
	.two_pass = OOM_API_TWO_PASS,
	.acc_type = OOM_API_ACC_NAME,
	.badness_sig = OOM_API_BADNESS_SIG,
	.accessors = OOM_API_ACCESSORS,
	.acc_adapted = OOM_API_ACC_ADAPT,
};
