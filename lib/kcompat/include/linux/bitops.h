/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_BITOPS_H
#define _KC_LINUX_BITOPS_H

#include <linux/types.h>

#define BITS_PER_LONG	64
#define BIT(nr)		(1UL << (nr))

static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static inline int fls_long(unsigned long x)
{
	return fls64(x);
}

/* ceil(log2(count)); -1 for 0, as in the kernel. */
static inline int get_count_order(unsigned int count)
{
	if (count == 0)
		return -1;
	return fls(--count);
}

static inline int get_count_order_long(unsigned long l)
{
	if (l == 0UL)
		return -1;
	return (int)fls_long(--l);
}

#endif /* _KC_LINUX_BITOPS_H */
