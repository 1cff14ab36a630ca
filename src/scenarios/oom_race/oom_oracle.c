// SPDX-License-Identifier: GPL-2.0
/*
 * oom_race's per-candidate oracle: the final victim hides most
 * slips of the pass-2 filters (a filter one off, a tolerance taken from
 * the wrong side, an accuracy forgotten change which tasks get a precise
 * sum, rarely who wins). At each quiescent point (no kill pending) the
 * planner (lib/mm/oom_ref.c) moves candidates, through oom_score_adj and
 * page-table pages, so that pass 2 meets them on its boundaries: v16's
 * overlap filter and precise re-check, bounded's filter, re-check and
 * approximate fallback, each at -1 and 0, pass 1's choice kept. One
 * selection per algorithm is then observed through oom_candidate_hook
 * (the model's code or a kernel tree's) and every candidate's decision,
 * precise evaluation and resulting points are judged against the
 * reference (invariants v16_candidate, bounded_candidate,
 * precise_candidate). The tasks are moved back afterwards.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/rculist.h>
#include "mm/oom_ref.h"
#include "util/json.h"
#include "oom_oracle.h"

static const char *const inv_names[] = {
	[OOM_ALGO_PRECISE]	= "precise_candidate",
	[OOM_ALGO_V16]		= "v16_candidate",
	[OOM_ALGO_BOUNDED]	= "bounded_candidate",
};

struct moved {
	struct task_struct *task;
	short adj;
	long pages;
};

static void audit(struct stress *s, unsigned long totalpages, enum oom_algo algo,
		  struct oom_oracle_stats *st)
{
	struct oom_ref_report rp;
	unsigned int i;

	st->audits++;
	st->by_algo[algo]++;
	if (oom_ref_audit(algo, totalpages, &rp))
		stress_fail(s, inv_names[algo], -1, "%s", rp.msg);
	st->candidates += rp.candidates;
	for (i = 0; i < 3; i++)
		st->edges[i] += rp.edges[i];
	stress_count_checks(s, rp.candidates);
}

/* Plan @algo's boundaries, move the tasks there, judge, move them back. */
static void audit_on_edges(struct stress *s, unsigned long totalpages, enum oom_algo algo,
			   unsigned int rot, oom_oracle_move_fn move, struct oom_oracle_stats *st)
{
	unsigned long unit = totalpages / 1000;
	struct oom_ref_cand *c;
	struct task_struct *p;
	struct moved *mv;
	long *delta, *min_delta;
	unsigned int n = 0, cap = 0, i, nmv = 0;

	rcu_read_lock();
	for_each_process(p)
		cap++;
	c = calloc(cap + 1, sizeof(*c));
	delta = calloc(cap + 1, sizeof(*delta));
	min_delta = calloc(cap + 1, sizeof(*min_delta));
	mv = calloc(cap + 1, sizeof(*mv));
	if (c && delta && min_delta && mv) {
		for_each_process(p) {
			if (n == cap)
				break;
			oom_ref_read(p, totalpages, &c[n]);
			/* Down only through adj, never to -1000 (not eligible). */
			min_delta[n] = -(long)(c[n].adj - OOM_SCORE_ADJ_MIN - 1) * (long)unit;
			n++;
		}
	}
	rcu_read_unlock();
	if (!mv)
		goto out;
	oom_ref_plan_edges(algo, c, n, rot, min_delta, delta);
	for (i = 0; i < n; i++) {
		short adj;
		long pages;

		if (!delta[i] || !oom_ref_split_delta(delta[i], c[i].adj, unit, &adj, &pages) ||
		    !move(c[i].task, adj, pages))
			continue;
		mv[nmv++] = (struct moved){ c[i].task, c[i].adj, pages };
	}
	st->moved += nmv;
	audit(s, totalpages, algo, st);
	while (nmv--)
		move(mv[nmv].task, mv[nmv].adj, -mv[nmv].pages);
out:
	free(c);
	free(delta);
	free(min_delta);
	free(mv);
}

void oom_oracle_quiescent(struct stress *s, unsigned long totalpages, int algo,
			  unsigned int rot, oom_oracle_move_fn move, struct oom_oracle_stats *st)
{
	unsigned long before[OOM_NR_ALGOS];
	enum oom_algo a;
	unsigned int i;

	memcpy(before, st->by_algo, sizeof(before));
	for (a = OOM_ALGO_V16; a <= OOM_ALGO_BOUNDED && !stress_failed(s); a++)
		if (algo < 0 || (int)a == algo)
			audit_on_edges(s, totalpages, a, rot, move, st);
	if (!stress_failed(s))
		audit(s, totalpages, OOM_ALGO_PRECISE, st);
	/*
	 * Coverage: each algorithm under test, and the precise pass, judged
	 * exactly once. A loop that stops one algorithm short passes every
	 * correct selection; only this count shows it.
	 */
	for (i = 0; i < OOM_NR_ALGOS && !stress_failed(s); i++) {
		unsigned long want = i == OOM_ALGO_PRECISE || algo < 0 || (int)i == algo;

		if (st->by_algo[i] - before[i] != want)
			stress_fail(s, "oracle_coverage", -1, "the per-candidate oracle judged "
				    "%lu selection(s) of %s at a quiescent point, expected %lu",
				    st->by_algo[i] - before[i], inv_names[i], want);
	}
}

void oom_oracle_report(const struct oom_oracle_stats *st, FILE *out)
{
	fprintf(out, "# oom_race: per-candidate oracle: %lu selections, %lu candidates "
		"judged, %lu tasks moved to a boundary; decisions on the filter edge %lu, "
		"re-check edge %lu, fallback edge %lu; per algorithm: precise %lu, v16 %lu, "
		"bounded %lu\n", st->audits, st->candidates, st->moved, st->edges[0],
		st->edges[1], st->edges[2], st->by_algo[OOM_ALGO_PRECISE],
		st->by_algo[OOM_ALGO_V16], st->by_algo[OOM_ALGO_BOUNDED]);
}

void oom_oracle_json(const struct oom_oracle_stats *st, struct json *j)
{
	json_kobj_begin(j, "per_candidate");
	json_ku64(j, "audits", st->audits);
	json_ku64(j, "candidates", st->candidates);
	json_ku64(j, "moved", st->moved);
	json_ku64(j, "filter_edges", st->edges[0]);
	json_ku64(j, "recheck_edges", st->edges[1]);
	json_ku64(j, "fallback_edges", st->edges[2]);
	json_obj_end(j);
}
