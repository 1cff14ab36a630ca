// SPDX-License-Identifier: GPL-2.0
/*
 * What compaction_churn may fail with (struct stress_invariant), and the
 * bounds its checks compare against (cc_bounds.h): tests drive each at the
 * bound and one step either side.
 */
#include "scenario.h"
#include "cc_bounds.h"
#include "cc_shadow.h"

static bool failed_order(long v, long arg)
{
	return cc_failed_order_ok(v);
}

static bool shift(long v, long arg)
{
	return cc_shift_ok(v);
}

static bool defer_shift(long v, long arg)
{
	return cc_defer_shift_ok(v);
}

static bool considered(long v, long arg)
{
	return cc_considered_ok(v);
}

/* Pages scanned by a run that started at a limit of @start (its final limit apart). */
static bool scanned(long v, long start)
{
	return cc_overshoot_ok(v, start, 0);
}

/* A final limit, the run's start limit 0 (its scan within). */
static bool final_limit(long v, long arg)
{
	return cc_overshoot_ok(0, 0, v);
}

static const struct stress_bound failed_order_range[] = {
	{ "upper end", MAX_ORDER, STRESS_AT_MOST, failed_order, 0 },
	{ "lower end", 0, STRESS_AT_LEAST, failed_order, 0 },
	{ .ok = NULL }
};

static const struct stress_bound shift_defined[] = {
	{ "depth", BITS_PER_LONG - 1, STRESS_AT_MOST, shift, 0 },
	{ .ok = NULL }
};

static const struct stress_bound deferral[] = {
	{ "shift, upper end", COMPACT_MAX_DEFER_SHIFT, STRESS_AT_MOST, defer_shift, 0 },
	{ "shift, lower end", 0, STRESS_AT_LEAST, defer_shift, 0 },
	{ "considered, upper end", 1L << COMPACT_MAX_DEFER_SHIFT, STRESS_AT_MOST, considered, 0 },
	{ "considered, lower end", 0, STRESS_AT_LEAST, considered, 0 },
	{ .ok = NULL }
};

static const struct stress_bound overshoot[] = {
	{ "scanned, limit 1024", 1024 + CC_PB, STRESS_AT_MOST, scanned, 1024 },
	{ "final limit", -CC_PB, STRESS_AT_LEAST, final_limit, 0 },
	{ .ok = NULL }
};

#define HARD	"docs/spec/compaction.md#cmp-hard-invariants"
#define STATES	"docs/spec/compaction.md#cmp-states"

const struct stress_invariant cc_invariants[] = {
	STRESS_INVARIANT("threshold",
			 "the depletion threshold follows from the managed pages and the failed "
			 "order",
			 "docs/spec/compaction.md#cmp-threshold"),
	STRESS_INVARIANT("failed_order",
			 "compact_order_failed stays within [0, MAX_ORDER]",
			 HARD, .bounds = failed_order_range),
	STRESS_INVARIANT("limit_at_start",
			 "a run's scan limit is max(max(M >> 8, PB) >> depth, CLUSTER_MAX), "
			 "exactly",
			 "docs/spec/compaction.md#cmp-scan-limit"),
	STRESS_INVARIANT("desc_rcu",
			 "a zone descriptor stays whole while a reader holds it",
			 "docs/spec/stress.md#stress-invariants"),
	STRESS_INVARIANT("limit_overshoot",
			 "a limited run scans no more than its budget, and one past it counts no "
			 "success",
			 HARD, .bounds = overshoot),
	STRESS_INVARIANT("shift_range",
			 "the depth shift stays below BITS_PER_LONG (with --depth-guard fail)",
			 HARD, .bounds = shift_defined),
	STRESS_INVARIANT("scanallfree_implies_depleted",
			 "a reset that sets SCANALLFREE saw a depleted zone",
			 HARD),
	STRESS_INVARIANT("depth_writes",
			 "a reset moves the depth as the state machine says (enter: 0, deepen: "
			 "+1)",
			 HARD),
	STRESS_INVARIANT("after_reset",
			 "quiescent: a /proc reset leaves counts, cached pfns and skip bits "
			 "cleared",
			 "docs/spec/compaction.md#cmp-reset"),
	STRESS_INVARIANT("vmstat",
			 "compact_stall == compact_success + compact_fail",
			 HARD),
	STRESS_INVARIANT("exact_counts",
			 "no increment lost (relaxed, seq-cst)",
			 HARD),
	STRESS_INVARIANT("hpcc_success_exact",
			 "the hpcc success counter equals the increments made",
			 HARD),
	STRESS_INVARIANT("hpcc_decision",
			 "quiescent: the hpcc depletion decision equals the precise one",
			 HARD),
	STRESS_INVARIANT("shadow_reset",
			 "a reset's transition matches the reference state machine",
			 STATES),
	STRESS_INVARIANT("shadow_finish",
			 "the end of a run's transition matches the reference",
			 STATES),
	STRESS_INVARIANT("shadow_success",
			 "a success's transition and answer match the reference",
			 STATES),
	STRESS_INVARIANT("shadow_fail",
			 "a failure's transition matches the reference",
			 STATES),
	STRESS_INVARIANT("shadow_failed_reset",
			 "the failed order's reset matches the reference",
			 STATES),
	STRESS_INVARIANT("shadow_restarting",
			 "the restart decision matches the reference",
			 STATES),
	STRESS_INVARIANT("shadow_depleted",
			 "the depletion decision matches the reference",
			 STATES),
	STRESS_INVARIANT("kernel_deferral",
			 "--depletion-policy base: the tree's deferral agrees with the model on "
			 "every call",
			 "docs/spec/compaction.md#cmp-deferral"),
	STRESS_INVARIANT("deferral_range",
			 "--depletion-policy base: shift in [0, 6], considered in [0, 64]",
			 "docs/spec/compaction.md#cmp-deferral", .bounds = deferral),
	STRESS_INVARIANT("stable_limit",
			 "--depletion-policy stable: the limit from the average the run saw, "
			 "exactly",
			 "docs/spec/compaction.md#cmp-scan-limit"),
	STRESS_INVARIANT("stable_average",
			 "--depletion-policy stable: a success moves the average 1/D of the way "
			 "to its sample",
			 "docs/spec/compaction.md#cmp-scan-limit"),
	{ .name = NULL }
};
