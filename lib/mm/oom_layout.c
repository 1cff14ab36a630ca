// SPDX-License-Identifier: GPL-2.0
/*
 * Exact layouts through the public add path. Residuals are placed cell by cell
 * using the suite's shape oracle: k * M(l-1) added on CPU j passes every level
 * below l unchanged and stays in level-l item j (low-bit mapping,
 * docs/spec/hpcc.md#hpcc-index); below-batch amounts stay in level-0 words.
 */
#include <linux/kernel.h>
#include <kcompat/kcompat.h>
#include "shape/hpcc_shape.h"
#include "oom_layout.h"

unsigned long oom_layout_counter_slack(void)
{
	struct hpcc_shape s;

	if (hpcc_shape_compute(&s, nr_cpu_ids, oom_model_batch()))
		return 0;
	return s.settled_max;
}

static void add_on(struct percpu_counter_tree *c, unsigned int cpu, long v)
{
	kc_set_cpu(cpu);
	percpu_counter_tree_add(c, v);
}

/* Leave @r of residual below the root of a counter whose cells are at 0. */
static int place_residual(const struct hpcc_shape *s,
			  struct percpu_counter_tree *c, unsigned long r)
{
	unsigned int l, j;

	for (l = s->nr_levels - 1; l >= 1 && r; l--) {
		unsigned long unit = s->threshold[l - 1];
		unsigned long cap = (s->threshold[l] - unit) / unit;

		for (j = 0; j < s->level_items[l] && r >= unit; j++) {
			unsigned long k = min(r / unit, cap);

			add_on(c, j, (long)(k * unit));
			r -= k * unit;
		}
	}
	for (j = 0; j < s->nr_cpus && r; j++) {
		unsigned long k = min(r, s->batch - 1);

		add_on(c, j, (long)k);
		r -= k;
	}
	return r ? -1 : 0;
}

int oom_layout_task(struct task_struct *p, long approx, unsigned long residual)
{
	unsigned int cpu = kc_get_cpu();
	struct mm_struct *mm = p->mm;
	struct hpcc_shape s;
	unsigned long unit, share, r;
	long base, got_a = 0, got_p = 0;
	int i, ret = 0;

	if (!mm || approx < 0 ||
	    hpcc_shape_compute(&s, nr_cpu_ids, oom_model_batch()))
		return -1;
	unit = s.nr_levels ? s.m_top : 1;
	if (residual > NR_MM_COUNTERS * s.settled_max)
		return -1;
	base = approx - approx % (long)unit;
	atomic_long_add((approx - base) * (long)PAGE_SIZE, &mm->pgtables_bytes);
	add_on(&mm->rss_stat[MM_FILEPAGES], 0, base);
	for (i = 0, r = residual; i < NR_MM_COUNTERS && r; i++) {
		share = min(r, s.settled_max);
		if (place_residual(&s, &mm->rss_stat[i], share))
			ret = -1;
		r -= share;
	}
	kc_set_cpu(cpu);
	for (i = 0; i < NR_MM_COUNTERS; i++) {
		got_a += percpu_counter_tree_approximate_sum(&mm->rss_stat[i]);
		got_p += percpu_counter_tree_precise_sum(&mm->rss_stat[i]);
	}
	got_a += atomic_long_read(&mm->pgtables_bytes) / PAGE_SIZE;
	got_p += atomic_long_read(&mm->pgtables_bytes) / PAGE_SIZE;
	if (got_a != approx || got_p != approx + (long)residual)
		ret = -1;
	return ret;
}
