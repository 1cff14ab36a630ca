// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel tree's compaction deferral, compiled unchanged against the
 * kcompat zone (linux/mmzone.h). Built only by a KERNEL_SRC build whose
 * tree has mm/compaction.c (mk/kcompact.mk): scripts/kcompact-probe
 * extracts COMPACT_MAX_DEFER_SHIFT and the four functions into
 * $(BUILD)/kcompact/ and this file includes them. The tree's global names
 * are renamed kc_* so that they do not clash with the suite's.
 */
#include <linux/kernel.h>
#include <linux/mmzone.h>
#include <trace/events/compaction.h>
#include <kcompact_api.h>
#include "kcompact.h"

#define defer_compaction	kc_defer_compaction
#define compaction_deferred	kc_compaction_deferred
#define compaction_defer_reset	kc_compaction_defer_reset
#define compaction_restarting	kc_compaction_restarting

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#include "kcompact_defer.c"
#pragma GCC diagnostic pop

bool defer_kernel(struct defer_state *s, enum defer_op op, int order, bool alloc_success)
{
	struct zone zone = {
		.compact_considered = s->considered,
		.compact_defer_shift = s->shift,
		.compact_order_failed = s->order_failed,
	};
	bool ret = false;

	switch (op) {
	case DEFER_OP_DEFER:
		defer_compaction(&zone, order);
		break;
	case DEFER_OP_DEFERRED:
		ret = compaction_deferred(&zone, order);
		break;
	case DEFER_OP_RESET:
		compaction_defer_reset(&zone, order, alloc_success);
		break;
	default:
		ret = compaction_restarting(&zone, order);
		break;
	}
	s->considered = zone.compact_considered;
	s->shift = zone.compact_defer_shift;
	s->order_failed = zone.compact_order_failed;
	return ret;
}

const struct kcompact_info kcompact_info = {
	.source = KCOMPACT_SOURCE,
	.sha256 = KCOMPACT_SHA256,
	.shift_source = KCOMPACT_SHIFT_SOURCE,
	.sigs = KCOMPACT_SIGS,
};
