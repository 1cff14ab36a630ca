/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct mm_struct with what the OOM selection reads: the four RSS
 * counters as hierarchical per-CPU counters (the v16 series' layout),
 * page-table bytes and the MMF_* flags word.
 */
#ifndef _KC_LINUX_MM_TYPES_H
#define _KC_LINUX_MM_TYPES_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/rcupdate.h>
#include <linux/percpu_counter_tree.h>

enum {
	MM_FILEPAGES,	/* Resident file mapping pages */
	MM_ANONPAGES,	/* Resident anonymous pages */
	MM_SWAPENTS,	/* Anonymous swap entries */
	MM_SHMEMPAGES,	/* Resident shared memory pages */
	NR_MM_COUNTERS
};

#define MMF_OOM_SKIP		21	/* mm is of no interest for the OOM killer */

struct mm_struct {
	unsigned long		kc_magic;
	struct percpu_counter_tree rss_stat[NR_MM_COUNTERS];
	struct percpu_counter_tree_level_item *kc_rss_items;
	atomic_long_t		pgtables_bytes;	/* size of all page tables */
	unsigned long		flags;		/* MMF_* bits, atomic bitops */
	atomic_t		mm_count;	/* mmgrab()/mmdrop() */
	struct rcu_head		kc_rcu;
};

static inline bool mm_flags_test(int flag, const struct mm_struct *mm)
{
	kc_xp(&mm->flags, KC_XP_READ);
	return __atomic_load_n(&mm->flags, __ATOMIC_RELAXED) & (1UL << flag);
}

static inline void mm_flags_set(int flag, struct mm_struct *mm)
{
	kc_xp(&mm->flags, KC_XP_RMW);
	__atomic_or_fetch(&mm->flags, 1UL << flag, __ATOMIC_RELAXED);
}

#endif /* _KC_LINUX_MM_TYPES_H */
