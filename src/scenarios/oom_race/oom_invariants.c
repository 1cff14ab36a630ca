// SPDX-License-Identifier: GPL-2.0
/*
 * What oom_race may fail with (struct stress_invariant), and the bounds
 * its checks compare against (oom_bounds.h): tests drive each at the
 * bound and one step either side.
 */
#include "scenario.h"
#include "oom_bounds.h"

static bool budget_evals(long v, long sums)
{
	return oom_budget_ok(v, sums);
}

static bool budget_sums(long v, long evals)
{
	return oom_budget_ok(evals, v);
}

static bool exact_due(long v, long arg)
{
	return oom_exact_due(v);
}

static bool bounded(long v, long window)
{
	return oom_bounded_ok(v, window);
}

static bool v16_shortfall(long v, long max)
{
	return oom_v16_shortfall_ok(v, max);
}

/* 48 slots (the default) on 8 CPUs. */
static bool churn(long v, long arg)
{
	return oom_churn_ok(v, 48, 8);
}

#define SUMS	OOM_MAX_PRECISE_BADNESS_SUMS

static const struct stress_bound budget[] = {
	{ "evaluations", SUMS, STRESS_AT_MOST, budget_evals, 0 },
	{ "evaluations, sums at theirs", SUMS, STRESS_AT_MOST, budget_evals,
	  NR_MM_COUNTERS * SUMS },
	{ "counter sums", NR_MM_COUNTERS * SUMS, STRESS_AT_MOST, budget_sums, 0 },
	{ .ok = NULL }
};

static const struct stress_bound exact_window[] = {
	{ "tasks in the window", SUMS, STRESS_AT_MOST, exact_due, 0 },
	{ .ok = NULL }
};

static const struct stress_bound bounded_shortfall[] = {
	{ "window 4096", 4096, STRESS_AT_MOST, bounded, 4096 },
	{ "window 1", 1, STRESS_AT_MOST, bounded, 1 },
	{ .ok = NULL }
};

static const struct stress_bound v16_shortfall_max[] = {
	{ "--oom-max-shortfall 0", 0, STRESS_AT_MOST, v16_shortfall, 0 },
	{ "--oom-max-shortfall 8192", 8192, STRESS_AT_MOST, v16_shortfall, 8192 },
	{ .ok = NULL }
};

static const struct stress_bound churn_tasks[] = {
	{ "tasks on the list, 48 slots, 8 CPUs", 48 + 8 + 2, STRESS_AT_MOST, churn, 0 },
	{ .ok = NULL }
};

#define VICTIM	"docs/spec/oom.md#oom-correct-victim"

const struct stress_invariant oom_invariants[] = {
	STRESS_INVARIANT("victim_killable",
			 "the victim is neither init nor a kernel thread",
			 VICTIM),
	STRESS_INVARIANT("victim_not_exited",
			 "the victim had not exited when the selection began",
			 VICTIM),
	STRESS_INVARIANT("victim_not_adj_min",
			 "the victim was not at oom_score_adj -1000 for the whole window",
			 VICTIM),
	STRESS_INVARIANT("abort_on_victim",
			 "a kill in progress over the whole window forces an abort",
			 VICTIM),
	STRESS_INVARIANT("abort_needs_victim",
			 "an abort needs a kill in progress during the window",
			 VICTIM),
	STRESS_INVARIANT("precise_budget",
			 "at most 16 precise evaluations and 16 sums per mm counter",
			 "docs/spec/oom.md#oom-v16", .bounds = budget),
	STRESS_INVARIANT("no_use_after_free",
			 "no selector or charge touches a freed task (poison check)",
			 "docs/spec/oom.md#oom-v16-driver"),
	STRESS_INVARIANT("task_leak",
			 "every task is freed by the end of the run",
			 "docs/spec/oom.md#oom-v16-driver"),
	STRESS_INVARIANT("task_churn",
			 "quiescent: the task churn within its limits (--oom-tasks slots, one "
			 "victim per CPU; none in the chain layout)",
			 "docs/spec/stress.md#stress-invariants", .bounds = churn_tasks),
	STRESS_INVARIANT("precise_badness",
			 "quiescent: each task's precise badness equals its truth",
			 "docs/spec/oom.md#oom-badness"),
	STRESS_INVARIANT("approx_badness_contract",
			 "quiescent: the approximate badness within [truth - under, truth + "
			 "over]",
			 "docs/spec/oom.md#oom-imprecision"),
	STRESS_INVARIANT("approx_badness_nonnegative",
			 "quiescent: the approximate badness never below its adj part",
			 "docs/spec/hpcc.md#hpcc-bug-3"),
	STRESS_INVARIANT("oracle_precise",
			 "quiescent: the precise one-pass victim holds the true maximum",
			 "docs/spec/oom.md#oom-precise-pass"),
	STRESS_INVARIANT("exact_in_window",
			 "quiescent: with at most 16 tasks in the window the choice is exact",
			 VICTIM, .bounds = exact_window),
	STRESS_INVARIANT("bounded_window",
			 "quiescent: bounded's victim at most one window below the maximum",
			 "docs/spec/oom.md#oom-bounded", .bounds = bounded_shortfall),
	STRESS_INVARIANT("v16_max_shortfall",
			 "quiescent: v16's victim at most --oom-max-shortfall below the maximum",
			 VICTIM, .bounds = v16_shortfall_max),
	STRESS_INVARIANT("oracle_victim",
			 "quiescent: with eligible tasks, a selection chooses one (no abort)",
			 VICTIM),
	STRESS_INVARIANT("precise_candidate",
			 "each candidate's decision of the precise pass matches the reference",
			 "docs/spec/oom.md#oom-precise-pass"),
	STRESS_INVARIANT("v16_candidate",
			 "each candidate's decision of v16's pass 2 matches the reference",
			 "docs/spec/oom.md#oom-v16-evaluate"),
	STRESS_INVARIANT("bounded_candidate",
			 "each candidate's decision of bounded's passes matches the reference",
			 "docs/spec/oom.md#oom-bounded"),
	STRESS_INVARIANT("oracle_coverage",
			 "quiescent: the per-candidate oracle judged each variant under test "
			 "once",
			 VICTIM),
	{ .name = NULL }
};
