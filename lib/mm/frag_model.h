/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fragmentation model of docs/spec/compaction.md#cmp-published: one zone of
 * frames with a buddy allocator, scattered pinned frames, movable "hogger"
 * pages, a reclaim stub, and direct compaction driven by the per-zone
 * state machine of mm/compaction.h. It replays the 2015 hogger-frag-movable
 * experiment for the five kernels of the v2 cover letter (and Stable, the
 * reviewer's self-stabilising limit) and counts the
 * vmstat events of the published tables.
 */
#ifndef _MM_FRAG_MODEL_H
#define _MM_FRAG_MODEL_H

#include "mm/compaction.h"

/*
 * The columns of the v2 tables (docs/spec/compaction.md#cmp-published): patches
 * accumulate left to right.
 */
enum frag_kernel {
	FRAG_BASE,		/* v4.3: deferral, classic scanners */
	FRAG_LIMIT,		/* P1-P4: threshold 1 and the scan limit, classic scanners */
	FRAG_NONMOVABLE,	/* + P5: SCANALLFREE (and, as posted, its dangling else) */
	FRAG_REDESIGN,		/* + P6-P8: the v2 scanners */
	FRAG_THRESHOLD,		/* + P9: the threshold formula */
	FRAG_STABLE,		/* Redesign + the self-stabilising limit instead of P9 */
	FRAG_NR_KERNELS,
};

struct frag_config {
	enum frag_kernel kernel;
	enum compact_p5 p5;		/* kernels with P5: intended or as posted */
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
	unsigned int stable_mult;	/* STABLE: limit = this x the average (0: 2) */
	unsigned int stable_weight;	/* STABLE: a sample moves the average 1/D (0: 8) */
};

/* STABLE: the limit sampled at FRAG_TRACE_LEN evenly spaced requests. */
#define FRAG_TRACE_LEN	100

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
	/* The same events split by mode: [0] async, [1] sync. */
	unsigned long mode_stall[2];
	unsigned long mode_success[2];
	unsigned long mode_fail[2];
	unsigned long mode_migrate_scanned[2];
	unsigned long mode_free_scanned[2];
	unsigned long mode_budget_stops[2];
	/* Where each successful allocation came from (sums to alloc_success). */
	unsigned long alloc_fast;	/* the fast path, before any compaction */
	unsigned long alloc_async;	/* right after async compaction */
	unsigned long alloc_reclaim;	/* right after reclaim */
	unsigned long alloc_sync;	/* right after sync compaction */
	/* STABLE: the running average at the end (pages per success), its samples. */
	unsigned long stable_avg;
	unsigned long stable_samples;
	/*
	 * STABLE: the limit a run would get at the start of request
	 * i x trace_step (0 while there is no average: unlimited).
	 */
	unsigned long trace_step;
	unsigned int trace_len;
	long limit_trace[FRAG_TRACE_LEN];
	/* Diagnostics. */
	unsigned long deferred;		/* COMPACT_DEFERRED, not stalls */
	unsigned long skipped;		/* COMPACT_SKIPPED (P7 async stop) */
	unsigned long resets;
	unsigned long limited_runs;
	unsigned long budget_stops;	/* runs ended PARTIAL by the scan limit */
	unsigned long limited_scanned;	/* migrate-scanned by limited runs */
	unsigned long enomem;		/* runs ended COMPLETE: free scanner dry */
	unsigned long zone_end;		/* runs ended COMPLETE: zone end (v2), scanners met (classic) */
	unsigned long max_depth;
	unsigned long zone_successes;	/* the zone field's increments */
	unsigned long shift_overflows;
	unsigned long depleted_entries;	/* resets that turned DEPLETED on */
	unsigned long overshoot_violations;	/* invariant 4 */
};

void frag_config_default(struct frag_config *cfg, enum frag_kernel kernel);
/* Run the experiment; 0, or -ENOMEM / -EINVAL. Deterministic for a seed. */
int frag_run(const struct frag_config *cfg, struct frag_stats *st);

#endif /* _MM_FRAG_MODEL_H */
