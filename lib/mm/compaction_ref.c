// SPDX-License-Identifier: GPL-2.0
/* The sequential reference of docs/spec/compaction.md#cmp-states; see compaction_ref.h. */
#include <stdio.h>
#include <string.h>
#include "mm/compaction_ref.h"

void cref_snapshot(const struct zone *z, struct cref_state *st)
{
	unsigned long flags = zone_flags(z);

	st->depleted = flags >> ZONE_COMPACTION_DEPLETED & 1;
	st->scanallfree = flags >> ZONE_COMPACTION_SCANALLFREE & 1;
	st->success = zone_read(z, &z->compact_success);
	st->depth = zone_read(z, &z->compact_depletion_depth);
	st->failed = zone_read(z, &z->compact_failed);
	st->order_failed = zone_read(z, &z->compact_order_failed);
	st->migrate_pfn[0] = zone_read(z, &z->compact_cached_migrate_pfn[0]);
	st->migrate_pfn[1] = zone_read(z, &z->compact_cached_migrate_pfn[1]);
	st->free_pfn = zone_read(z, &z->compact_cached_free_pfn);
	st->blockskip_flush = zone_read(z, &z->compact_blockskip_flush);
}

/* docs/spec/compaction.md#cmp-threshold: 1 before P9; max(4, managed >> (cof + 9)) from P9 on. */
unsigned long cref_threshold(enum compact_policy policy, unsigned long managed, long cof)
{
	long shift = (cof < 0 ? 0 : cof) + 9;
	unsigned long n = shift >= 64 ? 0 : managed >> shift;

	if (policy != COMPACT_POLICY_P9)
		return 1;
	return n > 4 ? n : 4;
}

bool cref_depleted(const struct compact_params *par, const struct cref_state *st,
		   unsigned long managed)
{
	return st->success < (long)cref_threshold(par->policy, managed, st->order_failed);
}

/*
 * docs/spec/compaction.md#cmp-failures: order >= compact_order_failed and
 * compact_failed >= COMPACT_MAX_FAILED.
 */
bool cref_restarting(const struct cref_state *st, int order)
{
	return order >= st->order_failed && st->failed >= COMPACT_MAX_FAILED;
}

void cref_note_success(struct cref_state *st)
{
	st->success++;
}

/* docs/spec/compaction.md#cmp-leave: both rules judge the state the finish found. */
void cref_finish(const struct compact_params *par, struct cref_state *st,
		 unsigned long managed)
{
	bool leave, saf_off;

	if (!st->depleted)
		return;
	leave = !cref_depleted(par, st, managed);
	saf_off = st->success > 0;
	if (leave)
		st->depleted = false;
	if (saf_off)
		st->scanallfree = false;
}

/* docs/spec/compaction.md#cmp-state, P4 fail_compaction(). */
bool cref_fail(struct cref_state *st, int order)
{
	if (order < st->order_failed) {
		st->order_failed = order;
		st->failed = 0;
		return false;
	}
	st->failed++;
	return true;
}

/* compaction_failed_reset(): f := 0 on success; cof rises to order + 1 (at most MAX_ORDER). */
void cref_failed_reset(struct cref_state *st, int order, bool alloc_success)
{
	if (alloc_success)
		st->failed = 0;
	if (order >= st->order_failed)
		st->order_failed = order + 1 < MAX_ORDER ? order + 1 : MAX_ORDER;
}

/*
 * docs/spec/compaction.md#cmp-reset (intended) and
 * docs/spec/compaction.md#cmp-p5-dangling-else (as posted), then the rest of
 * the docs/spec/compaction.md#cmp-states reset row.
 */
void cref_reset(const struct compact_params *par, struct cref_state *st,
		const struct zone_desc *d)
{
	long start = d->zone_start_pfn, end = d->zone_start_pfn + d->spanned_pages;

	st->migrate_pfn[0] = st->migrate_pfn[1] = start;
	st->free_pfn = par->policy == COMPACT_POLICY_BASE ? end : start;
	st->blockskip_flush = 0;
	if (par->policy == COMPACT_POLICY_BASE)
		return;
	st->scanallfree = false;
	if (cref_depleted(par, st, d->managed_pages)) {
		if (par->p5 == COMPACT_P5_INTENDED) {
			if (st->depleted) {
				st->depth++;
				if (!st->success)
					st->scanallfree = true;
			} else {
				st->depleted = true;
				st->depth = 0;
			}
		} else {
			/* The posted else belongs to "if (!compact_success)". */
			if (st->depleted)
				st->depth++;
			if (!st->success) {
				st->scanallfree = true;
			} else {
				st->depleted = true;
				st->depth = 0;
			}
		}
	}
	st->success = 0;
	st->failed = 0;
}

const char *cref_diff(const struct cref_state *a, const struct cref_state *b, bool pfns,
		      char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
#define CREF_FIELD(f)							\
	do {								\
		if (a->f != b->f && n < len)				\
			n += snprintf(buf + n, len - n, "%s" #f, n ? "," : ""); \
	} while (0)
	CREF_FIELD(depleted);
	CREF_FIELD(scanallfree);
	CREF_FIELD(success);
	CREF_FIELD(depth);
	CREF_FIELD(failed);
	CREF_FIELD(order_failed);
	if (pfns) {
		CREF_FIELD(blockskip_flush);
		CREF_FIELD(migrate_pfn[0]);
		CREF_FIELD(migrate_pfn[1]);
		CREF_FIELD(free_pfn);
	}
#undef CREF_FIELD
	return buf;
}

int cref_format(const struct cref_state *st, char *buf, size_t len)
{
	return snprintf(buf, len, "{%s depth=%ld%s s=%ld f=%ld cof=%ld pfns=%ld,%ld,%ld "
			"flush=%ld}", st->depleted ? "DEPLETED" : "N", st->depth,
			st->scanallfree ? " SCANALLFREE" : "", st->success, st->failed,
			st->order_failed, st->migrate_pfn[0], st->migrate_pfn[1], st->free_pfn,
			st->blockskip_flush);
}
