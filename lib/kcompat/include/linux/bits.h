/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_BITS_H
#define _KC_LINUX_BITS_H

#include <linux/bitops.h>	/* BIT(), BITS_PER_LONG */

#define GENMASK(h, l)	((~0UL << (l)) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#endif
