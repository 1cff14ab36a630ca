// SPDX-License-Identifier: GPL-2.0
/*
 * Counter life cycle (docs/spec/hpcc.md#hpcc-alloc, #hpcc-bug-2, #hpcc-bug-5):
 * use before subsystem init (first case: the library keeps global state and
 * warns once), item sizing for init_many, static item storage, batch
 * validation, -ENOMEM, destroy and reuse.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/errno.h>
#include <kcompat/kcompat.h>
#include <linux/percpu_counter_tree.h>
#include <hpcc_api.h>
#include "hpcc_util.h"

#define ITEM_SIZE	sizeof(struct percpu_counter_tree_level_item)
#define GUARD		256
#define POISON		0xa5

/*
 * Use before subsystem init: lib/hpcc's own defence (a fresh process per
 * case, so nothing has booted yet). The kernel runs the __init
 * percpu_counter_tree_subsystem_init() at boot before any counter can
 * exist; calling init first is outside its contract (linux-mm's version
 * memsets SIZE_MAX bytes), so kernel trees skip this case.
 */
static void lifecycle_use_before_init(struct kt *t)
{
#if HPCC_API_KERNEL || !HPCC_API_ITEMS_SIZE_VAR
	kt_skip(t, "kernel tree: subsystem_init() runs at boot before any counter; "
		"use before it is outside the kernel's contract");
#else
	struct percpu_counter_tree c[2];
	static struct percpu_counter_tree_level_item items[64];
	unsigned long w0 = kc_warn_count();

	kt_expect_warns(t);
	KT_EXPECT(t, __percpu_counter_tree_items_size == SIZE_MAX, "sentinel %zu",
		  __percpu_counter_tree_items_size);
	KT_EXPECT(t, percpu_counter_tree_items_size() == SIZE_MAX, "items_size before init");
	KT_EXPECT(t, kc_warn_count() == w0 + 1, "warnings: %lu", kc_warn_count() - w0);
	KT_EXPECT(t, percpu_counter_tree_items_size() == SIZE_MAX, "again");
	KT_EXPECT(t, kc_warn_count() == w0 + 1, "warns once: %lu", kc_warn_count() - w0);
	/*
	 * init refuses: no counter with a zero multiplier may exist
	 * (docs/spec/hpcc.md#hpcc-bug-2).
	 */
	KT_EXPECT(t, percpu_counter_tree_init(&c[0], items, 32, GFP_KERNEL) != 0,
		  "init before subsystem init must fail");
	KT_EXPECT(t, percpu_counter_tree_init_many(c, items, 2, 32, GFP_KERNEL) != 0,
		  "init_many before subsystem init must fail");
	/* After subsystem init all is well and quiet. */
	w0 = kc_warn_count();
	if (!kt_hpcc_setup(t, 4))
		return;
	KT_EXPECT(t, percpu_counter_tree_items_size() == 3 * ITEM_SIZE, "after init");
	KT_EXPECT(t, percpu_counter_tree_init(&c[0], items, 32, GFP_KERNEL) == 0, "init");
	KT_EXPECT(t, hu_under(&c[0]) == 256, "multiplier set: under %lu", hu_under(&c[0]));
	percpu_counter_tree_destroy(&c[0]);
	KT_EXPECT(t, kc_warn_count() == w0, "no warning after init");
#endif
}

/* memcmp() against a reference block: fast under the sanitizers too. */
static bool all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
	static unsigned char ref[4096];

	memset(ref, v, sizeof(ref));
	while (n) {
		size_t chunk = n < sizeof(ref) ? n : sizeof(ref);

		if (memcmp(p, ref, chunk))
			return false;
		p += chunk;
		n -= chunk;
	}
	return true;
}

static bool all_items_nonzero(struct percpu_counter_tree *c, unsigned long nr_items)
{
	unsigned long i;

	for (i = 0; i < nr_items; i++)
		if (!hu_item(c, i))
			return false;
	return true;
}

/*
 * A -1 on every CPU of a fresh counter (power-of-two CPU count) sends a
 * carry through every item of the counter: each ends up non-zero.
 */
static void touch_every_item(struct percpu_counter_tree *c)
{
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		kc_set_cpu(cpu);
		percpu_counter_tree_add(c, -1);
	}
	kc_set_cpu(0);
}

/*
 * init_many with exactly k * items_size() bytes: init zeroes all of it and
 * nothing beyond; counter i owns block i; using counter i fully touches
 * only block i.
 */
/* NR_CPUS itself is covered by lifecycle_static_items. */
static const unsigned int sizing_cpus[] = { 2, 4, 16, 64, 256, 1024 };

/* @arg: the index of the CPU count; every k of counters in one process. */
static void init_many_sizing_one(struct kt *t, void *arg)
{
	static const unsigned int ks[] = { 1, 2, 3, 4, 7 };
	unsigned int i = *(unsigned int *)arg, j, k, m;
	const unsigned int *cpus = sizing_cpus;

	for (j = 0; j < ARRAY_SIZE(ks); j++) {
		unsigned int nr = ks[j];
		struct percpu_counter_tree *c = calloc(nr, sizeof(*c));
		size_t size, bytes;
		unsigned char *buf, *snap;
		struct hpcc_shape s;

		KT_ASSERT(t, hpcc_shape_compute(&s, cpus[i], 32) == 0, "");
		size = percpu_counter_tree_items_size();
		KT_ASSERT(t, size == s.nr_items * ITEM_SIZE, "items_size %zu", size);
		bytes = nr * size;
		buf = aligned_alloc(ITEM_SIZE, bytes + GUARD);
		snap = malloc(bytes);
		KT_ASSERT(t, c && buf && snap, "memory");
		memset(buf, POISON, bytes + GUARD);
		KT_ASSERT(t, percpu_counter_tree_init_many(c, (void *)buf, nr, 32, GFP_KERNEL) == 0,
			  "init_many(%u)", nr);
		KT_EXPECT(t, all_bytes(buf, bytes, 0), "%u CPUs, %u counters: items not zeroed",
			  cpus[i], nr);
		KT_EXPECT(t, all_bytes(buf + bytes, GUARD, POISON),
			  "%u CPUs, %u counters: init wrote past k * items_size()", cpus[i], nr);
		for (k = 0; k < nr; k++)
			KT_EXPECT(t, (unsigned char *)c[k].items == buf + k * size,
				  "counter %u items at offset %td", k,
				  (unsigned char *)c[k].items - buf);
		for (k = 0; k < nr; k++) {
			memcpy(snap, buf, bytes);
			touch_every_item(&c[k]);
			KT_EXPECT(t, all_items_nonzero(&c[k], s.nr_items),
				  "%u CPUs: counter %u not every item touched", cpus[i], k);
			/* Earlier blocks unchanged, later blocks still zero. */
			KT_EXPECT(t, !memcmp(snap, buf, k * size),
				  "%u CPUs: counter %u wrote into an earlier counter", cpus[i], k);
			KT_EXPECT(t, all_bytes(buf + (k + 1) * size, (nr - k - 1) * size, 0),
				  "%u CPUs: counter %u wrote into a later counter", cpus[i], k);
			KT_EXPECT(t, all_bytes(buf + bytes, GUARD, POISON),
				  "%u CPUs: counter %u wrote past the buffer", cpus[i], k);
		}
		for (k = 0; k < nr; k++) {
			KT_EXPECT(t, percpu_counter_tree_precise_sum(&c[k]) == -(long)cpus[i],
				  "counter %u: precise %ld", k, percpu_counter_tree_precise_sum(&c[k]));
			for (m = 0; m < cpus[i]; m += cpus[i] / 2 + 1)
				KT_EXPECT(t, hu_level0(&c[k], m) == (unsigned long)-1,
					  "counter %u level0[%u]", k, m);
		}
		percpu_counter_tree_destroy_many(c, nr);
		free(buf);
		free(snap);
		free(c);
		if (t->failures)
			return;
	}
}

static void lifecycle_init_many_sizing(struct kt *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizing_cpus); i++)
		if (!kt_run_config(t, sizing_cpus[i], init_many_sizing_one, &i))
			return;
}

/*
 * docs/spec/hpcc.md#hpcc-bug-5: static storage for k counters is k *
 * ITEMS_STATIC_SIZE, sized for the compile-time maximum; run at that maximum
 * with all items in use.
 */
static void lifecycle_static_items(struct kt *t)
{
	static struct percpu_counter_tree_level_item
		items[4 * PERCPU_COUNTER_TREE_STATIC_NR_ITEMS + 4];
	struct percpu_counter_tree c[4];
	struct hpcc_shape s;
	unsigned int k;

	KT_ASSERT(t, hpcc_shape_compute(&s, NR_CPUS, 32) == 0, "");
	KT_EXPECT(t, PERCPU_COUNTER_TREE_STATIC_NR_ITEMS == s.nr_items,
		  "STATIC_NR_ITEMS %d, NR_CPUS %d needs %lu",
		  (int)PERCPU_COUNTER_TREE_STATIC_NR_ITEMS, NR_CPUS, s.nr_items);
	KT_EXPECT(t, PERCPU_COUNTER_TREE_ITEMS_STATIC_SIZE == s.nr_items * ITEM_SIZE,
		  "STATIC_SIZE %zu", (size_t)PERCPU_COUNTER_TREE_ITEMS_STATIC_SIZE);
#if HPCC_API_ITEMS_ALIGN
	KT_EXPECT(t, PERCPU_COUNTER_TREE_ITEMS_ALIGN(1) == ITEM_SIZE &&
		  PERCPU_COUNTER_TREE_ITEMS_ALIGN(0) == 0 &&
		  PERCPU_COUNTER_TREE_ITEMS_ALIGN(ITEM_SIZE + 1) == 2 * ITEM_SIZE, "ALIGN");
#else
	kt_diag(t, "no PERCPU_COUNTER_TREE_ITEMS_ALIGN in this tree (probed): not checked");
#endif
	if (!kt_hpcc_setup(t, NR_CPUS))
		return;
	KT_EXPECT(t, percpu_counter_tree_items_size() == PERCPU_COUNTER_TREE_ITEMS_STATIC_SIZE,
		  "items_size at NR_CPUS");
	memset(&items[4 * PERCPU_COUNTER_TREE_STATIC_NR_ITEMS], POISON, 4 * ITEM_SIZE);
	KT_ASSERT(t, percpu_counter_tree_init_many(c, items, 4, 32, GFP_KERNEL) == 0, "init");
	for (k = 0; k < 4; k++) {
		touch_every_item(&c[k]);
		KT_EXPECT(t, all_items_nonzero(&c[k], s.nr_items), "counter %u", k);
	}
	KT_EXPECT(t, all_bytes((unsigned char *)&items[4 * PERCPU_COUNTER_TREE_STATIC_NR_ITEMS],
			       4 * ITEM_SIZE, POISON), "write past 4 * STATIC_SIZE");
	percpu_counter_tree_destroy_many(c, 4);
}

/* -EINVAL and one WARN for a batch that is not a power of two > 1. */
static void lifecycle_batch_validation(struct kt *t)
{
	static const unsigned long bad[] = { 0, 1, 3, 5, 6, 7, 12, 33, 48, 100, 1000,
					     (1UL << 20) + 1, ULONG_MAX, (1UL << 63) + 1,
					     3UL << 40 };
	struct hu_counter hc;
	unsigned int i;

	if (!kt_hpcc_setup(t, 8))
		return;
	kt_expect_warns(t);
	hc.items = hu_items_alloc(1);
	KT_ASSERT(t, hc.items, "memory");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		unsigned long w0 = kc_warn_count();

		KT_EXPECT(t, percpu_counter_tree_init(&hc.c, hc.items, bad[i], GFP_KERNEL) ==
			  -EINVAL, "batch %lu accepted", bad[i]);
		KT_EXPECT(t, kc_warn_count() == w0 + 1, "batch %lu: %lu warnings", bad[i],
			  kc_warn_count() - w0);
	}
	for (i = 1; i <= 40; i++) {
		unsigned long w0 = kc_warn_count();

		KT_EXPECT(t, percpu_counter_tree_init(&hc.c, hc.items, 1UL << i, GFP_KERNEL) == 0,
			  "batch 2^%u refused", i);
		KT_EXPECT(t, kc_warn_count() == w0, "batch 2^%u warned", i);
		percpu_counter_tree_destroy(&hc.c);
	}
	free(hc.items);
}

/* One CPU: no item memory, but the level-0 block exceeds a CPU's area. */
static void enomem_level0(struct kt *t, void *arg)
{
	unsigned int nr = KC_PERCPU_UNIT / sizeof(unsigned long) + 1;
	struct percpu_counter_tree *c = calloc(nr, sizeof(*c));

	KT_ASSERT(t, c, "memory");
	KT_EXPECT(t, percpu_counter_tree_items_size() == 0, "order 0");
	KT_EXPECT(t, percpu_counter_tree_init_many(c, NULL, nr, 32, GFP_KERNEL) == -ENOMEM,
		  "%u counters", nr);
	free(c);
}

/* More CPUs than per-CPU areas. */
static void enomem_cpus(struct kt *t, void *arg)
{
	void *buf = hu_items_alloc(1);
	struct percpu_counter_tree one;

	KT_ASSERT(t, buf, "memory");
	KT_EXPECT(t, percpu_counter_tree_init(&one, buf, 32, GFP_KERNEL) == -ENOMEM,
		  "%u CPUs", NR_CPUS + 1);
	free(buf);
}

/* -ENOMEM when the per-CPU allocation fails. */
static void lifecycle_enomem(struct kt *t)
{
	kt_run_config(t, 1, enomem_level0, NULL);
	kt_run_config(t, NR_CPUS + 1, enomem_cpus, NULL);
}

/* destroy frees; a new init (same storage, garbage fields) starts from 0. */
static void lifecycle_destroy_and_reuse(struct kt *t)
{
	struct percpu_counter_tree c[3];
	void *items, *old;
	unsigned int round, k;

	if (!kt_hpcc_setup(t, 16))
		return;
	items = hu_items_alloc(3);
	KT_ASSERT(t, items, "memory");
	KT_ASSERT(t, percpu_counter_tree_init_many(c, items, 3, 32, GFP_KERNEL) == 0, "");
	for (round = 0; round < 5; round++) {
		for (k = 0; k < 3; k++) {
			hu_add_migrating(&c[k], (round + k) % 16, k, 12345 * (k + 1));
			percpu_counter_tree_set(&c[k], 777);
		}
		old = c[0].level0;
		percpu_counter_tree_destroy_many(c, 3);
		memset(c, 0xff, sizeof(c));
		memset(items, 0x5a, 3 * percpu_counter_tree_items_size());
		KT_ASSERT(t, percpu_counter_tree_init_many(c, items, 3, 32, GFP_KERNEL) == 0, "");
		/* kcompat reuses a freed block of the same size: it was freed. */
		KT_EXPECT(t, (void *)c[0].level0 == old, "per-CPU block not freed/reused");
		for (k = 0; k < 3; k++) {
			KT_EXPECT(t, percpu_counter_tree_precise_sum(&c[k]) == 0 &&
				  percpu_counter_tree_approximate_sum(&c[k]) == 0,
				  "round %u counter %u: %ld/%ld", round, k,
				  percpu_counter_tree_precise_sum(&c[k]),
				  percpu_counter_tree_approximate_sum(&c[k]));
			KT_EXPECT(t, (char *)c[k].level0 - (char *)c[0].level0 ==
				  (long)(k * sizeof(unsigned long)), "level-0 words side by side");
		}
	}
	/* Single-counter form. */
	percpu_counter_tree_destroy_many(c, 3);
	KT_ASSERT(t, percpu_counter_tree_init(&c[0], items, 2, GFP_KERNEL) == 0, "");
	percpu_counter_tree_add(&c[0], 3);
	KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&c[0]), 3);
	percpu_counter_tree_destroy(&c[0]);
	free(items);
}

static const struct kt_case cases[] = {
	KT_CASE(lifecycle_use_before_init),
	KT_CASE(lifecycle_init_many_sizing),
	KT_CASE(lifecycle_static_items),
	KT_CASE(lifecycle_batch_validation),
	KT_CASE(lifecycle_enomem),
	KT_CASE(lifecycle_destroy_and_reuse),
};

KT_MAIN("hpcc_lifecycle", cases)
