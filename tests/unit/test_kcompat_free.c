// SPDX-License-Identifier: GPL-2.0
/*
 * Strict frees in lib/kcompat: free_percpu() and kfree() of anything but
 * the start of a live allocation (an interior pointer, a double free,
 * memory from elsewhere) WARN with the allocation's origin and free
 * nothing; hpcc's destroy frees exactly what init allocated.
 */
#include <stdio.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <kcompat/kcompat.h>
#include <linux/percpu_counter_tree.h>
#include "hpcc_util.h"

/*
 * Run @what, an invalid free: exactly one WARN whose text holds every one of
 * @needles, counted as an invalid free (the runners class that a crash).
 */
#define EXPECT_ONE_WARN(t, what, ...) do {				\
	const char *__n[] = { __VA_ARGS__ };				\
	struct kc_warn_info __wi;					\
	unsigned int __i;						\
	kc_warn_reset();						\
	what;								\
	kc_warn_get(&__wi);						\
	KT_EXPECT(t, __wi.count == 1, "%s: %lu warnings", #what, __wi.count); \
	KT_EXPECT(t, __wi.bad_frees == 1, "%s: %lu invalid frees counted",	\
		  #what, __wi.bad_frees);				\
	for (__i = 0; __i < ARRAY_SIZE(__n); __i++)			\
		KT_EXPECT(t, strstr(__wi.first, __n[__i]) != NULL,	\
			  "%s: '%s' not in '%s'", #what, __n[__i], __wi.first); \
} while (0)

static void free_percpu_strict(struct kt *t)
{
	char line[64];
	unsigned long *p, *q;
	int alloc_line;

	if (!kt_hpcc_setup(t, 4))
		return;
	kt_expect_warns(t);
	alloc_line = __LINE__ + 1;
	p = __alloc_percpu_gfp(4 * sizeof(unsigned long), __alignof__(unsigned long), GFP_KERNEL);
	KT_ASSERT(t, p != NULL, "alloc");
	snprintf(line, sizeof(line), "test_kcompat_free.c:%d", alloc_line);
	EXPECT_ONE_WARN(t, free_percpu(p + 1), "8 bytes into the live 32-byte", line);
	EXPECT_ONE_WARN(t, free_percpu(p + 3), "24 bytes into the live", line);
	/* Nothing was freed: the next allocation of that size is elsewhere. */
	q = __alloc_percpu_gfp(4 * sizeof(unsigned long), __alignof__(unsigned long), GFP_KERNEL);
	KT_EXPECT(t, q != NULL && (void *)q != (void *)p, "the block was freed by a bad free");
	kc_warn_reset();
	free_percpu(p);
	KT_EXPECT_EQU(t, kc_warn_count(), 0);
	EXPECT_ONE_WARN(t, free_percpu(p), "double free_percpu()", line, "already freed at");
	EXPECT_ONE_WARN(t, free_percpu((void *)line), "no per-CPU allocation starts there");
	kc_warn_reset();
	free_percpu(q);
	free_percpu(NULL);
	KT_EXPECT_EQU(t, kc_warn_count(), 0);
}

/*
 * An allocation through the functions (no file:line) is named by its
 * caller's address: a bad free of it says which caller allocated it.
 */
static void free_percpu_names_caller(struct kt *t)
{
	static const char marker[2] = "a";	/* a caller address nothing else uses */
	char caller[64];
	unsigned long *p;

	if (!kt_hpcc_setup(t, 4))
		return;
	kt_expect_warns(t);
	/* A size no other case allocates: a fresh block, no earlier record. */
	p = kc_alloc_percpu_at(7 * 16, 16, GFP_KERNEL, NULL, 0, marker);
	KT_ASSERT(t, p != NULL, "alloc");
	snprintf(caller, sizeof(caller), "from caller %p", (const void *)marker);
	EXPECT_ONE_WARN(t, free_percpu(p + 2), "16 bytes into the live 112-byte", caller);
	kc_warn_reset();
	free_percpu(p);
	KT_EXPECT_EQU(t, kc_warn_count(), 0);
	EXPECT_ONE_WARN(t, free_percpu(p), "double free_percpu()", caller);
	/* The block is reused: the new caller is named, not the old one. */
	p = kc_alloc_percpu_at(7 * 16, 16, GFP_KERNEL, NULL, 0, marker + 1);
	KT_ASSERT(t, p != NULL, "alloc again");
	snprintf(caller, sizeof(caller), "from caller %p", (const void *)(marker + 1));
	EXPECT_ONE_WARN(t, free_percpu(p + 2), "16 bytes into the live 112-byte", caller);
	kc_warn_reset();
	free_percpu(p);
	KT_EXPECT_EQU(t, kc_warn_count(), 0);
}

static void kfree_strict(struct kt *t)
{
#if defined(KC_ASAN_FREE)
	kt_skip(t, "ASan checks kfree() itself");
#else
	char line[64], *p, *q;
	int alloc_line;

	kt_expect_warns(t);
	alloc_line = __LINE__ + 1;
	p = kzalloc(100, GFP_KERNEL);
	KT_ASSERT(t, p != NULL, "alloc");
	snprintf(line, sizeof(line), "test_kcompat_free.c:%d", alloc_line);
	EXPECT_ONE_WARN(t, kfree(p + 10), "10 bytes into the live 100-byte object", line);
	KT_EXPECT(t, p[99] == 0, "the object was freed by a bad kfree (poisoned)");
	q = kmalloc_array(3, 8, GFP_KERNEL);
	kc_warn_reset();
	kfree(p);
	KT_EXPECT_EQU(t, kc_warn_count(), 0);
	EXPECT_ONE_WARN(t, kfree(p), "double kfree() of the 100-byte object", line,
			"already freed at");
	EXPECT_ONE_WARN(t, kfree(line), "not an object kmalloc() gave");
	KT_EXPECT(t, kmalloc_array((size_t)-1 / 2, 4, GFP_KERNEL) == NULL, "overflow");
	kc_warn_reset();
	kfree(q);
	kfree(NULL);
	KT_EXPECT_EQU(t, kc_warn_count(), 0);
#endif
}

/* init_many's one per-CPU block is freed whole by destroy_many: no WARN. */
static void hpcc_destroy_frees_what_init_allocated(struct kt *t)
{
	static const unsigned int nr[] = { 1, 2, 5 };
	struct percpu_counter_tree c[5];
	void *items;
	unsigned int i;

	if (!kt_hpcc_setup(t, 8))
		return;
	for (i = 0; i < ARRAY_SIZE(nr); i++) {
		items = hu_items_alloc(nr[i]);
		KT_ASSERT(t, items != NULL, "items");
		KT_ASSERT(t, !percpu_counter_tree_init_many(c, items, nr[i], 32, GFP_KERNEL),
			  "init_many(%u)", nr[i]);
		percpu_counter_tree_add(&c[nr[i] - 1], 5);
		percpu_counter_tree_destroy_many(c, nr[i]);
		free(items);
	}
	/* The harness fails the case on any WARN (none is expected here). */
	KT_EXPECT_EQU(t, kc_warn_count(), 0);
}

static const struct kt_case cases[] = {
	KT_CASE(free_percpu_strict),
	KT_CASE(free_percpu_names_caller),
	KT_CASE(kfree_strict),
	KT_CASE(hpcc_destroy_frees_what_init_allocated),
};

KT_MAIN("kcompat_free", cases)
