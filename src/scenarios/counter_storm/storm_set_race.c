// SPDX-License-Identifier: GPL-2.0
/*
 * counter_storm's set race: set() while other vCPUs read the sums. One
 * counter of its own gets adds from every CPU at setup and none after, so
 * its level-0 words and items never change again; then, every 32 bursts
 * of steps, a vCPU whose number is a multiple of 4 set()s it to one of 8
 * seeded values (several setters may race each other) and every other
 * vCPU reads its precise and approximate sums. set() only replaces the
 * bias, so every read must give one of the values (precise) or one of
 * them minus the constant residual (approximate): invariant `set_race`.
 *
 * What it is for is the marked-access discipline under ThreadSanitizer:
 * the bias is written by set() and read by every sum at the same time, so
 * a plain access to it where the kernel writes READ_ONCE()/WRITE_ONCE()
 * (relaxed atomics in kcompat, which TSan sees as atomic) is a reported
 * race (mutants/hpcc-set-plain-bias-store.patch,
 * hpcc-precise-sum-plain-bias-load.patch; docs/sanitizers.md).
 */
#include <stdlib.h>
#include <limits.h>
#include <kcompat/kcompat.h>
#include "storm.h"

#define SR_VALUES	8

struct storm_set_race {
	struct percpu_counter_tree c;
	void *items;
	long values[SR_VALUES];
	unsigned long residual;		/* precise - approximate, fixed after setup */
	atomic_ulong sets, reads;
};

static bool sr_is_value(const struct storm_set_race *sr, unsigned long v)
{
	unsigned int i;

	for (i = 0; i < SR_VALUES; i++)
		if ((unsigned long)sr->values[i] == v)
			return true;
	return false;
}

int storm_set_race_setup(struct stress *s, struct storm *st)
{
	size_t isz = percpu_counter_tree_items_size();
	unsigned long long seed = stress_seed(s);
	struct storm_set_race *sr;
	unsigned int cpu, self = kc_get_cpu(), i;

	if (!st->checking)
		return 0;
	sr = calloc(1, sizeof(*sr));
	if (!sr)
		return -1;
	sr->items = aligned_alloc(64, isz ? isz : 64);
	if (!sr->items || percpu_counter_tree_init(&sr->c, sr->items, stress_batch(s),
						   GFP_KERNEL)) {
		free(sr->items);
		free(sr);
		return -1;
	}
	/* Adds of every size from every CPU, then never again. */
	for (cpu = 0; cpu < st->nr_cpus; cpu++) {
		kc_set_cpu(cpu);
		percpu_counter_tree_add(&sr->c, (long)(stress_mix(seed ^ (cpu * 0x9e37ULL)) %
						       (1UL << (cpu % 40 + 1))) - (1L << (cpu % 40)));
	}
	kc_set_cpu(self);
	sr->residual = (unsigned long)percpu_counter_tree_precise_sum(&sr->c) -
		       (unsigned long)percpu_counter_tree_approximate_sum(&sr->c);
	sr->values[0] = 0;
	sr->values[1] = LONG_MAX;
	sr->values[2] = LONG_MIN;
	sr->values[3] = -1;
	for (i = 4; i < SR_VALUES; i++)
		sr->values[i] = (long)stress_mix(seed + i);
	percpu_counter_tree_set(&sr->c, sr->values[0]);	/* a value before any read */
	st->set_race = sr;
	return 0;
}

void storm_set_race_free(struct storm *st)
{
	struct storm_set_race *sr = st->set_race;

	if (!sr)
		return;
	percpu_counter_tree_destroy(&sr->c);
	free(sr->items);
	free(sr);
	st->set_race = NULL;
}

static void sr_check(struct stress *s, struct storm_set_race *sr, unsigned int cpu,
		     const char *when)
{
	unsigned long p = (unsigned long)percpu_counter_tree_precise_sum(&sr->c);
	unsigned long a = (unsigned long)percpu_counter_tree_approximate_sum(&sr->c);

	if (!sr_is_value(sr, p))
		stress_fail(s, "set_race", (int)cpu, "%s: precise_sum %ld is none of the values "
			    "set() wrote (e.g. %ld): the set raced into a torn or lost bias",
			    when, (long)p, sr->values[0]);
	else if (!sr_is_value(sr, a + sr->residual))
		stress_fail(s, "set_race", (int)cpu, "%s: approximate_sum %ld + residual %ld is "
			    "none of the values set() wrote", when, (long)a, (long)sr->residual);
}

/* A vCPU's turn (every 32 bursts): set, or read while others set. */
void storm_set_race_step(struct stress *s, struct storm *st, unsigned int cpu, unsigned long n)
{
	struct storm_set_race *sr = st->set_race;

	if (cpu % 4 == 0) {
		percpu_counter_tree_set(&sr->c, sr->values[(n + cpu / 4) % SR_VALUES]);
		atomic_fetch_add_explicit(&sr->sets, 1, memory_order_relaxed);
		return;
	}
	sr_check(s, sr, cpu, "during sets");
	atomic_fetch_add_explicit(&sr->reads, 1, memory_order_relaxed);
	stress_count_checks(s, 1);
}

void storm_set_race_quiescent(struct stress *s, struct storm *st)
{
	if (st->set_race)
		sr_check(s, st->set_race, -1, "quiescent");
}

void storm_set_race_report(struct storm *st, FILE *out)
{
	struct storm_set_race *sr = st->set_race;

	if (sr)
		fprintf(out, "# counter_storm set_race sets=%lu reads=%lu\n",
			atomic_load(&sr->sets), atomic_load(&sr->reads));
}
