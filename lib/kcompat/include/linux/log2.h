/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_LOG2_H
#define _KC_LINUX_LOG2_H

#include <linux/bitops.h>

static inline bool is_power_of_2(unsigned long n)
{
	return n != 0 && (n & (n - 1)) == 0;
}

static inline unsigned long __roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << fls_long(n - 1);
}
#define roundup_pow_of_two(n)	__roundup_pow_of_two(n)
#define ilog2(n)		(fls_long(n) - 1)

#endif /* _KC_LINUX_LOG2_H */
