// SPDX-License-Identifier: GPL-2.0
/*
 * The compaction model's concurrency parts: the hpcc success counter and
 * its depletion decision against the precise one, the atomic modes (exact
 * counts versus plain lost updates) and the RCU-published zone descriptor.
 */
#include <pthread.h>
#include <stdlib.h>
#include <kcompat/kcompat.h>
#include "mm/compaction.h"
#include "ktap.h"

#define PB	512

static bool zone_setup(struct kt *t, struct zone *z, const struct compact_params *p,
		       unsigned long managed, bool tree)
{
	struct zone_desc *d = zone_desc_alloc(0, managed, managed, PB);
	bool ok = d && !zone_init(z, p, d, managed / PB + 1, tree);

	KT_EXPECT(t, ok, "zone setup");
	if (!ok)
		free(d);
	return ok;
}

/*
 * Successes spread over many virtual CPUs: the hpcc decision (approximate,
 * precise only inside the accuracy range) equals the precise decision and
 * the plain field's, for every count from 0 to 3T, at both thresholds
 * that cof 3 and 4 give, and across a reset.
 */
static void compaction_hpcc_decision(struct kt *t)
{
	struct compact_params p = {
		.policy = COMPACT_POLICY_P9, .atomic_mode = COMPACT_ATOMIC_RELAXED,
		.cluster_max = 32, .min_scan_limit = PB,
	};
	struct compact_reset_report rep;
	unsigned long precise_used = 0, decisions = 0, under, over, n, th;
	struct kt_rng rng;
	struct zone z;
	int round;

	if (!kt_hpcc_setup(t, 8) || !zone_setup(t, &z, &p, 131072, true))
		return;
	kt_rng_seed(&rng, 5);
	for (round = 0; round < 4; round++) {
		z.compact_order_failed = 3 + (round & 1);
		th = compaction_threshold(p.policy, 131072, z.compact_order_failed);
		under = over = 0;	/* the query accumulates */
		percpu_counter_tree_approximate_accuracy_range(&z.success_tree, &under, &over);
		/* Far enough past T + the accuracy range for the approximate answer. */
		for (n = 0; n <= 3 * th + under + over; n++) {
			bool precise, d_hpcc = compaction_depleted_hpcc(&z, 131072, &precise);

			KT_EXPECT(t, d_hpcc == compaction_depleted_hpcc_precise(&z, 131072),
				  "round %d n %lu", round, n);
			KT_EXPECT(t, d_hpcc == compaction_depleted(&z, 131072),
				  "round %d n %lu", round, n);
			KT_EXPECT(t, d_hpcc == (n < th), "round %d n %lu T %lu", round, n, th);
			precise_used += precise;
			decisions++;
			kc_set_cpu(kt_rng_below(&rng, 8));
			compaction_note_success(&z);
		}
		kc_set_cpu(0);
		compaction_reset(&z, z.desc, &rep);
		KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&z.success_tree) - z.success_base, 0);
	}
	/* Both paths ran: decisions far from T and the precise fallback near it. */
	KT_EXPECT(t, precise_used > 0 && precise_used < decisions, "precise %lu of %lu",
		  precise_used, decisions);
	zone_destroy(&z);
}

struct inc_arg {
	struct zone *z;
	unsigned int cpu;
	unsigned long n;
};

static void *inc_thread(void *a)
{
	struct inc_arg *arg = a;
	unsigned long i;

	kc_set_cpu(arg->cpu);
	for (i = 0; i < arg->n; i++)
		compaction_note_success(arg->z);
	return NULL;
}

#define INC_THREADS	4
#define INC_EACH	20000

/* relaxed and seq-cst: concurrent increments are never lost. */
static void compaction_atomic_exact(struct kt *t)
{
	enum compact_atomic_mode modes[] = { COMPACT_ATOMIC_RELAXED, COMPACT_ATOMIC_SEQCST };
	unsigned int m, i;

	if (!kt_hpcc_setup(t, 8))
		return;
	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		struct compact_params p = {
			.policy = COMPACT_POLICY_P9, .atomic_mode = modes[m],
			.cluster_max = 32, .min_scan_limit = PB,
		};
		struct inc_arg arg[INC_THREADS];
		pthread_t th[INC_THREADS];
		struct zone z;

		if (!zone_setup(t, &z, &p, 131072, true))
			return;
		for (i = 0; i < INC_THREADS; i++) {
			arg[i] = (struct inc_arg){ &z, i, INC_EACH };
			pthread_create(&th[i], NULL, inc_thread, &arg[i]);
		}
		for (i = 0; i < INC_THREADS; i++)
			pthread_join(th[i], NULL);
		KT_EXPECT_EQ(t, z.compact_success, INC_THREADS * INC_EACH);
		KT_EXPECT_EQ(t, z.success_events, INC_THREADS * INC_EACH);
		KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&z.success_tree),
			     INC_THREADS * INC_EACH);
		zone_destroy(&z);
	}
}

/* An increment by "another CPU" inside the plain RMW window. */
static struct zone *window_zone;
static int window_nested;

static void window_interleave(void)
{
	if (window_nested++)
		return;
	zone_add_return(window_zone, &window_zone->compact_failed, 1);
}

/* plain: the kernel's load + store RMW loses an interleaved update; relaxed does not. */
static void compaction_plain_loses(struct kt *t)
{
	struct compact_params p = {
		.policy = COMPACT_POLICY_P9, .atomic_mode = COMPACT_ATOMIC_PLAIN,
		.cluster_max = 32, .min_scan_limit = PB,
	};
	struct zone z;

	if (!kt_hpcc_setup(t, 8) || !zone_setup(t, &z, &p, 131072, true))
		return;
	window_zone = &z;
	z.rmw_window = window_interleave;
	window_nested = 0;
	/* Two increments, the interleaved one is overwritten. */
	KT_EXPECT_EQ(t, zone_add_return(&z, &z.compact_failed, 1), 1);
	KT_EXPECT_EQ(t, z.compact_failed, 1);
	KT_EXPECT_EQ(t, window_nested, 2);
	/* The hpcc counter is atomic in every mode, even with the window open. */
	window_nested = 1;
	compaction_note_success(&z);
	KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&z.success_tree), 1);
	p.atomic_mode = COMPACT_ATOMIC_RELAXED;
	window_nested = 0;
	zone_add_return(&z, &z.compact_failed, 1);	/* a true RMW, no window */
	KT_EXPECT_EQ(t, z.compact_failed, 2);
	KT_EXPECT_EQ(t, window_nested, 0);
	zone_destroy(&z);
}

/* A resized descriptor is published; readers see old or new, the old one goes after a GP. */
static void compaction_desc_rcu(struct kt *t)
{
	struct compact_params p = {
		.policy = COMPACT_POLICY_P9, .atomic_mode = COMPACT_ATOMIC_RELAXED,
		.cluster_max = 32, .min_scan_limit = PB,
	};
	struct compact_reset_report rep;
	struct zone_desc *d;
	struct zone z;
	int i;

	kc_rcu_register_thread();
	if (!zone_setup(t, &z, &p, 131072, false))
		goto out;
	for (i = 1; i <= 8; i++) {
		unsigned long managed = i & 1 ? 126976 : 131072;
		struct zone_desc *old;
		unsigned long om, os;

		/* A reader holding the old descriptor across the replace keeps it alive. */
		rcu_read_lock();
		old = rcu_dereference(z.desc);
		om = old->managed_pages;
		os = old->zone_start_pfn;
		zone_desc_replace(&z, zone_desc_alloc(4096 * i, managed, managed, PB));
		KT_EXPECT(t, old->managed_pages == om && old->zone_start_pfn == os,
			  "old descriptor intact inside the read section");
		rcu_read_unlock();
		rcu_read_lock();
		d = rcu_dereference(z.desc);
		KT_EXPECT_EQU(t, d->generation, i);
		KT_EXPECT_EQU(t, d->managed_pages, managed);
		/* The reset moves the cached pfns into the new span (invariant 9/10). */
		compaction_reset(&z, d, &rep);
		KT_EXPECT_EQ(t, z.compact_cached_migrate_pfn[1], 4096 * i);
		rcu_read_unlock();
	}
	kc_rcu_barrier();
	zone_destroy(&z);
out:
	kc_rcu_unregister_thread();
}

static const struct kt_case cases[] = {
	KT_CASE(compaction_hpcc_decision),
	KT_CASE(compaction_atomic_exact),
	KT_CASE(compaction_plain_loses),
	KT_CASE(compaction_desc_rcu),
};

KT_MAIN("compaction_hpcc", cases)
