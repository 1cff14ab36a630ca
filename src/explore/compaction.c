// SPDX-License-Identifier: GPL-2.0
/*
 * compaction, explored: two requesters and a reset on one zone of
 * lib/mm's depletion state machine (docs/spec/compaction.md), relaxed
 * atomic mode (every field atomic: counts are exact), threshold 1,
 * P5 as intended. The zone starts depleted (DEPLETED on, depth 1, s 0,
 * f 2, failed order 3), so that the reset deepens it and sets
 * SCANALLFREE while the requesters move s, f and the failed order.
 * Every request is of order 3 but one, and both requesters record
 * failures, so that two increments of f can race:
 *
 *   requester 0 (CPU 0): a sync run that fails at order 3 (f += 1), a
 *                        run that finds a suitable page (s += 1), its
 *                        finish (the leave rules), then the allocation
 *                        succeeds (f = 0, cof = max(cof, 4));
 *   requester 1 (CPU 1): a sync run that fails at order 2 (below cof:
 *                        cof = 2, f = 0), two at order 3 (f += 1 each),
 *                        then a run that finds a suitable page;
 *   reset       (CPU 0): __reset_isolation_suitable().
 *
 * Every field access is a scheduling point (zone_read() and friends).
 * The zone's observe hook runs after every store, with no point in
 * between, so it sees each store alone and checks the state a reader
 * could see there: that is the reader step. Hard invariants (the
 * section #cmp-hard-invariants; soft ones are not checked):
 *
 *   failed_order    cof in [0, 11] (2)
 *   failed_range    f >= 0, and only +1 or a store of 0 changes it
 *   success_count   s >= 0; a requester changes s by exactly +1, a reset
 *                   only to 0 (8: the increment is atomic here)
 *   depth_writes    only the reset changes depth: +1 when the flag was
 *                   on, 0 when it turns on (7)
 *   flag_writes     a requester never sets DEPLETED or SCANALLFREE
 *                   (only a reset enters or deepens: #cmp-states)
 *   scan_limit      the limit a run sets from the state it saw (3, 5)
 *   flag_dependency per reset: SCANALLFREE set on a zone seen with
 *                   DEPLETED off only with DEPLETED set too (6)
 *   flag_pair       the whole-state form of 6, SCANALLFREE => DEPLETED,
 *                   after every store (so also at rest) of an execution
 *                   where the reset overlaps no run's success and finish
 *                   (the posted design breaks it otherwise:
 *                   #cmp-flag-race)
 *   final_counts    at rest: the shadow success count is the runs
 *                   that reported one, and s is at most that
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/compiler.h>
#include <mm/compaction.h>
#include "xp.h"

#define ZONE_START	0UL
#define ZONE_PAGES	(1UL << 17)
#define PAGEBLOCK	512UL
#define RESETTER	2

static const struct compact_params params = {
	.policy = COMPACT_POLICY_THRESHOLD1,
	.p5 = COMPACT_P5_INTENDED,
	.atomic_mode = COMPACT_ATOMIC_RELAXED,
	.cluster_max = 32,
	.min_scan_limit = PAGEBLOCK,
};

static struct zone zone;
static struct zone_desc *desc;
/* What the observe hook saw last: each call sees one store's change. */
static struct {
	long s, f, cof, depth;
	unsigned long flags;
} seen;
static long successes[2];	/* runs that reported a suitable page, per requester */
/*
 * The overlap the posted design's flag race needs (#cmp-flag-race): a
 * run from its success to the end of its finish, the reset's call.
 */
static bool in_run[2], in_reset, overlap;

static int cmp_init(const struct xp_cfg *cfg)
{
	if (cfg->cpus != 2) {
		fprintf(stderr, "explore: compaction wants 2 cpus\n");
		return -1;
	}
	if (kc_set_nr_cpu_ids(2) || percpu_counter_tree_subsystem_init()) {
		fprintf(stderr, "explore: cannot set up 2 cpus\n");
		return -1;
	}
	return 0;
}

static unsigned int cmp_nr_fibers(const struct xp_cfg *cfg)
{
	return 3;
}

static unsigned int cmp_fiber_cpu(unsigned int id)
{
	return id == 1;
}

static void snap_zone(void)
{
	seen.s = zone.compact_success;
	seen.f = zone.compact_failed;
	seen.cof = zone.compact_order_failed;
	seen.depth = zone.compact_depletion_depth;
	seen.flags = zone.flags;
}

/* SCANALLFREE => DEPLETED, unless the reset overlapped a run (#cmp-flag-race). */
static void check_flag_pair(unsigned long flags, const char *who)
{
	unsigned long pair = 1UL << ZONE_COMPACTION_SCANALLFREE |
			     1UL << ZONE_COMPACTION_DEPLETED;

	if (!overlap && (flags & pair) == 1UL << ZONE_COMPACTION_SCANALLFREE)
		xp_fail("flag_pair", "SCANALLFREE without DEPLETED after a store by %s "
			"(flags %#lx), the reset overlapped no run", who, flags);
}

/* A run or the reset begins or ends: note whether the two overlap. */
static void mark(bool *which, bool on)
{
	*which = on;
	if (in_reset && (in_run[0] || in_run[1]))
		overlap = true;
}

/* After every store to the zone's state: plain loads, no point in between. */
static void cmp_observe(const struct zone *z)
{
	bool reset = xp_current() == RESETTER;
	long s = z->compact_success, f = z->compact_failed;
	long cof = z->compact_order_failed, depth = z->compact_depletion_depth;
	unsigned long flags = z->flags, set = flags & ~seen.flags;

	if (cof < 0 || cof > MAX_ORDER)
		xp_fail("failed_order", "compact_order_failed %ld outside [0, %d]", cof, MAX_ORDER);
	if (f < 0 || (f != seen.f && f != 0 && f != seen.f + 1))
		xp_fail("failed_range", "compact_failed %ld -> %ld (%s)", seen.f, f,
			reset ? "reset" : "requester");
	if (s < 0 || (s != seen.s && (reset ? s != 0 : s != seen.s + 1)))
		xp_fail("success_count", "compact_success %ld -> %ld (%s)", seen.s, s,
			reset ? "reset" : "requester");
	if (depth != seen.depth && (!reset || (depth != seen.depth + 1 && depth != 0)))
		xp_fail("depth_writes", "depletion depth %ld -> %ld (%s)", seen.depth, depth,
			reset ? "reset" : "requester");
	if (set && !reset)
		xp_fail("flag_writes", "a requester set flags %#lx (%#lx -> %#lx)", set,
			seen.flags, flags);
	check_flag_pair(flags, reset ? "the reset" : "a requester");
	snap_zone();
}

static void cmp_setup(void)
{
	desc = zone_desc_alloc(ZONE_START, ZONE_PAGES, ZONE_PAGES, PAGEBLOCK);
	if (!desc || zone_init(&zone, &params, desc, ZONE_PAGES / PAGEBLOCK, false))
		abort();
	zone.flags = 1UL << ZONE_COMPACTION_DEPLETED;
	zone.compact_depletion_depth = 1;
	zone.compact_failed = 2;
	zone.compact_order_failed = 3;
	zone.observe = cmp_observe;
	successes[0] = successes[1] = 0;
	in_run[0] = in_run[1] = in_reset = overlap = false;
	snap_zone();
}

static void cmp_teardown(void)
{
	zone_destroy(&zone);
}

/* A run's start: the limit from the flag and depth it sees (hard invariants 3, 5). */
static void run_start(int order)
{
	bool depleted = zone_test_flag(&zone, ZONE_COMPACTION_DEPLETED), over;
	long depth = zone_read(&zone, &zone.compact_depletion_depth);
	long limit, hi;

	if (depth < 0 || depth >= BITS_PER_LONG)
		xp_fail("scan_limit", "depth %ld before a shift", depth);
	limit = compaction_scan_limit(&params, ZONE_PAGES, order, depleted,
				      (unsigned long)depth, &over);
	hi = (long)max(params.cluster_max, max(ZONE_PAGES >> 8, PAGEBLOCK) >> 1);
	if ((order < 0 || !depleted || !depth) != (limit == COMPACT_SCAN_UNLIMITED) ||
	    (limit != COMPACT_SCAN_UNLIMITED && (limit < (long)params.cluster_max || limit > hi)))
		xp_fail("scan_limit", "limit %ld for depleted %d depth %ld", limit, depleted,
			depth);
}

/* A run that finds a suitable page (ends PARTIAL) and passes the leave rules. */
static void run_success(unsigned int id)
{
	run_start(3);
	mark(&in_run[id], true);
	WRITE_ONCE(successes[id], READ_ONCE(successes[id]) + 1);
	compaction_note_success(&zone);
	compaction_zone_finish(&zone, ZONE_PAGES);
	mark(&in_run[id], false);
}

/* A sync run that ends COMPLETE with the watermark unmet. */
static void run_fail(int order)
{
	run_start(order);
	compaction_fail(&zone, order);
}

static void cmp_fiber(unsigned int id)
{
	struct compact_reset_report rep;

	switch (id) {
	case 0:
		run_fail(3);
		run_success(id);
		compaction_failed_reset(&zone, 3, true);
		break;
	case 1:
		run_fail(2);
		run_fail(3);
		run_fail(3);
		run_success(id);
		break;
	default:
		mark(&in_reset, true);
		compaction_reset(&zone, desc, &rep);
		mark(&in_reset, false);
		if (rep.set_scanallfree && !rep.was_depleted_flag && !rep.set_depleted)
			xp_fail("flag_dependency", "the reset set SCANALLFREE on a zone it saw "
				"with DEPLETED off");
		if (rep.deepened && rep.depth_after != rep.depth_before + 1)
			xp_fail("depth_writes", "the reset deepened depth %ld to %ld",
				rep.depth_before, rep.depth_after);
		if (rep.entered && rep.depth_after != 0)
			xp_fail("depth_writes", "the reset entered with depth %ld",
				rep.depth_after);
		break;
	}
}

/* At rest: every fiber has ended, every store has landed. */
static void cmp_final(void)
{
	long n = successes[0] + successes[1];

	if (zone.success_events != n)
		xp_fail("final_counts", "shadow success count %ld, %ld runs reported one",
			zone.success_events, n);
	if (zone.compact_success > n)
		xp_fail("final_counts", "compact_success %ld, only %ld runs reported one",
			zone.compact_success, n);
	if (zone.compact_failed < 0 || zone.compact_order_failed < 0 ||
	    zone.compact_order_failed > MAX_ORDER)
		xp_fail("final_counts", "f %ld, failed order %ld", zone.compact_failed,
			zone.compact_order_failed);
}

static const char *cmp_addr_name(const void *addr, char *buf, size_t len)
{
	static const struct { size_t off; const char *name; } f[] = {
		{ offsetof(struct zone, flags), "flags" },
		{ offsetof(struct zone, compact_success), "s" },
		{ offsetof(struct zone, compact_depletion_depth), "depth" },
		{ offsetof(struct zone, compact_failed), "f" },
		{ offsetof(struct zone, compact_order_failed), "cof" },
		{ offsetof(struct zone, compact_cached_migrate_pfn[0]), "migrate_pfn[0]" },
		{ offsetof(struct zone, compact_cached_migrate_pfn[1]), "migrate_pfn[1]" },
		{ offsetof(struct zone, compact_cached_free_pfn), "free_pfn" },
		{ offsetof(struct zone, compact_blockskip_flush), "blockskip_flush" },
		{ offsetof(struct zone, success_events), "success_events" },
		{ offsetof(struct zone, failed_events), "failed_events" },
	};
	unsigned int i;

	if (addr == &successes[0] || addr == &successes[1])
		return snprintf(buf, len, "successes[%d]", addr != &successes[0]), buf;
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (addr == (const char *)&zone + f[i].off)
			return snprintf(buf, len, "zone.%s", f[i].name), buf;
	return NULL;
}

static void cmp_describe(const struct xp_cfg *cfg, char *buf, size_t len)
{
	snprintf(buf, len, " cpus 2 requesters 2 resets 1");
}

static const struct xp_harness xp_compaction_harness = {
	.name = "compaction",
	.describe = cmp_describe,
	.init = cmp_init,
	.nr_fibers = cmp_nr_fibers,
	.fiber_cpu = cmp_fiber_cpu,
	.setup = cmp_setup,
	.fiber = cmp_fiber,
	.final = cmp_final,
	.teardown = cmp_teardown,
	.addr_name = cmp_addr_name,
};
XP_HARNESS_REGISTER(xp_compaction_harness);
