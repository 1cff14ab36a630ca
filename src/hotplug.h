/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hotplug.c: --hotplug at quiescent points (every worker parked).
 */
#ifndef _STRESS_HOTPLUG_H
#define _STRESS_HOTPLUG_H

#include "run.h"

void stress_hotplug_begin(struct stress *s);
void stress_hotplug_step(struct stress *s);
void stress_hotplug_end(struct stress *s);

#endif /* _STRESS_HOTPLUG_H */
