// SPDX-License-Identifier: GPL-2.0
/*
 * TSan self-test 1: per-CPU adds racing with a precise sum.
 *
 * Adders on CPUs 0..3 update one counter; a summer thread reads
 * percpu_counter_tree_precise_sum() while they run and once more after
 * they are done. Correct form: the real library, whose level-0 add is an
 * atomic RMW, as the precise sum's concurrent loads require: clean. Racy
 * form: the same program linked with the library recompiled with a plain
 * load+add+store this_cpu_add_return() (plain_pcpu_add.h); TSan must
 * report the level-0 word.
 */
#include <pthread.h>
#include <stdlib.h>
#include <linux/percpu_counter_tree.h>
#include <kcompat/kcompat.h>
#include "selftest.h"

#define PROG		"pcpu_sum"
#define NR_ADDERS	4
#define NR_ADDS		2000
#define NR_SUMS		200

static struct percpu_counter_tree counter;
static pthread_barrier_t start;
static int adders_done[NR_ADDERS];
static long sink;

/* Increments of 1..40 with batch 32: every level carries now and then. */
static long inc_of(unsigned int cpu, unsigned int i)
{
	return 1 + (cpu * 7 + i * 13) % 40;
}

static void *adder(void *arg)
{
	unsigned int cpu = (unsigned int)(unsigned long)arg, i;

	kc_set_cpu(cpu);
	pthread_barrier_wait(&start);
	for (i = 0; i < NR_ADDS; i++)
		percpu_counter_tree_add(&counter, inc_of(cpu, i));
	st_flag_set(&adders_done[cpu]);
	return NULL;
}

static void *summer(void *arg)
{
	long s = 0;
	int i;

	kc_set_cpu(NR_ADDERS);
	pthread_barrier_wait(&start);
	for (i = 0; i < NR_SUMS; i++)
		s += percpu_counter_tree_precise_sum(&counter);
	/* Again once every add is in: a read after each thread's last write. */
	for (i = 0; i < NR_ADDERS; i++)
		st_flag_wait(&adders_done[i], PROG);
	s += percpu_counter_tree_precise_sum(&counter);
	__atomic_store_n(&sink, s, __ATOMIC_RELAXED);
	return NULL;
}

int main(void)
{
	pthread_t tid[NR_ADDERS + 1];
	long expect = 0;
	unsigned int cpu, i;
	void *items;

	if (kc_set_nr_cpu_ids(NR_ADDERS + 1) || percpu_counter_tree_subsystem_init())
		st_die(PROG, "init failed");
	items = calloc(1, percpu_counter_tree_items_size());
	if (!items || percpu_counter_tree_init(&counter, items, 32, GFP_KERNEL))
		st_die(PROG, "counter init failed");
	pthread_barrier_init(&start, NULL, NR_ADDERS + 1);
	for (cpu = 0; cpu < NR_ADDERS; cpu++)
		pthread_create(&tid[cpu], NULL, adder, (void *)(unsigned long)cpu);
	pthread_create(&tid[NR_ADDERS], NULL, summer, NULL);
	for (cpu = 0; cpu <= NR_ADDERS; cpu++)
		pthread_join(tid[cpu], NULL);

	for (cpu = 0; cpu < NR_ADDERS; cpu++)
		for (i = 0; i < NR_ADDS; i++)
			expect += inc_of(cpu, i);
	if (percpu_counter_tree_precise_sum(&counter) != expect)
		st_die(PROG, "precise sum != total added");
	percpu_counter_tree_destroy(&counter);
	free(items);
	pthread_barrier_destroy(&start);
	printf("%s (%s): %ld added, precise sum matches\n", PROG, ST_VARIANT, expect);
	return 0;
}
