/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_LIMITS_H
#define _KC_LINUX_LIMITS_H

/* The system header of the same name (glibc includes it) comes first. */
#include_next <linux/limits.h>
#include <limits.h>
#include <stdint.h>
#endif
