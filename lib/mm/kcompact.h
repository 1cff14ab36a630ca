/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the suite's deferral (compaction.c) and a kernel tree's, compiled
 * unchanged (kcompact_kernel.c). Plain types only: the kernel's struct zone
 * (kcompat linux/mmzone.h) and the suite's (compaction.h) never meet in one
 * translation unit.
 */
#ifndef _MM_KCOMPACT_H
#define _MM_KCOMPACT_H

#include <linux/types.h>

/* The three deferral fields of a zone. */
struct defer_state {
	long considered;
	long shift;
	long order_failed;
};

enum defer_op {
	DEFER_OP_DEFER,		/* defer_compaction() */
	DEFER_OP_DEFERRED,	/* compaction_deferred() */
	DEFER_OP_RESET,		/* compaction_defer_reset() */
	DEFER_OP_RESTARTING,	/* compaction_restarting() */
	DEFER_NR_OPS,
};

/*
 * One deferral call on @s: the operation, its order and (DEFER_OP_RESET)
 * alloc_success. Returns the function's answer (false for the void ones).
 */
bool defer_model(struct defer_state *s, enum defer_op op, int order, bool alloc_success);

/* What scripts/kcompact-probe found (kcompact_api.h). */
struct kcompact_info {
	const char *source;		/* DIR/mm/compaction.c */
	const char *sha256;		/* of that file */
	const char *shift_source;	/* where COMPACT_MAX_DEFER_SHIFT is defined */
	const char *sigs;		/* the four declarators */
};
extern const struct kcompact_info kcompact_info;

/* The tree's code on @s (copied into a kernel struct zone and back). */
bool defer_kernel(struct defer_state *s, enum defer_op op, int order, bool alloc_success);

/*
 * Model and kernel on the same inputs, every decision compared (answer and
 * the three fields after): counted per operation; a disagreement is
 * counted and the first one kept in words (both answers). With no kernel
 * tree built in, the model's answer and nothing counted.
 */
struct defer_agreement {
	unsigned long decisions[DEFER_NR_OPS];
	unsigned long disagreements[DEFER_NR_OPS];
	unsigned long nr_decisions, nr_disagreements;	/* over every operation */
	char first[256];		/* the first disagreement, "" if none */
};
bool defer_judged(struct defer_state *s, enum defer_op op, int order, bool alloc_success);
bool defer_have_kernel(void);
void defer_agreement_get(struct defer_agreement *a);
void defer_agreement_clear(void);
const char *defer_op_name(enum defer_op op);
/*
 * The counts in one line ("IMPL: N decisions, N agree (...)", and the
 * first disagreement if any); returns the number of disagreements.
 */
unsigned long defer_agreement_line(char *buf, size_t len);
/* "model (lib/mm/compaction.c)" or "kernel FILE (sha256 ...)". */
const char *defer_impl_describe(void);

#endif /* _MM_KCOMPACT_H */
