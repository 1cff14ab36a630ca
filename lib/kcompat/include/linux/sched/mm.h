/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_SCHED_MM_H
#define _KC_LINUX_SCHED_MM_H

#include <linux/mm_types.h>

/* mm_count references (lib/mm/oom_task.c): freed after a grace period. */
void mmgrab(struct mm_struct *mm);
void mmdrop(struct mm_struct *mm);

#endif /* _KC_LINUX_SCHED_MM_H */
