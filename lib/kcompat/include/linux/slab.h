/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_SLAB_H
#define _KC_LINUX_SLAB_H

#include <malloc.h>
#include <stdlib.h>
#include <linux/gfp.h>
#include <linux/string.h>
#include <linux/cache.h>

/* The byte freed memory is filled with, as slub_debug=P does. */
#define POISON_FREE	0x6b

/* A sanitizer sees a use after free itself and names the free: no poison then. */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define KC_SANITIZED_FREE 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define KC_SANITIZED_FREE 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define KC_ASAN_FREE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KC_ASAN_FREE 1
#endif
#endif

/*
 * Cache-line aligned, as the kernel's kmalloc() is for these sizes: hpcc
 * items are ____cacheline_aligned_in_smp, and callers put them in
 * kzalloc()ed memory (malloc()'s 16 bytes would misalign them).
 *
 * Strict frees (lib/kcompat/slab.c), as slub_debug's free checks: kfree()
 * of a pointer that is not the start of a live kmalloc() object (an
 * interior pointer, a double free, memory from elsewhere) WARNs with the
 * object's origin (file:line of its allocation) and frees nothing. Freed
 * memory is poisoned first: a reader that outlives the free (an object
 * freed before its grace period) then reads 0x6b6b..., not a plausible
 * stale value, and the scenario's checks see it without ASan. Under ASan
 * both are ASan's (it reports bad and double frees with both stacks).
 */
#ifdef KC_ASAN_FREE
static inline void *kc_kmalloc_at(size_t size, bool zero, const char *file, int line)
{
	void *p;

	(void)file;
	(void)line;
	/* As kmalloc() refuses a size beyond its largest cache. */
	if (size > (size_t)-1 / 2)
		return NULL;
	if (posix_memalign(&p, SMP_CACHE_BYTES, size ? size : 1))
		return NULL;
	if (zero)
		memset(p, 0, size);
	return p;
}

static inline void kc_kfree_at(const void *p, const char *file, int line)
{
	(void)file;
	(void)line;
	free((void *)p);
}
#else
void *kc_kmalloc_at(size_t size, bool zero, const char *file, int line);
void kc_kfree_at(const void *p, const char *file, int line);
/*
 * Tests of failure paths: the calling thread's @nth next kmalloc() fails
 * (1: the next one; 0: none), once. The count of live objects shows
 * what such a path leaked (no sanitizer build: ASan's leak check does).
 */
void kc_kmalloc_fail_nth(unsigned long nth);
long kc_kmalloc_live(void);
#endif

#define kmalloc(size, gfp)	((void)(gfp), kc_kmalloc_at((size), false, __FILE__, __LINE__))
#define kzalloc(size, gfp)	((void)(gfp), kc_kmalloc_at((size), true, __FILE__, __LINE__))
#define kfree(p)		kc_kfree_at((p), __FILE__, __LINE__)

static inline size_t kc_array_bytes(size_t n, size_t size)
{
	return size && n > (size_t)-1 / size ? (size_t)-1 : n * size;
}

/* An overflowing size fails (SIZE_MAX is never allocated). */
#define kcalloc(n, size, gfp)						\
	((void)(gfp), kc_kmalloc_at(kc_array_bytes((n), (size)), true, __FILE__, __LINE__))
#define kmalloc_array(n, size, gfp)					\
	((void)(gfp), kc_kmalloc_at(kc_array_bytes((n), (size)), false, __FILE__, __LINE__))

#endif /* _KC_LINUX_SLAB_H */
