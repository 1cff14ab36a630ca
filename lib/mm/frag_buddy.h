/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A buddy allocator over an array of frames (MAX_ORDER 11), the memory of
 * the fragmentation model. Not thread-safe: the model serialises callers.
 */
#ifndef _MM_FRAG_BUDDY_H
#define _MM_FRAG_BUDDY_H

#include <linux/types.h>
#include "mm/compaction.h"

enum frame_state {
	FRAME_FREE,		/* in a buddy free block */
	FRAME_MOVABLE,		/* in use, migratable (hogger, page cache) */
	FRAME_PINNED,		/* in use, never moves */
	FRAME_TAKEN,		/* handed out by frag_buddy_alloc() */
	FRAME_ISOLATED,		/* taken by a compaction scanner */
};

#define FRAG_NIL	UINT_MAX

struct frag_buddy {
	unsigned long nr;
	unsigned char *state;
	signed char *free_order;	/* order at a free block's head, else -1 */
	unsigned int *next, *prev;	/* free-list links */
	unsigned int head[MAX_ORDER];
	unsigned long nr_blocks[MAX_ORDER];
	unsigned long free_pages;
};

int frag_buddy_init(struct frag_buddy *b, unsigned long nr);
void frag_buddy_destroy(struct frag_buddy *b);
/* Free 1 << order frames at pfn (any state) and merge with free buddies. */
void frag_buddy_free(struct frag_buddy *b, unsigned long pfn, int order);
/* Smallest free block of at least @order, split down; -1 if none. Frames become TAKEN. */
long frag_buddy_alloc(struct frag_buddy *b, int order);
/* Remove the free block headed at @pfn; its frames become ISOLATED. Returns its order. */
int frag_buddy_isolate(struct frag_buddy *b, unsigned long pfn);
bool frag_buddy_has_order(const struct frag_buddy *b, int order);

#endif /* _MM_FRAG_BUDDY_H */
