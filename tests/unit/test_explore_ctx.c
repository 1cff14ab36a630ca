// SPDX-License-Identifier: GPL-2.0
/*
 * The explorer's fiber switch (lib/kcompat/ctx.c) keeps what the ABI says a
 * call keeps of the floating-point state: a new fiber starts with its
 * creator's rounding mode and x87 control word, and each side of a switch
 * finds its own mode again (docs/explore.md: our own switch saves the SSE and
 * x87 control words). Both switches where the one of our own exists. The
 * source is compiled in directly: src/explore is not part of libsuite.a.
 */
#include <fenv.h>
#include <stdint.h>
#include "ktap.h"
#include "../../lib/kcompat/ctx.c"

#define STACK_SIZE	(64 * 1024)

static struct xp_ctx main_ctx, fib_ctx;
static char stack[STACK_SIZE] __attribute__((aligned(16)));

/* The creator's x87 control word, and what the fiber saw, for the creator to judge. */
static unsigned int creator_cw;
static struct {
	int round_first, round_again;
	unsigned int x87_cw;
	double q;
	long double lq;
} seen;

static unsigned int x87_cw(void)
{
#ifdef __x86_64__
	uint16_t cw;

	__asm__ volatile("fnstcw %0" : "=m"(cw));
	return cw;
#else
	return 0;
#endif
}

static void quotients(double *q, long double *lq)
{
	volatile double one = 1.0, three = 3.0;

	*q = one / three;
	/* x87 arithmetic only under the creator's control word: another may trap. */
	*lq = (long double)one / (long double)three;
}

static void fiber(void)
{
	seen.round_first = fegetround();
	seen.x87_cw = x87_cw();
	if (seen.round_first == FE_UPWARD && seen.x87_cw == creator_cw)
		quotients(&seen.q, &seen.lq);
	fesetround(FE_TOWARDZERO);
	xp_ctx_switch(&fib_ctx, &main_ctx);
	seen.round_again = fegetround();
	xp_ctx_switch(&fib_ctx, &main_ctx);
	for (;;)
		xp_ctx_switch(&fib_ctx, &main_ctx);
}

static void run_fibers(struct kt *t, bool ucontext)
{
	int saved = fegetround();
	unsigned int cw;
	long double lq;
	double q;

	xp_ctx_use_ucontext = ucontext;
	memset(&seen, 0, sizeof(seen));
	fesetround(FE_UPWARD);
	cw = creator_cw = x87_cw();
	quotients(&q, &lq);
	/* No inexact flag pending: a fiber with its x87 exceptions unmasked fails a check, not a trap. */
	feclearexcept(FE_ALL_EXCEPT);
	xp_ctx_make(&fib_ctx, stack, sizeof(stack), fiber);
	xp_ctx_switch(&main_ctx, &fib_ctx);
	KT_EXPECT(t, fegetround() == FE_UPWARD,
		  "%s: the creator's rounding mode changed to the fiber's (%d)",
		  ucontext ? "ucontext" : "asm", fegetround());
	fesetround(FE_DOWNWARD);
	xp_ctx_switch(&main_ctx, &fib_ctx);
	KT_EXPECT(t, fegetround() == FE_DOWNWARD, "%s: the creator's second mode lost (%d)",
		  ucontext ? "ucontext" : "asm", fegetround());
	fesetround(saved);

	KT_EXPECT(t, seen.round_first == FE_UPWARD, "%s: a new fiber rounds %d, its creator %d",
		  ucontext ? "ucontext" : "asm", seen.round_first, FE_UPWARD);
	KT_EXPECT(t, seen.x87_cw == cw, "%s: a new fiber's x87 control word %#x, its creator's %#x",
		  ucontext ? "ucontext" : "asm", seen.x87_cw, cw);
	KT_EXPECT(t, seen.q == q && seen.lq == lq,
		  "%s: 1/3 in a new fiber %a (x87 %La), in its creator %a (%La)",
		  ucontext ? "ucontext" : "asm", seen.q, seen.lq, q, lq);
	KT_EXPECT(t, seen.round_again == FE_TOWARDZERO,
		  "%s: the fiber's own mode lost across a switch (%d)",
		  ucontext ? "ucontext" : "asm", seen.round_again);
}

static void fresh_fiber_asm(struct kt *t)
{
	if (!xp_ctx_asm_available()) {
		kt_skip(t, "no switch of our own here (not x86-64, or a sanitizer)");
		return;
	}
	run_fibers(t, false);
}

static void fresh_fiber_ucontext(struct kt *t)
{
	run_fibers(t, true);
}

static const struct kt_case cases[] = {
	KT_CASE(fresh_fiber_asm),
	KT_CASE(fresh_fiber_ucontext),
};

KT_MAIN("explore_ctx", cases)
