/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_ALIGN_H
#define _KC_LINUX_ALIGN_H
/* Newer kernels define ALIGN() here; kcompat keeps it in linux/math.h. */
#include <linux/math.h>
#endif
