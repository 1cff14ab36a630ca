// SPDX-License-Identifier: GPL-2.0
/*
 * The raw add loop that ./stress's throughput is compared with
 * (bench/stress-throughput): T threads, thread i running virtual CPU i
 * (held, as the stress engine's vCPU threads hold theirs) pinned to host
 * core i % cores, each making N adds with no engine around them, timed in
 * thread CPU time. Patterns:
 *   one    +1 on one hpcc counter (the add section's loop);
 *   small  counter_storm's small pattern without the engine: the same six
 *          counters (two made with init(), four with init_many()), the
 *          same key mix (40/30/20/10 %) and increments in -3..3, both
 *          from one draw of an inline generator, as counter_storm draws
 *          them; no ground truth, flight recorder, checker or step loop.
 * Prints one JSON object: adds, cpu_s, adds_per_cpu_s; exit 1 when a
 * counter's precise sum is not the sum of the adds made.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <kcompat/kcompat.h>
#include <linux/percpu_counter_tree.h>
#include "bench.h"

#define RAW_SOLO	2
#define RAW_GROUP	4
#define RAW_KEYS	(RAW_SOLO + RAW_GROUP)

struct raw_run {
	struct bench_cfg cfg;
	struct percpu_counter_tree solo[RAW_SOLO], group[RAW_GROUP], *ctr[RAW_KEYS];
	void *items[RAW_SOLO + 1];
	bool small;
	unsigned long ops;
	pthread_barrier_t start;
};

struct raw_thread {
	struct raw_run *r;
	unsigned int id;
	pthread_t tid;
	unsigned long long cpu_ns;
	long sum[RAW_KEYS];
};

/* counter_storm's key mix (src/scenarios/counter_storm/counter_storm.c): hot, group0..2. */
static const unsigned char raw_key_of_tenth[10] = { 0, 0, 0, 0, 2, 2, 2, 3, 3, 4 };

static inline unsigned long long raw_next(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void *raw_thread_fn(void *arg)
{
	struct raw_thread *t = arg;
	struct raw_run *r = t->r;
	unsigned long long seed = 0x1234567ULL * (t->id + 1), c0;
	unsigned long i;

	bench_pin(&r->cfg, t->id);
	kc_set_cpu(t->id);
	kc_cpu_hold();
	pthread_barrier_wait(&r->start);
	c0 = bench_thread_cpu_ns();
	if (!r->small) {
		for (i = 0; i < r->ops; i++)
			percpu_counter_tree_add(r->ctr[0], 1);
		t->sum[0] = r->ops;
	} else {
		for (i = 0; i < r->ops; i++) {
			unsigned __int128 x = (unsigned __int128)raw_next(&seed) * 1000;
			unsigned int key = raw_key_of_tenth[(unsigned long)(x >> 64) / 100];
			long inc = (long)(((unsigned __int128)(unsigned long long)x * 7) >> 64) - 3;

			percpu_counter_tree_add(r->ctr[key], inc);
			t->sum[key] += inc;
		}
	}
	t->cpu_ns = bench_thread_cpu_ns() - c0;
	kc_cpu_unhold();
	return NULL;
}

int bench_raw_adds(const char *pattern, unsigned int nr_cpus, unsigned int threads,
		   unsigned long ops)
{
	struct raw_run *r = calloc(1, sizeof(*r));
	struct raw_thread *t = calloc(threads, sizeof(*t));
	size_t isz;
	unsigned long long cpu_ns = 0;
	unsigned int i, k;
	int ret = 0;

	if (!r || !t || (strcmp(pattern, "one") && strcmp(pattern, "small")) || !threads ||
	    threads > nr_cpus || bench_set_cpus(nr_cpus))
		return -1;
	r->small = !strcmp(pattern, "small");
	r->ops = ops;
	r->cfg.host_cpus = bench_host_cpus();
	isz = percpu_counter_tree_items_size();
	for (i = 0; i <= RAW_SOLO; i++)
		r->items[i] = aligned_alloc(128, (i == RAW_SOLO ? RAW_GROUP : 1) *
					    ((isz + 127) & ~127UL) + 128);
	for (i = 0; i < RAW_SOLO; i++)
		if (!r->items[i] || percpu_counter_tree_init(&r->solo[i], r->items[i], 32, GFP_KERNEL))
			return -1;
	if (!r->items[RAW_SOLO] ||
	    percpu_counter_tree_init_many(r->group, r->items[RAW_SOLO], RAW_GROUP, 32, GFP_KERNEL))
		return -1;
	r->ctr[0] = &r->solo[0];
	r->ctr[1] = &r->solo[1];
	for (i = 0; i < RAW_GROUP; i++)
		r->ctr[RAW_SOLO + i] = &r->group[i];
	pthread_barrier_init(&r->start, NULL, threads);
	for (i = 0; i < threads; i++) {
		t[i] = (struct raw_thread){ .r = r, .id = i };
		if (pthread_create(&t[i].tid, NULL, raw_thread_fn, &t[i])) {
			fprintf(stderr, "hpcc-bench: cannot start %u threads\n", threads);
			exit(3);
		}
	}
	for (i = 0; i < threads; i++)
		pthread_join(t[i].tid, NULL);
	for (k = 0; k < RAW_KEYS; k++) {
		long want = 0;

		for (i = 0; i < threads; i++)
			want += t[i].sum[k];
		if (percpu_counter_tree_precise_sum(r->ctr[k]) != want) {
			fprintf(stderr, "hpcc-bench: raw %s: counter %u: precise %ld != %ld\n",
				pattern, k, percpu_counter_tree_precise_sum(r->ctr[k]), want);
			ret = -1;
		}
	}
	for (i = 0; i < threads; i++)
		cpu_ns += t[i].cpu_ns;
	printf("{\"pattern\":\"%s\",\"cpus\":%u,\"threads\":%u,\"pcpu_ops\":\"%s\","
	       "\"adds\":%lu,\"cpu_s\":%.6f,\"adds_per_cpu_s\":%.1f}\n", pattern, nr_cpus, threads,
	       kc_pcpu_ops_name(kc_pcpu_ops), ops * threads, cpu_ns * 1e-9,
	       cpu_ns ? ops * threads / (cpu_ns * 1e-9) : 0.0);
	percpu_counter_tree_destroy_many(r->group, RAW_GROUP);
	for (i = 0; i < RAW_SOLO; i++)
		percpu_counter_tree_destroy(&r->solo[i]);
	for (i = 0; i <= RAW_SOLO; i++)
		free(r->items[i]);
	pthread_barrier_destroy(&r->start);
	free(t);
	free(r);
	return ret;
}
