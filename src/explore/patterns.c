// SPDX-License-Identifier: GPL-2.0
/*
 * Barrier patterns, explored under each memory model
 * (docs/explore.md#memory-models): the subjects of the barrier mutants
 * and the models' self-test. Two fibers each; --plant drops the barrier
 * the pattern needs, so that the model that shows the reordering fails
 * and the others pass.
 *
 *   sb       store buffering (Dekker): each fiber stores its flag,
 *            smp_mb(), loads the other's; both loads 0 is forbidden.
 *            Without the barrier TSO and PSO show it.
 *   mp       message passing: data, then smp_store_release() of the
 *            flag; a reader that sees the flag (smp_load_acquire())
 *            must see the data. A plain flag store: PSO shows it.
 *   publish  an object filled, then rcu_assign_pointer(); a reader
 *            under rcu_read_lock() that sees the pointer must see the
 *            filled fields. A plain store (WRITE_ONCE): PSO shows it.
 */
#include <stdio.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/rcupdate.h>
#include "xp.h"

static struct {
	int x, y, r0, r1;
	int data, flag;
	struct pat_obj {
		int a, b;
	} obj, *gp;
} P;
static bool plant;

static int pat_init(const struct xp_cfg *cfg)
{
	plant = cfg->plant;
	if (kc_set_nr_cpu_ids(2)) {
		fprintf(stderr, "explore: cannot set up 2 cpus\n");
		return -1;
	}
	return 0;
}

static unsigned int pat_nr_fibers(const struct xp_cfg *cfg)
{
	(void)cfg;
	return 2;
}

static unsigned int pat_fiber_cpu(unsigned int id)
{
	return id;
}

static void pat_setup(void)
{
	memset(&P, 0, sizeof(P));
	P.r0 = P.r1 = -1;
}

static void pat_teardown(void)
{
}

static void sb_fiber(unsigned int id)
{
	if (id == 0) {
		WRITE_ONCE(P.x, 1);
		if (!plant)
			smp_mb();
		P.r0 = READ_ONCE(P.y);
	} else {
		WRITE_ONCE(P.y, 1);
		smp_mb();
		P.r1 = READ_ONCE(P.x);
	}
}

static void sb_final(void)
{
	if (P.r0 == 0 && P.r1 == 0)
		xp_fail("sb_both_zero", "each fiber read the other's flag as 0 after its own store");
}

static void mp_fiber(unsigned int id)
{
	int seen;

	if (id == 0) {
		WRITE_ONCE(P.data, 42);
		if (plant)
			WRITE_ONCE(P.flag, 1);
		else
			smp_store_release(&P.flag, 1);
		return;
	}
	if (!smp_load_acquire(&P.flag))
		return;
	seen = READ_ONCE(P.data);
	if (seen != 42)
		xp_fail("mp_stale_data", "flag seen set, data read as %d (want 42)", seen);
}

static void publish_fiber(unsigned int id)
{
	struct pat_obj *o;
	int a, b;

	if (id == 0) {
		o = &P.obj;
		WRITE_ONCE(o->a, 1);
		WRITE_ONCE(o->b, 2);
		if (plant)
			WRITE_ONCE(P.gp, o);
		else
			rcu_assign_pointer(P.gp, o);
		return;
	}
	rcu_read_lock();
	o = rcu_dereference(P.gp);
	if (o) {
		a = READ_ONCE(o->a);
		b = READ_ONCE(o->b);
		if (a != 1 || b != 2)
			xp_fail("publish_unfilled", "published object read as {%d, %d} (want {1, 2})",
				a, b);
	}
	rcu_read_unlock();
}

static void pat_final(void)
{
}

static const char *pat_addr_name(const void *addr, char *buf, size_t len)
{
	static const struct {
		size_t off;
		const char *name;
	} names[] = {
		{ offsetof(typeof(P), x), "x" }, { offsetof(typeof(P), y), "y" },
		{ offsetof(typeof(P), data), "data" }, { offsetof(typeof(P), flag), "flag" },
		{ offsetof(typeof(P), obj.a), "obj.a" }, { offsetof(typeof(P), obj.b), "obj.b" },
		{ offsetof(typeof(P), gp), "gp" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((const char *)addr == (const char *)&P + names[i].off) {
			snprintf(buf, len, "%s", names[i].name);
			return buf;
		}
	return NULL;
}

#define PATTERN(nm, fib, fin) {							\
	.name = nm, .init = pat_init, .nr_fibers = pat_nr_fibers,		\
	.fiber_cpu = pat_fiber_cpu, .setup = pat_setup, .fiber = fib,		\
	.final = fin, .teardown = pat_teardown, .addr_name = pat_addr_name,	\
}

static const struct xp_harness xp_sb_harness = PATTERN("sb", sb_fiber, sb_final);
static const struct xp_harness xp_mp_harness = PATTERN("mp", mp_fiber, pat_final);
static const struct xp_harness xp_publish_harness = PATTERN("publish", publish_fiber, pat_final);
XP_HARNESS_REGISTER(xp_sb_harness);
XP_HARNESS_REGISTER(xp_mp_harness);
XP_HARNESS_REGISTER(xp_publish_harness);
