// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection at kcompat's after-per-CPU-add hook, i.e. between
 * hpcc's level-0 add and its carry propagation:
 *   hop   - a migration to another (seeded random) CPU: the carry
 *           travels along that CPU's path. In the owned per-CPU model the
 *           thread gives its vCPU back and waits for the new one, whose
 *           thread lends it at its next preemption point (kcompat.h); in
 *           the atomic model it only changes its CPU number while that
 *           CPU's thread keeps running. The engine moves the thread back
 *           to its own CPU before its next step (stress_step_home()),
 *           as a task returning to its CPU would be; within the step it
 *           stays on the new one.
 *   delay - sleep 1..100 us (preemption between fast and slow path),
 *           off the vCPU, as a sleeping task leaves its CPU
 *   yield - sched_yield(), off the vCPU as well
 * Each thread draws from its own seeded stream, separate from the
 * scenario's, so injection never changes the per-CPU operation sequence.
 */
#include <sched.h>
#include <time.h>
#include <kcompat/kcompat.h>
#include <linux/cpumask.h>
#include "config.h"
#include "inject.h"
#include "run.h"

__thread bool stress_hop_pending;	/* scenario.h: stress_step_home() */

/* The documented limits: a delay of 1..100 us, a hop to an online CPU of the run. */
#define INJECT_DELAY_MAX_US	100

struct inject_tls {
	bool active;
	struct stress *s;
	struct stress_rng rng;
	unsigned int nr_cpus;
	unsigned long hops, delays, yields;
};

static __thread struct inject_tls inj;
static struct inject_spec spec;

static void inject_hook(void)
{
	if (!inj.active)
		return;
	if (spec.hop && stress_rng_chance(&inj.rng, spec.hop)) {
		/* An offline CPU runs nothing: the next online one instead. */
		unsigned int cpu = kc_cpu_online_fallback(stress_rng_below(&inj.rng, inj.nr_cpus));

		/* The injector held to its limits: a hop elsewhere fails the run. */
		if (cpu >= inj.nr_cpus || !cpu_online(cpu)) {
			stress_fail(inj.s, "inject", (int)kc_get_cpu(), "a hop to CPU %u, %s",
				    cpu, cpu >= inj.nr_cpus ? "not a CPU of the run" : "offline");
			return;
		}
		kc_set_cpu(cpu);
		stress_hop_pending = true;
		inj.hops++;
	}
	if (spec.yield && stress_rng_chance(&inj.rng, spec.yield)) {
		kc_cpu_unhold();
		sched_yield();
		kc_cpu_hold();
		inj.yields++;
	}
	if (spec.delay && stress_rng_chance(&inj.rng, spec.delay)) {
		unsigned long us = 1 + stress_rng_below(&inj.rng, 100);
		struct timespec ts = { 0, 1000 * us };

		if (us > INJECT_DELAY_MAX_US)
			stress_fail(inj.s, "inject", (int)kc_get_cpu(),
				    "a delay of %lu us, at most %u", us, INJECT_DELAY_MAX_US);
		kc_cpu_unhold();
		nanosleep(&ts, NULL);
		kc_cpu_hold();
		inj.delays++;
	}
}

void stress_inject_install(const struct stress_config *cfg)
{
	spec = cfg->inject;
	kc_set_after_pcpu_add_hook(spec.hop || spec.delay || spec.yield ? inject_hook : NULL);
}

void stress_inject_attach(struct stress *s, unsigned int cpu)
{
	inj.active = true;
	inj.s = s;
	stress_hop_pending = false;
	inj.nr_cpus = s->run.cfg->nr_cpus;
	inj.hops = inj.delays = inj.yields = 0;
	stress_rng_seed(&inj.rng, s->run.seed, "inject", cpu);
}

/* Called by the thread itself on exit: fold its counts into the run. */
void stress_inject_detach(void)
{
	inj.active = false;
}

void stress_inject_counts(unsigned long *hops, unsigned long *delays, unsigned long *yields)
{
	*hops = inj.hops;
	*delays = inj.delays;
	*yields = inj.yields;
}
