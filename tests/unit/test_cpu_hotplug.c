// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug in lib/kcompat: the online mask apart from the possible
 * one, kc_cpu_down()/kc_cpu_up() with the cpuhp_setup_state() callbacks in
 * the kernel's order (AP states as the CPU while online, BP states on the
 * caller while offline; a failing startup rolls back), per-CPU memory
 * that stays, hpcc's sums counting offline CPUs' words, and a held vCPU
 * that cannot be taken down in the owned model.
 */
#include <pthread.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/percpu.h>
#include <linux/cpumask.h>
#include <linux/cpuhotplug.h>
#include <kcompat/kcompat.h>
#include <linux/percpu_counter_tree.h>
#include "hpcc_util.h"

#define NCPUS	8

static void hotplug_masks(struct kt *t)
{
	unsigned int cpu, n = 0, first, next;

	if (!kt_hpcc_setup(t, NCPUS))
		return;
	KT_EXPECT_EQU(t, num_online_cpus(), NCPUS);
	KT_EXPECT_EQU(t, num_possible_cpus(), NCPUS);
	KT_EXPECT_EQ(t, kc_cpu_down(3), 0);
	KT_EXPECT_EQ(t, kc_cpu_down(0), 0);
	KT_EXPECT(t, !cpu_online(3) && !cpu_online(0) && cpu_online(1), "online mask");
	KT_EXPECT(t, cpu_possible(3) && cpu_possible(0), "possible mask unchanged");
	KT_EXPECT_EQU(t, num_online_cpus(), NCPUS - 2);
	KT_EXPECT_EQU(t, cpumask_weight(cpu_online_mask), NCPUS - 2);
	KT_EXPECT_EQU(t, cpumask_weight(cpu_possible_mask), NCPUS);
	for_each_online_cpu(cpu) {
		KT_EXPECT(t, cpu != 3 && cpu != 0, "offline CPU %u walked", cpu);
		n++;
	}
	KT_EXPECT_EQU(t, n, NCPUS - 2);
	n = 0;
	for_each_possible_cpu(cpu)
		n++;
	KT_EXPECT_EQU(t, n, NCPUS);
	first = cpumask_first(cpu_online_mask);
	next = cpumask_next(2, cpu_online_mask);
	KT_EXPECT_EQU(t, first, 1);
	KT_EXPECT_EQU(t, next, 4);
	KT_EXPECT_EQU(t, cpumask_next(NCPUS - 1, cpu_online_mask), nr_cpu_ids);
	KT_EXPECT_EQU(t, kc_cpu_online_fallback(3), 4);
	KT_EXPECT_EQU(t, kc_cpu_online_fallback(5), 5);
	/* Repeated downs are no-ops; beyond nr_cpu_ids is refused. */
	KT_EXPECT_EQ(t, kc_cpu_down(3), 0);
	KT_EXPECT_EQ(t, kc_cpu_down(NCPUS), -EINVAL);
	KT_EXPECT_EQ(t, kc_cpu_up(NCPUS), -EINVAL);
	/* The last online CPU stays. */
	for (cpu = 1; cpu < NCPUS - 1; cpu++)
		KT_EXPECT_EQ(t, kc_cpu_down(cpu), 0);
	KT_EXPECT_EQ(t, kc_cpu_down(NCPUS - 1), -EBUSY);
	KT_EXPECT_EQU(t, num_online_cpus(), 1);
	KT_EXPECT_EQU(t, kc_cpu_online_fallback(0), NCPUS - 1);
	for (cpu = 0; cpu < NCPUS; cpu++)
		KT_EXPECT_EQ(t, kc_cpu_up(cpu), 0);
	KT_EXPECT_EQU(t, num_online_cpus(), NCPUS);
	KT_EXPECT_EQU(t, kc_cpu_hotplug_count(), 2 * (NCPUS - 1));	/* 7 downs, 7 ups */
}

/* The callbacks' log: tag, CPU, "@other" when run as another CPU, +/- online. */
static char cb_log[4096];
static int cb_fail_cpu = -1;

static void cb_note(const char *tag, unsigned int cpu)
{
	size_t len = strlen(cb_log);

	snprintf(cb_log + len, sizeof(cb_log) - len, "%s%u%s%s ", tag, cpu,
		 kc_get_cpu() == cpu ? "" : "@other", cpu_online(cpu) ? "+" : "-");
}

static int ap_up(unsigned int cpu)
{
	cb_note("apU", cpu);
	return (int)cpu == cb_fail_cpu ? -ENOMEM : 0;
}

static int ap_down(unsigned int cpu)
{
	cb_note("apD", cpu);
	return 0;
}

static int ap2_up(unsigned int cpu)
{
	cb_note("ap2U", cpu);
	return 0;
}

static int ap2_down(unsigned int cpu)
{
	cb_note("ap2D", cpu);
	return 0;
}

static int bp_up(unsigned int cpu)
{
	cb_note("bpU", cpu);
	return 0;
}

static int bp_dead(unsigned int cpu)
{
	cb_note("bpD", cpu);
	return 0;
}

static void hotplug_callbacks(struct kt *t)
{
	int ap, ap2, bp;

	if (!kt_hpcc_setup(t, 4))
		return;
	kc_set_cpu(0);
	ap = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "test/ap", ap_up, ap_down);
	KT_ASSERT(t, ap >= CPUHP_AP_ONLINE_DYN && ap <= CPUHP_AP_ONLINE_DYN_END, "ap = %d", ap);
	/* Startup ran on every online CPU, as that CPU. */
	KT_EXPECT(t, !strcmp(cb_log, "apU0+ apU1+ apU2+ apU3+ "), "setup: %s", cb_log);
	KT_EXPECT_EQU(t, kc_get_cpu(), 0);
	cb_log[0] = 0;
	ap2 = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "test/ap2", ap2_up, ap2_down);
	KT_ASSERT(t, ap2 > ap, "ap2 = %d", ap2);
	bp = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "test/bp", bp_up, bp_dead);
	KT_ASSERT(t, bp >= CPUHP_BP_PREPARE_DYN && bp <= CPUHP_BP_PREPARE_DYN_END, "bp = %d", bp);
	KT_EXPECT(t, !cb_log[0], "nocalls ran: %s", cb_log);

	/* Down: AP teardowns as the CPU while online, last state first; then BP, offline. */
	KT_EXPECT_EQ(t, kc_cpu_down(2), 0);
	KT_EXPECT(t, !strcmp(cb_log, "ap2D2+ apD2+ bpD2@other- "), "down: %s", cb_log);
	cb_log[0] = 0;
	KT_EXPECT_EQ(t, kc_cpu_up(2), 0);
	KT_EXPECT(t, !strcmp(cb_log, "bpU2@other- apU2+ ap2U2+ "), "up: %s", cb_log);
	KT_EXPECT_EQU(t, kc_get_cpu(), 0);

	/* A failing startup rolls back: the CPU stays offline, what ran is undone. */
	KT_EXPECT_EQ(t, kc_cpu_down(1), 0);
	cb_log[0] = 0;
	cb_fail_cpu = 1;
	KT_EXPECT_EQ(t, kc_cpu_up(1), -ENOMEM);
	KT_EXPECT(t, !cpu_online(1), "cpu 1 online after a failed up");
	KT_EXPECT(t, !strcmp(cb_log, "bpU1@other- apU1+ bpD1@other- "), "failed up: %s", cb_log);
	cb_fail_cpu = -1;
	KT_EXPECT_EQ(t, kc_cpu_up(1), 0);

	/* A failing setup undoes the CPUs done and frees the state. */
	cb_log[0] = 0;
	cb_fail_cpu = 2;
	KT_EXPECT_EQ(t, cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "test/fail", ap_up, ap2_down),
		     -ENOMEM);
	KT_EXPECT(t, !strcmp(cb_log, "apU0+ apU1+ apU2+ ap2D0+ ap2D1+ "), "failed setup: %s",
		  cb_log);
	cb_fail_cpu = -1;

	/* Remove runs the teardowns on the online CPUs only. */
	KT_EXPECT_EQ(t, kc_cpu_down(3), 0);
	cb_log[0] = 0;
	cpuhp_remove_state(ap);
	KT_EXPECT(t, !strcmp(cb_log, "apD0+ apD1+ apD2+ "), "remove: %s", cb_log);
	cb_log[0] = 0;
	cpuhp_remove_state_nocalls(ap2);
	cpuhp_remove_state_nocalls(bp);
	KT_EXPECT_EQ(t, kc_cpu_up(3), 0);
	KT_EXPECT(t, !cb_log[0], "removed states ran: %s", cb_log);
}

/*
 * The dying mask (percpu_counter sums over online | dying): set while a
 * CPU goes down, through its dead-state teardown, until it comes up again.
 */
static int dying_seen_ap = -1, dying_seen_bp = -1, online_seen_bp = -1;

static int dying_ap_down(unsigned int cpu)
{
	dying_seen_ap = cpumask_test_cpu(cpu, cpu_dying_mask);
	return 0;
}

static int dying_bp_dead(unsigned int cpu)
{
	dying_seen_bp = cpumask_test_cpu(cpu, cpu_dying_mask);
	online_seen_bp = cpu_online(cpu);
	return 0;
}

static void hotplug_dying_mask(struct kt *t)
{
	unsigned int cpu, n = 0, last = 0;
	bool ascending = true;
	int ap, bp;

	if (!kt_hpcc_setup(t, NCPUS))
		return;
	KT_EXPECT_EQU(t, cpumask_weight(cpu_dying_mask), 0);
	ap = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "test/dying", NULL, dying_ap_down);
	bp = cpuhp_setup_state_nocalls(CPUHP_PERCPU_CNT_DEAD, "test/dead", NULL, dying_bp_dead);
	KT_ASSERT(t, ap > 0 && bp == 0, "states %d %d", ap, bp);
	KT_EXPECT_EQ(t, kc_cpu_down(5), 0);
	KT_EXPECT(t, dying_seen_ap == 1 && dying_seen_bp == 1 && online_seen_bp == 0,
		  "dying in teardown: AP %d, dead %d (online %d)", dying_seen_ap,
		  dying_seen_bp, online_seen_bp);
	KT_EXPECT(t, cpumask_test_cpu(5, cpu_dying_mask) && !cpu_online(5), "after down");
	for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask) {
		ascending &= !n || cpu > last;
		last = cpu;
		n++;
	}
	KT_EXPECT(t, n == NCPUS && ascending, "online | dying walked %u CPUs", n);
	KT_EXPECT_EQ(t, kc_cpu_up(5), 0);
	KT_EXPECT_EQU(t, cpumask_weight(cpu_dying_mask), 0);
	n = 0;
	for_each_cpu_or(cpu, cpu_dying_mask, cpu_dying_mask)
		n++;
	KT_EXPECT_EQU(t, n, 0);
	cpuhp_remove_state_nocalls(ap);
	cpuhp_remove_state_nocalls(CPUHP_PERCPU_CNT_DEAD);	/* a fixed state: setup gave 0 */
}

static void hotplug_percpu_memory_stays(struct kt *t)
{
	unsigned long *p;
	unsigned int cpu;

	if (!kt_hpcc_setup(t, NCPUS))
		return;
	p = alloc_percpu(unsigned long);
	KT_ASSERT(t, p != NULL, "alloc");
	for_each_possible_cpu(cpu)
		*per_cpu_ptr(p, cpu) = 1000 + cpu;
	KT_EXPECT_EQ(t, kc_cpu_down(5), 0);
	KT_EXPECT_EQU(t, *per_cpu_ptr(p, 5), 1005);
	KT_EXPECT_EQ(t, kc_cpu_up(5), 0);
	for_each_possible_cpu(cpu)
		KT_EXPECT_EQU(t, *per_cpu_ptr(p, cpu), 1000 + cpu);
	free_percpu(p);
}

/*
 * Adds on every CPU, then CPUs go offline: the precise sum (and every
 * comparison that falls back to it) still counts their words, which stay.
 */
static void hotplug_hpcc_sums_count_offline_cpus(struct kt *t)
{
	struct hu_counter hc;
	struct kt_rng rng;
	unsigned int cpu, round;
	long total = 0, inc;

	if (!kt_hpcc_setup(t, NCPUS) || !hu_counter_init(t, &hc, 32))
		return;
	kt_rng_seed(&rng, 42);
	for (round = 0; round < 6; round++) {
		for_each_online_cpu(cpu) {
			inc = (long)kt_rng_below(&rng, 200) - 60;
			hu_add_as(&hc.c, cpu, inc);
			total += inc;
		}
		/* Down 1, 3, 5, then up again in the same order. */
		cpu = 1 + 2 * (round % 3);
		if (round < 3)
			KT_EXPECT_EQ(t, kc_cpu_down(cpu), 0);
		else
			KT_EXPECT_EQ(t, kc_cpu_up(cpu), 0);
		KT_EXPECT(t, percpu_counter_tree_precise_sum(&hc.c) == total,
			  "round %u (%u online): precise %ld, exact %ld", round,
			  num_online_cpus(), percpu_counter_tree_precise_sum(&hc.c), total);
		KT_EXPECT_EQ(t, percpu_counter_tree_precise_compare_value(&hc.c, total), 0);
		KT_EXPECT_EQ(t, percpu_counter_tree_precise_compare_value(&hc.c, total + 1), 1);
		KT_EXPECT_EQ(t, percpu_counter_tree_precise_compare_value(&hc.c, total - 1), -1);
	}
	/* Offline again, set(): the new value holds with offline words counted. */
	KT_EXPECT_EQ(t, kc_cpu_down(6), 0);
	percpu_counter_tree_set(&hc.c, 12345);
	KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&hc.c), 12345);
	hu_add_as(&hc.c, 2, 5);
	KT_EXPECT_EQ(t, kc_cpu_up(6), 0);
	KT_EXPECT_EQ(t, percpu_counter_tree_precise_sum(&hc.c), 12350);
	hu_counter_destroy(&hc);
}

/* A thread running vCPU 2 until the test is done with it. */
struct vcpu_runner {
	pthread_barrier_t held, done;
	unsigned int holder;
};

static void *vcpu_runner_fn(void *arg)
{
	struct vcpu_runner *r = arg;

	kc_set_cpu(2);
	kc_cpu_hold();
	r->holder = kc_cpu_holder(2);
	pthread_barrier_wait(&r->held);
	pthread_barrier_wait(&r->done);
	kc_cpu_unhold();
	return NULL;
}

/*
 * The owned model: nobody may run a vCPU while it changes, so a hotplug
 * of a vCPU a thread holds is refused (-EBUSY) until the thread lets it
 * go. In the atomic model nothing is held and the hotplug goes ahead.
 */
static void hotplug_held_vcpu(struct kt *t)
{
	bool owned = kc_pcpu_ops == KC_PCPU_OWNED;
	struct vcpu_runner r = { .holder = 0 };
	pthread_t th;

	if (!kt_hpcc_setup(t, NCPUS))
		return;
	pthread_barrier_init(&r.held, NULL, 2);
	pthread_barrier_init(&r.done, NULL, 2);
	KT_ASSERT(t, !pthread_create(&th, NULL, vcpu_runner_fn, &r), "thread");
	pthread_barrier_wait(&r.held);
	KT_EXPECT(t, owned ? r.holder != 0 : r.holder == 0, "%s model: holder %u",
		  kc_pcpu_ops_name(kc_pcpu_ops), r.holder);
	KT_EXPECT_EQ(t, kc_cpu_down(2), owned ? -EBUSY : 0);
	KT_EXPECT(t, cpu_online(2) == owned, "CPU 2 %s", cpu_online(2) ? "online" : "offline");
	KT_EXPECT_EQ(t, kc_cpu_up(2), owned ? -EBUSY : 0);
	/* A vCPU nobody runs goes down either way. */
	KT_EXPECT_EQ(t, kc_cpu_down(3), 0);
	KT_EXPECT_EQ(t, kc_cpu_up(3), 0);
	pthread_barrier_wait(&r.done);
	pthread_join(th, NULL);
	pthread_barrier_destroy(&r.held);
	pthread_barrier_destroy(&r.done);
	/* Let go: the same hotplug now goes ahead. */
	KT_EXPECT_EQ(t, kc_cpu_down(2), 0);
	KT_EXPECT_EQ(t, kc_cpu_up(2), 0);
	KT_EXPECT_EQU(t, num_online_cpus(), NCPUS);
}

static const struct kt_case cases[] = {
	KT_CASE(hotplug_masks),
	KT_CASE(hotplug_callbacks),
	KT_CASE(hotplug_dying_mask),
	KT_CASE(hotplug_percpu_memory_stays),
	KT_CASE(hotplug_hpcc_sums_count_offline_cpus),
	KT_CASE(hotplug_held_vcpu),
};

KT_MAIN("cpu_hotplug", cases)
