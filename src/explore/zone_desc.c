// SPDX-License-Identifier: GPL-2.0
/*
 * zone_desc, explored: lib/mm's zone descriptor replaced under RCU (a
 * memory-hotplug resize, docs/spec/compaction.md#cmp-races) while a
 * reader walks it.
 *
 *   updater (CPU 0): replaces the descriptor with a grown one and frees
 *                    the old one after a grace period (call_rcu()), then
 *                    again, waiting itself (synchronize_rcu(), kfree());
 *   reader  (CPU 1): two read-side sections, each taking the descriptor
 *                    with rcu_dereference() and reading every field.
 *
 * Descriptor g (0, 1, 2) spans BASE + g pageblocks and manages one
 * pageblock less; zone_desc_replace() numbers it (generation g). The
 * reader's fields are points (READ_ONCE), so an updater step can land
 * between any two of them:
 *
 *   desc_filled  a descriptor the reader reaches is the one of its
 *                generation, with that generation's fields (a field
 *                written after rcu_assign_pointer() is caught here)
 *   desc_stable  the fields read twice in one section agree (a
 *                descriptor freed under the reader and reused differs)
 *   desc_final   at the end the zone holds descriptor 2
 */
#include <stdio.h>
#include <stdlib.h>
#include <linux/compiler.h>
#include <linux/rcupdate.h>
#include <mm/compaction.h>
#include "xp.h"

#define PAGEBLOCK	512UL
#define BASE		(1UL << 17)
#define GENERATIONS	3

static const struct compact_params params = {
	.policy = COMPACT_POLICY_THRESHOLD1,
	.p5 = COMPACT_P5_INTENDED,
	.atomic_mode = COMPACT_ATOMIC_RELAXED,
	.cluster_max = 32,
	.min_scan_limit = PAGEBLOCK,
};

static struct zone zone;
static struct zone_desc *objs[GENERATIONS];	/* descriptor g, once allocated */

static int zd_init(const struct xp_cfg *cfg)
{
	if (cfg->cpus != 2) {
		fprintf(stderr, "explore: zone_desc wants 2 cpus\n");
		return -1;
	}
	if (kc_set_nr_cpu_ids(2) || percpu_counter_tree_subsystem_init()) {
		fprintf(stderr, "explore: cannot set up 2 cpus\n");
		return -1;
	}
	return 0;
}

static unsigned int zd_nr_fibers(const struct xp_cfg *cfg)
{
	return 2;
}

static unsigned int zd_fiber_cpu(unsigned int id)
{
	return id;
}

static struct zone_desc *desc_new(unsigned int g)
{
	unsigned long spanned = BASE + g * PAGEBLOCK;
	struct zone_desc *d = zone_desc_alloc(0, spanned, spanned - PAGEBLOCK, PAGEBLOCK);

	if (!d)
		abort();
	WRITE_ONCE(objs[g], d);
	return d;
}

static void zd_setup(void)
{
	unsigned int g;

	for (g = 0; g < GENERATIONS; g++)
		objs[g] = NULL;
	if (zone_init(&zone, &params, desc_new(0), (BASE >> 9) + GENERATIONS, false))
		abort();
}

static void zd_teardown(void)
{
	zone_destroy(&zone);
}

struct snap {
	unsigned long start, spanned, managed, pageblock, generation;
};

static void read_desc(const struct zone_desc *d, struct snap *s)
{
	s->generation = READ_ONCE(d->generation);
	s->start = READ_ONCE(d->zone_start_pfn);
	s->spanned = READ_ONCE(d->spanned_pages);
	s->managed = READ_ONCE(d->managed_pages);
	s->pageblock = READ_ONCE(d->pageblock_nr_pages);
}

/* One read-side section over the published descriptor. */
static void reader_walk(void)
{
	struct zone_desc *d;
	struct snap a, b;
	unsigned long g;

	rcu_read_lock();
	d = rcu_dereference(zone.desc);
	read_desc(d, &a);
	g = a.generation;
	if (g >= GENERATIONS || READ_ONCE(objs[g]) != d)
		xp_fail("desc_filled", "descriptor %p read generation %lu, it is not that "
			"generation's", (void *)d, g);
	else if (a.start || a.spanned != BASE + g * PAGEBLOCK ||
		 a.managed != a.spanned - PAGEBLOCK || a.pageblock != PAGEBLOCK)
		xp_fail("desc_filled", "descriptor %lu read as start %lu spanned %lu managed "
			"%lu pageblock %lu", g, a.start, a.spanned, a.managed, a.pageblock);
	read_desc(d, &b);
	if (a.generation != b.generation || a.spanned != b.spanned ||
	    a.managed != b.managed || a.pageblock != b.pageblock || a.start != b.start)
		xp_fail("desc_stable", "descriptor %lu changed under the reader: start %#lx "
			"-> %#lx, spanned %#lx -> %#lx, managed %#lx -> %#lx, pageblock %#lx -> "
			"%#lx, generation %#lx -> %#lx", a.generation, a.start, b.start, a.spanned,
			b.spanned, a.managed, b.managed, a.pageblock, b.pageblock, a.generation,
			b.generation);
	rcu_read_unlock();
}

static void zd_fiber(unsigned int id)
{
	if (id == 0) {
		zone_desc_replace(&zone, desc_new(1));
		zone_desc_replace_sync(&zone, desc_new(2));
		return;
	}
	reader_walk();
	reader_walk();
}

static void zd_final(void)
{
	struct zone_desc *d = rcu_dereference_protected(zone.desc, 1);

	if (d != objs[2] || d->generation != 2)
		xp_fail("desc_final", "the zone holds %p (generation %lu), not descriptor 2",
			(void *)d, d->generation);
}

static const char *zd_addr_name(const void *addr, char *buf, size_t len)
{
	unsigned int g;

	if (addr == &zone.desc)
		return "zone.desc";
	if (addr == &kc_rcu_gp_token)
		return "rcu";
	for (g = 0; g < GENERATIONS; g++) {
		const struct zone_desc *d = objs[g];

		if (addr == &objs[g])
			return snprintf(buf, len, "harness.desc[%u]", g), buf;
		if (!d || (const char *)addr < (const char *)d ||
		    (const char *)addr >= (const char *)(d + 1))
			continue;
		return snprintf(buf, len, "desc%u+%zu", g,
				(size_t)((const char *)addr - (const char *)d)), buf;
	}
	return NULL;
}

static const struct xp_harness xp_zone_desc_harness = {
	.name = "zone_desc",
	.init = zd_init,
	.nr_fibers = zd_nr_fibers,
	.fiber_cpu = zd_fiber_cpu,
	.setup = zd_setup,
	.fiber = zd_fiber,
	.final = zd_final,
	.teardown = zd_teardown,
	.addr_name = zd_addr_name,
};
XP_HARNESS_REGISTER(xp_zone_desc_harness);
