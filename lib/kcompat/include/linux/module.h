/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_MODULE_H
#define _KC_LINUX_MODULE_H
#include <linux/export.h>
#include <linux/init.h>
#define MODULE_LICENSE(x)
#define MODULE_AUTHOR(x)
#define MODULE_DESCRIPTION(x)
#endif
