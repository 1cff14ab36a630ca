/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_KERNEL_H
#define _KC_LINUX_KERNEL_H

/* The system header of the same name (glibc includes it) comes first. */
#include_next <linux/kernel.h>

#include <linux/types.h>
#include <linux/string.h>
#include <linux/limits.h>
#include <linux/bug.h>
#include <linux/printk.h>
#include <linux/math.h>
#include <linux/log2.h>
#include <linux/array_size.h>

#define container_of(ptr, type, member) ({				\
	void *__mptr = (void *)(ptr);					\
	((type *)(__mptr - offsetof(type, member))); })

#define min(a, b)	({ typeof(a) __a = (a); typeof(b) __b = (b); __a < __b ? __a : __b; })
#define max(a, b)	({ typeof(a) __a = (a); typeof(b) __b = (b); __a > __b ? __a : __b; })
#define min_t(t, a, b)	min((t)(a), (t)(b))
#define max_t(t, a, b)	max((t)(a), (t)(b))
#define clamp(v, lo, hi)	min(max(v, lo), hi)
#define swap(a, b)	do { typeof(a) __t = (a); (a) = (b); (b) = __t; } while (0)

#endif /* _KC_LINUX_KERNEL_H */
