/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_OVERFLOW_H
#define _KC_LINUX_OVERFLOW_H

#include <linux/limits.h>
#include <linux/types.h>

#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d)	__builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)
#define size_mul(a, b)	({ size_t __r; __builtin_mul_overflow(a, b, &__r) ? SIZE_MAX : __r; })
#endif
