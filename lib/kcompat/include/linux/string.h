/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_STRING_H
#define _KC_LINUX_STRING_H
#include <string.h>
#endif
