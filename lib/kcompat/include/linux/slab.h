/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_SLAB_H
#define _KC_LINUX_SLAB_H

#include <malloc.h>
#include <stdlib.h>
#include <linux/gfp.h>
#include <linux/string.h>
#include <linux/cache.h>

/*
 * Cache-line aligned, as the kernel's kmalloc() is for these sizes: hpcc
 * items are ____cacheline_aligned_in_smp, and callers put them in
 * kzalloc()ed memory (malloc()'s 16 bytes would misalign them).
 */
static inline void *kmalloc(size_t size, gfp_t gfp)
{
	void *p;

	(void)gfp;
	return posix_memalign(&p, SMP_CACHE_BYTES, size ? size : 1) ? NULL : p;
}

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	void *p = kmalloc(size, gfp);

	if (p)
		memset(p, 0, size);
	return p;
}

static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kzalloc(n * size, gfp);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kmalloc(n * size, gfp);
}

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

/*
 * Freed memory is poisoned first: a reader that outlives the free (an
 * object freed before its grace period) then reads 0x6b6b..., not a
 * plausible stale value, and the scenario's checks see it without ASan.
 */
static inline void kfree(const void *p)
{
#ifndef KC_SANITIZED_FREE
	if (p)
		memset((void *)p, POISON_FREE, malloc_usable_size((void *)p));
#endif
	free((void *)p);
}

#endif /* _KC_LINUX_SLAB_H */
