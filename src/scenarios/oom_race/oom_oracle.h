/* SPDX-License-Identifier: GPL-2.0 */
/* oom_race's per-candidate oracle; see oom_oracle.c. */
#ifndef _STRESS_OOM_ORACLE_H
#define _STRESS_OOM_ORACLE_H

#include <stdio.h>
#include "mm/oom_select.h"
#include "scenario.h"

/* Set @p's oom_score_adj to @adj and add @pages to its page tables, with the ground truth. */
typedef bool (*oom_oracle_move_fn)(struct task_struct *p, short adj, long pages);

struct oom_oracle_stats {
	unsigned long audits, candidates, moved, edges[3];
	unsigned long by_algo[OOM_NR_ALGOS];	/* selections judged per enum oom_algo */
};

/*
 * At a quiescent point with no kill pending: for each two-pass algorithm
 * under test (@algo, or every one when < 0), move tasks onto the filters'
 * boundaries, judge every candidate's decision against the reference,
 * and move them back. The precise pass is judged as it stands.
 */
void oom_oracle_quiescent(struct stress *s, unsigned long totalpages, int algo,
			  unsigned int rot, oom_oracle_move_fn move, struct oom_oracle_stats *st);

void oom_oracle_report(const struct oom_oracle_stats *st, FILE *out);
struct json;
void oom_oracle_json(const struct oom_oracle_stats *st, struct json *j);

#endif /* _STRESS_OOM_ORACLE_H */
