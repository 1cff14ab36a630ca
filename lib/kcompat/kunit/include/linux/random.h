/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_RANDOM_H
#define _KC_LINUX_RANDOM_H

#include <stddef.h>
#include <linux/types.h>

/*
 * One seeded stream for the whole process (kc_random_seed(), the KUnit
 * driver's --seed): a run is repeatable when its callers call in the same
 * order, as a KUnit case's single test thread does.
 */
void kc_random_seed(u64 seed);
u64 get_random_u64(void);
void get_random_bytes(void *buf, size_t len);

static inline u32 get_random_u32(void)
{
	return (u32)(get_random_u64() >> 32);
}

static inline unsigned long get_random_long(void)
{
	return (unsigned long)get_random_u64();
}

static inline u32 get_random_u32_below(u32 ceil)
{
	return (u32)(((u64)get_random_u32() * ceil) >> 32);
}

#endif /* _KC_LINUX_RANDOM_H */
