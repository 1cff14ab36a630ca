/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_INIT_H
#define _KC_LINUX_INIT_H
#include <linux/compiler.h>
#endif
