// SPDX-License-Identifier: GPL-2.0
/*
 * The per-zone compaction state machine of the 2015 v2 series (depletion,
 * scan limit, failure counter) and the v4.3 deferral it replaced. See
 * docs/spec/compaction.md; the anchors cited below are its sections.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/errno.h>
#include <linux/bitops.h>
#include <linux/percpu_counter_tree.h>
#include "mm/compaction.h"
#include "mm/kcompact.h"

#define SUCCESS_TREE_BATCH	32

__thread unsigned long zone_own_writes;

int zone_init(struct zone *z, const struct compact_params *par,
	      struct zone_desc *desc, unsigned long max_blocks, bool tree)
{
	size_t words = (max_blocks + BITS_PER_LONG - 1) / BITS_PER_LONG;

	memset(z, 0, sizeof(*z));
	z->par = par;
	z->max_blocks = max_blocks;
	z->skip_migrate = kcalloc(words, sizeof(long), GFP_KERNEL);
	z->skip_free = kcalloc(words, sizeof(long), GFP_KERNEL);
	if (!z->skip_migrate || !z->skip_free)
		goto fail;
	if (tree) {
		z->success_items = kzalloc(percpu_counter_tree_items_size(), GFP_KERNEL);
		if (!z->success_items ||
		    percpu_counter_tree_init(&z->success_tree, z->success_items,
					     SUCCESS_TREE_BATCH, GFP_KERNEL))
			goto fail;
		z->has_tree = true;
	}
	/* v4.3 never initialises compact_order_failed: the zeroed zone gives 0. */
	z->compact_cached_migrate_pfn[0] = desc->zone_start_pfn;
	z->compact_cached_migrate_pfn[1] = desc->zone_start_pfn;
	z->compact_cached_free_pfn = par->policy == COMPACT_POLICY_BASE ?
		zone_desc_end_pfn(desc) : desc->zone_start_pfn;
	RCU_INIT_POINTER(z->desc, desc);
	return 0;
fail:
	kfree(z->success_items);
	kfree(z->skip_migrate);
	kfree(z->skip_free);
	return -ENOMEM;
}

void zone_destroy(struct zone *z)
{
	if (z->has_tree)
		percpu_counter_tree_destroy(&z->success_tree);
	kfree(z->success_items);
	kfree(z->skip_migrate);
	kfree(z->skip_free);
	kfree(rcu_dereference_protected(z->desc, 1));
	z->desc = NULL;
}

struct zone_desc *zone_desc_alloc(unsigned long start, unsigned long spanned,
				  unsigned long managed, unsigned long pageblock)
{
	struct zone_desc *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return NULL;
	d->zone_start_pfn = start;
	d->spanned_pages = spanned;
	d->managed_pages = managed;
	d->pageblock_nr_pages = pageblock;
	return d;
}

static void zone_desc_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct zone_desc, rcu));
}

/* Publish @nd, filled before readers can see it; the old one is returned. */
static struct zone_desc *zone_desc_publish(struct zone *z, struct zone_desc *nd)
{
	struct zone_desc *old = rcu_dereference_protected(z->desc, 1);

	/* A point of the explorer's: the mutant that moves it past the publish. */
	WRITE_ONCE(nd->generation, old->generation + 1);
	rcu_assign_pointer(z->desc, nd);
	return old;
}

void zone_desc_replace(struct zone *z, struct zone_desc *nd)
{
	struct zone_desc *old = zone_desc_publish(z, nd);

	call_rcu(&old->rcu, zone_desc_free_rcu);
}

/* The same from a context that may sleep (memory hotplug): wait, then free. */
void zone_desc_replace_sync(struct zone *z, struct zone_desc *nd)
{
	struct zone_desc *old = zone_desc_publish(z, nd);

	synchronize_rcu();
	kfree(old);
}

unsigned long compaction_threshold(enum compact_policy policy,
				   unsigned long managed, long cof)
{
	unsigned long n;

	if (policy != COMPACT_POLICY_P9)
		return 1;
	if (cof < 0)
		cof = 0;
	/* Blocks of the failed order; the scanner sees under a quarter; 1/128. */
	n = cof >= BITS_PER_LONG ? 0 : managed >> cof;
	n >>= 2;
	return max(n >> 7, 4UL);
}

bool compaction_depleted(struct zone *z, unsigned long managed)
{
	long s = zone_read(z, &z->compact_success);
	long cof = zone_read(z, &z->compact_order_failed);

	return s < (long)compaction_threshold(z->par->policy, managed, cof);
}

bool compaction_depleted_hpcc(struct zone *z, unsigned long managed, bool *precise)
{
	long cof = zone_read(z, &z->compact_order_failed);
	long target = zone_read(z, &z->success_base) +
		      (long)compaction_threshold(z->par->policy, managed, cof);
	int r;

	/* 1: target certainly above the count, i.e. fewer than T successes. */
	r = percpu_counter_tree_approximate_compare_value(&z->success_tree, target);
	*precise = !r;
	if (!r)
		r = percpu_counter_tree_precise_compare_value(&z->success_tree, target);
	return r > 0;
}

bool compaction_depleted_hpcc_precise(struct zone *z, unsigned long managed)
{
	long cof = zone_read(z, &z->compact_order_failed);
	long s = percpu_counter_tree_precise_sum(&z->success_tree) -
		 zone_read(z, &z->success_base);

	return s < (long)compaction_threshold(z->par->policy, managed, cof);
}

long compaction_scan_limit(const struct compact_params *par, unsigned long managed,
			   int order, bool depleted, unsigned long depth,
			   bool *shift_overflow)
{
	unsigned long x;

	*shift_overflow = false;
	if (order < 0 || !depleted || !depth)
		return COMPACT_SCAN_UNLIMITED;
	/* A quarter of the zone over 64 attempts; pageblock floor before the shift. */
	x = max((managed >> 2) >> 6, par->min_scan_limit);
	if (depth >= BITS_PER_LONG) {
		/* x >> depth is undefined in C; x86 would mask it to depth & 63. */
		*shift_overflow = true;
		x = 0;
	} else {
		x >>= depth;
	}
	return (long)max(x, par->cluster_max);
}

long compaction_note_success(struct zone *z)
{
	if (z->has_tree)
		percpu_counter_tree_add(&z->success_tree, 1);
	zone_add_return(z, &z->success_events, 1);
	return zone_add_return(z, &z->compact_success, 1);
}

unsigned int compaction_stable_mult(const struct compact_params *par)
{
	return par->stable_mult ? par->stable_mult : COMPACT_STABLE_MULT;
}

unsigned int compaction_stable_weight(const struct compact_params *par)
{
	return par->stable_weight ? par->stable_weight : COMPACT_STABLE_WEIGHT;
}

long compaction_stable_limit(const struct compact_params *par, unsigned long managed,
			     int order, long avg_fp)
{
	unsigned long x;

	if (order < 0 || avg_fp <= 0)
		return COMPACT_SCAN_UNLIMITED;
	/* A mean above the zone is a full pass anyway; no overflow in the product. */
	if ((unsigned long)avg_fp >= (managed << COMPACT_STABLE_FP_SHIFT))
		return (long)max(managed, par->cluster_max);
	x = ((unsigned long)avg_fp * compaction_stable_mult(par)) >> COMPACT_STABLE_FP_SHIFT;
	return (long)max(min(x, managed), par->cluster_max);
}

long compaction_stable_average(const struct compact_params *par, long old_fp, long sample)
{
	long s = sample << COMPACT_STABLE_FP_SHIFT;

	/* The first sample seeds the average. */
	if (old_fp <= 0)
		return s;
	return old_fp + (s - old_fp) / (long)compaction_stable_weight(par);
}

void compaction_stable_scanned(struct zone *z, unsigned long n)
{
	zone_add_return(z, &z->compact_scan_since, (long)n);
}

void compaction_stable_success(struct zone *z, struct compact_stable_update *u)
{
	/* Unlocked, as the kernel would: a racing update may be lost (a hint). */
	u->sample = max(zone_read(z, &z->compact_scan_since), 0L);
	u->old_avg = zone_read(z, &z->compact_scan_avg);
	u->new_avg = compaction_stable_average(z->par, u->old_avg, u->sample);
	zone_write(z, &z->compact_scan_avg, u->new_avg);
	zone_add_return(z, &z->compact_scan_since, -u->sample);
}

static void reset_skip_bits(struct zone *z)
{
	size_t words = (z->max_blocks + BITS_PER_LONG - 1) / BITS_PER_LONG;
	size_t i;

	for (i = 0; i < words; i++) {
		__atomic_store_n(&z->skip_migrate[i], 0UL, __ATOMIC_RELAXED);
		__atomic_store_n(&z->skip_free[i], 0UL, __ATOMIC_RELAXED);
	}
}

/* The depletion part of the reset (P2 + P5), as intended or as posted. */
static void reset_depletion(struct zone *z, unsigned long managed,
			    struct compact_reset_report *rep)
{
	rep->judged_depleted = compaction_depleted(z, managed);
	if (!rep->judged_depleted)
		return;
	rep->was_depleted_flag = zone_test_flag(z, ZONE_COMPACTION_DEPLETED);
	rep->depth_before = zone_read(z, &z->compact_depletion_depth);
	if (z->par->p5 == COMPACT_P5_INTENDED) {
		if (rep->was_depleted_flag) {
			rep->depth_after = zone_add_return(z, &z->compact_depletion_depth, 1);
			rep->depth_incremented = rep->depth_after;
			rep->deepened = true;
			rep->success_seen = zone_read(z, &z->compact_success);
			if (!rep->success_seen) {
				zone_set_flag(z, ZONE_COMPACTION_SCANALLFREE);
				rep->set_scanallfree = true;
			}
		} else {
			zone_set_flag(z, ZONE_COMPACTION_DEPLETED);
			zone_write(z, &z->compact_depletion_depth, 0);
			rep->depth_after = 0;
			rep->entered = rep->set_depleted = true;
		}
		return;
	}
	/*
	 * As posted (docs/spec/compaction.md#cmp-p5-dangling-else):
	 *	if (test_bit(ZONE_COMPACTION_DEPLETED, &zone->flags))
	 *		zone->compact_depletion_depth++;
	 *	if (!zone->compact_success)
	 *		set_bit(ZONE_COMPACTION_SCANALLFREE, &zone->flags);
	 *	else {
	 *		set_bit(ZONE_COMPACTION_DEPLETED, &zone->flags);
	 *		zone->compact_depletion_depth = 0;
	 *	}
	 */
	rep->depth_after = rep->depth_before;
	if (rep->was_depleted_flag) {
		rep->depth_after = zone_add_return(z, &z->compact_depletion_depth, 1);
		rep->depth_incremented = rep->depth_after;
		rep->deepened = true;
	}
	rep->success_seen = zone_read(z, &z->compact_success);
	if (!rep->success_seen) {
		zone_set_flag(z, ZONE_COMPACTION_SCANALLFREE);
		rep->set_scanallfree = true;
	} else {
		zone_set_flag(z, ZONE_COMPACTION_DEPLETED);
		zone_write(z, &z->compact_depletion_depth, 0);
		rep->depth_after = 0;
		rep->entered = !rep->was_depleted_flag;
		rep->set_depleted = true;
	}
}

void compaction_reset(struct zone *z, const struct zone_desc *d,
		      struct compact_reset_report *rep)
{
	long start = d->zone_start_pfn;

	memset(rep, 0, sizeof(*rep));
	zone_write(z, &z->compact_cached_migrate_pfn[0], start);
	zone_write(z, &z->compact_cached_migrate_pfn[1], start);
	/* P7 turned the free scanner around: it starts at the zone start. */
	zone_write(z, &z->compact_cached_free_pfn,
		   z->par->policy == COMPACT_POLICY_BASE ? (long)zone_desc_end_pfn(d) : start);
	zone_write(z, &z->compact_blockskip_flush, 0);
	if (z->par->policy != COMPACT_POLICY_BASE) {
		zone_clear_flag(z, ZONE_COMPACTION_SCANALLFREE);
		reset_depletion(z, d->managed_pages, rep);
		zone_write(z, &z->compact_success, 0);
		if (z->has_tree)
			zone_write(z, &z->success_base,
				   percpu_counter_tree_precise_sum(&z->success_tree));
		zone_write(z, &z->compact_failed, 0);
	}
	reset_skip_bits(z);
}

void compaction_zone_finish(struct zone *z, unsigned long managed)
{
	if (!zone_test_flag(z, ZONE_COMPACTION_DEPLETED))
		return;
	/*
	 * Both rules of docs/spec/compaction.md#cmp-states judge the state at
	 * the finish; SCANALLFREE goes first so that it is never seen on with
	 * DEPLETED already off.
	 */
	if (zone_read(z, &z->compact_success) > 0 &&
	    zone_test_flag(z, ZONE_COMPACTION_SCANALLFREE))
		zone_clear_flag(z, ZONE_COMPACTION_SCANALLFREE);
	if (!compaction_depleted(z, managed))
		zone_clear_flag(z, ZONE_COMPACTION_DEPLETED);
}

/* True when the failure was counted (f += 1), false when it lowered cof. */
bool compaction_fail(struct zone *z, int order)
{
	if (order < zone_read(z, &z->compact_order_failed)) {
		zone_write(z, &z->compact_order_failed, order);
		zone_write(z, &z->compact_failed, 0);
		return false;
	}
	zone_add_return(z, &z->failed_events, 1);
	zone_add_return(z, &z->compact_failed, 1);
	return true;
}

void compaction_failed_reset(struct zone *z, int order, bool alloc_success)
{
	if (alloc_success)
		zone_write(z, &z->compact_failed, 0);
	if (order >= zone_read(z, &z->compact_order_failed))
		zone_write(z, &z->compact_order_failed, min(order + 1, MAX_ORDER));
}

bool compaction_restarting(struct zone *z, int order)
{
	return order >= zone_read(z, &z->compact_order_failed) &&
	       zone_read(z, &z->compact_failed) >= COMPACT_MAX_FAILED;
}

/*
 * docs/spec/compaction.md#cmp-deferral: the v4.3 deferral, on the three
 * fields only, so that a kernel tree's code can take the same inputs.
 */
bool defer_model(struct defer_state *s, enum defer_op op, int order, bool alloc_success)
{
	long limit;

	switch (op) {
	case DEFER_OP_DEFER:
		s->considered = 0;
		if (++s->shift > COMPACT_MAX_DEFER_SHIFT)
			s->shift = COMPACT_MAX_DEFER_SHIFT;
		if (order < s->order_failed)
			s->order_failed = order;
		return false;
	case DEFER_OP_DEFERRED:
		limit = 1L << s->shift;
		if (order < s->order_failed)
			return false;
		if (++s->considered > limit)
			s->considered = limit;
		return s->considered < limit;
	case DEFER_OP_RESET:
		if (alloc_success) {
			s->considered = 0;
			s->shift = 0;
		}
		if (order >= s->order_failed)
			s->order_failed = min(order + 1, MAX_ORDER);
		return false;
	default:
		if (order < s->order_failed)
			return false;
		return s->shift == COMPACT_MAX_DEFER_SHIFT &&
		       s->considered >= 1L << COMPACT_MAX_DEFER_SHIFT;
	}
}

static const char *const defer_op_names[DEFER_NR_OPS] = {
	"defer_compaction", "compaction_deferred", "compaction_defer_reset",
	"compaction_restarting",
};

const char *defer_op_name(enum defer_op op)
{
	return defer_op_names[op];
}

static struct defer_agreement defer_agree;
static int defer_first_taken;

bool defer_judged(struct defer_state *s, enum defer_op op, int order, bool alloc_success)
{
	struct defer_state m = *s;
	bool mret = defer_model(&m, op, order, alloc_success);
#ifdef CONFIG_KCOMPACT
	struct defer_state k = *s;
	bool kret = defer_kernel(&k, op, order, alloc_success);

	__atomic_fetch_add(&defer_agree.decisions[op], 1, __ATOMIC_RELAXED);
	if (kret != mret || k.considered != m.considered || k.shift != m.shift ||
	    k.order_failed != m.order_failed) {
		__atomic_fetch_add(&defer_agree.disagreements[op], 1, __ATOMIC_RELAXED);
		if (!__atomic_exchange_n(&defer_first_taken, 1, __ATOMIC_ACQ_REL))
			snprintf(defer_agree.first, sizeof(defer_agree.first),
				 "%s(order %d%s) from considered %ld shift %ld order_failed %ld: "
				 "model %d -> %ld/%ld/%ld, kernel %d -> %ld/%ld/%ld",
				 defer_op_names[op], order,
				 op == DEFER_OP_RESET ? (alloc_success ? ", success" : ", no success") : "",
				 s->considered, s->shift, s->order_failed,
				 mret, m.considered, m.shift, m.order_failed,
				 kret, k.considered, k.shift, k.order_failed);
	}
	/* The tree's code decides; the model is its judge. */
	*s = k;
	return kret;
#else
	*s = m;
	return mret;
#endif
}

bool defer_have_kernel(void)
{
#ifdef CONFIG_KCOMPACT
	return true;
#else
	return false;
#endif
}

void defer_agreement_get(struct defer_agreement *a)
{
	int i;

	a->nr_decisions = a->nr_disagreements = 0;
	for (i = 0; i < DEFER_NR_OPS; i++) {
		a->decisions[i] = __atomic_load_n(&defer_agree.decisions[i], __ATOMIC_RELAXED);
		a->disagreements[i] = __atomic_load_n(&defer_agree.disagreements[i],
						      __ATOMIC_RELAXED);
		a->nr_decisions += a->decisions[i];
		a->nr_disagreements += a->disagreements[i];
	}
	if (__atomic_load_n(&defer_first_taken, __ATOMIC_ACQUIRE))
		memcpy(a->first, defer_agree.first, sizeof(a->first));
	else
		a->first[0] = 0;
}

void defer_agreement_clear(void)
{
	memset(&defer_agree, 0, sizeof(defer_agree));
	__atomic_store_n(&defer_first_taken, 0, __ATOMIC_RELEASE);
}

unsigned long defer_agreement_line(char *buf, size_t len)
{
	struct defer_agreement a;
	unsigned long n, bad;

	if (!defer_have_kernel()) {
		snprintf(buf, len, "%s", defer_impl_describe());
		return 0;
	}
	defer_agreement_get(&a);
	n = a.nr_decisions;
	bad = a.nr_disagreements;
	snprintf(buf, len, "%s: %lu decisions, %lu agree (defer %lu, deferred %lu, reset %lu, "
		 "restarting %lu)%s%s", defer_impl_describe(), n, n - bad,
		 a.decisions[DEFER_OP_DEFER], a.decisions[DEFER_OP_DEFERRED],
		 a.decisions[DEFER_OP_RESET], a.decisions[DEFER_OP_RESTARTING],
		 bad ? "; first disagreement: " : "", a.first);
	return bad;
}

const char *defer_impl_describe(void)
{
#ifdef CONFIG_KCOMPACT
	static char buf[512];

	snprintf(buf, sizeof(buf), "kernel %s (sha256 %.12s; COMPACT_MAX_DEFER_SHIFT from %s)",
		 kcompact_info.source, kcompact_info.sha256, kcompact_info.shift_source);
	return buf;
#else
	return "model (lib/mm/compaction.c)";
#endif
}

/*
 * The zone's deferral: the fields are read, the call judged on the copy,
 * and what changed stored back, an unlocked read-modify-write as in the
 * kernel (a concurrent update can be lost in every atomic mode).
 */
static bool zone_defer_op(struct zone *z, enum defer_op op, int order, bool alloc_success)
{
	struct defer_state s = {
		.considered = zone_read(z, &z->compact_considered),
		.shift = zone_read(z, &z->compact_defer_shift),
		.order_failed = zone_read(z, &z->compact_order_failed),
	};
	struct defer_state o = s;
	bool ret = defer_judged(&s, op, order, alloc_success);

	if (s.considered != o.considered)
		zone_write(z, &z->compact_considered, s.considered);
	if (s.shift != o.shift)
		zone_write(z, &z->compact_defer_shift, s.shift);
	if (s.order_failed != o.order_failed)
		zone_write(z, &z->compact_order_failed, s.order_failed);
	return ret;
}

void compaction_defer(struct zone *z, int order)
{
	zone_defer_op(z, DEFER_OP_DEFER, order, false);
}

bool compaction_deferred(struct zone *z, int order)
{
	return zone_defer_op(z, DEFER_OP_DEFERRED, order, false);
}

void compaction_defer_reset(struct zone *z, int order, bool alloc_success)
{
	zone_defer_op(z, DEFER_OP_RESET, order, alloc_success);
}

bool compaction_restarting_base(struct zone *z, int order)
{
	return zone_defer_op(z, DEFER_OP_RESTARTING, order, false);
}
