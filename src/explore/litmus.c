// SPDX-License-Identifier: GPL-2.0
/*
 * litmus: a litmus test, as scripts/litmus translates it from the kernel's
 * litmus C form (docs/explore.md#litmus-tests), run by kcompat's own
 * primitives: the accesses, barriers, spin locks, RCU and value-returning
 * atomics on int variables (the program's form: litmus_parse.c).
 *
 * The execution fails (litmus_exists) when the exists clause holds at the
 * end (after every store buffer drained) and so does the filter clause,
 * when there is one: the outcome was observed. A
 * load through a register that holds no variable's address fails it too
 * (litmus_bad_pointer).
 */
#include <stdio.h>
#include <string.h>
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include "litmus.h"
#include "xp.h"

static struct lt_prog T;
static int vars[LT_VARS];
static spinlock_t locks[LT_VARS];
static int regs[LT_THREADS][LT_REGS];

/*
 * The atomics' view of a variable: the kernel's tests apply both
 * atomic_*() and xchg()/cmpxchg() to int words, and an atomic_t is one
 * int (the build has -fno-strict-aliasing).
 */
static atomic_t *atom(unsigned int v)
{
	return (atomic_t *)&vars[v];
}

static int lt_init(const struct xp_cfg *cfg)
{
	if (!cfg->litmus) {
		fprintf(stderr, "explore: the litmus harness wants --litmus FILE\n");
		return -1;
	}
	if (lt_parse(cfg->litmus, &T))
		return -1;
	if (kc_set_nr_cpu_ids(T.nr_threads)) {
		fprintf(stderr, "explore: cannot set up %u cpus\n", T.nr_threads);
		return -1;
	}
	return 0;
}

static unsigned int lt_nr_fibers(const struct xp_cfg *cfg)
{
	(void)cfg;
	return T.nr_threads;
}

static unsigned int lt_fiber_cpu(unsigned int id)
{
	return id;
}

static void lt_setup(void)
{
	unsigned int i;

	for (i = 0; i < T.nr_vars; i++) {
		vars[i] = T.init[i];
		spin_lock_init(&locks[i]);
	}
	memset(regs, 0, sizeof(regs));
}

static void lt_teardown(void)
{
}

/* The variable a pointer register points to, or -1 (the execution failed). */
static int deref(unsigned int id, unsigned int r)
{
	int v = regs[id][r] - LT_PTR_BASE;

	if (v >= 0 && (unsigned int)v < T.nr_vars)
		return v;
	xp_fail("litmus_bad_pointer", "P%u's r%u holds %d, no variable's address",
		id, r, regs[id][r]);
	return -1;
}

/* Run @in on fiber @id; false when the if's operations are skipped. */
static bool lt_run(unsigned int id, const struct lt_insn *in)
{
	int *reg = &regs[id][in->reg], *w = &vars[in->var], p;

	switch (in->op) {
	case LT_ST: WRITE_ONCE(*w, in->val); break;
	case LT_ST_REL: smp_store_release(w, in->val); break;
	case LT_ST_ASSIGN: rcu_assign_pointer(*w, in->val); break;
	case LT_ST_REG: WRITE_ONCE(*w, *reg); break;
	case LT_LD: *reg = READ_ONCE(*w); break;
	case LT_LD_ACQ: *reg = smp_load_acquire(w); break;
	case LT_LD_DEREF: *reg = rcu_dereference(*w); break;
	case LT_LD_PTR:
		p = deref(id, in->var);
		if (p >= 0)
			*reg = READ_ONCE(vars[p]);
		break;
	case LT_MB: smp_mb(); break;
	case LT_WMB: smp_wmb(); break;
	case LT_RMB: smp_rmb(); break;
	case LT_LOCK: spin_lock(&locks[in->var]); break;
	case LT_UNLOCK: spin_unlock(&locks[in->var]); break;
	case LT_ISLOCKED: *reg = READ_ONCE(locks[in->var].xp_held); break;
	case LT_RCU_LOCK: rcu_read_lock(); break;
	case LT_RCU_UNLOCK: rcu_read_unlock(); break;
	case LT_SYNC: synchronize_rcu(); break;
	case LT_XCHG: *reg = atomic_xchg(atom(in->var), in->val); break;
	case LT_CMPXCHG: *reg = atomic_cmpxchg(atom(in->var), in->val, in->val2); break;
	case LT_ADD: atomic_add(in->val, atom(in->var)); break;
	case LT_ADD_RETURN: *reg = atomic_add_return(in->val, atom(in->var)); break;
	case LT_ADD_UNLESS: atomic_add_unless(atom(in->var), in->val, in->val2); break;
	case LT_ADDI: *reg += in->val; break;
	case LT_IF_EQ: return *reg == in->val;
	case LT_IF_NE: return *reg != in->val;
	}
	return true;
}

static void lt_fiber(unsigned int id)
{
	const struct lt_insn *in;
	unsigned int i;

	for (i = 0; i < T.nr_ops[id] && !xp_failed(); i++) {
		in = &T.ops[id][i];
		if (!lt_run(id, in))
			i += in->val2;
	}
}

/* Does @c hold at the end? An empty one does. */
static bool lt_holds(const struct lt_cond *c)
{
	unsigned int i;
	bool all = true;

	for (i = 0; i < c->nr_terms; i++) {
		int got = c->term[i].thread < 0 ? vars[c->term[i].idx] :
			  regs[c->term[i].thread][c->term[i].idx];

		all = all && got == c->term[i].val;
		if (!c->term[i].or_next && i + 1 < c->nr_terms)
			continue;
		if (all)
			return true;
		all = true;
	}
	return !c->nr_terms;
}

static void lt_final(void)
{
	if (lt_holds(&T.filter) && lt_holds(&T.exists))
		xp_fail("litmus_exists", "the exists clause holds");
}

static const char *lt_addr_name(const void *addr, char *buf, size_t len)
{
	unsigned int i;

	for (i = 0; i < T.nr_vars; i++)
		if (addr == &vars[i] || addr == &locks[i].xp_held) {
			snprintf(buf, len, "%s", T.name[i]);
			return buf;
		}
	return NULL;
}

static void lt_describe(const struct xp_cfg *cfg, char *buf, size_t len)
{
	snprintf(buf, len, " %s", cfg->litmus);
}

static const struct xp_harness xp_litmus_harness = {
	.name = "litmus",
	.describe = lt_describe,
	.init = lt_init,
	.nr_fibers = lt_nr_fibers,
	.fiber_cpu = lt_fiber_cpu,
	.setup = lt_setup,
	.fiber = lt_fiber,
	.final = lt_final,
	.teardown = lt_teardown,
	.addr_name = lt_addr_name,
};
XP_HARNESS_REGISTER(xp_litmus_harness);
