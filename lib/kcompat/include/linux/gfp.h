/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_GFP_H
#define _KC_LINUX_GFP_H
#include <linux/types.h>
#define GFP_KERNEL	((gfp_t)0x1u)
#define GFP_ATOMIC	((gfp_t)0x2u)
#define GFP_NOWAIT	((gfp_t)0x4u)
#define __GFP_ZERO	((gfp_t)0x100u)
#endif
