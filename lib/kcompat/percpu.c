// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU allocator. One NORESERVE mapping holds NR_CPUS areas of
 * KC_PERCPU_UNIT bytes; an allocation is an offset range valid in every
 * area. A size header sits just before each block in CPU 0's area only
 * (no per-CPU code touches it). Freed blocks go to per-size free lists.
 */
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/kernel.h>
#include <linux/percpu.h>

#define KC_PCPU_MIN_ALIGN	16UL
#define KC_PCPU_HDR		16UL	/* keeps blocks 16-byte aligned */
#define KC_PCPU_CLASSES		64	/* exact-size lists up to 64 * 16 bytes */

struct kc_free_block {
	size_t off;
	struct kc_free_block *next;
};

static pthread_mutex_t pcpu_lock = PTHREAD_MUTEX_INITIALIZER;
static char *pcpu_base;
static size_t pcpu_brk = KC_PCPU_HDR;
static unsigned int pcpu_high_cpus = 1;	/* areas that may hold data */
static struct kc_free_block *pcpu_free[KC_PCPU_CLASSES];

void kc_percpu_note_nr_cpu_ids(unsigned int n);

void kc_percpu_note_nr_cpu_ids(unsigned int n)
{
	pthread_mutex_lock(&pcpu_lock);
	if (n <= NR_CPUS && n > pcpu_high_cpus)
		pcpu_high_cpus = n;
	pthread_mutex_unlock(&pcpu_lock);
}

static size_t *hdr_of(size_t off)
{
	return (size_t *)(pcpu_base + off - KC_PCPU_HDR);
}

static long pcpu_alloc_off(size_t size, size_t align)
{
	unsigned int cls = size / KC_PCPU_MIN_ALIGN;
	size_t off;

	if (!pcpu_base) {
		void *p = mmap(NULL, (size_t)NR_CPUS * KC_PERCPU_UNIT,
			       PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			return -1;
		pcpu_base = p;
	}
	if (align <= KC_PCPU_MIN_ALIGN && cls < KC_PCPU_CLASSES && pcpu_free[cls]) {
		struct kc_free_block *b = pcpu_free[cls];

		pcpu_free[cls] = b->next;
		off = b->off;
		free(b);
		return off;
	}
	off = ALIGN(pcpu_brk + KC_PCPU_HDR, align);
	if (off + size > KC_PERCPU_UNIT)
		return -1;
	pcpu_brk = off + size;
	*hdr_of(off) = size;
	return off;
}

void __percpu *__alloc_percpu_gfp(size_t size, size_t align, gfp_t gfp)
{
	unsigned int cpu;
	long off;

	(void)gfp;
	if (nr_cpu_ids > NR_CPUS || !size)
		return NULL;
	size = ALIGN(size, KC_PCPU_MIN_ALIGN);
	if (align < KC_PCPU_MIN_ALIGN)
		align = KC_PCPU_MIN_ALIGN;
	pthread_mutex_lock(&pcpu_lock);
	off = pcpu_alloc_off(size, align);
	if (off >= 0)
		for (cpu = 0; cpu < pcpu_high_cpus; cpu++)
			memset(pcpu_base + (size_t)cpu * KC_PERCPU_UNIT + off, 0, size);
	pthread_mutex_unlock(&pcpu_lock);
	return off < 0 ? NULL : pcpu_base + off;
}

void __percpu *__alloc_percpu(size_t size, size_t align)
{
	return __alloc_percpu_gfp(size, align, GFP_KERNEL);
}

void free_percpu(void __percpu *ptr)
{
	struct kc_free_block *b;
	size_t off, size;
	unsigned int cls;

	if (!ptr)
		return;
	pthread_mutex_lock(&pcpu_lock);
	off = (char *)ptr - pcpu_base;
	size = *hdr_of(off);
	cls = size / KC_PCPU_MIN_ALIGN;
	if (cls < KC_PCPU_CLASSES) {
		b = malloc(sizeof(*b));
		if (b) {
			b->off = off;
			b->next = pcpu_free[cls];
			pcpu_free[cls] = b;
		}
	}
	/* Larger blocks are not reused: the suite allocates them once. */
	pthread_mutex_unlock(&pcpu_lock);
}

#if defined(__x86_64__)
/*
 * kc_pcpu_thunk: call *%rax with the arguments in %rdi, %rsi, %rdx and
 * return its %rax, keeping every other general register (the callers,
 * __kc_pcpu_thunk_call(), declare only %rax, the flags, memory and the
 * SSE registers clobbered). The stack is re-aligned for the C callee.
 */
asm(".text\n"
    ".globl kc_pcpu_thunk\n"
    ".type kc_pcpu_thunk, @function\n"
    "kc_pcpu_thunk:\n"
    ".cfi_startproc\n"
    "push %rbp\n"
    ".cfi_adjust_cfa_offset 8\n"
    ".cfi_rel_offset %rbp, 0\n"
    "mov %rsp, %rbp\n"
    ".cfi_def_cfa_register %rbp\n"
    "and $-16, %rsp\n"
    "push %rcx\n"
    "push %rdx\n"
    "push %rsi\n"
    "push %rdi\n"
    "push %r8\n"
    "push %r9\n"
    "push %r10\n"
    "push %r11\n"
    "call *%rax\n"
    "pop %r11\n"
    "pop %r10\n"
    "pop %r9\n"
    "pop %r8\n"
    "pop %rdi\n"
    "pop %rsi\n"
    "pop %rdx\n"
    "pop %rcx\n"
    "mov %rbp, %rsp\n"
    "pop %rbp\n"
    ".cfi_def_cfa %rsp, 8\n"
    "ret\n"
    ".cfi_endproc\n"
    ".size kc_pcpu_thunk, .-kc_pcpu_thunk\n");
#endif
