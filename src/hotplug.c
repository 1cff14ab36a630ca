// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug during runs (--hotplug P). At every quiescent point (every
 * worker parked, no vCPU held) the controller, with probability P, picks
 * 1 to max(1, CPUs/16) CPUs from the run's seeded "hotplug" stream and
 * takes each offline, or brings it back when it is offline. At most a quarter of the CPUs are
 * offline at once (at least one may be, never the last online one); with
 * --steps, once a vCPU finished its steps, CPUs only come back, so that
 * every vCPU can finish. The vCPU thread of an offline CPU stays parked
 * (src/threads.c), a migration to it goes to the next online CPU
 * (kcompat's fallback), and its per-CPU memory stays: invariants over
 * every CPU keep counting it. Every CPU is back online before the
 * scenario's teardown.
 *
 * The engine registers one AP and one BP hotplug state whose callbacks
 * check kcompat's rules: an AP callback runs as its CPU while the CPU is
 * online, a BP one while it is offline, and nobody runs the vCPU then.
 */
#include <linux/cpumask.h>
#include <linux/cpuhotplug.h>
#include <kcompat/kcompat.h>
#include "hotplug.h"
#include "run.h"

static struct stress *hp_run;	/* the run whose callbacks are registered */
static int hp_ap = -1, hp_bp = -1;

static int hp_check(unsigned int cpu, bool ap, bool up)
{
	struct stress *s = hp_run;
	unsigned int holder = kc_cpu_holder(cpu);

	if (!s)
		return 0;
	if (ap && (kc_get_cpu() != cpu || !cpu_online(cpu)))
		stress_fail_class(s, STRESS_CRASH, "hotplug", (int)cpu,
				  "the %s callback of an AP state ran as CPU %u with CPU %u %s",
				  up ? "startup" : "teardown", kc_get_cpu(), cpu,
				  cpu_online(cpu) ? "online" : "offline");
	if (!ap && cpu_online(cpu))
		stress_fail_class(s, STRESS_CRASH, "hotplug", (int)cpu,
				  "the %s callback of a BP state ran with CPU %u online",
				  up ? "startup" : "teardown", cpu);
	if (holder)
		stress_fail_class(s, STRESS_CRASH, "hotplug", (int)cpu,
				  "thread %u runs CPU %u while it changes state", holder, cpu);
	return 0;
}

static int hp_ap_up(unsigned int cpu)
{
	return hp_check(cpu, true, true);
}

static int hp_ap_down(unsigned int cpu)
{
	return hp_check(cpu, true, false);
}

static int hp_bp_up(unsigned int cpu)
{
	return hp_check(cpu, false, true);
}

static int hp_bp_dead(unsigned int cpu)
{
	return hp_check(cpu, false, false);
}

static void hp_all_up(struct stress *s)
{
	unsigned int cpu;

	for (cpu = 0; cpu < s->run.cfg->nr_cpus; cpu++)
		if (!cpu_online(cpu) && kc_cpu_up(cpu))
			stress_fail_class(s, STRESS_CRASH, "hotplug", (int)cpu,
					  "CPU %u did not come back online", cpu);
}

void stress_hotplug_begin(struct stress *s)
{
	stress_rng_seed(&s->hp_rng, s->run.seed, "hotplug", 0);
	hp_all_up(s);
	if (!s->run.cfg->hotplug || s->run.cfg->nr_cpus < 2)
		return;
	hp_run = s;
	hp_ap = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "stress/ap", hp_ap_up, hp_ap_down);
	hp_bp = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "stress/bp", hp_bp_up,
					  hp_bp_dead);
	if (hp_ap < 0 || hp_bp < 0)
		stress_internal_error(s, "cannot register the hotplug states (%d, %d)", hp_ap,
				      hp_bp);
}

/* After the last quiescent(), before teardown: every CPU online again. */
void stress_hotplug_end(struct stress *s)
{
	hp_all_up(s);
	if (hp_ap > 0)
		cpuhp_remove_state_nocalls(hp_ap);
	if (hp_bp > 0)
		cpuhp_remove_state_nocalls(hp_bp);
	hp_ap = hp_bp = -1;
	hp_run = NULL;
}

/* One seeded CPU changes state: true when one did. */
static bool hp_toggle(struct stress *s)
{
	unsigned int n = s->run.cfg->nr_cpus, cpu, max_off = n / 4 ? n / 4 : 1, off;
	int ret;

	cpu = stress_rng_below(&s->hp_rng, n);
	off = n - num_online_cpus();
	if (cpu_online(cpu) && (off >= max_off || atomic_load(&s->workers.nr_vcpus_done))) {
		if (!off)
			return false;
		/* The next offline CPU comes back instead. */
		while (cpu_online(cpu))
			cpu = (cpu + 1) % n;
	}
	if (cpu_online(cpu)) {
		ret = kc_cpu_down(cpu);
		if (!ret)
			stress_soft(s, "hotplug_down", 1);
	} else {
		ret = kc_cpu_up(cpu);
		if (!ret)
			stress_soft(s, "hotplug_up", 1);
	}
	if (ret)
		stress_fail_class(s, STRESS_CRASH, "hotplug", (int)cpu,
				  "CPU %u could not go %s at a quiescent point: error %d", cpu,
				  cpu_online(cpu) ? "offline" : "online", ret);
	return !ret;
}

/*
 * The controller held to its documented limits (docs/stress.md, CPU
 * hotplug), stated again here so that a controller past them fails the
 * run: at most a quarter of the CPUs offline (at least one may be), never
 * the last online one, at most max(1, CPUs/16) changes in an event, and
 * once a vCPU finished its steps, no CPU going offline.
 */
static void hp_check_limits(struct stress *s, unsigned int changed, unsigned int off_before,
			    bool done)
{
	unsigned int n = s->run.cfg->nr_cpus, off = n - num_online_cpus();
	unsigned int max_off = n < 8 ? 1 : n / 4, max_changed = n < 32 ? 1 : n / 16;

	stress_count_checks(s, 1);
	if (off > max_off || off >= n)
		stress_fail(s, "hotplug", -1, "%u of %u CPUs offline, at most %u may be", off, n,
			    max_off);
	else if (changed > max_changed)
		stress_fail(s, "hotplug", -1, "%u CPUs changed state in one event, at most %u may",
			    changed, max_changed);
	else if (done && off > off_before)
		stress_fail(s, "hotplug", -1, "a CPU went offline (%u -> %u offline) after a vCPU "
			    "finished its steps", off_before, off);
}

/*
 * At a quiescent point (every worker parked): with probability P an
 * event, in which 1 to max(1, CPUs/16) seeded CPUs change state.
 */
void stress_hotplug_step(struct stress *s)
{
	unsigned int n = s->run.cfg->nr_cpus, k, changed = 0, off_before;
	bool done;

	if (!s->run.cfg->hotplug || n < 2 || !stress_rng_chance(&s->hp_rng, s->run.cfg->hotplug))
		return;
	off_before = n - num_online_cpus();
	done = atomic_load(&s->workers.nr_vcpus_done);
	k = 1 + stress_rng_below(&s->hp_rng, n / 16 ? n / 16 : 1);
	while (k-- && !atomic_load(&s->tally.failed))
		changed += hp_toggle(s);
	if (!atomic_load(&s->tally.failed))
		hp_check_limits(s, changed, off_before, done);
}
