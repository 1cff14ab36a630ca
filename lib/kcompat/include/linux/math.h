/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_MATH_H
#define _KC_LINUX_MATH_H

#include <stdlib.h>	/* the libc abs() is replaced below */
#include <linux/types.h>

#define __ALIGN_KERNEL_MASK(x, mask)	(((x) + (mask)) & ~(mask))
#define ALIGN(x, a)		__ALIGN_KERNEL_MASK(x, (typeof(x))(a) - 1)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define round_up(x, y)		((((x) - 1) | ((typeof(x))(y) - 1)) + 1)
#define round_down(x, y)	((x) & ~((typeof(x))(y) - 1))

/*
 * Type-generic abs() as in the kernel: the C library's abs() takes an int
 * and would truncate a long (breaking hpcc's skip-level test for
 * |carry| >= 2^31). Negation goes through the unsigned type so that
 * abs(LONG_MIN) wraps like the kernel's -fno-strict-overflow build
 * instead of being undefined.
 */
#undef abs
#define __kc_abs_as(x, st, ut)	({ st __x = (st)(x);			\
	(st)(__x < 0 ? -(ut)__x : (ut)__x); })
#define abs(x) __builtin_choose_expr(					\
	__builtin_types_compatible_p(typeof(x), long long) ||		\
	__builtin_types_compatible_p(typeof(x), long),			\
	__kc_abs_as(x, long, unsigned long),				\
	__kc_abs_as(x, int, unsigned int))

#endif /* _KC_LINUX_MATH_H */
