// SPDX-License-Identifier: GPL-2.0
/*
 * The fiber machine: every harness fiber runs on the calling thread
 * (ctx.c) and gives the thread back at each kcompat scheduling point,
 * where it records the access it is about to make. The search decides
 * which fiber makes its access next. The machine also models what the
 * points block on: a spin lock word that is held, a grace period whose
 * readers have not all left their read-side sections.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <kcompat/ctx.h>
#include "xp.h"
#include "memmodel.h"

#define XP_STACK	(256UL << 10)

enum { F_READY, F_DONE };

struct xp_fiber {
	struct xp_ctx ctx;
	void *stack;
	int state;
	unsigned int cpu;
	unsigned int points;		/* points passed: the order of @next */
	struct xp_access next;
	int rcu_nest;
	unsigned long rcu_exits;	/* read-side sections left */
	unsigned long gp_seen[XP_MAX_FIBERS];	/* at its grace period's start */
	unsigned int gp_wait;		/* fibers that were inside then */
};

static struct {
	const struct xp_harness *h;
	const struct xp_cfg *cfg;
	struct xp_fiber f[XP_MAX_FIBERS];
	unsigned int n;
	struct xp_fiber *cur;
	struct xp_ctx main_ctx;
	bool failed;
	char invariant[64], message[256];
} M;

static void point(const void *addr, enum kc_xp_kind kind)
{
	struct xp_fiber *f = M.cur;

	f->next.addr = addr;
	f->next.kind = kind;
	xp_ctx_switch(&f->ctx, &M.main_ctx);
}

void xp_fail(const char *invariant, const char *fmt, ...)
{
	va_list ap;

	if (M.failed)
		return;
	M.failed = true;
	snprintf(M.invariant, sizeof(M.invariant), "%s", invariant);
	va_start(ap, fmt);
	vsnprintf(M.message, sizeof(M.message), fmt, ap);
	va_end(ap);
	/* A fiber stops here for good; the final checks fail in place. */
	if (M.cur)
		xp_ctx_switch(&M.cur->ctx, &M.main_ctx);
}

static void entry(void)
{
	struct xp_fiber *f = M.cur;

	M.h->fiber((unsigned int)(f - M.f));
	f->state = F_DONE;
	xp_ctx_switch(&f->ctx, &M.main_ctx);
}

int xp_machine_init(const struct xp_harness *h, const struct xp_cfg *cfg)
{
	unsigned int i;

	M.h = h;
	M.cfg = cfg;
	M.n = h->nr_fibers(cfg);
	if (M.n > XP_MAX_FIBERS) {
		fprintf(stderr, "explore: %u fibers, at most %u\n", M.n, XP_MAX_FIBERS);
		return -1;
	}
	if (xp_mm_init(M.n, xp_current))
		return -1;
	for (i = 0; i < M.n; i++) {
		M.f[i].stack = mmap(NULL, XP_STACK, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (M.f[i].stack == MAP_FAILED)
			return -1;
	}
	return 0;
}

int xp_current(void)
{
	return M.cur ? (int)(M.cur - M.f) : -1;
}

/* With a weak memory model, the store buffers' agents too (memmodel.h). */
unsigned int xp_nr_fibers(void)
{
	return M.n + xp_mm_agents();
}

void xp_exec_begin(void)
{
	unsigned int i;

	M.failed = false;
	M.invariant[0] = M.message[0] = '\0';
	M.h->setup();
	for (i = 0; i < M.n; i++) {
		struct xp_fiber *f = &M.f[i];

		xp_ctx_make(&f->ctx, f->stack, XP_STACK, entry);
		f->state = F_READY;
		f->cpu = M.h->fiber_cpu(i);
		f->next.addr = NULL;
		f->next.kind = KC_XP_START;
		f->points = 0;
		f->rcu_nest = 0;
		f->rcu_exits = 0;
		f->gp_wait = 0;
	}
	kc_xp_hook = point;
	xp_mm_begin();
}

static bool can_run(const struct xp_fiber *f)
{
	unsigned int j;

	if (f->state != F_READY)
		return false;
	switch (f->next.kind) {
	case KC_XP_LOCK:
		return *(const volatile int *)f->next.addr == 0;
	case KC_XP_GP_WAIT:
		for (j = 0; j < M.n; j++)
			if ((f->gp_wait & (1U << j)) && M.f[j].rcu_exits == f->gp_seen[j])
				return false;
		return true;
	default:
		return true;
	}
}

unsigned int xp_enabled(void)
{
	unsigned int i, mask = 0;

	if (M.failed)
		return 0;
	for (i = 0; i < M.n; i++)
		if (can_run(&M.f[i]) && !xp_mm_blocks(i, M.f[i].next.kind))
			mask |= 1U << i;
	return mask | xp_mm_enabled();
}

unsigned int xp_live(void)
{
	unsigned int i, mask = 0;

	for (i = 0; i < M.n; i++)
		if (M.f[i].state != F_DONE)
			mask |= 1U << i;
	return mask | xp_mm_live();
}

bool xp_all_done(void)
{
	unsigned int i;

	for (i = 0; i < M.n; i++)
		if (M.f[i].state != F_DONE)
			return false;
	return true;
}

const struct xp_access *xp_pending(unsigned int id)
{
	if (id >= M.n)
		return xp_mm_pending(id);
	return &M.f[id].next;
}

unsigned int xp_pending_order(unsigned int id)
{
	return M.f[id].points;
}

void xp_step(unsigned int id)
{
	struct xp_fiber *f = &M.f[id];
	unsigned int j;

	if (id >= M.n) {
		xp_mm_flush(id);
		return;
	}
	/* The access at the point happens now: the model's part of it. */
	switch (f->next.kind) {
	case KC_XP_GP:
		f->gp_wait = 0;
		for (j = 0; j < M.n; j++)
			if (j != id && M.f[j].rcu_nest > 0) {
				f->gp_wait |= 1U << j;
				f->gp_seen[j] = M.f[j].rcu_exits;
			}
		break;
	case KC_XP_RCU_UNLOCK:
		if (f->rcu_nest == 1)
			f->rcu_exits++;
		break;
	default:
		break;
	}
	f->points++;
	M.cur = f;
	kc_set_cpu(f->cpu);
	kc_xp_rcu_nest = &f->rcu_nest;
	xp_ctx_switch(&M.main_ctx, &f->ctx);
	f->cpu = kc_get_cpu();
	M.cur = NULL;
	kc_xp_rcu_nest = NULL;
	kc_set_cpu(0);
}

bool xp_failed(void)
{
	return M.failed;
}

void xp_exec_end(void)
{
	kc_xp_hook = NULL;
	xp_mm_end();
	if (!M.failed && !xp_all_done())
		xp_fail("deadlock", "no fiber can run and not all are done");
	if (!M.failed)
		M.h->final();
	M.h->teardown();
}

/* An execution cut short by the search (sleep sets): no checks. */
void xp_exec_abandon(void)
{
	kc_xp_hook = NULL;
	xp_mm_end();
	M.h->teardown();
}

const char *xp_fail_invariant(void)
{
	return M.invariant;
}

const char *xp_fail_message(void)
{
	return M.message;
}

static const char *const kind_names[] = {
	[KC_XP_START] = "start", [KC_XP_READ] = "read", [KC_XP_WRITE] = "write",
	[KC_XP_RMW] = "rmw", [KC_XP_FENCE] = "fence", [KC_XP_RCU_LOCK] = "rcu_lock",
	[KC_XP_RCU_UNLOCK] = "rcu_unlock", [KC_XP_GP] = "gp", [KC_XP_GP_WAIT] = "gp_wait",
	[KC_XP_LOCK] = "lock", [KC_XP_UNLOCK] = "unlock",
};

const char *xp_kind_name(enum kc_xp_kind k)
{
	return (unsigned int)k < sizeof(kind_names) / sizeof(kind_names[0]) ? kind_names[k] : NULL;
}

/* The object as a schedule file names it: one word, "-" when the harness has no name. */
const char *xp_object_name(const struct xp_access *a, char *buf, size_t len)
{
	const char *n = a->addr && M.h->addr_name ? M.h->addr_name(a->addr, buf, len) : NULL;
	size_t i;

	if (a->kind == KC_XP_START || a->kind == KC_XP_FENCE || !n)
		return "-";
	if (n != buf)
		snprintf(buf, len, "%s", n);
	for (i = 0; buf[i]; i++)
		if (buf[i] == ' ' || buf[i] == '\t')
			buf[i] = '_';
	return buf;
}

const char *xp_access_name(const struct xp_access *a, char *buf, size_t len)
{
	char nb[64];
	const char *n = a->addr && M.h->addr_name ? M.h->addr_name(a->addr, nb, sizeof(nb)) : NULL;

	if (a->kind == KC_XP_START || a->kind == KC_XP_FENCE)
		snprintf(buf, len, "%s", kind_names[a->kind]);
	else if (n)
		snprintf(buf, len, "%s %s", kind_names[a->kind], n);
	else
		snprintf(buf, len, "%s %p", kind_names[a->kind], a->addr);
	return buf;
}
