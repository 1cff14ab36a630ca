// SPDX-License-Identifier: GPL-2.0
/*
 * Store buffers (docs/explore.md#memory-models). Under TSO each fiber
 * has one FIFO buffer; under PSO one per address (up to XP_MM_SLOTS,
 * the last one shared beyond). A store of READ_ONCE()'s family goes to
 * the buffer: kcompat's macros make the real store, and the post hook
 * takes the new bytes into the buffer and puts the old ones back. A
 * load of the fiber's own buffered word sees the newest buffered value
 * (put in place for the real load, then taken back). Each non-empty
 * buffer is an agent of its own whose step writes its oldest store to
 * memory, so the search schedules flushes as it schedules fibers.
 *
 * smp_mb(), RMW atomics, locks, unlocks, grace periods and
 * rcu_read_unlock() wait for the fiber's buffers to drain; under PSO
 * smp_wmb() and a release store put a barrier into the buffers: no store
 * after it flushes before every store before it did.
 */
#include <stdio.h>
#include <string.h>
#include "memmodel.h"

#define XP_MM_ENTRIES	32
#define XP_MM_SLOTS	4
#define XP_MM_WORD	8

enum xp_model xp_mm = XP_MM_SC;

const char *const xp_mm_names[] = {
	[XP_MM_SC] = "sc", [XP_MM_TSO] = "tso", [XP_MM_PSO] = "pso", NULL,
};

struct entry {
	unsigned char *addr;
	unsigned int size, epoch, slot;
	unsigned char val[XP_MM_WORD];
};

struct buffer {
	struct entry e[XP_MM_ENTRIES];
	unsigned int len;
	unsigned int epoch;		/* barriers so far: PSO's smp_wmb()/release */
	const void *slot_addr[XP_MM_SLOTS];
	unsigned int nr_slots;
	enum kc_xp_order mo;		/* of the access the fiber waits at */
};

static struct {
	unsigned int n, slots;		/* fibers; agents per fiber */
	int (*current)(void);		/* the running fiber (xp_mm_init()) */
	struct buffer b[XP_MAX_FIBERS];
	struct xp_access pend[XP_MAX_FIBERS];	/* per agent */
	/* The access between kc_xp_mem() and kc_xp_post(). */
	enum { POST_NONE, POST_STORE, POST_LOAD } post;
	unsigned char *post_addr;
	unsigned int post_size, post_fiber;
	unsigned char saved[XP_MM_WORD];
} S;

int xp_mm_parse(const char *name)
{
	unsigned int i;

	for (i = 0; xp_mm_names[i]; i++)
		if (!strcmp(name, xp_mm_names[i]))
			return (int)i;
	return -1;
}

const char *xp_mm_name(void)
{
	return xp_mm_names[xp_mm];
}

int xp_mm_init(unsigned int n, int (*current)(void))
{
	S.n = n;
	S.current = current;
	if (xp_mm == XP_MM_SC) {
		S.slots = 0;
		return 0;
	}
	S.slots = xp_mm == XP_MM_TSO ? 1 : (XP_MAX_FIBERS - n) / n;
	if (S.slots > XP_MM_SLOTS)
		S.slots = XP_MM_SLOTS;
	if (!S.slots || n + n * S.slots > XP_MAX_FIBERS) {
		fprintf(stderr, "explore: %u fibers and their store buffers: at most %u agents\n",
			n, XP_MAX_FIBERS);
		return -1;
	}
	return 0;
}

static bool overlap(const struct entry *e, const unsigned char *a, unsigned int size)
{
	return e->addr < a + size && a < e->addr + e->size;
}

/* Write buffer @f's entry @i to memory and drop it. */
static void flush_entry(struct buffer *b, unsigned int i)
{
	memcpy(b->e[i].addr, b->e[i].val, b->e[i].size);
	memmove(&b->e[i], &b->e[i + 1], (b->len - i - 1) * sizeof(b->e[0]));
	b->len--;
}

static void drain(struct buffer *b)
{
	while (b->len)
		flush_entry(b, 0);
}

/* The entry agent (@f, @slot) flushes next, or -1: the oldest of its slot, past no barrier. */
static int flushable(const struct buffer *b, unsigned int slot)
{
	unsigned int i;

	for (i = 0; i < b->len; i++)
		if (b->e[i].slot == slot)
			return b->e[i].epoch == b->e[0].epoch ? (int)i : -1;
	return -1;
}

/* PSO: one slot per address; a store overlapping a buffered one shares its slot. */
static unsigned int slot_of(struct buffer *b, const unsigned char *a, unsigned int size)
{
	unsigned int i;

	if (xp_mm == XP_MM_TSO)
		return 0;
	for (i = b->len; i-- > 0;)
		if (overlap(&b->e[i], a, size))
			return b->e[i].slot;
	for (i = 0; i < b->nr_slots; i++)
		if (b->slot_addr[i] == a)
			return i;
	if (b->nr_slots < S.slots) {
		b->slot_addr[b->nr_slots] = a;
		return b->nr_slots++;
	}
	return S.slots - 1;
}

/* The fiber runs its access now (after kc_xp_hook returned): the model's part before it. */
static void mem_begin(unsigned int f, unsigned char *a, unsigned int size,
		      enum kc_xp_kind kind, enum kc_xp_order mo)
{
	struct buffer *b = &S.b[f];
	unsigned int i;

	S.post = POST_NONE;
	if (kind == KC_XP_FENCE) {
		if (mo == KC_XP_MO_WMB && xp_mm == XP_MM_PSO)
			b->epoch++;
		return;
	}
	if (size > XP_MM_WORD) {
		drain(b);	/* not a word: no buffering, in order */
		return;
	}
	if (kind == KC_XP_WRITE) {
		if (mo == KC_XP_MO_RELEASE && xp_mm == XP_MM_PSO)
			b->epoch++;
		S.post = POST_STORE;
	} else {
		/* The newest buffered store it overlaps: the same word forwards. */
		for (i = b->len; i-- > 0 && !overlap(&b->e[i], a, size);)
			;
		if (i == (unsigned int)-1)
			return;
		if (b->e[i].addr != a || b->e[i].size != size) {
			drain(b);	/* a part of a buffered word: as if flushed first */
			return;
		}
		S.post = POST_LOAD;
		memcpy(S.saved, a, size);
		memcpy(a, b->e[i].val, size);
		S.post_addr = a;
		S.post_size = size;
		S.post_fiber = f;
		return;
	}
	memcpy(S.saved, a, size);
	S.post_addr = a;
	S.post_size = size;
	S.post_fiber = f;
}

static void mem_hook(const void *addr, unsigned int size, enum kc_xp_kind kind,
		     enum kc_xp_order mo)
{
	int f = S.current();

	if (f < 0)
		return;
	if (mo != KC_XP_MO_LOCAL) {
		S.b[f].mo = mo;
		kc_xp_hook(addr, kind);
		S.b[f].mo = KC_XP_MO_PLAIN;
	}
	mem_begin((unsigned int)f, (unsigned char *)addr, size, kind, mo);
}

static void post_hook(void)
{
	struct buffer *b = &S.b[S.post_fiber];
	struct entry *e;

	if (S.post == POST_STORE) {
		unsigned int slot = slot_of(b, S.post_addr, S.post_size);

		e = &b->e[b->len++];
		e->addr = S.post_addr;
		e->size = S.post_size;
		e->epoch = b->epoch;
		e->slot = slot;
		memcpy(e->val, S.post_addr, S.post_size);
		memcpy(S.post_addr, S.saved, S.post_size);
	} else if (S.post == POST_LOAD) {
		memcpy(S.post_addr, S.saved, S.post_size);
	}
	S.post = POST_NONE;
}

void xp_mm_begin(void)
{
	unsigned int i;

	if (xp_mm == XP_MM_SC)
		return;
	for (i = 0; i < S.n; i++) {
		S.b[i].len = S.b[i].epoch = S.b[i].nr_slots = 0;
		S.b[i].mo = KC_XP_MO_PLAIN;
	}
	S.post = POST_NONE;
	kc_xp_post_hook = post_hook;
	kc_xp_mem_hook = mem_hook;
}

void xp_mm_end(void)
{
	kc_xp_mem_hook = NULL;
}

unsigned int xp_mm_agents(void)
{
	return S.n * S.slots;
}

unsigned int xp_mm_enabled(void)
{
	unsigned int f, k, mask = 0;

	for (f = 0; f < S.n && S.slots; f++)
		for (k = 0; S.b[f].len && k < S.slots; k++)
			if (flushable(&S.b[f], k) >= 0)
				mask |= 1U << (S.n + f * S.slots + k);
	return mask;
}

unsigned int xp_mm_live(void)
{
	unsigned int f, k, i, mask = 0;

	for (f = 0; f < S.n && S.slots; f++)
		for (i = 0; i < S.b[f].len; i++) {
			k = S.b[f].e[i].slot;
			mask |= 1U << (S.n + f * S.slots + k);
		}
	return mask;
}

bool xp_mm_blocks(unsigned int id, enum kc_xp_kind kind)
{
	const struct buffer *b = &S.b[id];

	if (xp_mm == XP_MM_SC || !b->len)
		return false;
	switch (kind) {
	case KC_XP_WRITE:
		return b->len == XP_MM_ENTRIES;
	case KC_XP_FENCE:
		return b->mo == KC_XP_MO_MB;
	case KC_XP_RMW:
	case KC_XP_LOCK:
	case KC_XP_UNLOCK:
	case KC_XP_GP:
	case KC_XP_RCU_UNLOCK:
		return true;
	default:
		return false;
	}
}

const struct xp_access *xp_mm_pending(unsigned int agent)
{
	unsigned int f = (agent - S.n) / S.slots, k = (agent - S.n) % S.slots;
	int i = flushable(&S.b[f], k);
	struct xp_access *p = &S.pend[agent];

	p->kind = KC_XP_WRITE;
	p->addr = i >= 0 ? S.b[f].e[i].addr : NULL;
	return p;
}

void xp_mm_flush(unsigned int agent)
{
	unsigned int f = (agent - S.n) / S.slots, k = (agent - S.n) % S.slots;
	int i = flushable(&S.b[f], k);

	if (i >= 0)
		flush_entry(&S.b[f], (unsigned int)i);
}
