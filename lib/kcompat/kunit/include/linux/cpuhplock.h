/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_CPUHPLOCK_H
#define _KC_LINUX_CPUHPLOCK_H

#include <linux/types.h>

/* Without CPU hotplug there is nothing to hold off. */
static inline void cpus_read_lock(void) { }
static inline void cpus_read_unlock(void) { }
static inline bool cpus_read_trylock(void) { return true; }

#endif /* _KC_LINUX_CPUHPLOCK_H */
