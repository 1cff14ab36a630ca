// SPDX-License-Identifier: GPL-2.0
/*
 * The compaction depletion state machine (lib/mm/compaction.c) against
 * docs/spec/compaction.md: the threshold table
 * (docs/spec/compaction.md#cmp-threshold), the scan limit
 * at each depth and its floors (docs/spec/compaction.md#cmp-scan-limit), every
 * transition of docs/spec/compaction.md#cmp-states, the P5
 * dangling else (docs/spec/compaction.md#cmp-p5-dangling-else), the shift-depth
 * guard and the v4.3 deferral (docs/spec/compaction.md#cmp-deferral).
 */
#include <stdio.h>
#include <stdlib.h>
#include "mm/compaction.h"
#include "mm/kcompact.h"
#include "mm/compaction_ref.h"
#include "ktap.h"
#include "mm/frag_buddy.h"

#define PB	512

static struct compact_params params(enum compact_policy policy, enum compact_p5 p5)
{
	struct compact_params p = {
		.policy = policy, .p5 = p5, .atomic_mode = COMPACT_ATOMIC_RELAXED,
		.cluster_max = 32, .min_scan_limit = PB,
	};
	return p;
}

/* A 512 MiB zone: 131072 pages, 256 pageblocks. */
static bool zone_setup(struct kt *t, struct zone *z, const struct compact_params *p,
		       unsigned long managed)
{
	struct zone_desc *d = zone_desc_alloc(0, managed, managed, PB);
	bool ok = d && !zone_init(z, p, d, managed / PB + 1, false);

	KT_EXPECT(t, ok, "zone setup");
	if (!ok)
		free(d);
	return ok;
}

static void set_state(struct zone *z, bool depleted, long depth, long s, long f, long cof)
{
	z->flags = depleted ? 1UL << ZONE_COMPACTION_DEPLETED : 0;
	z->compact_depletion_depth = depth;
	z->compact_success = s;
	z->compact_failed = f;
	z->compact_order_failed = cof;
}

static bool depleted_flag(struct zone *z)
{
	return zone_test_flag(z, ZONE_COMPACTION_DEPLETED);
}

static bool scanallfree(struct zone *z)
{
	return zone_test_flag(z, ZONE_COMPACTION_SCANALLFREE);
}

/*
 * docs/spec/compaction.md#cmp-threshold threshold table, row by row, cof 0..9
 * (and the flat tail up to MAX_ORDER).
 */
static void compaction_threshold_table(struct kt *t)
{
	static const struct {
		unsigned long managed;
		unsigned long t[10];
	} rows[] = {
		{ 131072,  { 256, 128, 64, 32, 16, 8, 4, 4, 4, 4 } },
		{ 126976,  { 248, 124, 62, 31, 15, 7, 4, 4, 4, 4 } },
		{ 3977,    { 7, 4, 4, 4, 4, 4, 4, 4, 4, 4 } },
		{ 1048576, { 2048, 1024, 512, 256, 128, 64, 32, 16, 8, 4 } },
	};
	unsigned int i, cof;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		unsigned long prev = ~0UL;

		for (cof = 0; cof <= MAX_ORDER; cof++) {
			unsigned long th = compaction_threshold(COMPACT_POLICY_P9,
								rows[i].managed, cof);

			KT_EXPECT_EQU(t, th, rows[i].t[min(cof, 9U)]);
			/* Invariant 1: at least 4, never grows with cof, closed form. */
			KT_EXPECT(t, th >= 4 && th <= prev, "managed %lu cof %u", rows[i].managed, cof);
			KT_EXPECT_EQU(t, th, max(4UL, rows[i].managed >> (cof + 9)));
			KT_EXPECT_EQU(t, compaction_threshold(COMPACT_POLICY_THRESHOLD1,
							      rows[i].managed, cof), 1);
			prev = th;
		}
	}
}

/*
 * docs/spec/compaction.md#cmp-scan-limit: the limit at each depth, both cluster
 * sizes, the floors and the early exits.
 */
static void compaction_scan_limit_depths(struct kt *t)
{
	struct compact_params p = params(COMPACT_POLICY_P9, COMPACT_P5_INTENDED);
	static const long l128k[] = { LONG_MAX, 256, 128, 64, 32, 32, 32, 32, 32 };
	static const long l1m[] = { LONG_MAX, 2048, 1024, 512, 256, 128, 64, 32, 32 };
	unsigned long depth;
	bool ovf;

	for (depth = 0; depth < ARRAY_SIZE(l128k); depth++) {
		KT_EXPECT_EQ(t, compaction_scan_limit(&p, 131072, 3, true, depth, &ovf), l128k[depth]);
		KT_EXPECT_EQ(t, compaction_scan_limit(&p, 1048576, 3, true, depth, &ovf), l1m[depth]);
		KT_EXPECT(t, !ovf, "no overflow at depth %lu", depth);
	}
	/* Pageblock floor before the shift: a DMA-sized zone gives 512 >> depth. */
	KT_EXPECT_EQ(t, compaction_scan_limit(&p, 3977, 3, true, 1, &ovf), 256);
	KT_EXPECT_EQ(t, compaction_scan_limit(&p, 3977, 3, true, 3, &ovf), 64);
	/* Effective floor is COMPACT_CLUSTER_MAX, not the pageblock (v2). */
	KT_EXPECT_EQ(t, compaction_scan_limit(&p, 131072, 3, true, 40, &ovf), 32);
	/* Unlimited: /proc order -1, flag off, depth 0. */
	KT_EXPECT_EQ(t, compaction_scan_limit(&p, 131072, -1, true, 3, &ovf), LONG_MAX);
	KT_EXPECT_EQ(t, compaction_scan_limit(&p, 131072, 3, false, 3, &ovf), LONG_MAX);
	/* COMPACT_CLUSTER_MAX 256: 256 at every depth for this zone. */
	p.cluster_max = 256;
	for (depth = 1; depth < 64; depth++)
		KT_EXPECT_EQ(t, compaction_scan_limit(&p, 131072, 3, true, depth, &ovf), 256);
}

/*
 * docs/spec/compaction.md#cmp-hard-invariants: depth >= BITS_PER_LONG is
 * flagged before shifting, never wrapped.
 */
static void compaction_shift_guard(struct kt *t)
{
	struct compact_params p = params(COMPACT_POLICY_P9, COMPACT_P5_INTENDED);
	bool ovf;

	KT_EXPECT_EQ(t, compaction_scan_limit(&p, 131072, 3, true, 63, &ovf), 32);
	KT_EXPECT(t, !ovf, "depth 63 is a defined shift");
	/* x86 masking would turn depth 64 into a shift by 0: limit 512. */
	KT_EXPECT_EQ(t, compaction_scan_limit(&p, 131072, 3, true, 64, &ovf), 32);
	KT_EXPECT(t, ovf, "depth 64 flagged");
	KT_EXPECT_EQ(t, compaction_scan_limit(&p, 1048576, 3, true, 65, &ovf), 32);
	KT_EXPECT(t, ovf, "depth 65 flagged");
	KT_EXPECT_EQ(t, compaction_scan_limit(&p, 131072, 3, true, ~0UL, &ovf), 32);
	KT_EXPECT(t, ovf, "depth ULONG_MAX flagged");
}

/*
 * Invariant 6 as a concurrent reader sees it: SCANALLFREE never on with
 * DEPLETED off, between any two stores of a finish or a reset (the
 * zone's observer runs after each). The final states alone cannot show
 * the order of two clears.
 */
static unsigned long forbidden_seen, stores_seen;

static void observe_flag_pair(const struct zone *z)
{
	unsigned long fl = zone_flags(z);

	stores_seen++;
	if ((fl >> ZONE_COMPACTION_SCANALLFREE & 1) && !(fl >> ZONE_COMPACTION_DEPLETED & 1))
		forbidden_seen++;
}

static void compaction_flag_pair_observed(struct kt *t)
{
	static const struct { bool depleted, saf; long depth, s; } rows[] = {
		{ true, true, 3, 16 }, { true, true, 3, 100 }, { true, true, 2, 5 },
		{ true, true, 2, 0 }, { true, false, 1, 16 }, { false, false, 0, 16 },
		{ true, true, 0, 0 }, { false, false, 5, 0 },
	};
	struct compact_params p = params(COMPACT_POLICY_P9, COMPACT_P5_INTENDED);
	struct compact_reset_report rep;
	unsigned int i, leaves = 0;
	struct zone z;

	if (!zone_setup(t, &z, &p, 131072))
		return;
	forbidden_seen = stores_seen = 0;
	z.observe = observe_flag_pair;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		/* cof 4: T = 16. */
		set_state(&z, rows[i].depleted, rows[i].depth, rows[i].s, 0, 4);
		if (rows[i].saf)
			z.flags |= 1UL << ZONE_COMPACTION_SCANALLFREE;
		compaction_zone_finish(&z, 131072);
		leaves += rows[i].saf && rows[i].s >= 16 && !zone_flags(&z);
		set_state(&z, rows[i].depleted, rows[i].depth, rows[i].s, 0, 4);
		if (rows[i].saf)
			z.flags |= 1UL << ZONE_COMPACTION_SCANALLFREE;
		compaction_reset(&z, z.desc, &rep);
	}
	z.observe = NULL;
	KT_EXPECT(t, leaves == 2, "%u finishes cleared both flags", leaves);
	KT_EXPECT(t, stores_seen > 0, "observer ran");
	KT_EXPECT(t, forbidden_seen == 0, "SCANALLFREE without DEPLETED seen %lu times in %lu "
		  "stores", forbidden_seen, stores_seen);
	zone_destroy(&z);
}

/*
 * docs/spec/compaction.md#cmp-states rows: a suitable page and the end of
 * compact_zone (leaving).
 */
static void compaction_transitions_finish(struct kt *t)
{
	struct compact_params p = params(COMPACT_POLICY_P9, COMPACT_P5_INTENDED);
	struct zone z;

	if (!zone_setup(t, &z, &p, 131072))
		return;
	/* cof 4: T = 16. */
	set_state(&z, true, 3, 15, 0, 4);
	KT_EXPECT_EQ(t, compaction_note_success(&z), 16);
	z.flags |= 1UL << ZONE_COMPACTION_SCANALLFREE;
	compaction_zone_finish(&z, 131072);
	KT_EXPECT(t, !depleted_flag(&z), "s >= T: flag off");
	KT_EXPECT(t, !scanallfree(&z), "s > 0: SCANALLFREE off");
	KT_EXPECT_EQ(t, z.compact_depletion_depth, 3);	/* depth left as is */

	/* Flag on, 0 < s < T: stays depleted, SCANALLFREE off. */
	set_state(&z, true, 2, 5, 0, 4);
	z.flags |= 1UL << ZONE_COMPACTION_SCANALLFREE;
	compaction_zone_finish(&z, 131072);
	KT_EXPECT(t, depleted_flag(&z) && !scanallfree(&z), "D2, SCANALLFREE off");

	/* Flag on, s == 0: nothing changes. */
	set_state(&z, true, 2, 0, 0, 4);
	z.flags |= 1UL << ZONE_COMPACTION_SCANALLFREE;
	compaction_zone_finish(&z, 131072);
	KT_EXPECT(t, depleted_flag(&z) && scanallfree(&z), "s == 0 keeps both");

	/* Flag off: the finish does nothing, even with s >= T. */
	set_state(&z, false, 7, 100, 0, 4);
	compaction_zone_finish(&z, 131072);
	KT_EXPECT(t, !depleted_flag(&z), "N stays N");
	KT_EXPECT_EQ(t, z.compact_depletion_depth, 7);
	zone_destroy(&z);
}

/* docs/spec/compaction.md#cmp-states / P4: fail_compaction, compaction_failed_reset, restarting. */
static void compaction_failure_counter(struct kt *t)
{
	struct compact_params p = params(COMPACT_POLICY_P9, COMPACT_P5_INTENDED);
	struct zone z;
	int i;

	if (!zone_setup(t, &z, &p, 131072))
		return;
	set_state(&z, false, 0, 0, 2, 4);
	compaction_fail(&z, 3);		/* order < cof: cof := 3, f := 0 */
	KT_EXPECT_EQ(t, z.compact_order_failed, 3);
	KT_EXPECT_EQ(t, z.compact_failed, 0);
	for (i = 1; i <= 4; i++) {
		KT_EXPECT(t, !compaction_restarting(&z, 3), "f = %d", i - 1);
		compaction_fail(&z, 3);	/* order >= cof: f += 1 */
		KT_EXPECT_EQ(t, z.compact_failed, i);
	}
	KT_EXPECT(t, compaction_restarting(&z, 3), "f >= 4 at order >= cof");
	KT_EXPECT(t, !compaction_restarting(&z, 2), "order < cof never restarts");
	KT_EXPECT_EQ(t, z.failed_events, 4);

	/* Watermark met, no allocation: cof := order + 1, f unchanged. */
	compaction_failed_reset(&z, 3, false);
	KT_EXPECT_EQ(t, z.compact_order_failed, 4);
	KT_EXPECT_EQ(t, z.compact_failed, 4);
	/* order < cof: untouched. */
	compaction_failed_reset(&z, 2, false);
	KT_EXPECT_EQ(t, z.compact_order_failed, 4);
	/* Allocation success: f := 0, cof := max(cof, order + 1). */
	compaction_failed_reset(&z, 2, true);
	KT_EXPECT_EQ(t, z.compact_failed, 0);
	KT_EXPECT_EQ(t, z.compact_order_failed, 4);
	compaction_failed_reset(&z, 6, true);
	KT_EXPECT_EQ(t, z.compact_order_failed, 7);
	/* Invariant 2: cof stays within [0, MAX_ORDER]. */
	compaction_failed_reset(&z, MAX_ORDER, true);
	KT_EXPECT_EQ(t, z.compact_order_failed, MAX_ORDER);
	zone_destroy(&z);
}

/* docs/spec/compaction.md#cmp-states reset rows, intended P5, for both policies. */
static void compaction_transitions_reset(struct kt *t)
{
	struct compact_params p = params(COMPACT_POLICY_P9, COMPACT_P5_INTENDED);
	struct compact_reset_report rep;
	struct zone_desc *d;
	struct zone z;
	unsigned long b;

	if (!zone_setup(t, &z, &p, 131072))
		return;
	d = z.desc;
	/* N, s < T (cof 4, T 16): enter D0. SCANALLFREE cleared first. */
	set_state(&z, false, 9, 3, 4, 4);
	z.flags |= 1UL << ZONE_COMPACTION_SCANALLFREE;
	z.compact_cached_migrate_pfn[0] = 777;
	z.compact_cached_migrate_pfn[1] = 999;
	z.compact_cached_free_pfn = 555;
	/* Every word, the last (partial) one included. */
	for (b = 0; b < z.max_blocks; b += 3) {
		z.skip_migrate[b / 64] |= 1UL << (b % 64);
		z.skip_free[b / 64] |= 1UL << (b % 64);
	}
	z.skip_migrate[(z.max_blocks - 1) / 64] |= 1UL << ((z.max_blocks - 1) % 64);
	compaction_reset(&z, d, &rep);
	KT_EXPECT(t, rep.entered && !rep.deepened && depleted_flag(&z), "N -> D0");
	KT_EXPECT(t, !scanallfree(&z), "SCANALLFREE off");
	KT_EXPECT_EQ(t, z.compact_depletion_depth, 0);
	/* Invariant 9: s, f, skip bits, cached pfns. */
	KT_EXPECT_EQ(t, z.compact_success, 0);
	KT_EXPECT_EQ(t, z.compact_failed, 0);
	KT_EXPECT_EQ(t, z.compact_cached_migrate_pfn[0], 0);
	KT_EXPECT_EQ(t, z.compact_cached_migrate_pfn[1], 0);
	KT_EXPECT_EQ(t, z.compact_cached_free_pfn, 0);	/* P7: zone start */
	for (b = 0; b < (z.max_blocks + 63) / 64; b++)
		KT_EXPECT(t, !z.skip_migrate[b] && !z.skip_free[b], "skip word %lu", b);

	/* D0, s == 0: D1 with SCANALLFREE. */
	compaction_reset(&z, d, &rep);
	KT_EXPECT(t, rep.deepened && depleted_flag(&z) && scanallfree(&z), "D0 -> D1 + SAF");
	KT_EXPECT_EQ(t, z.compact_depletion_depth, 1);
	/* D1, 0 < s < T: D2, SCANALLFREE stays off (cleared first). */
	set_state(&z, true, 1, 5, 0, 4);
	z.flags |= 1UL << ZONE_COMPACTION_SCANALLFREE;
	compaction_reset(&z, d, &rep);
	KT_EXPECT(t, rep.deepened && depleted_flag(&z) && !scanallfree(&z), "D1 -> D2");
	KT_EXPECT_EQ(t, z.compact_depletion_depth, 2);
	/* Dk, s >= T: unchanged (flag and depth), s zeroed. */
	set_state(&z, true, 2, 16, 0, 4);
	compaction_reset(&z, d, &rep);
	KT_EXPECT(t, !rep.judged_depleted && depleted_flag(&z), "D2 stays D2");
	KT_EXPECT_EQ(t, z.compact_depletion_depth, 2);
	KT_EXPECT_EQ(t, z.compact_success, 0);
	/* N, s >= T: unchanged. */
	set_state(&z, false, 5, 16, 3, 4);
	compaction_reset(&z, d, &rep);
	KT_EXPECT(t, !depleted_flag(&z) && z.compact_depletion_depth == 5, "N stays N");
	/* Threshold 1 (P2-P8): one success keeps the zone out. */
	p.policy = COMPACT_POLICY_THRESHOLD1;
	set_state(&z, false, 0, 1, 0, 4);
	compaction_reset(&z, d, &rep);
	KT_EXPECT(t, !depleted_flag(&z), "s = 1 >= T = 1");
	compaction_reset(&z, d, &rep);
	KT_EXPECT(t, depleted_flag(&z), "s = 0 < 1: D0");
	zone_destroy(&z);
}

/*
 * docs/spec/compaction.md#cmp-p5-dangling-else: the posted P5 differs exactly
 * where the analysis says.
 */
static void compaction_p5_dangling_else(struct kt *t)
{
	struct compact_params pi = params(COMPACT_POLICY_THRESHOLD1, COMPACT_P5_INTENDED);
	struct compact_params pp = params(COMPACT_POLICY_THRESHOLD1, COMPACT_P5_AS_POSTED);
	struct compact_reset_report rep;
	struct zone zi, zp;

	if (!zone_setup(t, &zi, &pi, 131072) || !zone_setup(t, &zp, &pp, 131072))
		return;
	/* Threshold 1, N, s == 0: intended enters D0; posted never sets DEPLETED. */
	set_state(&zi, false, 0, 0, 0, 4);
	set_state(&zp, false, 0, 0, 0, 4);
	compaction_reset(&zi, zi.desc, &rep);
	KT_EXPECT(t, depleted_flag(&zi) && !scanallfree(&zi), "intended: D0");
	compaction_reset(&zp, zp.desc, &rep);
	KT_EXPECT(t, !depleted_flag(&zp) && scanallfree(&zp),
		  "posted: SCANALLFREE on, DEPLETED off (invariant 6 broken)");
	KT_EXPECT(t, rep.set_scanallfree && !rep.was_depleted_flag && !rep.set_depleted,
		  "the report shows it");
	/* And again: still never depleted. */
	compaction_reset(&zp, zp.desc, &rep);
	KT_EXPECT(t, !depleted_flag(&zp) && scanallfree(&zp), "posted: still N");

	/* P9, Dk with 0 < s < T: intended deepens, posted re-enters at depth 0. */
	pi.policy = pp.policy = COMPACT_POLICY_P9;
	set_state(&zi, true, 3, 5, 0, 4);
	set_state(&zp, true, 3, 5, 0, 4);
	compaction_reset(&zi, zi.desc, &rep);
	KT_EXPECT_EQ(t, zi.compact_depletion_depth, 4);
	compaction_reset(&zp, zp.desc, &rep);
	KT_EXPECT_EQ(t, zp.compact_depletion_depth, 0);
	KT_EXPECT(t, depleted_flag(&zp), "posted: DEPLETED on for 0 < s < T");
	/* P9, Dk with s == 0: both deepen and set SCANALLFREE. */
	set_state(&zi, true, 3, 0, 0, 4);
	set_state(&zp, true, 3, 0, 0, 4);
	compaction_reset(&zi, zi.desc, &rep);
	compaction_reset(&zp, zp.desc, &rep);
	KT_EXPECT(t, zi.compact_depletion_depth == 4 && zp.compact_depletion_depth == 4, "deepen");
	KT_EXPECT(t, scanallfree(&zi) && scanallfree(&zp), "last resort");
	/* Posted: SCANALLFREE outlives a leave that needs DEPLETED on. */
	set_state(&zp, false, 0, 3, 0, 4);
	zp.flags |= 1UL << ZONE_COMPACTION_SCANALLFREE;
	compaction_zone_finish(&zp, 131072);
	KT_EXPECT(t, scanallfree(&zp), "finish needs DEPLETED to clear SCANALLFREE");
	zone_destroy(&zi);
	zone_destroy(&zp);
}

/* docs/spec/compaction.md#cmp-deferral: v4.3 deferral for the Base policy. */
static void compaction_deferral(struct kt *t)
{
	struct compact_params p = params(COMPACT_POLICY_BASE, COMPACT_P5_INTENDED);
	struct zone z;
	int i, skipped;

	if (!zone_setup(t, &z, &p, 131072))
		return;
	/* cof starts at 0 (v4.3 never initialises it). */
	KT_EXPECT(t, !compaction_deferred(&z, 3), "shift 0: 1 << 0 = 1 request");
	compaction_defer(&z, 3);
	KT_EXPECT_EQ(t, z.compact_defer_shift, 1);
	KT_EXPECT_EQ(t, z.compact_order_failed, 0);	/* min(0, 3) */
	compaction_defer_reset(&z, 3, false);
	KT_EXPECT_EQ(t, z.compact_order_failed, 4);
	KT_EXPECT(t, !compaction_deferred(&z, 2), "order < cof never deferred");
	for (i = 2; i <= 8; i++)
		compaction_defer(&z, 3);
	KT_EXPECT_EQ(t, z.compact_defer_shift, COMPACT_MAX_DEFER_SHIFT);
	KT_EXPECT_EQ(t, z.compact_order_failed, 3);
	skipped = 0;
	for (i = 0; i < 64; i++)
		skipped += compaction_deferred(&z, 3);
	KT_EXPECT_EQ(t, skipped, 63);		/* 1 << 6 minus the one let through */
	KT_EXPECT_EQ(t, z.compact_considered, 64);
	KT_EXPECT(t, compaction_restarting_base(&z, 3), "shift 6, considered 64");
	compaction_deferred(&z, 3);
	KT_EXPECT_EQ(t, z.compact_considered, 64);	/* invariant 12: capped */
	compaction_defer_reset(&z, 3, true);
	KT_EXPECT(t, !z.compact_considered && !z.compact_defer_shift, "success clears");
	KT_EXPECT(t, !compaction_restarting_base(&z, 3), "no restart after success");
	zone_destroy(&z);
}

/* Every deferral call the two cases below made was judged: print and check. */
static void deferral_agreement(struct kt *t, const char *what)
{
	struct defer_agreement a;
	unsigned long n, bad;

	defer_agreement_get(&a);
	n = a.nr_decisions;
	bad = a.nr_disagreements;
	kt_diag(t, "%s: %s: %lu decisions, %lu agree (defer %lu, deferred %lu, reset %lu, "
		"restarting %lu)", what, defer_impl_describe(), n, n - bad,
		a.decisions[DEFER_OP_DEFER], a.decisions[DEFER_OP_DEFERRED],
		a.decisions[DEFER_OP_RESET], a.decisions[DEFER_OP_RESTARTING]);
	KT_EXPECT(t, !bad, "model and kernel disagree %lu times; first: %s", bad, a.first);
	KT_EXPECT(t, n > 0, "no deferral call was judged");
}

/*
 * The tree's deferral (KERNEL_SRC with mm/compaction.c) against the model
 * on the same inputs: every call of compaction_deferral above, then every
 * operation from every state of a grid (considered 0..65, shift 0..6,
 * order_failed 0..11, orders 0..10, both alloc_success), answer and fields.
 */
static void compaction_deferral_kernel(struct kt *t)
{
	struct defer_state s;
	long c, sh, cof;
	int order, op, succ;

	if (!defer_have_kernel()) {
		kt_skip(t, "no kernel tree's mm/compaction.c built in (KERNEL_SRC)");
		return;
	}
	defer_agreement_clear();
	compaction_deferral(t);
	deferral_agreement(t, "compaction_deferral");
	defer_agreement_clear();
	for (c = 0; c <= 65; c++)
		for (sh = 0; sh <= COMPACT_MAX_DEFER_SHIFT; sh++)
			for (cof = 0; cof <= MAX_ORDER; cof++)
				for (order = 0; order < MAX_ORDER; order++)
					for (op = 0; op < DEFER_NR_OPS; op++)
						for (succ = 0; succ <= (op == DEFER_OP_RESET); succ++) {
							s = (struct defer_state){ c, sh, cof };
							defer_judged(&s, op, order, succ);
						}
	deferral_agreement(t, "grid");
}

/* The library's state after a transition against the reference's; false on a difference. */
static bool grid_same(struct kt *t, struct zone *z, const struct cref_state *pre,
		      const struct cref_state *want, const char *what, bool pfns,
		      const struct compact_params *p, unsigned long managed)
{
	struct cref_state got;
	char a[160], b[160], c[160], d[96];

	cref_snapshot(z, &got);
	t->checks++;
	if (!*cref_diff(&got, want, pfns, d, sizeof(d)))
		return true;
	cref_format(pre, a, sizeof(a));
	cref_format(want, b, sizeof(b));
	cref_format(&got, c, sizeof(c));
	kt_fail(t, __FILE__, __LINE__, "%s (policy %d, P5 %s, managed %lu) from %s: expected %s, "
		"got %s (differ: %s)", what, p->policy, p->p5 ? "as-posted" : "intended", managed,
		a, b, c, d);
	return false;
}

/*
 * Every transition of docs/spec/compaction.md#cmp-states from every extreme
 * state of a small grid, the library against the sequential reference
 * (lib/mm/compaction_ref.c): both policies and both P5 forms, three zone sizes,
 * both flags, s at 0, 1, T - 1, T, T + 1, depth 0, 1, 7, f at 0, 3, 4, 5, cof
 * at 0, 2, 3, 4, 11, orders 2, 3, 4.
 */
static void compaction_reference_grid(struct kt *t)
{
	static const unsigned long sizes[] = { 3977, 131072, 1UL << 20 };
	static const long depths[] = { 0, 1, 7 }, fs[] = { 0, 3, 4, 5 },
			  cofs[] = { 0, 2, 3, 4, 11 };
	static const int orders[] = { 2, 3, 4 };
	unsigned int pol, p5, m, fl, si, di, fi, ci, oi, bad = 0;

	for (pol = 0; pol < 2; pol++)
	for (p5 = 0; p5 < 2; p5++)
	for (m = 0; m < ARRAY_SIZE(sizes); m++) {
		struct compact_params p = params(pol ? COMPACT_POLICY_P9 : COMPACT_POLICY_THRESHOLD1,
						 p5 ? COMPACT_P5_AS_POSTED : COMPACT_P5_INTENDED);
		struct zone z;

		if (!zone_setup(t, &z, &p, sizes[m]))
			return;
		for (fl = 0; fl < 4; fl++)
		for (ci = 0; ci < ARRAY_SIZE(cofs); ci++)
		for (si = 0; si < 5; si++)
		for (di = 0; di < ARRAY_SIZE(depths); di++)
		for (fi = 0; fi < ARRAY_SIZE(fs); fi++) {
			long T = cref_threshold(p.policy, sizes[m], cofs[ci]);
			const long ss[] = { 0, 1, T - 1, T, T + 1 };
			struct cref_state pre, want;
			struct compact_reset_report rep;
			char what[64];

#define GRID_START()										do {										set_state(&z, fl & 1, depths[di], ss[si], fs[fi], cofs[ci]); 				if (fl & 2)									z.flags |= 1UL << ZONE_COMPACTION_SCANALLFREE; 				z.compact_cached_migrate_pfn[0] = 777;					z.compact_cached_migrate_pfn[1] = 999;					z.compact_cached_free_pfn = 555;					z.compact_blockskip_flush = 1;						cref_snapshot(&z, &pre);						want = pre;							} while (0)
			GRID_START();
			cref_reset(&p, &want, z.desc);
			compaction_reset(&z, z.desc, &rep);
			bad += !grid_same(t, &z, &pre, &want, "reset", true, &p, sizes[m]);
			GRID_START();
			cref_finish(&p, &want, sizes[m]);
			compaction_zone_finish(&z, sizes[m]);
			bad += !grid_same(t, &z, &pre, &want, "finish", false, &p, sizes[m]);
			GRID_START();
			cref_note_success(&want);
			KT_EXPECT_EQ(t, compaction_note_success(&z), want.success);
			bad += !grid_same(t, &z, &pre, &want, "note_success", false, &p, sizes[m]);
			GRID_START();
			KT_EXPECT(t, compaction_depleted(&z, sizes[m]) ==
				  cref_depleted(&p, &pre, sizes[m]), "depleted, s %ld cof %ld",
				  pre.success, pre.order_failed);
			for (oi = 0; oi < ARRAY_SIZE(orders); oi++) {
				bool counted;

				GRID_START();
				KT_EXPECT(t, compaction_restarting(&z, orders[oi]) ==
					  cref_restarting(&pre, orders[oi]), "restarting(%d), f %ld "
					  "cof %ld", orders[oi], pre.failed, pre.order_failed);
				counted = cref_fail(&want, orders[oi]);
				KT_EXPECT(t, compaction_fail(&z, orders[oi]) == counted, "fail(%d)",
					  orders[oi]);
				snprintf(what, sizeof(what), "fail(order %d)", orders[oi]);
				bad += !grid_same(t, &z, &pre, &want, what, false, &p, sizes[m]);
				GRID_START();
				cref_failed_reset(&want, orders[oi], fi & 1);
				compaction_failed_reset(&z, orders[oi], fi & 1);
				snprintf(what, sizeof(what), "failed_reset(order %d, %s)", orders[oi],
					 fi & 1 ? "allocated" : "watermark");
				bad += !grid_same(t, &z, &pre, &want, what, false, &p, sizes[m]);
			}
#undef GRID_START
			if (bad > 20)
				break;
		}
		zone_destroy(&z);
	}
}

/*
 * The self-stabilising limit (docs/compaction.md): unlimited without an
 * average, twice the average within [COMPACT_CLUSTER_MAX, managed]; the
 * average moves 1/8 of the way to each sample, which a success takes from the
 * pages scanned since the previous one.
 */
static void compaction_stable_limit_average(struct kt *t)
{
	struct compact_params p = params(COMPACT_POLICY_STABLE, COMPACT_P5_INTENDED);
	struct compact_stable_update u;
	struct zone z;
	long avg, prev, i;

	KT_EXPECT_EQ(t, compaction_stable_limit(&p, 131072, 3, 0), LONG_MAX);
	KT_EXPECT_EQ(t, compaction_stable_limit(&p, 131072, -1, 1000 << 4), LONG_MAX);
	KT_EXPECT_EQ(t, compaction_stable_limit(&p, 131072, 3, 1000 << 4), 2000);
	KT_EXPECT_EQ(t, compaction_stable_limit(&p, 131072, 3, (1000 << 4) + 8), 2001);
	KT_EXPECT_EQ(t, compaction_stable_limit(&p, 131072, 3, 5 << 4), 32);
	KT_EXPECT_EQ(t, compaction_stable_limit(&p, 131072, 3, 100000L << 4), 131072);
	KT_EXPECT_EQ(t, compaction_stable_limit(&p, 131072, 3, LONG_MAX), 131072);
	KT_EXPECT_EQ(t, compaction_threshold(COMPACT_POLICY_STABLE, 131072, 0), 1);
	/* The first sample seeds; then 1/8 of the gap, never past the sample. */
	KT_EXPECT_EQ(t, compaction_stable_average(&p, 0, 800), 800 << 4);
	KT_EXPECT_EQ(t, compaction_stable_average(&p, 800 << 4, 0), 700 << 4);
	KT_EXPECT_EQ(t, compaction_stable_average(&p, 800 << 4, 1600), 900 << 4);
	for (avg = 0, i = 0; i < 200; i++) {
		prev = avg;
		avg = compaction_stable_average(&p, avg, 4000);
		KT_EXPECT(t, avg >= prev && avg <= 4000 << 4, "step %ld: %ld -> %ld", i, prev, avg);
	}
	KT_EXPECT(t, avg > (3990 << 4), "converges to a constant sample: %ld", avg >> 4);
	/* Run-time parameters: 4 averages a run, half of each gap; 0 keeps 2 and 1/8. */
	p.stable_mult = 4;
	p.stable_weight = 2;
	KT_EXPECT_EQ(t, compaction_stable_limit(&p, 131072, 3, 1000 << 4), 4000);
	KT_EXPECT_EQ(t, compaction_stable_average(&p, 800 << 4, 1600), 1200 << 4);
	p.stable_mult = 1;
	p.stable_weight = 1;
	KT_EXPECT_EQ(t, compaction_stable_limit(&p, 131072, 3, 1000 << 4), 1000);
	KT_EXPECT_EQ(t, compaction_stable_average(&p, 800 << 4, 1600), 1600 << 4);
	p.stable_mult = 0;
	p.stable_weight = 0;
	if (!zone_setup(t, &z, &p, 131072))
		return;
	compaction_stable_scanned(&z, 300);
	compaction_stable_scanned(&z, 212);
	compaction_stable_success(&z, &u);
	KT_EXPECT_EQ(t, u.sample, 512);
	KT_EXPECT_EQ(t, u.old_avg, 0);
	KT_EXPECT_EQ(t, z.compact_scan_avg, 512 << 4);
	KT_EXPECT_EQ(t, z.compact_scan_since, 0);
	compaction_stable_success(&z, &u);
	KT_EXPECT_EQ(t, u.sample, 0);
	KT_EXPECT_EQ(t, z.compact_scan_avg, 448 << 4);
	/* A reset leaves the learned cost alone. */
	{
		struct compact_reset_report rep;

		compaction_reset(&z, z.desc, &rep);
		KT_EXPECT_EQ(t, z.compact_scan_avg, 448 << 4);
	}
	zone_destroy(&z);
}

/*
 * The reference's view of a zone, field by field: each field a distinct
 * value, so that a snapshot reading one field for another (the checker
 * and the zone then agree on a wrong state) shows.
 */
static void compaction_ref_snapshot_by_hand(struct kt *t)
{
	static struct zone z;
	struct compact_params p = params(COMPACT_POLICY_P9, COMPACT_P5_INTENDED);
	struct cref_state st;

	z.par = &p;
	z.flags = 1UL << ZONE_COMPACTION_SCANALLFREE;
	z.compact_success = 3;
	z.compact_depletion_depth = 5;
	z.compact_failed = 7;
	z.compact_order_failed = 2;
	z.compact_cached_migrate_pfn[0] = 11;
	z.compact_cached_migrate_pfn[1] = 13;
	z.compact_cached_free_pfn = 17;
	z.compact_blockskip_flush = 19;
	cref_snapshot(&z, &st);
	KT_EXPECT(t, !st.depleted && st.scanallfree, "flags");
	KT_EXPECT_EQ(t, st.success, 3);
	KT_EXPECT_EQ(t, st.depth, 5);
	KT_EXPECT_EQ(t, st.failed, 7);
	KT_EXPECT_EQ(t, st.order_failed, 2);
	KT_EXPECT_EQ(t, st.migrate_pfn[0], 11);
	KT_EXPECT_EQ(t, st.migrate_pfn[1], 13);
	KT_EXPECT_EQ(t, st.free_pfn, 17);
	KT_EXPECT_EQ(t, st.blockskip_flush, 19);
	z.flags = 1UL << ZONE_COMPACTION_DEPLETED;
	cref_snapshot(&z, &st);
	KT_EXPECT(t, st.depleted && !st.scanallfree, "flags");
}

/* Frames of the buddy model in @st, and whether the free count agrees. */
static unsigned long frames_in(const struct frag_buddy *b, enum frame_state st)
{
	unsigned long i, n = 0;

	for (i = 0; i < b->nr; i++)
		n += b->state[i] == st;
	return n;
}

/*
 * The fragmentation model's buddy allocator against its header: every
 * frame of an allocated block TAKEN, of an isolated one ISOLATED, and the
 * free count equal to the frames left FREE after each step.
 */
static void frag_buddy_frame_states(struct kt *t)
{
	struct frag_buddy b;
	long pfn;
	int o;

	KT_ASSERT(t, !frag_buddy_init(&b, 64), "init");
	frag_buddy_free(&b, 0, 6);
	KT_EXPECT(t, b.free_pages == 64 && frames_in(&b, FRAME_FREE) == 64, "64 free");
	pfn = frag_buddy_alloc(&b, 2);
	KT_EXPECT(t, pfn >= 0 && frames_in(&b, FRAME_TAKEN) == 4, "an order-2 block: %lu taken",
		  frames_in(&b, FRAME_TAKEN));
	KT_EXPECT(t, b.free_pages == 60 && frames_in(&b, FRAME_FREE) == 60, "60 free");
	/* Isolate the largest free block left (order 5: 32 frames). */
	for (pfn = 0; pfn < 64 && b.free_order[pfn] != 5; pfn++)
		;
	KT_ASSERT(t, pfn < 64, "an order-5 block");
	o = frag_buddy_isolate(&b, pfn);
	KT_EXPECT(t, o == 5 && frames_in(&b, FRAME_ISOLATED) == 32, "order %d, %lu isolated", o,
		  frames_in(&b, FRAME_ISOLATED));
	KT_EXPECT(t, b.free_pages == 28 && frames_in(&b, FRAME_FREE) == 28, "28 free");
	frag_buddy_destroy(&b);
}

static const struct kt_case cases[] = {
	KT_CASE(compaction_threshold_table),
	KT_CASE(compaction_ref_snapshot_by_hand),
	KT_CASE(frag_buddy_frame_states),
	KT_CASE(compaction_scan_limit_depths),
	KT_CASE(compaction_shift_guard),
	KT_CASE(compaction_transitions_finish),
	KT_CASE(compaction_flag_pair_observed),
	KT_CASE(compaction_failure_counter),
	KT_CASE(compaction_transitions_reset),
	KT_CASE(compaction_p5_dangling_else),
	KT_CASE(compaction_deferral),
	KT_CASE(compaction_deferral_kernel),
	KT_CASE(compaction_reference_grid),
	KT_CASE(compaction_stable_limit_average),
};

KT_MAIN("compaction", cases)
