/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_MINMAX_H
#define _KC_LINUX_MINMAX_H
/* min()/max() live in kcompat's linux/kernel.h. */
#include <linux/kernel.h>
#endif
