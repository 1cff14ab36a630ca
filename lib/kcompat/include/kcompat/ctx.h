/* SPDX-License-Identifier: GPL-2.0 */
/* Fiber context switches (lib/kcompat/ctx.c): our own on x86-64, ucontext elsewhere. */
#ifndef _XP_CTX_H
#define _XP_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <ucontext.h>

struct xp_ctx {
	void *sp;		/* the switch of our own: the saved stack pointer */
	ucontext_t uc;
};

/* ucontext even where the switch of our own exists (--fiber-switch ucontext). */
extern bool xp_ctx_use_ucontext;
bool xp_ctx_asm_available(void);
/* @c starts @fn (which never returns) on @stack when first switched to. */
void xp_ctx_make(struct xp_ctx *c, void *stack, size_t size, void (*fn)(void));
/* Save the running context in @from, run @to. */
void xp_ctx_switch(struct xp_ctx *from, struct xp_ctx *to);
/* @size bytes of stack above a guard page, or NULL; xp_ctx_stack_free() unmaps it. */
void *xp_ctx_stack_alloc(size_t size);
void xp_ctx_stack_free(void *stack, size_t size);

#endif /* _XP_CTX_H */
