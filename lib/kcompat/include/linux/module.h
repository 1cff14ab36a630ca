/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_MODULE_H
#define _KC_LINUX_MODULE_H
#include <linux/export.h>
#include <linux/init.h>
/* Built in, as in the kernel without MODULE: module_init is an initcall. */
#define module_init(fn)		__initcall(fn)
#define module_exit(fn)
#define MODULE_LICENSE(x)
#define MODULE_AUTHOR(x)
#define MODULE_DESCRIPTION(x)
#endif
