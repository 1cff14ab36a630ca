/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of linux/mm.h that is not the RSS accessors: page size and the
 * mm types. The accessors themselves come from the code under test (the
 * tree's include/linux/mm.h, extracted by scripts/kextract).
 */
#ifndef _KC_LINUX_MM_H
#define _KC_LINUX_MM_H

#include <linux/mm_types.h>

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)

#endif /* _KC_LINUX_MM_H */
