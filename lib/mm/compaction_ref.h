/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sequential reference of the per-zone state machine of
 * docs/spec/compaction.md#cmp-states (with
 * docs/spec/compaction.md#cmp-p5-dangling-else posted P5 as the variant the
 * knob selects), written from the spec, independently of compaction.c: the
 * oracle of compaction_churn's shadow model and of the transition grid test.
 * Each transition takes the state a zone was seen in and gives the state it
 * must be in afterwards.
 */
#ifndef _MM_COMPACTION_REF_H
#define _MM_COMPACTION_REF_H

#include <stdbool.h>
#include <stddef.h>
#include "mm/compaction.h"

/* The fields the transitions change (skip bits apart). */
struct cref_state {
	bool depleted, scanallfree;
	long success, depth, failed, order_failed;
	long migrate_pfn[2], free_pfn, blockskip_flush;
};

/* Read @z's fields (each on its own, as the kernel would). */
void cref_snapshot(const struct zone *z, struct cref_state *st);

unsigned long cref_threshold(enum compact_policy policy, unsigned long managed, long cof);
bool cref_depleted(const struct compact_params *par, const struct cref_state *st,
		   unsigned long managed);
bool cref_restarting(const struct cref_state *st, int order);

void cref_note_success(struct cref_state *st);
void cref_finish(const struct compact_params *par, struct cref_state *st,
		 unsigned long managed);
/* true when the failure was counted (f += 1), false when it lowered cof. */
bool cref_fail(struct cref_state *st, int order);
void cref_failed_reset(struct cref_state *st, int order, bool alloc_success);
void cref_reset(const struct compact_params *par, struct cref_state *st,
		const struct zone_desc *d);

/* The fields that differ ("" when none; @pfns: the cached pfns and blockskip_flush too). */
const char *cref_diff(const struct cref_state *a, const struct cref_state *b, bool pfns,
		      char *buf, size_t len);
/* "N|Dk [+SAF] s= f= cof= pfns=..." */
int cref_format(const struct cref_state *st, char *buf, size_t len);

#endif /* _MM_COMPACTION_REF_H */
