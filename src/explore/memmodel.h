/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Weak memory models for the explorer (docs/explore.md#memory-models):
 * store buffers whose flushes are agents the search schedules beside the
 * fibers. Agent ids: the fibers 0..n-1, then each fiber's buffers.
 */
#ifndef _XP_MEMMODEL_H
#define _XP_MEMMODEL_H

#include <stdbool.h>
#include "xp.h"

enum xp_model {
	XP_MM_SC,		/* every access in program order, at once */
	XP_MM_TSO,		/* one FIFO store buffer per fiber */
	XP_MM_PSO,		/* one store buffer per fiber and address */
};

extern enum xp_model xp_mm;
/* Each model's name by enum xp_model, NULL-terminated (an option's choices). */
extern const char *const xp_mm_names[];

/* "sc", "tso" or "pso"; -1 for another name. */
int xp_mm_parse(const char *name);
const char *xp_mm_name(void);
/*
 * Once, for @n fibers, @current naming the running one (-1 outside any):
 * the fiber machine's, handed in so that this file never calls back into
 * it. 0, or -1 with a message (too many fibers).
 */
int xp_mm_init(unsigned int n, int (*current)(void));

/* The fiber machine's hooks. */
void xp_mm_begin(void);			/* a fresh execution: buffers empty */
void xp_mm_end(void);
unsigned int xp_mm_agents(void);	/* flush agents after the fibers */
unsigned int xp_mm_enabled(void);	/* mask of the agents with a flushable store */
unsigned int xp_mm_live(void);		/* mask of the agents with a buffered store */
/* Fiber @id at an access of @kind waits for its buffer to drain. */
bool xp_mm_blocks(unsigned int id, enum kc_xp_kind kind);
const struct xp_access *xp_mm_pending(unsigned int agent);
void xp_mm_flush(unsigned int agent);

#endif /* _XP_MEMMODEL_H */
