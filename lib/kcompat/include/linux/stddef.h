/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_STDDEF_H
#define _KC_LINUX_STDDEF_H

/* The system header of the same name (glibc includes it) comes first. */
#include_next <linux/stddef.h>
#include <stddef.h>
#include <linux/types.h>
#endif
