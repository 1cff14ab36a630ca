// SPDX-License-Identifier: GPL-2.0
/*
 * compaction_churn: the 2015 compaction depletion state machine under
 * concurrency (docs/spec/compaction.md).
 *
 * Virtual CPUs run simulated direct-compaction requests on one zone (async,
 * then sync, docs/spec/compaction.md#cmp-request): each run loads the cached
 * pfns, takes its scan limit from the depletion state, scans in rounds of at
 * most a pageblock and finds a suitable page with a probability that drifts
 * with a seeded fragmentation level. Selector threads evaluate depletion and
 * scan limits under rcu_read_lock(), resize the zone (a new descriptor
 * published under RCU, the old one freed after a grace period) and reset it as
 * kswapd and /proc would.
 *
 * Hard invariants (docs/spec/compaction.md#cmp-hard-invariants) fail the run;
 * the soft ones (docs/spec/compaction.md#cmp-soft-invariants) and the
 * effects of benign races are counted. Every increment of compact_success
 * and compact_failed is also counted per CPU: in relaxed and seq-cst
 * modes the zone must match exactly, in plain mode (the kernel's unlocked
 * RMW, done as a relaxed load and a relaxed store so that TSan stays
 * quiet) the lost updates are measured and reported.
 */
#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <kcompat/kcompat.h>
#include <linux/bitops.h>
#include "mm/compaction.h"
#include "mm/kcompact.h"
#include "util/json.h"
#include "scenario.h"
#include "cc_bounds.h"
#include "cc_shadow.h"

#define CC_ORDER	3
#define CC_MAX_PAGES	(1UL << 20)		/* largest zone after a resize */
#define CC_MAX_BLOCKS	(CC_MAX_PAGES / CC_PB)
#define CC_CONTENTION	64	/* a run ends PARTIAL on contention: 1 round in 64 */

/*
 * Options (set before setup). --depth-guard: the series itself can reach
 * depth 64 (nothing bounds it, docs/spec/compaction.md#cmp-scan-limit): a
 * long run of depleted resets in a clean build is the modelled design's
 * hazard, not the suite's bug. The library's guard must then report the
 * overflow and give the floor (checked with invariant 3); by default such
 * depths are counted and reported, --depth-guard fail makes them fatal.
 * --frag-level 0 (no success ever) reaches them within a second.
 */
static struct cc_cfg {
	int policy;		/* enum compact_policy */
	int p5;			/* enum compact_p5 */
	int atomic;		/* enum compact_atomic_mode */
	unsigned long cluster_max;
	double frag;		/* < 0: drift */
	int depth_clamp;	/* 1: clamp; 0: fail */
	unsigned int stable_mult;	/* stable: the limit is this many averages */
	unsigned int stable_weight;	/* stable: the newest sample's weight is 1/D */
} cfg;

static const char *const atomic_names[] = { "plain", "relaxed", "seqcst", NULL };

struct cc_cpu {
	/* Ground truth, written by the owning vCPU only. */
	atomic_ulong success_incs;	/* compaction_note_success() calls */
	atomic_ulong failed_incs;	/* compaction_fail() calls that counted */
	atomic_ulong stall, success, fail;	/* vmstat events (per CPU, exact) */
	atomic_ulong scanned, limited_runs, budget_stops, contended;
	atomic_ulong deferred;		/* Base: requests compaction_deferred() skipped */
	atomic_ulong stable_samples;	/* stable: successes that fed the average */
	unsigned long steps;
} __attribute__((aligned(64)));

struct cc_state {
	struct compact_params par;
	struct zone zone;
	struct cc_cpu *cpu;
	unsigned int nr_cpus;
	atomic_ulong requests;		/* drives the fragmentation drift */
	atomic_ulong resets, resizes, kswapd_resets, proc_resets;
	atomic_ulong max_depth;
	atomic_ulong depth_clamps;
	/* Quiescent results. */
	unsigned long q_checks, q_hpcc_precise, q_lost_success, q_lost_failed;
	unsigned long q_hpcc_vs_field;
	struct cc_shadow shadow;	/* every transition replayed on the reference */
};

static struct cc_state *C;

static const char *const policy_names[] = { "base", "threshold1", "p9", "stable", NULL };
static const int policy_values[] = { COMPACT_POLICY_BASE, COMPACT_POLICY_THRESHOLD1,
				     COMPACT_POLICY_P9, COMPACT_POLICY_STABLE };
static const char *const p5_names[] = { "intended", "as-posted", NULL };
static const int p5_values[] = { COMPACT_P5_INTENDED, COMPACT_P5_AS_POSTED };
static const char *const cluster_names[] = { "32", "256", NULL };
static const int cluster_values[] = { 32, 256 };
static const char *const frag_names[] = { "drift", NULL };
static const int frag_values[] = { -1 };
static const char *const guard_names[] = { "fail", "clamp", NULL };

static const struct stress_opt cc_opts[] = {
	{ "depletion-policy", .arg = "P", .type = OPT_CHOICE, OPT_FIELD(struct cc_cfg, policy),
	  .choices = policy_names, .values = policy_values, .deflt = "p9",
	  .help = "depletion: base (v4.3 deferral), threshold1 (P2-P8), p9, or stable "
		  "(threshold 1, the limit from pages scanned per success)." },
	{ "p5", .arg = "V", .type = OPT_CHOICE, OPT_FIELD(struct cc_cfg, p5),
	  .choices = p5_names, .values = p5_values, .deflt = "intended",
	  .help = "P5's dangling else: as intended or as posted." },
	{ "atomic-mode", .arg = "M", .type = OPT_CHOICE, OPT_FIELD(struct cc_cfg, atomic),
	  .choices = atomic_names, .deflt = "relaxed",
	  .help = "plain (kernel RMW, lost updates measured), relaxed or seqcst." },
	{ "cluster-max", .arg = "N", .type = OPT_CHOICE, OPT_FIELD(struct cc_cfg, cluster_max),
	  .choices = cluster_names, .values = cluster_values, .deflt = "32",
	  .help = "COMPACT_CLUSTER_MAX." },
	{ "frag-level", .arg = "F", .type = OPT_DOUBLE, OPT_FIELD(struct cc_cfg, frag),
	  .fmin = 0, .fmax = 1, .choices = frag_names, .values = frag_values, .deflt = "drift",
	  .help = "chance that a scan round finds a suitable page, 0..1, or drift." },
	{ "depth-guard", .arg = "G", .type = OPT_CHOICE, OPT_FIELD(struct cc_cfg, depth_clamp),
	  .choices = guard_names, .deflt = "clamp",
	  .help = "depth >= 64 (an undefined shift in the series) is clamped and reported "
		  "(clamp) or a failure (fail)." },
	{ "stable-mult", .arg = "N", .type = OPT_UINT, OPT_FIELD(struct cc_cfg, stable_mult),
	  .min = 1, .max = COMPACT_STABLE_MULT_MAX, .deflt = "2",
	  .help = "stable: each run is limited to N times the average pages per success." },
	{ "stable-weight", .arg = "D", .type = OPT_UINT, OPT_FIELD(struct cc_cfg, stable_weight),
	  .min = 1, .max = COMPACT_STABLE_WEIGHT_MAX, .deflt = "8",
	  .help = "stable: a success moves the average 1/D of the way to its sample." },
	{ .name = NULL }
};

/* Plain mode: sometimes yield inside the RMW window so lost updates show on 2 cores. */
static __thread struct rng window_rng;

static void cc_rmw_window(void)
{
	if (!(rng_next(&window_rng) >> 50))	/* about 1 in 16384 */
		sched_yield();
}

/* The fragmentation level: a triangle wave over all requests made so far. */
static double frag_chance(void)
{
	unsigned long n = atomic_load_explicit(&C->requests, memory_order_relaxed);
	unsigned long period = 1UL << 20, ph = n % period;
	double tri = ph < period / 2 ? (double)ph / (period / 2) :
		     (double)(period - ph) / (period / 2);

	if (cfg.frag >= 0)
		return cfg.frag;
	return 0.0002 + 0.05 * tri * tri * tri;
}

static void note_depth(unsigned long depth)
{
	unsigned long old = atomic_load_explicit(&C->max_depth, memory_order_relaxed);

	while (depth > old &&
	       !atomic_compare_exchange_weak_explicit(&C->max_depth, &old, depth,
						      memory_order_relaxed, memory_order_relaxed))
		;
}

/* Invariant 5: a depth that would make the limit shift undefined. */
static void shift_guard(struct stress *s, int cpu, unsigned long depth, const char *where)
{
	if (cc_shift_ok(depth))
		return;
	if (cfg.depth_clamp) {
		atomic_fetch_add_explicit(&C->depth_clamps, 1, memory_order_relaxed);
		stress_soft(s, "shift_range_clamped", 1);
		return;
	}
	stress_fail(s, "shift_range", cpu,
		    "%s: compact_depletion_depth %lu >= BITS_PER_LONG: the scan limit shift "
		    "max(M >> 8, PB) >> depth is undefined in C (x86 masks it and the limit "
		    "snaps back to full size)", where, depth);
}

/*
 * Invariant 12 (docs/spec/compaction.md#cmp-deferral): the shift stays in
 * [0, COMPACT_MAX_DEFER_SHIFT] and considered in [0, 1 << that]. Only the
 * global bounds: an unlocked reset may zero the shift after a
 * compaction_deferred() read it, so considered <= 1 << shift is racy.
 */
static void check_deferral_range(struct stress *s, int cpu)
{
	struct zone *z = &C->zone;
	long sh = zone_read(z, &z->compact_defer_shift), c = zone_read(z, &z->compact_considered);

	if (!cc_defer_shift_ok(sh) || !cc_considered_ok(c))
		stress_fail(s, "deferral_range", cpu,
			    "compact_defer_shift %ld, compact_considered %ld: outside [0, %d], "
			    "[0, %d]", sh, c, COMPACT_MAX_DEFER_SHIFT, 1 << COMPACT_MAX_DEFER_SHIFT);
	stress_count_checks(s, 1);
}

/*
 * A kernel tree's deferral decides Base; the model took the same inputs on
 * every call. Any disagreement fails the run, with both answers.
 */
static void check_deferral_agreement(struct stress *s, const char *when)
{
	char line[1024];

	if (C->par.policy != COMPACT_POLICY_BASE)
		return;
	if (defer_agreement_line(line, sizeof(line)))
		stress_fail(s, "kernel_deferral", -1, "%s: %s", when, line);
	stress_count_checks(s, 1);
}

/* docs/spec/compaction.md#cmp-hard-invariants invariants 6 and 7 on what one reset saw and did. */
static void check_reset(struct stress *s, int cpu, const struct compact_reset_report *rep)
{
	atomic_fetch_add_explicit(&C->resets, 1, memory_order_relaxed);
	if (rep->set_scanallfree && !rep->was_depleted_flag && !rep->set_depleted)
		stress_fail(s, "scanallfree_implies_depleted", cpu,
			    "a reset turned SCANALLFREE on for a zone it saw with DEPLETED off "
			    "and did not turn DEPLETED on (s=%ld, depth %ld): SCANALLFREE => "
			    "DEPLETED broken (P5 %s)", rep->success_seen, rep->depth_before,
			    cfg.p5 == COMPACT_P5_AS_POSTED ? "as posted" : "intended");
	if (rep->deepened) {
		/*
		 * Invariant 7: the deepening RMW adds 1 to the value it saw.
		 * depth_before is read earlier, on its own: an overlapping
		 * reset may zero (entering) or raise the depth in between
		 * (docs/spec/compaction.md#cmp-soft-invariants/#cmp-races,
		 * benign), so only the RMW's own result is hard: it is at least
		 * 1 with atomic RMWs.
		 */
		if (rep->depth_incremented < 1 && cfg.atomic != COMPACT_ATOMIC_PLAIN)
			stress_fail(s, "depth_writes", cpu, "deepening reset: depth %ld -> %ld",
				    rep->depth_before, rep->depth_incremented);
		else if (rep->depth_incremented != rep->depth_before + 1)
			stress_soft(s, "depth_step_not_1 (overlapping resets)", 1);
		note_depth(rep->depth_incremented);
		/*
		 * The posted else then turns the (already set) flag on and zeroes
		 * depth: inside invariant 7's letter, a symptom of P5 as posted.
		 */
		if (rep->set_depleted)
			stress_soft(s, "p5_posted_reentry_zeroed_depth", 1);
	}
	if (rep->entered && rep->depth_after)
		stress_fail(s, "depth_writes", cpu, "entering reset left depth %ld",
			    rep->depth_after);
	stress_count_checks(s, 1);
}

enum run_status { RUN_SKIPPED, RUN_PARTIAL, RUN_COMPLETE };

static bool stable_policy(void)
{
	return cfg.policy == COMPACT_POLICY_STABLE;
}

/*
 * The stable policy's limit (docs/compaction.md), from the average the run
 * saw: unlimited without one, else --stable-mult times the average,
 * within [COMPACT_CLUSTER_MAX, managed].
 */
static void check_stable_limit(struct stress *s, int cpu, const struct zone_desc *d,
			       long limit, long avg)
{
	unsigned long m = d->managed_pages, want_u;
	long want = COMPACT_SCAN_UNLIMITED;

	if (avg > 0) {
		want_u = (unsigned long)avg >= m << COMPACT_STABLE_FP_SHIFT ? m :
			 min(((unsigned long)avg * cfg.stable_mult) >> COMPACT_STABLE_FP_SHIFT, m);
		want = (long)max(want_u, cfg.cluster_max);
	}
	if (limit != want)
		stress_fail(s, "stable_limit", cpu,
			    "limit %ld from an average of %ld/%d pages per success, M %lu: "
			    "the policy gives %ld", limit, avg, 1 << COMPACT_STABLE_FP_SHIFT, m,
			    want);
	stress_count_checks(s, 1);
}

/*
 * The running average moves from the old value towards the new sample by
 * 1/--stable-weight of the gap (the first sample seeds it),
 * so it never leaves the range of the two.
 */
static void check_stable_average(struct stress *s, int cpu, const struct compact_stable_update *u)
{
	long x = u->sample << COMPACT_STABLE_FP_SHIFT;
	long want = u->old_avg <= 0 ? x :
		    u->old_avg + (x - u->old_avg) / (long)cfg.stable_weight;

	if (u->new_avg != want || u->new_avg < min(u->old_avg, x) ||
	    u->new_avg > max(u->old_avg, x) || u->sample < 0)
		stress_fail(s, "stable_average", cpu,
			    "average %ld -> %ld after a sample of %ld pages (fixed point /%d): "
			    "the running average gives %ld", u->old_avg, u->new_avg, u->sample,
			    1 << COMPACT_STABLE_FP_SHIFT, want);
	stress_count_checks(s, 1);
}

/*
 * Invariant 3, exactly (docs/spec/compaction.md#cmp-scan-limit): max(max(M >>
 * 8, PB) >> depth, CLUSTER_MAX), LONG_MAX with the flag off or at depth 0. From
 * depth 64 on the shift is undefined: the guard must report it and give the
 * floor.
 */
static void check_limit(struct stress *s, int cpu, const struct zone_desc *d, long limit,
			bool depleted, unsigned long depth, bool ovf)
{
	unsigned long x = max(d->managed_pages >> 8, (unsigned long)CC_PB);
	long want = COMPACT_SCAN_UNLIMITED;

	if (depleted && depth)
		want = depth >= BITS_PER_LONG ? (long)cfg.cluster_max :
			(long)max(x >> depth, cfg.cluster_max);
	if (limit != want || ovf != (depleted && depth >= BITS_PER_LONG))
		stress_fail(s, "limit_at_start", cpu,
			    "limit %ld (shift overflow %d) with DEPLETED %d depth %lu, M %lu: "
			    "the spec gives %ld (overflow %d)", limit, ovf, depleted, depth,
			    d->managed_pages, want, depleted && depth >= BITS_PER_LONG);
	stress_count_checks(s, 1);
}

/* One compact_zone() (docs/spec/compaction.md#cmp-request) on the zone described by @d. */
static enum run_status compact_run(struct stress *s, unsigned int cpu, struct stress_rng *rng,
				   const struct zone_desc *d, bool sync, bool *found)
{
	struct zone *z = &C->zone;
	struct cc_cpu *me = &C->cpu[cpu];
	struct compact_reset_report rep;
	unsigned long start = d->zone_start_pfn, end = zone_desc_end_pfn(d), pfn, depth, scanned = 0;
	double chance = frag_chance();
	long limit, start_limit;
	bool depleted, ovf, budget_out = false;
	enum run_status ret = RUN_PARTIAL;
	unsigned int rounds;

	*found = false;
	if (cfg.policy == COMPACT_POLICY_BASE ? compaction_restarting_base(z, CC_ORDER) :
	    cc_shadow_restarting(s, &C->shadow, cpu, z, CC_ORDER)) {
		cc_shadow_reset(s, &C->shadow, cpu, z, d, &rep);
		stress_trace(s, cpu, "reset", rep.depth_before, rep.depth_after);
		check_reset(s, cpu, &rep);
	}
	/* Cached pfns may lie outside a resized zone: fixed up here (invariant 10). */
	pfn = zone_read(z, &z->compact_cached_migrate_pfn[sync]);
	if (pfn < start || pfn > end)
		pfn = start;
	if (!sync && pfn >= end)
		return RUN_SKIPPED;					/* P7 */
	depleted = zone_test_flag(z, ZONE_COMPACTION_DEPLETED);
	depth = zone_read(z, &z->compact_depletion_depth);
	if (stable_policy()) {
		/* The depth is kept but never shifts a limit: invariant 5 does not apply. */
		long avg = zone_read(z, &z->compact_scan_avg);

		limit = compaction_stable_limit(&C->par, d->managed_pages, CC_ORDER, avg);
		check_stable_limit(s, cpu, d, limit, avg);
	} else {
		if (depleted)
			shift_guard(s, cpu, depth, "run start");
		limit = compaction_scan_limit(&C->par, d->managed_pages, CC_ORDER, depleted,
					      depth, &ovf);
		check_limit(s, cpu, d, limit, depleted, depth, ovf);
	}
	start_limit = limit;
	if (limit != COMPACT_SCAN_UNLIMITED)
		atomic_fetch_add_explicit(&me->limited_runs, 1, memory_order_relaxed);

	/* Bounded: a run never scans more than the zone. */
	for (rounds = 0; rounds <= CC_MAX_BLOCKS + 1; rounds++) {
		unsigned long blk_end, nr;

		/*
		 * __compact_finished(), v2 order
		 * (docs/spec/compaction.md#cmp-scan-limit): contention
		 * (need_resched) first.
		 */
		if (rounds && !stress_rng_below(rng, CC_CONTENTION)) {
			atomic_fetch_add_explicit(&me->contended, 1, memory_order_relaxed);
			break;
		}
		if (pfn >= end) {
			if (!sync) {
				zone_write(z, &z->compact_cached_migrate_pfn[0], end);
				break;
			}
			zone_write(z, &z->compact_cached_migrate_pfn[0], start);
			zone_write(z, &z->compact_cached_migrate_pfn[1], start);
			zone_write(z, &z->compact_blockskip_flush, 1);
			ret = RUN_COMPLETE;
			break;
		}
		if (limit < 0) {
			budget_out = true;
			atomic_fetch_add_explicit(&me->budget_stops, 1, memory_order_relaxed);
			break;
		}
		if (rounds && stress_rng_chance(rng, chance)) {
			/* v4.3 (Base) has no success counter. */
			if (cfg.policy != COMPACT_POLICY_BASE) {
				cc_shadow_note_success(s, &C->shadow, cpu, z);
				atomic_fetch_add_explicit(&me->success_incs, 1,
							  memory_order_relaxed);
			}
			if (stable_policy()) {
				struct compact_stable_update u;

				compaction_stable_success(z, &u);
				check_stable_average(s, cpu, &u);
				atomic_fetch_add_explicit(&me->stable_samples, 1,
							  memory_order_relaxed);
			}
			*found = true;
			break;
		}
		/* isolate_migratepages_block(): the rest of a pageblock at most. */
		blk_end = min(end, (pfn / CC_PB + 1) * CC_PB);
		nr = 1 + stress_rng_below(rng, blk_end - pfn);
		if (!stress_rng_below(rng, 8))
			__atomic_fetch_or(&z->skip_migrate[(pfn / CC_PB) % CC_MAX_BLOCKS / BITS_PER_LONG],
					  1UL << ((pfn / CC_PB) % BITS_PER_LONG), __ATOMIC_RELAXED);
		pfn += nr;
		scanned += nr;
		if (stable_policy())
			compaction_stable_scanned(z, nr);
		if (limit != COMPACT_SCAN_UNLIMITED)
			limit -= nr;
		zone_write(z, &z->compact_cached_migrate_pfn[sync], pfn);
		/* P7: -ENOMEM from migrate_pages() ends the run COMPLETE. */
		if (sync && stress_rng_below(rng, 4096) == 0) {
			ret = RUN_COMPLETE;
			break;
		}
	}
	atomic_fetch_add_explicit(&me->scanned, scanned, memory_order_relaxed);
	/* Invariant 4: overshoot by at most one pageblock, no success after the budget. */
	if (start_limit != COMPACT_SCAN_UNLIMITED) {
		if (!cc_overshoot_ok(scanned, start_limit, limit))
			stress_fail(s, "limit_overshoot", cpu,
				    "limited run scanned %lu with a limit of %ld (final %ld, PB %d)",
				    scanned, start_limit, limit, CC_PB);
		if (budget_out && *found)
			stress_fail(s, "limit_overshoot", cpu, "a run past its budget counted a success");
		stress_count_checks(s, 1);
	}
	cc_shadow_finish(s, &C->shadow, cpu, z, d->managed_pages);
	return ret;
}

/* try_to_compact_pages() and __alloc_pages_direct_compact() for one mode. */
static bool direct_compact(struct stress *s, unsigned int cpu, struct stress_rng *rng,
			   const struct zone_desc *d, bool sync)
{
	struct zone *z = &C->zone;
	struct cc_cpu *me = &C->cpu[cpu];
	enum run_status st;
	bool found, wmark, base = cfg.policy == COMPACT_POLICY_BASE;

	/* v4.3 try_to_compact_pages(): a deferred zone is not compacted (no stall). */
	if (base && compaction_deferred(z, CC_ORDER)) {
		atomic_fetch_add_explicit(&me->deferred, 1, memory_order_relaxed);
		return false;
	}
	st = compact_run(s, cpu, rng, d, sync, &found);
	if (st == RUN_SKIPPED)
		return false;
	atomic_fetch_add_explicit(&me->stall, 1, memory_order_relaxed);
	/* Another CPU may take the page first; reclaim may have made one. */
	wmark = found ? stress_rng_below(rng, 8) != 0 : !stress_rng_below(rng, 64);
	if (wmark && base) {
		compaction_defer_reset(z, CC_ORDER, false);
	} else if (wmark) {
		cc_shadow_failed_reset(s, &C->shadow, cpu, z, CC_ORDER, false);
	} else if (sync && st == RUN_COMPLETE && base) {
		compaction_defer(z, CC_ORDER);
	} else if (sync && st == RUN_COMPLETE) {
		if (cc_shadow_fail(s, &C->shadow, cpu, z, CC_ORDER))
			atomic_fetch_add_explicit(&me->failed_incs, 1, memory_order_relaxed);
	}
	if (wmark) {
		atomic_fetch_add_explicit(&me->success, 1, memory_order_relaxed);
		if (base)
			compaction_defer_reset(z, CC_ORDER, true);
		else
			cc_shadow_failed_reset(s, &C->shadow, cpu, z, CC_ORDER, true);
		return true;
	}
	atomic_fetch_add_explicit(&me->fail, 1, memory_order_relaxed);
	return false;
}

static int setup(struct stress *s)
{
	struct zone_desc *d;
	unsigned int i;

	C = calloc(1, sizeof(*C));
	if (!C)
		return -1;
	C->nr_cpus = stress_nr_cpus(s);
	C->cpu = aligned_alloc(64, sizeof(*C->cpu) * C->nr_cpus);
	if (!C->cpu)
		goto fail;
	memset(C->cpu, 0, sizeof(*C->cpu) * C->nr_cpus);
	C->par = (struct compact_params){
		.policy = cfg.policy, .p5 = cfg.p5, .atomic_mode = cfg.atomic,
		.cluster_max = cfg.cluster_max, .min_scan_limit = CC_PB,
		.stable_mult = cfg.stable_mult, .stable_weight = cfg.stable_weight,
	};
	d = zone_desc_alloc(0, 131072, 131072, CC_PB);
	if (!d)
		goto fail;
	if (zone_init(&C->zone, &C->par, d, CC_MAX_BLOCKS, true)) {
		free(d);
		goto fail;
	}
	if (cfg.atomic == COMPACT_ATOMIC_PLAIN)
		C->zone.rmw_window = cc_rmw_window;
	defer_agreement_clear();
	C->zone.wseq = &C->shadow.wseq;
	for (i = 0; i < C->nr_cpus; i++)
		C->cpu[i].steps = 0;
	stress_set_priv(s, C);
	return 0;
fail:
	free(C->cpu);
	free(C);
	C = NULL;
	return -1;
}

/*
 * A descriptor never changes once published, and is freed only after a
 * grace period (kfree() poisons it): one that changes under a reader was
 * freed, poisoned or reused, while the reader held it.
 */
static void check_desc(struct stress *s, unsigned int cpu, const struct zone_desc *d,
		       const struct zone_desc *seen)
{
	if (d->generation != seen->generation || d->managed_pages != seen->managed_pages ||
	    d->zone_start_pfn != seen->zone_start_pfn || d->spanned_pages != seen->spanned_pages)
		stress_fail(s, "desc_rcu", cpu, "zone descriptor generation %lu changed under "
			    "rcu_read_lock() to generation %#lx managed %#lx: freed before a "
			    "grace period", seen->generation, d->generation, d->managed_pages);
	stress_count_checks(s, 1);
}

static void cpu_step(struct stress *s, unsigned int cpu, struct stress_rng *rng)
{
	struct zone_desc *d, seen;

	if (!window_rng.s)
		rng_init(&window_rng, stress_mix(stress_seed(s) ^ cpu) | 1);
	atomic_fetch_add_explicit(&C->requests, 1, memory_order_relaxed);
	C->cpu[cpu].steps++;
	rcu_read_lock();
	d = rcu_dereference(C->zone.desc);
	seen = *d;
	/* Slow path of an order-3 GFP_NORETRY request: async, reclaim, sync. */
	if (!direct_compact(s, cpu, rng, d, false))
		direct_compact(s, cpu, rng, d, true);
	check_desc(s, cpu, d, &seen);
	rcu_read_unlock();
}

static const unsigned long resize_pages[] = { 131072, 126976, 262144, 131072, 1048576 };

/* A selector: resize, kswapd and /proc resets, and continuous state checks. */
static void select_step(struct stress *s, unsigned int id, struct stress_rng *rng)
{
	struct zone *z = &C->zone;
	struct compact_reset_report rep;
	unsigned long flags, managed, depth, th;
	struct zone_desc *d;
	long cof, f, limit;
	bool ovf, precise;
	int cpu = -1;

	if (id == 0 && !stress_rng_below(rng, 64)) {
		/* Memory hotplug: a new descriptor, the old one freed after a GP. */
		unsigned long m = resize_pages[stress_rng_below(rng, ARRAY_SIZE(resize_pages))];
		unsigned long start = CC_PB * stress_rng_below(rng, 4);

		d = zone_desc_alloc(start, m, m - stress_rng_below(rng, CC_PB), CC_PB);
		if (d) {
			/* Half of them wait for the readers themselves (synchronize_rcu()). */
			if (stress_rng_below(rng, 2))
				zone_desc_replace_sync(z, d);
			else
				zone_desc_replace(z, d);
			atomic_fetch_add_explicit(&C->resizes, 1, memory_order_relaxed);
		}
	}
	rcu_read_lock();
	d = rcu_dereference(z->desc);
	managed = d->managed_pages;
	if (!stress_rng_below(rng, 256)) {
		/* kswapd going to sleep (b), or a write to compact_memory (c). */
		if (zone_read(z, &z->compact_blockskip_flush)) {
			cc_shadow_reset(s, &C->shadow, cpu, z, d, &rep);
			check_reset(s, cpu, &rep);
			atomic_fetch_add_explicit(&C->kswapd_resets, 1, memory_order_relaxed);
		} else if (!stress_rng_below(rng, 4)) {
			cc_shadow_reset(s, &C->shadow, cpu, z, d, &rep);
			check_reset(s, cpu, &rep);
			atomic_fetch_add_explicit(&C->proc_resets, 1, memory_order_relaxed);
		}
	}
	flags = zone_flags(z);
	depth = zone_read(z, &z->compact_depletion_depth);
	cof = zone_read(z, &z->compact_order_failed);
	f = zone_read(z, &z->compact_failed);
	/* Invariants 1 and 2. */
	th = compaction_threshold(C->par.policy, managed, cof);
	if (!cc_failed_order_ok(cof))
		stress_fail(s, "failed_order", cpu, "compact_order_failed %ld outside [0, %d]",
			    cof, MAX_ORDER);
	if (C->par.policy == COMPACT_POLICY_P9 ?
	    th < 4 || th != max(4UL, managed >> (cof + 9)) : th != 1)
		stress_fail(s, "threshold", cpu, "threshold %lu for managed %lu cof %ld", th,
			    managed, cof);
	/*
	 * Soft (docs/spec/compaction.md#cmp-soft-invariants): several CPUs can
	 * record a failure before one resets.
	 */
	if (f > COMPACT_MAX_FAILED)
		stress_soft(s, "compact_failed_above_4", 1);
	if (C->par.policy == COMPACT_POLICY_BASE)
		check_deferral_range(s, cpu);
	/* Invariant 6, whole state: only a reset/leave race can get here (analysis). */
	if ((flags >> ZONE_COMPACTION_SCANALLFREE & 1) && !(flags >> ZONE_COMPACTION_DEPLETED & 1))
		stress_soft(s, "scanallfree_seen_without_depleted", 1);
	if (stable_policy()) {
		long avg = zone_read(z, &z->compact_scan_avg);

		check_stable_limit(s, cpu, d,
				   compaction_stable_limit(&C->par, managed, CC_ORDER, avg), avg);
	} else if (flags >> ZONE_COMPACTION_DEPLETED & 1) {
		shift_guard(s, cpu, depth, "selector");
		limit = compaction_scan_limit(&C->par, managed, CC_ORDER, true, depth, &ovf);
		check_limit(s, cpu, d, limit, true, depth, ovf);
	}
	/* The hpcc depletion decision; racing increments may make it differ from the field's. */
	if (compaction_depleted_hpcc(z, managed, &precise) !=
	    cc_shadow_depleted(s, &C->shadow, cpu, z, managed))
		stress_soft(s, "hpcc_vs_field_decision_in_flight", 1);
	rcu_read_unlock();
	stress_count_checks(s, 3);
}

static void sum_truth(unsigned long *succ, unsigned long *failed)
{
	unsigned int i;

	*succ = *failed = 0;
	for (i = 0; i < C->nr_cpus; i++) {
		*succ += atomic_load_explicit(&C->cpu[i].success_incs, memory_order_relaxed);
		*failed += atomic_load_explicit(&C->cpu[i].failed_incs, memory_order_relaxed);
	}
}

/* Exact counts (relaxed, seq-cst) or measured lost updates (plain). */
static void check_counts(struct stress *s, const char *when)
{
	struct zone *z = &C->zone;
	unsigned long succ, failed, stall = 0, ok = 0, ko = 0;
	long zs, zf, tree;
	unsigned int i;

	sum_truth(&succ, &failed);
	zs = zone_read(z, &z->success_events);
	zf = zone_read(z, &z->failed_events);
	tree = percpu_counter_tree_precise_sum(&z->success_tree);
	/* The hpcc counter is atomic in every mode: always exact. */
	if (tree != (long)succ)
		stress_fail(s, "hpcc_success_exact", -1, "%s: hpcc success sum %ld != %lu increments",
			    when, tree, succ);
	if (cfg.atomic != COMPACT_ATOMIC_PLAIN) {
		if (zs != (long)succ || zf != (long)failed)
			stress_fail(s, "exact_counts", -1,
				    "%s (%s): compact_success increments %ld != %lu, "
				    "compact_failed increments %ld != %lu", when,
				    atomic_names[cfg.atomic], zs, succ, zf, failed);
	} else {
		if (zs > (long)succ || zf > (long)failed)
			stress_fail(s, "exact_counts", -1, "%s: more increments than made: %ld > %lu "
				    "or %ld > %lu", when, zs, succ, zf, failed);
		C->q_lost_success = succ - zs;
		C->q_lost_failed = failed - zf;
	}
	/* Invariant 11: vmstat stall == success + fail (per-CPU events, exact). */
	for (i = 0; i < C->nr_cpus; i++) {
		stall += atomic_load_explicit(&C->cpu[i].stall, memory_order_relaxed);
		ok += atomic_load_explicit(&C->cpu[i].success, memory_order_relaxed);
		ko += atomic_load_explicit(&C->cpu[i].fail, memory_order_relaxed);
	}
	if (stall != ok + ko)
		stress_fail(s, "vmstat", -1, "%s: compact_stall %lu != success %lu + fail %lu",
			    when, stall, ok, ko);
	stress_count_checks(s, 4);
}

/*
 * The hpcc depletion decision against the precise one on the settled
 * counter, for the threshold of every failed order (all parked: cof may be
 * set for the test and restored).
 */
static void check_hpcc_decisions(struct stress *s, const struct zone_desc *d, const char *when)
{
	struct zone *z = &C->zone;
	long cof = zone_read(z, &z->compact_order_failed), o;
	bool precise, dh, dp;

	for (o = 0; o <= MAX_ORDER; o++) {
		zone_write(z, &z->compact_order_failed, o);
		dh = compaction_depleted_hpcc(z, d->managed_pages, &precise);
		dp = compaction_depleted_hpcc_precise(z, d->managed_pages);
		C->q_hpcc_precise += precise;
		if (dh != dp)
			stress_fail(s, "hpcc_decision", -1,
				    "%s, cof %ld (T %lu): hpcc depletion decision %d (precise "
				    "fallback %d) != precise %d", when, o,
				    compaction_threshold(C->par.policy, d->managed_pages, o),
				    dh, precise, dp);
	}
	zone_write(z, &z->compact_order_failed, cof);
	stress_count_checks(s, MAX_ORDER + 1);
}

/* Every CPU and selector is parked. */
static void quiescent(struct stress *s)
{
	struct zone *z = &C->zone;
	struct compact_reset_report rep;
	struct zone_desc *d;
	bool precise, dh;
	unsigned long b;

	C->q_checks++;
	check_counts(s, "quiescent");
	check_deferral_agreement(s, "quiescent");
	rcu_read_lock();
	d = rcu_dereference(z->desc);
	/* The hpcc decision equals the precise one on a settled counter. */
	check_hpcc_decisions(s, d, "quiescent");
	dh = compaction_depleted_hpcc(z, d->managed_pages, &precise);
	if (dh != compaction_depleted(z, d->managed_pages))
		C->q_hpcc_vs_field++;
	/* A /proc reset on the idle zone: invariant 9 exactly. */
	cc_shadow_reset(s, &C->shadow, -1, z, d, &rep);
	check_reset(s, -1, &rep);
	atomic_fetch_add_explicit(&C->proc_resets, 1, memory_order_relaxed);
	if (zone_read(z, &z->compact_success) || zone_read(z, &z->compact_failed) ||
	    zone_read(z, &z->compact_cached_migrate_pfn[0]) != (long)d->zone_start_pfn ||
	    zone_read(z, &z->compact_cached_migrate_pfn[1]) != (long)d->zone_start_pfn)
		stress_fail(s, "after_reset", -1, "s %ld f %ld migrate pfns %ld %ld start %lu",
			    zone_read(z, &z->compact_success), zone_read(z, &z->compact_failed),
			    zone_read(z, &z->compact_cached_migrate_pfn[0]),
			    zone_read(z, &z->compact_cached_migrate_pfn[1]), d->zone_start_pfn);
	for (b = 0; b < CC_MAX_BLOCKS / BITS_PER_LONG; b++)
		if (z->skip_migrate[b] || z->skip_free[b])
			stress_fail(s, "after_reset", -1, "skip bits left in word %lu", b);
	/* Zero successes since the reset: depleted at every threshold. */
	check_hpcc_decisions(s, d, "after a quiescent reset");
	rcu_read_unlock();
	stress_count_checks(s, 3);
}

static void cc_free(void)
{
	zone_destroy(&C->zone);
	free(C->cpu);
	free(C);
	C = NULL;
}

static void teardown(struct stress *s)
{
	if (!C)
		return;
	if (!stress_failed(s)) {
		check_counts(s, "end");
		check_deferral_agreement(s, "end");
	}
	/* Descriptors replaced during the run are freed by their callbacks first. */
	kc_rcu_barrier();
	cc_free();
}

static unsigned long cpu_sum(size_t off)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < C->nr_cpus; i++)
		n += atomic_load_explicit((atomic_ulong *)((char *)&C->cpu[i] + off),
					  memory_order_relaxed);
	return n;
}

#define CPU_SUM(field)	cpu_sum(offsetof(struct cc_cpu, field))

static const char *policy_name(void)
{
	unsigned int i;

	for (i = 0; policy_names[i]; i++)
		if (policy_values[i] == cfg.policy)
			return policy_names[i];
	return "?";
}

static void report_text(struct stress *s, FILE *out)
{
	fprintf(out, "# compaction_churn: policy %s, P5 %s, atomic %s, COMPACT_CLUSTER_MAX %lu, "
		"frag %s\n", policy_name(),
		cfg.p5 == COMPACT_P5_INTENDED ? "intended" : "as-posted",
		atomic_names[cfg.atomic], cfg.cluster_max, cfg.frag < 0 ? "drift" : "fixed");
	fprintf(out, "# compaction_churn: requests %lu stall %lu success %lu fail %lu "
		"scanned %lu limited-runs %lu budget-stops %lu contended %lu\n",
		atomic_load(&C->requests), CPU_SUM(stall), CPU_SUM(success), CPU_SUM(fail),
		CPU_SUM(scanned), CPU_SUM(limited_runs), CPU_SUM(budget_stops),
		CPU_SUM(contended));
	fprintf(out, "# compaction_churn: resets %lu (kswapd %lu, proc %lu) resizes %lu "
		"max-depth %lu depth-clamps %lu\n", atomic_load(&C->resets),
		atomic_load(&C->kswapd_resets), atomic_load(&C->proc_resets),
		atomic_load(&C->resizes), atomic_load(&C->max_depth), atomic_load(&C->depth_clamps));
	fprintf(out, "# compaction_churn: lost updates (plain RMW) compact_success %lu "
		"compact_failed %lu; quiescent checks %lu (hpcc precise fallback %lu, "
		"hpcc vs field differ %lu)\n", C->q_lost_success, C->q_lost_failed,
		C->q_checks, C->q_hpcc_precise, C->q_hpcc_vs_field);
	if (cfg.policy == COMPACT_POLICY_BASE) {
		char line[1024];

		defer_agreement_line(line, sizeof(line));
		fprintf(out, "# compaction_churn: deferred %lu; deferral %s\n", CPU_SUM(deferred),
			line);
	}
	if (stable_policy())
		fprintf(out, "# compaction_churn: stable limit: %lu samples, average %ld pages "
			"per success, limit %ld\n", CPU_SUM(stable_samples),
			C->zone.compact_scan_avg >> COMPACT_STABLE_FP_SHIFT,
			compaction_stable_limit(&C->par, C->zone.desc->managed_pages, CC_ORDER,
						C->zone.compact_scan_avg));
	cc_shadow_report(&C->shadow, out);
}

static void report_json(struct stress *s, struct json *j)
{
	json_kobj_begin(j, "compaction");
	json_kstr(j, "policy", policy_name());
	json_kstr(j, "p5", cfg.p5 == COMPACT_P5_INTENDED ? "intended" : "as-posted");
	json_kstr(j, "atomic_mode", atomic_names[cfg.atomic]);
	json_ku64(j, "cluster_max", cfg.cluster_max);
	json_ku64(j, "requests", atomic_load(&C->requests));
	json_ku64(j, "compact_stall", CPU_SUM(stall));
	json_ku64(j, "compact_success", CPU_SUM(success));
	json_ku64(j, "compact_fail", CPU_SUM(fail));
	json_ku64(j, "migrate_scanned", CPU_SUM(scanned));
	json_ku64(j, "resets", atomic_load(&C->resets));
	json_ku64(j, "resizes", atomic_load(&C->resizes));
	json_ku64(j, "max_depth", atomic_load(&C->max_depth));
	json_ku64(j, "lost_success", C->q_lost_success);
	json_ku64(j, "lost_failed", C->q_lost_failed);
	json_ku64(j, "quiescent_checks", C->q_checks);
	if (cfg.policy == COMPACT_POLICY_BASE) {
		struct defer_agreement a;

		defer_agreement_get(&a);
		json_ku64(j, "deferred", CPU_SUM(deferred));
		json_kstr(j, "deferral_impl", defer_impl_describe());
		json_ku64(j, "deferral_decisions", a.nr_decisions);
		json_ku64(j, "deferral_disagreements", a.nr_disagreements);
	}
	if (stable_policy()) {
		json_ku64(j, "stable_samples", CPU_SUM(stable_samples));
		json_ku64(j, "stable_avg", C->zone.compact_scan_avg >> COMPACT_STABLE_FP_SHIFT);
	}
	cc_shadow_report_json(&C->shadow, j);
	json_obj_end(j);
}

static const struct scenario compaction_churn = {
	.name = "compaction_churn",
	.summary = "the 2015 compaction depletion state machine: resets, scan limits, "
		   "P5, lost updates, hpcc success counter, RCU zone resize",
	.invariants = cc_invariants,
	.opts = cc_opts,
	.opt_cfg = &cfg,
	.setup = setup,
	.cpu_step = cpu_step,
	.select_step = select_step,
	.quiescent = quiescent,
	.teardown = teardown,
	.report_text = report_text,
	.report_json = report_json,
};

SCENARIO_REGISTER(compaction_churn)
