/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_LINKAGE_H
#define _KC_LINUX_LINKAGE_H
/*
 * As in the kernel, linkage.h brings <linux/export.h>: this is how a .c
 * that never includes it still sees EXPORT_SYMBOL_GPL (through percpu.h,
 * spinlock.h, ... -> linkage.h).
 */
#include <linux/compiler.h>
#include <linux/export.h>
#define asmlinkage
#endif
