/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_CACHE_H
#define _KC_LINUX_CACHE_H

#include <linux/compiler.h>	/* __read_mostly, as in the kernel */

#ifndef L1_CACHE_BYTES
#define L1_CACHE_BYTES	64
#endif
#define SMP_CACHE_BYTES	L1_CACHE_BYTES
#define ____cacheline_aligned		__attribute__((__aligned__(SMP_CACHE_BYTES)))
#define ____cacheline_aligned_in_smp	____cacheline_aligned
#define __cacheline_aligned		____cacheline_aligned
#define __cacheline_aligned_in_smp	____cacheline_aligned

#endif /* _KC_LINUX_CACHE_H */
