/* SPDX-License-Identifier: GPL-2.0 */
/* The compaction tracepoints the deferral calls: no tracing in userspace. */
#ifndef _KC_TRACE_EVENTS_COMPACTION_H
#define _KC_TRACE_EVENTS_COMPACTION_H

struct zone;

static inline void trace_mm_compaction_defer_compaction(struct zone *zone, int order) {}
static inline void trace_mm_compaction_deferred(struct zone *zone, int order) {}
static inline void trace_mm_compaction_defer_reset(struct zone *zone, int order) {}

#endif /* _KC_TRACE_EVENTS_COMPACTION_H */
