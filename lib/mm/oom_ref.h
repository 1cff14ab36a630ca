/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-candidate oracle of the OOM selection: a reference of each
 * candidate's evaluation, written from docs/spec/oom.md#oom-badness to #oom-v16
 * (v16) and docs/oom.md (bounded), independent of oom_select.c and of a kernel
 * tree's code; an audit that runs one selection, observes every candidate
 * through oom_candidate_hook (either implementation) and compares each decision
 * with the reference; and a planner that moves candidates onto the boundaries
 * of the filters the selection will apply (so that a slip by one, or a wrong
 * tolerance, changes a decision).
 *
 * Everything here expects a quiescent task list: no task changes while a
 * candidate is read, planned or audited.
 */
#ifndef _MM_OOM_REF_H
#define _MM_OOM_REF_H

#include <stddef.h>
#include "oom_select.h"

/* What the reference knows of one task, read through the counter API. */
struct oom_ref_cand {
	struct task_struct *task;
	bool unkillable, victim, victim_skip, origin;
	bool eligible;			/* badness is not LONG_MIN */
	long approx, precise;		/* badness, adj included */
	unsigned long under, over;	/* the four counters' accuracy */
	short adj;
};

/* @c for @p (the four counters' sums, page tables, adj). */
void oom_ref_read(struct task_struct *p, unsigned long totalpages, struct oom_ref_cand *c);

/* The selection's state between two candidates. */
struct oom_ref_state {
	struct task_struct *chosen;
	long points;
	unsigned long acc;		/* v16: accuracy_under of points */
	long floor;			/* bounded: the choice's floor */
	int nr_precise;
};

void oom_ref_init(struct oom_ref_state *s);

/* Boundaries a decision was taken on (difference -1 or 0), for coverage. */
enum { OOM_EDGE_FILTER = 1, OOM_EDGE_RECHECK = 2, OOM_EDGE_FALLBACK = 4 };

/*
 * One candidate's evaluation by @algo in pass 1 or 2: updates @s, says
 * whether a precise evaluation is made (*precise) and which boundary the
 * decision sat on (*edges, OOM_EDGE_*).
 */
enum oom_cand_result oom_ref_eval(enum oom_algo algo, bool pass2, struct oom_ref_state *s,
				  const struct oom_ref_cand *c, bool *precise,
				  unsigned int *edges);

/* What an audit saw. */
struct oom_ref_report {
	unsigned long candidates, pass2, precise, selected;
	unsigned long edges[3];		/* decisions on the filter, recheck, fallback edge */
	bool mismatch;
	char msg[640];			/* the first mismatch, both states */
};

/*
 * One selection with @algo over the current task list, every candidate's
 * decision against the reference. Returns 0, or -1 on the first mismatch
 * (described in r->msg; later candidates are not judged).
 */
int oom_ref_audit(enum oom_algo algo, unsigned long totalpages, struct oom_ref_report *r);

/*
 * The planner: for the tasks in list order (@c, @n), pages to add to each
 * badness (both approximate and precise) so that pass 2 of @algo meets
 * them on its boundaries: the overlap filter, the precise re-check and,
 * once the budget is spent, the approximate fallback, each at -1 and 0
 * (@rot rotates which). Pass 1's choice is kept. @min_delta[i] bounds
 * how far down task i can be moved (0: not at all). Writes @delta.
 */
void oom_ref_plan_edges(enum oom_algo algo, const struct oom_ref_cand *c, unsigned int n,
			unsigned int rot, const long *min_delta, long *delta);

/*
 * Split a badness change of @delta pages into an oom_score_adj change
 * (unit @unit pages, never reaching OOM_SCORE_ADJ_MIN from @adj) and
 * non-negative page-table pages. false when it cannot be done.
 */
bool oom_ref_split_delta(long delta, short adj, unsigned long unit, short *new_adj,
			 long *pages);

#endif /* _MM_OOM_REF_H */
