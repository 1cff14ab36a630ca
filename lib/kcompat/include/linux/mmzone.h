/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's struct zone, reduced to what a tree's compaction deferral
 * reads and writes (lib/mm/kcompact_kernel.c). Field names and types are
 * the kernel's (CONFIG_COMPACTION): the extracted code is compiled as the
 * kernel compiles it, unsigned arithmetic included. Only the kernel
 * translation unit sees this type; the suite's zone is lib/mm/compaction.h.
 */
#ifndef _KC_LINUX_MMZONE_H
#define _KC_LINUX_MMZONE_H

#include <linux/types.h>

#define MAX_ORDER	11

struct zone {
	/*
	 * On compaction failure, 1 << compact_defer_shift compactions are
	 * skipped; compact_considered counts the attempts since.
	 */
	unsigned int compact_considered;
	unsigned int compact_defer_shift;
	int compact_order_failed;
};

#endif /* _KC_LINUX_MMZONE_H */
