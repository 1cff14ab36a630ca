// SPDX-License-Identifier: GPL-2.0
/*
 * Fiber context switches. swapcontext() saves and restores the signal
 * mask, a system call per switch, which the fibers never change: on
 * x86-64 a switch of our own saves only what the ABI says a call keeps
 * (rbx, rbp, r12-r15, the SSE and x87 control words) on the fiber's own
 * stack and swaps stack pointers. Elsewhere, and under a sanitizer (which
 * must be told of every stack switch), it is ucontext, as is
 * --fiber-switch ucontext (to measure one against the other).
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <kcompat/ctx.h>

#ifndef __has_feature
#define __has_feature(x)	0
#endif
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) && \
	!__has_feature(address_sanitizer) && !__has_feature(thread_sanitizer)
#define XP_CTX_ASM	1
/* void xp_ctx_asm_switch(void **save_sp, void *load_sp) */
__asm__(
	".text\n"
	".p2align 4\n"
	".type xp_ctx_asm_switch, @function\n"
	"xp_ctx_asm_switch:\n"
	"	pushq %rbp\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	pushq %r13\n"
	"	pushq %r14\n"
	"	pushq %r15\n"
	"	subq $8, %rsp\n"
	"	stmxcsr (%rsp)\n"
	"	fnstcw 4(%rsp)\n"
	"	movq %rsp, (%rdi)\n"
	"	movq %rsi, %rsp\n"
	"	ldmxcsr (%rsp)\n"
	"	fldcw 4(%rsp)\n"
	"	addq $8, %rsp\n"
	"	popq %r15\n"
	"	popq %r14\n"
	"	popq %r13\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	popq %rbp\n"
	"	ret\n"
	".size xp_ctx_asm_switch, .-xp_ctx_asm_switch\n");
void xp_ctx_asm_switch(void **save_sp, void *load_sp);
#else
#define XP_CTX_ASM	0
#endif

bool xp_ctx_use_ucontext = !XP_CTX_ASM;

bool xp_ctx_asm_available(void)
{
	return XP_CTX_ASM;
}

void xp_ctx_make(struct xp_ctx *c, void *stack, size_t size, void (*fn)(void))
{
#if XP_CTX_ASM
	if (!xp_ctx_use_ucontext) {
		uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
		uint64_t *sp = (uint64_t *)top;
		uint32_t ctl[2];

		/* fn's frame as a call would leave it: rsp = 8 mod 16, a null return address. */
		*--sp = 0;
		*--sp = (uint64_t)(uintptr_t)fn;
		sp -= 6;			/* rbp rbx r12-r15: zero */
		memset(sp, 0, 6 * sizeof(*sp));
		__asm__ volatile("stmxcsr %0" : "=m"(ctl[0]));
		__asm__ volatile("fnstcw %0" : "=m"(ctl[1]));
		*--sp = (uint64_t)ctl[0] | (uint64_t)(ctl[1] & 0xffff) << 32;
		c->sp = sp;
		return;
	}
#endif
	memset(&c->uc, 0, sizeof(c->uc));
	getcontext(&c->uc);
	c->uc.uc_stack.ss_sp = stack;
	c->uc.uc_stack.ss_size = size;
	c->uc.uc_link = NULL;
	makecontext(&c->uc, fn, 0);
}

void xp_ctx_switch(struct xp_ctx *from, struct xp_ctx *to)
{
#if XP_CTX_ASM
	if (!xp_ctx_use_ucontext) {
		xp_ctx_asm_switch(&from->sp, to->sp);
		return;
	}
#endif
	swapcontext(&from->uc, &to->uc);
}

static size_t xp_page_size(void)
{
	long page = sysconf(_SC_PAGESIZE);

	return page > 0 ? (size_t)page : 4096;
}

void *xp_ctx_stack_alloc(size_t size)
{
	size_t page = xp_page_size();
	char *map = mmap(NULL, size + page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

	if (map == MAP_FAILED)
		return NULL;
	/* An overflow faults on the guard page instead of writing below it. */
	if (mprotect(map, page, PROT_NONE)) {
		munmap(map, size + page);
		return NULL;
	}
	return map + page;
}

void xp_ctx_stack_free(void *stack, size_t size)
{
	munmap((char *)stack - xp_page_size(), size + xp_page_size());
}
