// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU allocator. One NORESERVE mapping holds NR_CPUS areas of
 * KC_PERCPU_UNIT bytes; an allocation is an offset range valid in every
 * area. A header (size, tag of the block's record) sits just before each
 * block in CPU 0's area only (no per-CPU code touches it). Freed blocks
 * go to per-size free lists. A free of anything but the start of a live
 * block WARNs and frees nothing (<linux/percpu.h>).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/pidfd.h>
#include <sys/uio.h>
#include <unistd.h>
#include <sanitizer/asan_interface.h>
#include <linux/kernel.h>
#include <linux/percpu.h>

#define KC_PCPU_MIN_ALIGN	16UL
#define KC_PCPU_HDR		16UL	/* keeps blocks 16-byte aligned */
#define KC_PCPU_CLASSES		64	/* exact-size lists up to 64 * 16 bytes */

struct kc_free_block {
	size_t off;
	struct kc_free_block *next;
};

/* Error-checking: an unlock by a thread that did not lock it fails (WARNs). */
static pthread_mutex_t pcpu_lock = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
static char *pcpu_base;
static size_t pcpu_brk = KC_PCPU_HDR;
static unsigned int pcpu_high_cpus = 1;	/* areas that may hold data */
static struct kc_free_block *pcpu_free[KC_PCPU_CLASSES];
/* Areas 0..pcpu_pop_cpus-1 are populated up to pcpu_pop_end (pcpu_prefault()). */
static size_t pcpu_pop_end;
static unsigned int pcpu_pop_cpus;

void kc_percpu_note_nr_cpu_ids(unsigned int n);

static void pcpu_unlock(void)
{
	if (pthread_mutex_unlock(&pcpu_lock))
		kc_warn(__FILE__, __LINE__, "pcpu_lock released by a thread that does not hold it",
			false);
}

void kc_percpu_note_nr_cpu_ids(unsigned int n)
{
	pthread_mutex_lock(&pcpu_lock);
	if (n <= NR_CPUS && n > pcpu_high_cpus)
		pcpu_high_cpus = n;
	pcpu_unlock();
}

static size_t *hdr_of(size_t off)
{
	return (size_t *)(pcpu_base + off - KC_PCPU_HDR);
}

/*
 * Every block ever carved out has a record, found from its header's
 * second word (a tag: magic and index); a pointer whose header holds no
 * tag naming a record of that offset is not the start of a block.
 */
#define KC_PCPU_TAG		0x9e3779b900000000UL
#define KC_PCPU_TAG_MASK	0xffffffff00000000UL

struct pcpu_blk {
	size_t off, size;
	const char *file;		/* the allocation's site, or NULL: */
	const void *caller;		/* its caller's address */
	int line;
	bool live;
	const char *free_file;		/* the last free's site */
	int free_line;
};

static struct pcpu_blk *pcpu_blks;
static size_t pcpu_nr_blks, pcpu_cap_blks;

static struct pcpu_blk *blk_of(size_t off)
{
	size_t tag, idx;

	if (off < KC_PCPU_HDR || off >= KC_PERCPU_UNIT)
		return NULL;
	/* Inside a block this is per-CPU data other threads may be writing. */
	tag = __atomic_load_n(&hdr_of(off)[1], __ATOMIC_RELAXED);
	idx = tag & ~KC_PCPU_TAG_MASK;
	if ((tag & KC_PCPU_TAG_MASK) != KC_PCPU_TAG || idx >= pcpu_nr_blks ||
	    pcpu_blks[idx].off != off)
		return NULL;
	return &pcpu_blks[idx];
}

static int blk_new(size_t off, size_t size)
{
	if (pcpu_nr_blks == pcpu_cap_blks) {
		size_t cap = pcpu_cap_blks ? 2 * pcpu_cap_blks : 256;
		struct pcpu_blk *n = realloc(pcpu_blks, cap * sizeof(*n));

		if (!n)
			return -1;
		pcpu_blks = n;
		pcpu_cap_blks = cap;
	}
	pcpu_blks[pcpu_nr_blks] = (struct pcpu_blk){ .off = off, .size = size };
	hdr_of(off)[1] = KC_PCPU_TAG | pcpu_nr_blks;
	pcpu_nr_blks++;
	return 0;
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
	if (blk_new(off, size))
		return -1;
	return off;
}

/*
 * Under pcpu_lock: populate each area's pages up to @end in one system
 * call per 1,024 areas (process_madvise(MADV_POPULATE_WRITE)) before the
 * zeroing writes them, instead of one page fault per area: on a virtual
 * machine a fault costs tens of microseconds, and at 8,192 CPUs a block
 * touches 8,192 fresh pages. Only a speed-up: where the kernel refuses
 * (older kernels), the zeroing faults the pages in as before.
 */
static void pcpu_prefault(size_t end)
{
	struct iovec iov[1024];
	size_t from = pcpu_pop_end, page = 4096;
	unsigned int cpu, n = 0;
	int fd;

	if (pcpu_pop_cpus < pcpu_high_cpus)
		from = 0;
	from &= ~(page - 1);
	end = (end + page - 1) & ~(page - 1);
	if (end <= from)
		return;
	fd = pidfd_open(getpid(), 0);
	for (cpu = 0; fd >= 0 && cpu < pcpu_high_cpus; cpu++) {
		iov[n].iov_base = pcpu_base + (size_t)cpu * KC_PERCPU_UNIT + from;
		iov[n].iov_len = end - from;
		if (++n < ARRAY_SIZE(iov) && cpu + 1 < pcpu_high_cpus)
			continue;
		if (process_madvise(fd, iov, n, MADV_POPULATE_WRITE, 0) < 0)
			break;
		n = 0;
	}
	if (fd >= 0)
		close(fd);
	pcpu_pop_end = end;
	pcpu_pop_cpus = pcpu_high_cpus;
}

void __percpu *kc_alloc_percpu_at(size_t size, size_t align, gfp_t gfp, const char *file,
				  int line, const void *caller)
{
	struct pcpu_blk *b;
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
	if (off >= 0) {
		if (off + size > pcpu_pop_end || pcpu_pop_cpus < pcpu_high_cpus)
			pcpu_prefault(off + size);
		for (cpu = 0; cpu < pcpu_high_cpus; cpu++) {
			char *area = pcpu_base + (size_t)cpu * KC_PERCPU_UNIT + off;

			memset(area, 0, size);
			/*
			 * ASan: write the block's shadow too (it stays 0, the
			 * mapping is never poisoned). Unwritten, each CPU's
			 * shadow is the kernel's zero page, 128 KiB from the
			 * next CPU's: a precise sum at 1,024 CPUs read 1,024
			 * zero-page mappings, about 5 us each on a
			 * paravirtualised host (bench/results/ci-time.md).
			 */
			ASAN_UNPOISON_MEMORY_REGION(area, size);
		}
		b = blk_of(off);
		b->live = true;
		b->file = file;
		b->line = line;
		b->caller = caller;
	}
	pcpu_unlock();
	return off < 0 ? NULL : pcpu_base + off;
}

void __percpu *(__alloc_percpu_gfp)(size_t size, size_t align, gfp_t gfp)
{
	return kc_alloc_percpu_at(size, align, gfp, NULL, 0, __builtin_return_address(0));
}

void __percpu *(__alloc_percpu)(size_t size, size_t align)
{
	return kc_alloc_percpu_at(size, align, GFP_KERNEL, NULL, 0, __builtin_return_address(0));
}

static void blk_origin(const struct pcpu_blk *b, char *buf, size_t len)
{
	if (b->file)
		snprintf(buf, len, "%s:%d", b->file, b->line);
	else
		snprintf(buf, len, "caller %p", b->caller);
}

/* Under pcpu_lock: why @ptr cannot be freed, into @msg. */
static void bad_free(const void *ptr, size_t off, const struct pcpu_blk *b, char *msg,
		     size_t len)
{
	char origin[160];
	size_t i;

	if (b) {
		blk_origin(b, origin, sizeof(origin));
		snprintf(msg, len, "double free_percpu() of the %zu-byte per-CPU allocation "
			 "from %s, already freed at %s:%d", b->size, origin,
			 b->free_file ? b->free_file : "?", b->free_line);
		return;
	}
	for (i = 0; pcpu_base && off < KC_PERCPU_UNIT && i < pcpu_nr_blks; i++) {
		b = &pcpu_blks[i];
		if (off > b->off && off < b->off + b->size) {
			blk_origin(b, origin, sizeof(origin));
			snprintf(msg, len, "free_percpu() of a pointer %zu bytes into the %s "
				 "%zu-byte per-CPU allocation from %s", off - b->off,
				 b->live ? "live" : "freed", b->size, origin);
			return;
		}
	}
	snprintf(msg, len, "free_percpu(%p): no per-CPU allocation starts there", ptr);
}

void kc_free_percpu_at(void __percpu *ptr, const char *file, int line)
{
	struct kc_free_block *fb;
	struct pcpu_blk *b = NULL;
	size_t off = 0;
	unsigned int cls;
	char msg[400];

	if (!ptr)
		return;
	pthread_mutex_lock(&pcpu_lock);
	if (pcpu_base && (char *)ptr >= pcpu_base) {
		off = (char *)ptr - pcpu_base;
		b = blk_of(off);
	}
	if (!b || !b->live) {
		bad_free(ptr, off, b, msg, sizeof(msg));
		pcpu_unlock();
		kc_warn_bad_free(file, line, msg);
		return;
	}
	b->live = false;
	b->free_file = file;
	b->free_line = line;
	cls = b->size / KC_PCPU_MIN_ALIGN;
	if (cls < KC_PCPU_CLASSES) {
		fb = malloc(sizeof(*fb));
		if (fb) {
			fb->off = off;
			fb->next = pcpu_free[cls];
			pcpu_free[cls] = fb;
		}
	}
	/* Larger blocks are not reused: the suite allocates them once. */
	pcpu_unlock();
}

void (free_percpu)(void __percpu *ptr)
{
	kc_free_percpu_at(ptr, "free_percpu()", 0);
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
