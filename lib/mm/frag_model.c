// SPDX-License-Identifier: GPL-2.0
/*
 * The fragmentation model (docs/spec/compaction.md#cmp-published): direct
 * compaction of one zone by several requesters. Base is v4.3 (deferral, classic
 * scanners); Limit and Nonmovable add the depletion state machine and scan
 * limit (P1-P5) to the classic scanners; Redesign and Threshold use the v2
 * scanners (P6-P8), with threshold 1 and P9. Requesters are threads that take
 * turns step by step (async compaction, reclaim, sync compaction) in a fixed
 * order, so a seed gives one result (kc_turn_run(): fibers on one thread
 * where the build has them).
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/errno.h>
#include <kcompat/turn.h>
#include "util/rng.h"
#include "mm/frag_model.h"
#include "mm/frag_buddy.h"

enum compact_status {
	COMPACT_SKIPPED,
	COMPACT_DEFERRED,
	COMPACT_CONTINUE,
	COMPACT_PARTIAL,
	COMPACT_COMPLETE,
};

struct frag {
	const struct frag_config *cfg;
	struct frag_stats *st;
	struct frag_buddy b;
	struct compact_params par;
	struct zone zone;
	bool deferral;			/* Base: v4.3 deferral instead of depletion */
	bool classic;			/* v4.3 scanners (before P6-P8) */
	bool scanallfree;		/* P5: SCANALLFREE opens non-movable blocks */
	bool stable;			/* the self-stabilising limit instead of the depth's */
	unsigned char *pb_movable;	/* pageblock migratetype */
	unsigned long nr_pb;
	struct rng rng;
	/* Turn-taking between requester threads (only the holder touches the model). */
	struct kc_turn turn;
	unsigned char *done;		/* per requester: no more steps */
	unsigned long next_request;
	unsigned int nthreads;
};

struct frag_cc {
	int order;
	bool sync;
	unsigned long migrate_pfn, free_pfn;
	long limit;
	bool limited;
	unsigned int *freepages;
	unsigned long nr_freepages;
	unsigned int *migratepages;
	unsigned long nr_migratepages;
	unsigned long lowest_released;
};

/* Room for one round of isolated pages (one pageblock at most, or cluster_max). */
static unsigned long frag_list_len(const struct frag *m)
{
	return m->par.cluster_max + m->cfg->pageblock;
}

static unsigned long frag_below(struct frag *m, unsigned long n)
{
	/* Modulo, not rng_below(): keeps the published tables' numbers. */
	return n ? rng_next(&m->rng) % n : 0;
}

static bool test_skip(unsigned long *map, unsigned long blk)
{
	return (__atomic_load_n(&map[blk / BITS_PER_LONG], __ATOMIC_RELAXED) >>
		(blk % BITS_PER_LONG)) & 1;
}

static void set_skip(unsigned long *map, unsigned long blk, bool on)
{
	unsigned long bit = 1UL << (blk % BITS_PER_LONG);

	if (on)
		__atomic_fetch_or(&map[blk / BITS_PER_LONG], bit, __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(&map[blk / BITS_PER_LONG], ~bit, __ATOMIC_RELAXED);
}

/* Pins scattered so that exactly cfg->candidates aligned order-3 blocks stay clean. */
static int frag_setup_memory(struct frag *m)
{
	const struct frag_config *cfg = m->cfg;
	unsigned long nr8 = cfg->nr_frames >> cfg->order, noncand, i, j, per, extra;
	unsigned long size8 = 1UL << cfg->order, nfree, tries;
	unsigned int *idx = kcalloc(nr8, sizeof(*idx), GFP_KERNEL);
	unsigned char *cand = kcalloc(nr8, 1, GFP_KERNEL);

	if (!idx || !cand || cfg->candidates > nr8) {
		kfree(idx);
		kfree(cand);
		return idx && cand ? -EINVAL : -ENOMEM;
	}
	for (i = 0; i < nr8; i++)
		idx[i] = i;
	for (i = nr8 - 1; i > 0; i--) {
		j = frag_below(m, i + 1);	/* swap() evaluates its arguments twice */
		swap(idx[i], idx[j]);
	}
	for (i = 0; i < cfg->candidates; i++)
		cand[idx[i]] = 1;
	noncand = nr8 - cfg->candidates;
	per = noncand ? cfg->pinned / noncand : 0;
	extra = noncand ? cfg->pinned % noncand : 0;
	for (i = cfg->candidates; i < nr8; i++) {
		unsigned long base = (unsigned long)idx[i] * size8;
		unsigned long want = min(per + (i - cfg->candidates < extra), size8 - 1);

		for (j = 0; j < want; ) {
			unsigned long pfn = base + frag_below(m, size8);

			if (m->b.state[pfn] != FRAME_PINNED) {
				m->b.state[pfn] = FRAME_PINNED;
				j++;
			}
		}
	}
	m->st->candidates = cfg->candidates;
	/* The free pool: single frames outside the candidates (no order-3 page yet). */
	for (nfree = 0, tries = 0; nfree < cfg->free_pages && tries < 64 * cfg->nr_frames; tries++) {
		unsigned long pfn = frag_below(m, cfg->nr_frames);

		if (cand[pfn >> cfg->order] || m->b.state[pfn] != FRAME_MOVABLE)
			continue;
		frag_buddy_free(&m->b, pfn, 0);
		nfree++;
	}
	/* Mostly movable pageblocks: one in 16 is unmovable. */
	for (i = 0; i < m->nr_pb; i++)
		m->pb_movable[i] = (i % 16) != 15;
	kfree(idx);
	kfree(cand);
	return 0;
}

/* P5: non-async runs may take free pages from non-movable blocks under SCANALLFREE. */
static bool suitable_target(struct frag *m, struct frag_cc *cc, unsigned long blk)
{
	if (m->pb_movable[blk])
		return true;
	return m->scanallfree && cc->sync &&
	       zone_test_flag(&m->zone, ZONE_COMPACTION_SCANALLFREE);
}

/* Take the free blocks of pageblock @blk as migration targets. */
static unsigned long isolate_free_block(struct frag *m, struct frag_cc *cc, unsigned long blk)
{
	unsigned long pb = m->cfg->pageblock, pfn = blk * pb, end = pfn + pb, got = 0, i;

	while (pfn < end) {
		int o = m->b.free_order[pfn];

		m->st->compact_free_scanned++;
		m->st->mode_free_scanned[cc->sync]++;
		/* P8: v2 leaves buddy pages of the requested order alone. */
		if (o < 0 || (!m->classic && o >= cc->order)) {
			pfn += o < 0 ? 1 : 1UL << o;
			continue;
		}
		frag_buddy_isolate(&m->b, pfn);
		for (i = 0; i < 1UL << o; i++)
			cc->freepages[cc->nr_freepages++] = pfn + i;
		got += 1UL << o;
		pfn += 1UL << o;
	}
	m->st->free_isolated += got;
	m->st->compact_isolated += got;
	return got;
}

/* v2 (P7): the free scanner goes forward from the cached pfn and wraps once. */
static void isolate_freepages_v2(struct frag *m, struct frag_cc *cc)
{
	struct zone *z = &m->zone;
	unsigned long pb = m->cfg->pageblock, blk = cc->free_pfn / pb, n;
	unsigned long mblk = cc->migrate_pfn / pb;

	for (n = 0; n < m->nr_pb && cc->nr_freepages < m->par.cluster_max; n++, blk++) {
		if (blk >= m->nr_pb)
			blk = 0;
		if (blk == mblk || test_skip(z->skip_free, blk) || !suitable_target(m, cc, blk))
			continue;
		if (isolate_free_block(m, cc, blk))
			set_skip(z->skip_migrate, blk, true);	/* P7 */
		else
			set_skip(z->skip_free, blk, true);
	}
	cc->free_pfn = (blk % m->nr_pb) * pb;
}

/* v4.3: the free scanner goes down from the cached pfn towards the migrate scanner. */
static void isolate_freepages_base(struct frag *m, struct frag_cc *cc)
{
	struct zone *z = &m->zone;
	unsigned long pb = m->cfg->pageblock;
	long blk = (long)(cc->free_pfn / pb) - 1, mblk = cc->migrate_pfn / pb;

	for (; blk > mblk && cc->nr_freepages < m->par.cluster_max; blk--) {
		if (test_skip(z->skip_free, blk) || !suitable_target(m, cc, blk))
			continue;
		if (!isolate_free_block(m, cc, blk))
			set_skip(z->skip_free, blk, true);
	}
	/* Ran into the migrate scanner's block: the scanners met. */
	cc->free_pfn = blk > mblk ? (blk + 1) * pb : mblk * pb;
}

/* One round: the rest of the current pageblock, at most cluster_max pages isolated. */
static void isolate_migratepages(struct frag *m, struct frag_cc *cc)
{
	struct zone *z = &m->zone;
	unsigned long pb = m->cfg->pageblock, blk = cc->migrate_pfn / pb;
	unsigned long pfn = cc->migrate_pfn, end = (blk + 1) * pb, scanned = 0;
	bool block_start = !(pfn % pb);

	if (test_skip(z->skip_migrate, blk)) {
		cc->migrate_pfn = end;
		return;
	}
	for (; pfn < end && cc->nr_migratepages < m->par.cluster_max; pfn++) {
		scanned++;
		if (m->b.state[pfn] == FRAME_MOVABLE) {
			m->b.state[pfn] = FRAME_ISOLATED;
			cc->migratepages[cc->nr_migratepages++] = pfn;
		}
	}
	m->st->compact_migrate_scanned += scanned;
	m->st->mode_migrate_scanned[cc->sync] += scanned;
	if (m->stable)
		compaction_stable_scanned(z, scanned);
	if (cc->limited)
		m->st->limited_scanned += scanned;
	m->st->migrate_isolated += cc->nr_migratepages;
	m->st->compact_isolated += cc->nr_migratepages;
	cc->limit -= scanned;
	cc->migrate_pfn = pfn;
	if (pfn == end && block_start && !cc->nr_migratepages)
		set_skip(z->skip_migrate, blk, true);
	if (pfn == end && cc->nr_migratepages && !m->classic)
		set_skip(z->skip_free, blk, false);		/* P7 */
}

/* Migrate the isolated pages; false when the free scanner ran dry (-ENOMEM). */
static bool migrate_pages(struct frag *m, struct frag_cc *cc)
{
	unsigned long i;
	bool ok = true;

	for (i = 0; i < cc->nr_migratepages; i++) {
		unsigned long src = cc->migratepages[i], dst;

		if (!cc->nr_freepages) {
			if (m->classic)
				isolate_freepages_base(m, cc);
			else
				isolate_freepages_v2(m, cc);
		}
		if (!cc->nr_freepages) {
			m->b.state[src] = FRAME_MOVABLE;	/* putback */
			ok = false;
			continue;
		}
		dst = cc->freepages[--cc->nr_freepages];
		m->b.state[dst] = FRAME_MOVABLE;
		frag_buddy_free(&m->b, src, 0);
		m->st->pgmigrate_success++;
	}
	cc->nr_migratepages = 0;
	return ok;
}

static void release_freepages(struct frag *m, struct frag_cc *cc)
{
	while (cc->nr_freepages) {
		unsigned long pfn = cc->freepages[--cc->nr_freepages];

		cc->lowest_released = min(cc->lowest_released, pfn);
		frag_buddy_free(&m->b, pfn, 0);
	}
}

/*
 * __compact_finished(): the order of checks of
 * docs/spec/compaction.md#cmp-scan-limit. Scanners met (classic)
 * or migrate scanner at the zone end (v2), then the scan limit (from P4),
 * then a suitable page, which the depletion kernels count (s += 1).
 */
static enum compact_status compact_finished(struct frag *m, struct frag_cc *cc)
{
	struct zone *z = &m->zone;
	unsigned long end = m->cfg->nr_frames;

	if (m->classic) {
		/* v4.3 compact_scanners_met(): compares pageblocks. */
		if (cc->free_pfn / m->cfg->pageblock <= cc->migrate_pfn / m->cfg->pageblock) {
			zone_write(z, &z->compact_cached_migrate_pfn[0], 0);
			zone_write(z, &z->compact_cached_migrate_pfn[1], 0);
			zone_write(z, &z->compact_cached_free_pfn, end);
			zone_write(z, &z->compact_blockskip_flush, 1);
			m->st->zone_end++;
			return COMPACT_COMPLETE;
		}
	} else if (cc->migrate_pfn >= end) {
		if (!cc->sync) {
			zone_write(z, &z->compact_cached_migrate_pfn[0], end);
			return COMPACT_PARTIAL;
		}
		zone_write(z, &z->compact_cached_migrate_pfn[0], 0);
		zone_write(z, &z->compact_cached_migrate_pfn[1], 0);
		zone_write(z, &z->compact_blockskip_flush, 1);
		m->st->zone_end++;
		return COMPACT_COMPLETE;
	}
	if (cc->limit < 0) {
		m->st->budget_stops++;
		m->st->mode_budget_stops[cc->sync]++;
		return COMPACT_PARTIAL;
	}
	if (frag_buddy_has_order(&m->b, cc->order)) {
		if (!m->deferral) {
			compaction_note_success(z);
			m->st->zone_successes++;
		}
		if (m->stable) {
			struct compact_stable_update u;

			compaction_stable_success(z, &u);
			m->st->stable_samples++;
		}
		return COMPACT_PARTIAL;
	}
	return COMPACT_CONTINUE;
}

static enum compact_status compact_zone(struct frag *m, struct frag_cc *cc)
{
	struct zone *z = &m->zone;
	struct compact_reset_report rep;
	unsigned long end = m->cfg->nr_frames, depth;
	enum compact_status ret;
	bool classic = m->classic, ovf, depleted;

	/* compaction_suitable(): the allocation would succeed already. */
	if (frag_buddy_has_order(&m->b, cc->order))
		return COMPACT_PARTIAL;
	if (m->deferral ? compaction_restarting_base(z, cc->order) :
			 compaction_restarting(z, cc->order)) {
		compaction_reset(z, z->desc, &rep);
		m->st->resets++;
		m->st->depleted_entries += rep.set_depleted && !rep.was_depleted_flag;
		/* Before P7 the free scanner starts at the zone end. */
		if (classic)
			zone_write(z, &z->compact_cached_free_pfn, end);
	}
	cc->migrate_pfn = min_t(unsigned long,
				zone_read(z, &z->compact_cached_migrate_pfn[cc->sync]), end);
	cc->free_pfn = min_t(unsigned long, zone_read(z, &z->compact_cached_free_pfn), end);
	if (!classic && cc->free_pfn >= end)
		cc->free_pfn = 0;
	if (!classic && !cc->sync && cc->migrate_pfn >= end) {
		m->st->skipped++;
		return COMPACT_SKIPPED;				/* P7 */
	}
	depleted = zone_test_flag(z, ZONE_COMPACTION_DEPLETED);
	depth = zone_read(z, &z->compact_depletion_depth);
	if (m->stable) {
		ovf = false;
		cc->limit = compaction_stable_limit(&m->par, z->desc->managed_pages, cc->order,
						    zone_read(z, &z->compact_scan_avg));
	} else {
		cc->limit = compaction_scan_limit(&m->par, z->desc->managed_pages, cc->order,
						  depleted, depth, &ovf);
	}
	m->st->shift_overflows += ovf;
	m->st->max_depth = max(m->st->max_depth, depleted ? depth : 0);
	cc->limited = cc->limit != COMPACT_SCAN_UNLIMITED;
	m->st->limited_runs += cc->limited;
	cc->lowest_released = end;

	while ((ret = compact_finished(m, cc)) == COMPACT_CONTINUE) {
		isolate_migratepages(m, cc);
		if (cc->limited || !classic)
			zone_write(z, &z->compact_cached_migrate_pfn[cc->sync], cc->migrate_pfn);
		if (cc->nr_migratepages && !migrate_pages(m, cc)) {
			m->st->enomem++;
			if (!classic) {
				ret = COMPACT_COMPLETE;		/* P7: -ENOMEM */
				break;
			}
			/* v4.3: -ENOMEM is PARTIAL unless the scanners met. */
			if (cc->free_pfn / m->cfg->pageblock > cc->migrate_pfn / m->cfg->pageblock) {
				ret = COMPACT_PARTIAL;
				break;
			}
		}
	}
	/* Invariant 4: a limited run overshoots by at most one pageblock. */
	if (cc->limited && cc->limit < -(long)m->cfg->pageblock)
		m->st->overshoot_violations++;
	release_freepages(m, cc);
	if (classic)
		zone_write(z, &z->compact_cached_migrate_pfn[cc->sync],
			   ret == COMPACT_COMPLETE ? 0 : cc->migrate_pfn);
	zone_write(z, &z->compact_cached_free_pfn,
		   classic || ret == COMPACT_COMPLETE ? cc->free_pfn :
		   min(cc->free_pfn, cc->lowest_released));
	if (!m->deferral)
		compaction_zone_finish(z, z->desc->managed_pages);
	return ret;
}

/* try_to_compact_pages() for the single zone. */
static enum compact_status try_to_compact(struct frag *m, unsigned int *lists, bool sync)
{
	struct zone *z = &m->zone;
	struct frag_cc cc = { .order = m->cfg->order, .sync = sync };
	enum compact_status ret;

	if (m->deferral && compaction_deferred(z, cc.order)) {
		m->st->deferred++;
		return COMPACT_DEFERRED;
	}
	cc.migratepages = lists;
	cc.freepages = lists + frag_list_len(m);
	ret = compact_zone(m, &cc);
	if (frag_buddy_has_order(&m->b, cc.order)) {
		if (m->deferral)
			compaction_defer_reset(z, cc.order, false);
		else
			compaction_failed_reset(z, cc.order, false);
	} else if (sync && ret == COMPACT_COMPLETE) {
		if (m->deferral)
			compaction_defer(z, cc.order);
		else
			compaction_fail(z, cc.order);
	}
	return ret;
}

static bool try_alloc(struct frag *m, unsigned long *source)
{
	if (frag_buddy_alloc(&m->b, m->cfg->order) < 0)
		return false;
	m->st->alloc_success++;
	(*source)++;
	return true;
}

/* The allocation attempt right after a compaction that was not skipped: success or fail. */
static bool alloc_after_compaction(struct frag *m, bool sync)
{
	struct zone *z = &m->zone;

	if (try_alloc(m, sync ? &m->st->alloc_sync : &m->st->alloc_async)) {
		m->st->compact_success++;
		m->st->mode_success[sync]++;
		if (m->deferral)
			compaction_defer_reset(z, m->cfg->order, true);
		else
			compaction_failed_reset(z, m->cfg->order, true);
		return true;
	}
	m->st->compact_fail++;
	m->st->mode_fail[sync]++;
	return false;
}

/* Direct compaction; true when it counts as a stall (not SKIPPED or DEFERRED). */
static bool direct_compact(struct frag *m, unsigned int *lists, bool sync)
{
	enum compact_status ret = try_to_compact(m, lists, sync);

	if (ret == COMPACT_SKIPPED || ret == COMPACT_DEFERRED)
		return false;
	m->st->compact_stall++;
	m->st->mode_stall[sync]++;
	return true;
}

/* The reclaim stub: free random movable pages (zram and page cache). */
static void reclaim(struct frag *m)
{
	unsigned long n, tries, batch = m->cfg->reclaim_batch;

	for (n = 0, tries = 0; n < batch && tries < 64 * batch; tries++) {
		unsigned long pfn = frag_below(m, m->cfg->nr_frames);

		if (m->b.state[pfn] != FRAME_MOVABLE)
			continue;
		frag_buddy_free(&m->b, pfn, 0);
		n++;
	}
}

/* The hogger touches its memory again: order-0 refaults. */
static void refault(struct frag *m)
{
	unsigned long n;

	for (n = 0; n < m->cfg->refault; n++) {
		long pfn = frag_buddy_alloc(&m->b, 0);

		if (pfn < 0)
			break;
		m->b.state[pfn] = FRAME_MOVABLE;
	}
}

/*
 * The slow path of an order-3 GFP_NORETRY request
 * (docs/spec/compaction.md#cmp-request), one step per turn.
 * The allocation after a compaction is a step of its own: another
 * requester may take the page first, as on the 8-CPU guest.
 */
/*
 * Unmovable memory is not frozen: slab and page-table pages are freed and
 * others allocated (from the smallest free block, as the buddy allocator
 * does). So pin-free order-3 blocks keep appearing after the initial
 * candidates are gone, as order-3 pages kept appearing on the guest.
 */
static void pin_churn(struct frag *m)
{
	unsigned long n, tries;
	long pfn;

	for (n = 0; n < m->cfg->pin_churn; n++) {
		for (tries = 0; tries < 4096; tries++) {
			pfn = frag_below(m, m->cfg->nr_frames);
			if (m->b.state[pfn] == FRAME_PINNED) {
				frag_buddy_free(&m->b, pfn, 0);
				break;
			}
		}
		pfn = frag_buddy_alloc(&m->b, 0);
		if (pfn >= 0)
			m->b.state[pfn] = FRAME_PINNED;
	}
}

/* STABLE: the limit over time, sampled every trace_step requests. */
static void trace_limit(struct frag *m)
{
	struct frag_stats *st = m->st;
	struct zone *z = &m->zone;
	long limit;

	if (m->next_request % st->trace_step || st->trace_len >= FRAG_TRACE_LEN)
		return;
	limit = compaction_stable_limit(&m->par, z->desc->managed_pages, m->cfg->order,
					zone_read(z, &z->compact_scan_avg));
	st->limit_trace[st->trace_len++] = limit == COMPACT_SCAN_UNLIMITED ? 0 : limit;
}

enum req_step { STEP_START, STEP_ASYNC_ALLOC, STEP_RECLAIM, STEP_SYNC, STEP_SYNC_ALLOC };

/* One step of one requester's current request; false when it has no more work. */
static bool request_step(struct frag *m, unsigned int *lists, enum req_step *step)
{
	switch (*step) {
	case STEP_START:
		if (m->next_request >= m->cfg->requests)
			return false;
		if (m->stable)
			trace_limit(m);
		m->next_request++;
		pin_churn(m);
		refault(m);
		if (try_alloc(m, &m->st->alloc_fast))
			return true;
		*step = direct_compact(m, lists, false) ? STEP_ASYNC_ALLOC : STEP_RECLAIM;
		return true;
	case STEP_ASYNC_ALLOC:
		*step = alloc_after_compaction(m, false) ? STEP_START : STEP_RECLAIM;
		return true;
	case STEP_RECLAIM:
		reclaim(m);
		*step = try_alloc(m, &m->st->alloc_reclaim) ? STEP_START : STEP_SYNC;
		return true;
	case STEP_SYNC:
		*step = direct_compact(m, lists, true) ? STEP_SYNC_ALLOC : STEP_START;
		return true;
	case STEP_SYNC_ALLOC:
		alloc_after_compaction(m, true);
		*step = STEP_START;
		return true;
	}
	return false;
}

struct requester {
	struct frag *m;
	unsigned int id;
	unsigned int *lists;	/* the migrate and free page lists */
};

/* The requester after @id in turn order that still has steps, or KC_TURN_NONE. */
static unsigned int next_requester(const struct frag *m, unsigned int id)
{
	unsigned int i, next;

	for (i = 1; i <= m->nthreads; i++) {
		next = (id + i) % m->nthreads;
		if (!m->done[next])
			return next;
	}
	return KC_TURN_NONE;
}

/* One step per turn, round robin over the requesters that are not done. */
static void *requester_thread(void *arg)
{
	struct requester *r = arg;
	struct frag *m = r->m;
	enum req_step step = STEP_START;
	unsigned int next;
	bool more = true;

	while (more) {
		kc_turn_wait(&m->turn, r->id);
		more = request_step(m, r->lists, &step);
		if (!more)
			m->done[r->id] = 1;
		next = next_requester(m, r->id);
		if (next != KC_TURN_NONE)
			kc_turn_pass(&m->turn, next);
	}
	return NULL;
}

void frag_config_default(struct frag_config *cfg, enum frag_kernel kernel)
{
	*cfg = (struct frag_config){
		.kernel = kernel,
		/*
		 * The code that was measured: P5 as posted
		 * (docs/spec/compaction.md#cmp-p5-dangling-else,
		 * docs/compaction.md).
		 */
		.p5 = COMPACT_P5_AS_POSTED,
		.cluster_max = 32,
		.seed = 2015,
		.nr_frames = 131072,
		.pageblock = 512,
		.pinned = 32768,
		.candidates = 1500,
		.free_pages = 32768,
		.requests = 3000,
		.threads = 4,
		.reclaim_batch = 32,
		.refault = 24,
		.pin_churn = 0,
		.order = 3,
	};
}

int frag_run(const struct frag_config *cfg, struct frag_stats *st)
{
	struct requester *req = NULL;
	void **args = NULL;
	struct zone_desc *d;
	struct frag m = { .cfg = cfg, .st = st };
	unsigned int i;
	int ret = -ENOMEM;

	if (cfg->kernel >= FRAG_NR_KERNELS ||
	    cfg->threads < 1 || cfg->order < 1 || cfg->order >= MAX_ORDER ||
	    !cfg->pageblock || cfg->nr_frames % cfg->pageblock ||
	    cfg->nr_frames >= FRAG_NIL || cfg->pageblock < (1UL << cfg->order) ||
	    cfg->stable_mult > COMPACT_STABLE_MULT_MAX ||
	    cfg->stable_weight > COMPACT_STABLE_WEIGHT_MAX)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	rng_init(&m.rng, cfg->seed);
	m.nr_pb = cfg->nr_frames / cfg->pageblock;
	m.deferral = cfg->kernel == FRAG_BASE;
	m.classic = cfg->kernel < FRAG_REDESIGN;
	m.scanallfree = cfg->kernel >= FRAG_NONMOVABLE;
	m.stable = cfg->kernel == FRAG_STABLE;
	m.par = (struct compact_params){
		.policy = m.deferral ? COMPACT_POLICY_BASE :
			  cfg->kernel == FRAG_THRESHOLD ? COMPACT_POLICY_P9 :
			  m.stable ? COMPACT_POLICY_STABLE : COMPACT_POLICY_THRESHOLD1,
		/* P2-P4 enter and deepen like the intended P5 minus SCANALLFREE. */
		.p5 = m.scanallfree ? cfg->p5 : COMPACT_P5_INTENDED,
		.atomic_mode = COMPACT_ATOMIC_RELAXED,
		.cluster_max = cfg->cluster_max, .min_scan_limit = cfg->pageblock,
		.stable_mult = cfg->stable_mult, .stable_weight = cfg->stable_weight,
	};
	st->trace_step = max(DIV_ROUND_UP(cfg->requests, FRAG_TRACE_LEN), 1UL);
	d = zone_desc_alloc(0, cfg->nr_frames, cfg->nr_frames, cfg->pageblock);
	if (!d)
		return -ENOMEM;
	if (zone_init(&m.zone, &m.par, d, m.nr_pb, false)) {
		kfree(d);
		return -ENOMEM;
	}
	if (m.classic)
		m.zone.compact_cached_free_pfn = cfg->nr_frames;
	m.pb_movable = kcalloc(m.nr_pb, 1, GFP_KERNEL);
	req = kcalloc(cfg->threads, sizeof(*req), GFP_KERNEL);
	args = kcalloc(cfg->threads, sizeof(*args), GFP_KERNEL);
	m.done = kcalloc(cfg->threads, 1, GFP_KERNEL);
	if (!m.pb_movable || !req || !args || !m.done ||
	    frag_buddy_init(&m.b, cfg->nr_frames))
		goto out;
	ret = frag_setup_memory(&m);
	if (ret)
		goto out;
	for (i = 0; i < cfg->threads; i++) {
		req[i] = (struct requester){ &m, i, NULL };
		req[i].lists = kcalloc(2 * frag_list_len(&m), sizeof(unsigned int), GFP_KERNEL);
		if (!req[i].lists) {
			ret = -ENOMEM;
			goto out;
		}
	}
	if (kc_turn_init(&m.turn, cfg->threads)) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < cfg->threads; i++)
		args[i] = &req[i];
	/* A requester that could not be started makes it another run: -ENOMEM. */
	ret = kc_turn_run(&m.turn, requester_thread, args, &m.nthreads);
	kc_turn_destroy(&m.turn);
	st->stable_avg = m.zone.compact_scan_avg >> COMPACT_STABLE_FP_SHIFT;
out:
	for (i = 0; req && i < cfg->threads; i++)
		kfree(req[i].lists);
	frag_buddy_destroy(&m.b);
	kfree(m.pb_movable);
	kfree(m.done);
	kfree(req);
	kfree(args);
	zone_destroy(&m.zone);
	return ret;
}
