/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fragmentation model of spec/compaction-depletion.md §13: one zone of
 * frames with a buddy allocator, scattered pinned frames, movable "hogger"
 * pages, a reclaim stub, and direct compaction driven by the per-zone
 * state machine of mm/compaction.h. It replays the 2015 hogger-frag-movable
 * experiment for Base (v4.3 deferral), Redesign (threshold 1) and
 * Threshold (P9) and counts the vmstat events of the published tables.
 */
#ifndef _MM_FRAG_MODEL_H
#define _MM_FRAG_MODEL_H

#include "mm/compaction.h"

struct frag_config {
	enum compact_policy policy;
	enum compact_p5 p5;
	unsigned long cluster_max;	/* COMPACT_CLUSTER_MAX */
	unsigned long long seed;
	unsigned long nr_frames;	/* 131072 */
	unsigned long pageblock;	/* 512 */
	unsigned long pinned;		/* pinned unmovable frames (~25%) */
	unsigned long candidates;	/* aligned order-3 blocks left pin-free (~1500) */
	unsigned long free_pages;	/* the free pool at start */
	unsigned long requests;		/* order-3 allocations (~3000) */
	unsigned int threads;		/* requesters, interleaved step by step */
	unsigned long reclaim_batch;	/* pages the reclaim stub frees per call */
	unsigned long refault;		/* pages the hogger takes back per request */
	unsigned long pin_churn;	/* unmovable frames freed and re-allocated per request */
	int order;			/* 3 */
};

/* The rows of the 2015 tables, plus the model's own diagnostics. */
struct frag_stats {
	unsigned long alloc_success;	/* successful allocations */
	unsigned long candidates;	/* Success(N) denominator, as placed */
	unsigned long compact_stall;
	unsigned long compact_success;
	unsigned long compact_fail;
	unsigned long pgmigrate_success;
	unsigned long compact_isolated;
	unsigned long migrate_isolated;
	unsigned long free_isolated;
	unsigned long compact_migrate_scanned;
	unsigned long compact_free_scanned;
	/* Diagnostics. */
	unsigned long deferred;		/* COMPACT_DEFERRED, not stalls */
	unsigned long skipped;		/* COMPACT_SKIPPED (P7 async stop) */
	unsigned long resets;
	unsigned long limited_runs;
	unsigned long budget_stops;	/* runs ended PARTIAL by the scan limit */
	unsigned long limited_scanned;	/* migrate-scanned by limited runs */
	unsigned long enomem;		/* runs ended COMPLETE: free scanner dry */
	unsigned long zone_end;		/* runs ended COMPLETE: migrate scanner at the end */
	unsigned long max_depth;
	unsigned long zone_successes;	/* the zone field's increments */
	unsigned long shift_overflows;
	unsigned long saf_without_depleted;	/* invariant 6 seen broken after a step */
	unsigned long overshoot_violations;	/* invariant 4 */
};

void frag_config_default(struct frag_config *cfg, enum compact_policy policy);
/* Run the experiment; 0, or -ENOMEM / -EINVAL. Deterministic for a seed. */
int frag_run(const struct frag_config *cfg, struct frag_stats *st);

#endif /* _MM_FRAG_MODEL_H */
