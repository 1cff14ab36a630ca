/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_ERRNO_H
#define _KC_LINUX_ERRNO_H

/* The system header of the same name (glibc includes it) comes first. */
#include_next <linux/errno.h>
#include <errno.h>
#endif
