// SPDX-License-Identifier: GPL-2.0
/* The fragmentation model's buddy allocator: LIFO free lists per order. */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/errno.h>
#include "mm/frag_buddy.h"

int frag_buddy_init(struct frag_buddy *b, unsigned long nr)
{
	int o;

	memset(b, 0, sizeof(*b));
	b->nr = nr;
	b->state = kcalloc(nr, 1, GFP_KERNEL);
	b->free_order = kmalloc(nr, GFP_KERNEL);
	b->next = kcalloc(nr, sizeof(*b->next), GFP_KERNEL);
	b->prev = kcalloc(nr, sizeof(*b->prev), GFP_KERNEL);
	if (!b->state || !b->free_order || !b->next || !b->prev) {
		frag_buddy_destroy(b);
		return -ENOMEM;
	}
	memset(b->free_order, -1, nr);
	/* Every frame starts in use: the caller frees the free pool. */
	memset(b->state, FRAME_MOVABLE, nr);
	for (o = 0; o < MAX_ORDER; o++)
		b->head[o] = FRAG_NIL;
	return 0;
}

void frag_buddy_destroy(struct frag_buddy *b)
{
	kfree(b->state);
	kfree(b->free_order);
	kfree(b->next);
	kfree(b->prev);
	memset(b, 0, sizeof(*b));
}

static void list_add_block(struct frag_buddy *b, unsigned long pfn, int order)
{
	b->free_order[pfn] = order;
	b->prev[pfn] = FRAG_NIL;
	b->next[pfn] = b->head[order];
	if (b->head[order] != FRAG_NIL)
		b->prev[b->head[order]] = pfn;
	b->head[order] = pfn;
	b->nr_blocks[order]++;
}

static void list_del_block(struct frag_buddy *b, unsigned long pfn)
{
	int order = b->free_order[pfn];

	if (b->prev[pfn] != FRAG_NIL)
		b->next[b->prev[pfn]] = b->next[pfn];
	else
		b->head[order] = b->next[pfn];
	if (b->next[pfn] != FRAG_NIL)
		b->prev[b->next[pfn]] = b->prev[pfn];
	b->free_order[pfn] = -1;
	b->nr_blocks[order]--;
}

void frag_buddy_free(struct frag_buddy *b, unsigned long pfn, int order)
{
	unsigned long i, buddy;

	for (i = 0; i < 1UL << order; i++)
		b->state[pfn + i] = FRAME_FREE;
	b->free_pages += 1UL << order;
	while (order < MAX_ORDER - 1) {
		buddy = pfn ^ (1UL << order);
		if (buddy >= b->nr || b->free_order[buddy] != order)
			break;
		list_del_block(b, buddy);
		pfn = min(pfn, buddy);
		order++;
	}
	list_add_block(b, pfn, order);
}

long frag_buddy_alloc(struct frag_buddy *b, int order)
{
	unsigned long pfn, i;
	int o;

	for (o = order; o < MAX_ORDER; o++)
		if (b->head[o] != FRAG_NIL)
			break;
	if (o == MAX_ORDER)
		return -1;
	pfn = b->head[o];
	list_del_block(b, pfn);
	while (o > order) {
		o--;
		list_add_block(b, pfn + (1UL << o), o);
	}
	for (i = 0; i < 1UL << order; i++)
		b->state[pfn + i] = FRAME_TAKEN;
	b->free_pages -= 1UL << order;
	return pfn;
}

int frag_buddy_isolate(struct frag_buddy *b, unsigned long pfn)
{
	int order = b->free_order[pfn];
	unsigned long i;

	list_del_block(b, pfn);
	for (i = 0; i < 1UL << order; i++)
		b->state[pfn + i] = FRAME_ISOLATED;
	b->free_pages -= 1UL << order;
	return order;
}

bool frag_buddy_has_order(const struct frag_buddy *b, int order)
{
	for (; order < MAX_ORDER; order++)
		if (b->nr_blocks[order])
			return true;
	return false;
}
