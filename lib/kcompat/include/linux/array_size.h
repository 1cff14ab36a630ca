/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_ARRAY_SIZE_H
#define _KC_LINUX_ARRAY_SIZE_H
/* Newer kernels define ARRAY_SIZE here; kernel.h includes it. */
#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]))
#endif
