/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compaction_churn's shadow model: every zone transition the
 * scenario makes goes through one of these wrappers, which replay it on
 * the sequential reference of the spec's state machine
 * (lib/mm/compaction_ref.h) from the state the zone was seen in, in the
 * same thread, and fail the run on any difference with both states
 * printed. See cc_shadow.c for when a transition can be judged.
 */
#ifndef _STRESS_CC_SHADOW_H
#define _STRESS_CC_SHADOW_H

#include <stdatomic.h>
#include <stdio.h>
#include "mm/compaction.h"
#include "scenario.h"

enum cc_tx_kind {
	CC_TX_RESET, CC_TX_FINISH, CC_TX_SUCCESS, CC_TX_FAIL, CC_TX_FAILED_RESET,
	CC_TX_RESTARTING, CC_TX_DEPLETED, CC_NR_TX,
};

/* cc_invariants.c: what compaction_churn may fail with, the shadow's among them. */
extern const struct stress_invariant cc_invariants[];

struct cc_shadow {
	struct zone_wseq wseq;		/* the zone's store counts (z->wseq points here) */
	atomic_ulong made[CC_NR_TX], judged[CC_NR_TX];
};

void cc_shadow_reset(struct stress *s, struct cc_shadow *sh, int cpu, struct zone *z,
		     const struct zone_desc *d, struct compact_reset_report *rep);
void cc_shadow_finish(struct stress *s, struct cc_shadow *sh, int cpu, struct zone *z,
		      unsigned long managed);
long cc_shadow_note_success(struct stress *s, struct cc_shadow *sh, int cpu, struct zone *z);
bool cc_shadow_fail(struct stress *s, struct cc_shadow *sh, int cpu, struct zone *z, int order);
void cc_shadow_failed_reset(struct stress *s, struct cc_shadow *sh, int cpu, struct zone *z,
			    int order, bool alloc_success);
bool cc_shadow_restarting(struct stress *s, struct cc_shadow *sh, int cpu, struct zone *z,
			  int order);
bool cc_shadow_depleted(struct stress *s, struct cc_shadow *sh, int cpu, struct zone *z,
			unsigned long managed);

void cc_shadow_report(struct cc_shadow *sh, FILE *out);
struct json;
void cc_shadow_report_json(struct cc_shadow *sh, struct json *j);

#endif /* _STRESS_CC_SHADOW_H */
