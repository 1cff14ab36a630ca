/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-zone compaction state of Joonsoo Kim's 2015 "redesign
 * compaction" series (v2, P2-P5 and P9) and the v4.3 deferral it replaces,
 * as specified in docs/spec/compaction.md. The state machine only:
 * the scanners live with their users (the stress scenario, the
 * fragmentation model).
 *
 * The kernel updates these fields without a lock. The atomic mode decides
 * how the read-modify-writes are done: "plain" is the kernel's unlocked
 * RMW, written as a separate relaxed load and relaxed store so that a
 * TSan build reports no data race while lost updates still happen.
 */
#ifndef _MM_COMPACTION_H
#define _MM_COMPACTION_H

#include <linux/types.h>
#include <linux/limits.h>
#include <linux/bitops.h>
#include <linux/rcupdate.h>
#include <linux/percpu_counter_tree.h>
#include <kcompat/kcompat.h>

#define MAX_ORDER			11
#define COMPACT_MAX_DEFER_SHIFT		6
#define COMPACT_MAX_FAILED		4
#define COMPACT_SCAN_UNLIMITED		LONG_MAX

/* zone->flags bits (atomic bit operations, as in the kernel). */
#define ZONE_COMPACTION_DEPLETED	0
#define ZONE_COMPACTION_SCANALLFREE	1

enum compact_policy {
	COMPACT_POLICY_BASE,		/* v4.3 deferral, no depletion */
	COMPACT_POLICY_THRESHOLD1,	/* P2-P8: threshold 1 */
	COMPACT_POLICY_P9,		/* P9: max(4, managed >> (cof + 9)) */
	COMPACT_POLICY_STABLE,		/* threshold 1; limit from pages scanned per success */
};

/*
 * The self-stabilising scan limit (docs/compaction.md): every run's limit is
 * a multiplier times a running average of the pages the zone scanned per
 * success (weight 1/D to the newest sample), kept in fixed point
 * (COMPACT_STABLE_FP_SHIFT fraction bits), within [COMPACT_CLUSTER_MAX,
 * managed]. No average yet: unlimited. The multiplier and D are run-time
 * parameters (struct compact_params; 0 there means the default below), in
 * [1, COMPACT_STABLE_MULT_MAX] and [1, COMPACT_STABLE_WEIGHT_MAX].
 */
#define COMPACT_STABLE_MULT		2
#define COMPACT_STABLE_WEIGHT		8
#define COMPACT_STABLE_FP_SHIFT		4
#define COMPACT_STABLE_MULT_MAX		16
#define COMPACT_STABLE_WEIGHT_MAX	256

enum compact_p5 {
	COMPACT_P5_INTENDED,
	COMPACT_P5_AS_POSTED,		/* the dangling else of patch 5/9 */
};

enum compact_atomic_mode {
	COMPACT_ATOMIC_PLAIN,
	COMPACT_ATOMIC_RELAXED,
	COMPACT_ATOMIC_SEQCST,
};

struct compact_params {
	enum compact_policy policy;
	enum compact_p5 p5;
	enum compact_atomic_mode atomic_mode;
	unsigned long cluster_max;	/* COMPACT_CLUSTER_MAX: 32 or 256 */
	unsigned long min_scan_limit;	/* COMPACT_MIN_SCAN_LIMIT = pageblock_nr_pages */
	/* STABLE: the limit's multiplier, the newest sample's weight 1/D; 0: default. */
	unsigned int stable_mult;
	unsigned int stable_weight;
};

/*
 * The static facts of a zone, published under RCU and replaced whole by
 * a (simulated) memory-hotplug resize.
 */
struct zone_desc {
	unsigned long managed_pages;
	unsigned long zone_start_pfn;
	unsigned long spanned_pages;
	unsigned long pageblock_nr_pages;
	unsigned long generation;
	struct rcu_head rcu;
};

static inline unsigned long zone_desc_end_pfn(const struct zone_desc *d)
{
	return d->zone_start_pfn + d->spanned_pages;
}

struct zone {
	struct zone_desc *desc;			/* RCU */
	const struct compact_params *par;
	unsigned long flags;
	/* v2 per-zone state (all plain longs, accessed through zone_*()). */
	long compact_success;
	long compact_depletion_depth;
	long compact_failed;
	long compact_order_failed;
	/* v4.3 deferral (Base policy). */
	long compact_considered;
	long compact_defer_shift;
	long compact_cached_migrate_pfn[2];
	long compact_cached_free_pfn;
	long compact_blockskip_flush;
	/* STABLE: pages scanned since the last success, the average per success (fixed point). */
	long compact_scan_since;
	long compact_scan_avg;
	/* Skip bits, two per pageblock (P6), for up to max_blocks blocks. */
	unsigned long *skip_migrate;
	unsigned long *skip_free;
	unsigned long max_blocks;
	/*
	 * Model-only shadows, never reset: every increment of
	 * compact_success and compact_failed is also applied here with the
	 * same RMW, so lost updates can be counted against per-CPU truth.
	 */
	long success_events;
	long failed_events;
	/* compact_success as an hpcc counter: depletion = sum - base < T. */
	struct percpu_counter_tree success_tree;
	void *success_items;
	long success_base;
	bool has_tree;
	/* Called between the load and the store of a plain RMW (may yield). */
	void (*rmw_window)(void);
	/* Optional: counts every store to the fields above (see zone_wbegin()). */
	struct zone_wseq *wseq;
	/*
	 * Optional: called after every store to the state fields and flags,
	 * as a reader running between any two of them would see the zone.
	 */
	void (*observe)(const struct zone *z);
};

/*
 * Write accounting for an observer (compaction_churn's shadow model): each
 * store to a state field is bracketed by a begin and an end count, and each
 * thread counts its own stores, so that a transition can tell that no other
 * thread changed the zone's state while it ran. The cached pfns and
 * blockskip_flush are hints every scanner round rewrites (racy by design,
 * docs/spec/compaction.md#cmp-races): not counted. Off (one branch) when
 * z->wseq is NULL.
 */
struct zone_wseq {
	unsigned long begin, end;
};
extern __thread unsigned long zone_own_writes;

static inline bool zone_hint_field(const struct zone *z, const long *p)
{
	return p == &z->compact_cached_migrate_pfn[0] || p == &z->compact_cached_migrate_pfn[1] ||
	       p == &z->compact_cached_free_pfn || p == &z->compact_blockskip_flush ||
	       p == &z->compact_scan_since || p == &z->compact_scan_avg;
}

static inline void zone_wbegin(const struct zone *z, const long *p)
{
	if (z->wseq && (!p || !zone_hint_field(z, p))) {
		__atomic_fetch_add(&z->wseq->begin, 1, __ATOMIC_SEQ_CST);
		/* An observer that sees the store below sees the count. */
		__atomic_thread_fence(__ATOMIC_RELEASE);
		zone_own_writes++;
	}
}

static inline void zone_wend(const struct zone *z, const long *p)
{
	if (z->wseq && (!p || !zone_hint_field(z, p)))
		__atomic_fetch_add(&z->wseq->end, 1, __ATOMIC_SEQ_CST);
	if (z->observe)
		z->observe(z);
}

/*
 * Field access in the zone's atomic mode. Each access is a scheduling
 * point of the explorer (kc_xp(), nothing outside -DKC_EXPLORE); a plain
 * RMW is two, its load and its store.
 */
static inline long zone_read(const struct zone *z, const long *p)
{
	kc_xp(p, KC_XP_READ);
	if (z->par->atomic_mode == COMPACT_ATOMIC_SEQCST)
		return __atomic_load_n(p, __ATOMIC_SEQ_CST);
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static inline void zone_write(const struct zone *z, long *p, long v)
{
	kc_xp(p, KC_XP_WRITE);
	zone_wbegin(z, p);
	if (z->par->atomic_mode == COMPACT_ATOMIC_SEQCST)
		__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
	else
		__atomic_store_n(p, v, __ATOMIC_RELAXED);
	zone_wend(z, p);
}

/* p += d, returning the new value; "plain" may lose concurrent updates. */
static inline long zone_add_return(const struct zone *z, long *p, long d)
{
	long v;

	switch (z->par->atomic_mode) {
	case COMPACT_ATOMIC_PLAIN:
		kc_xp(p, KC_XP_READ);
		v = __atomic_load_n(p, __ATOMIC_RELAXED) + d;
		if (z->rmw_window)
			z->rmw_window();
		kc_xp(p, KC_XP_WRITE);
		zone_wbegin(z, p);
		__atomic_store_n(p, v, __ATOMIC_RELAXED);
		break;
	case COMPACT_ATOMIC_RELAXED:
		kc_xp(p, KC_XP_RMW);
		zone_wbegin(z, p);
		v = __atomic_add_fetch(p, d, __ATOMIC_RELAXED);
		break;
	default:
		kc_xp(p, KC_XP_RMW);
		zone_wbegin(z, p);
		v = __atomic_add_fetch(p, d, __ATOMIC_SEQ_CST);
		break;
	}
	zone_wend(z, p);
	return v;
}

static inline bool zone_test_flag(const struct zone *z, int bit)
{
	int mo = z->par->atomic_mode == COMPACT_ATOMIC_SEQCST ?
		 __ATOMIC_SEQ_CST : __ATOMIC_RELAXED;

	kc_xp(&z->flags, KC_XP_READ);
	return (__atomic_load_n(&z->flags, mo) >> bit) & 1;
}

static inline void zone_set_flag(struct zone *z, int bit)
{
	kc_xp(&z->flags, KC_XP_RMW);
	zone_wbegin(z, NULL);
	__atomic_fetch_or(&z->flags, 1UL << bit, __ATOMIC_SEQ_CST);
	zone_wend(z, NULL);
}

static inline void zone_clear_flag(struct zone *z, int bit)
{
	kc_xp(&z->flags, KC_XP_RMW);
	zone_wbegin(z, NULL);
	__atomic_fetch_and(&z->flags, ~(1UL << bit), __ATOMIC_SEQ_CST);
	zone_wend(z, NULL);
}

/* Both flags from one load: the checkers need a consistent pair. */
static inline unsigned long zone_flags(const struct zone *z)
{
	kc_xp(&z->flags, KC_XP_READ);
	return __atomic_load_n(&z->flags, __ATOMIC_SEQ_CST);
}

/* Setup: @desc becomes the published descriptor. @tree: also keep the hpcc counter. */
int zone_init(struct zone *z, const struct compact_params *par,
	      struct zone_desc *desc, unsigned long max_blocks, bool tree);
void zone_destroy(struct zone *z);
struct zone_desc *zone_desc_alloc(unsigned long start, unsigned long spanned,
				  unsigned long managed, unsigned long pageblock);
/*
 * Publish @nd, free the old descriptor after a grace period: through
 * call_rcu(), or (_sync, a caller that may sleep) after synchronize_rcu().
 */
void zone_desc_replace(struct zone *z, struct zone_desc *nd);
void zone_desc_replace_sync(struct zone *z, struct zone_desc *nd);

/*
 * docs/spec/compaction.md#cmp-threshold: the depletion threshold for a zone of
 * @managed pages at failed order @cof.
 */
unsigned long compaction_threshold(enum compact_policy policy,
				   unsigned long managed, long cof);
/* compact_success < threshold, from independent loads (as in the kernel). */
bool compaction_depleted(struct zone *z, unsigned long managed);
/* The same decision from the hpcc counter: approximate, precise only when unsure. */
bool compaction_depleted_hpcc(struct zone *z, unsigned long managed, bool *precise);
/* The same decision from the hpcc counter's precise sum. */
bool compaction_depleted_hpcc_precise(struct zone *z, unsigned long managed);

/*
 * docs/spec/compaction.md#cmp-scan-limit: the migration scan limit for a run of
 * @order, given the state seen at run start. A depth of BITS_PER_LONG or more
 * would be an undefined shift: it is detected before shifting, *shift_overflow
 * is set and the limit computed as if fully shifted (the cluster floor).
 */
long compaction_scan_limit(const struct compact_params *par, unsigned long managed,
			   int order, bool depleted, unsigned long depth,
			   bool *shift_overflow);

/*
 * The self-stabilising limit for a run of @order given the average @avg_fp
 * seen at run start (fixed point): LONG_MAX while there is no average.
 */
long compaction_stable_limit(const struct compact_params *par, unsigned long managed,
			     int order, long avg_fp);
/* The running average after one more sample of @sample pages per success. */
long compaction_stable_average(const struct compact_params *par, long old_fp, long sample);
/* The parameters in force: the defaults for 0. */
unsigned int compaction_stable_mult(const struct compact_params *par);
unsigned int compaction_stable_weight(const struct compact_params *par);

/* What one success did to the average (for the invariant checkers). */
struct compact_stable_update {
	long old_avg, sample, new_avg;
};

/* A round scanned @n pages. */
void compaction_stable_scanned(struct zone *z, unsigned long n);
/* A run found a suitable page: the pages scanned since the last one become a sample. */
void compaction_stable_success(struct zone *z, struct compact_stable_update *u);

/* What one reset saw and did (for the invariant checkers). */
struct compact_reset_report {
	bool was_depleted_flag;		/* DEPLETED seen on by the test */
	bool judged_depleted;		/* compaction_depleted() said yes */
	long success_seen;		/* s read for the last-resort test */
	long depth_before, depth_after;
	bool entered, deepened;
	bool set_scanallfree;
	bool set_depleted;
	long depth_incremented;		/* what the deepening RMW returned */
};

/*
 * docs/spec/compaction.md#cmp-reset / #cmp-p5-dangling-else:
 * __reset_isolation_suitable(), intended or as posted.
 */
void compaction_reset(struct zone *z, const struct zone_desc *d,
		      struct compact_reset_report *rep);

/* docs/spec/compaction.md#cmp-leave: the end of a compact_zone() that passed its early exits. */
void compaction_zone_finish(struct zone *z, unsigned long managed);

/* docs/spec/compaction.md#cmp-state / P4: the failure counter. */
bool compaction_fail(struct zone *z, int order);
void compaction_failed_reset(struct zone *z, int order, bool alloc_success);
bool compaction_restarting(struct zone *z, int order);

/* docs/spec/compaction.md#cmp-deferral: v4.3 deferral (Base policy). */
void compaction_defer(struct zone *z, int order);
bool compaction_deferred(struct zone *z, int order);
void compaction_defer_reset(struct zone *z, int order, bool alloc_success);
bool compaction_restarting_base(struct zone *z, int order);

/* A run saw a suitable free page (__compact_finished): s += 1. Returns the new s. */
long compaction_note_success(struct zone *z);

#endif /* _MM_COMPACTION_H */
