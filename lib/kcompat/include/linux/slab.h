/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_SLAB_H
#define _KC_LINUX_SLAB_H

#include <stdlib.h>
#include <linux/gfp.h>
#include <linux/string.h>

static inline void *kmalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return malloc(size);
}

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return calloc(1, size);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	(void)gfp;
	return calloc(n, size);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

#endif /* _KC_LINUX_SLAB_H */
