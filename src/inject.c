// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection at kcompat's after-per-CPU-add hook, i.e. between
 * hpcc's level-0 add and its carry propagation:
 *   hop   - the thread becomes another (seeded random) CPU, so the carry
 *           travels along that CPU's path while its owner keeps running:
 *           a simulated migration. The engine gives the thread back its
 *           own CPU number before its next step, as a task returning to
 *           its CPU would be; within the step it keeps the new identity.
 *   delay - sleep 1..100 us (preemption between fast and slow path)
 *   yield - sched_yield()
 * Each thread draws from its own seeded stream, separate from the
 * scenario's, so injection never changes the per-CPU operation sequence.
 */
#include <sched.h>
#include <time.h>
#include <kcompat/kcompat.h>
#include "stress.h"

struct inject_tls {
	bool active;
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
		kc_set_cpu(stress_rng_below(&inj.rng, inj.nr_cpus));
		inj.hops++;
	}
	if (spec.yield && stress_rng_chance(&inj.rng, spec.yield)) {
		sched_yield();
		inj.yields++;
	}
	if (spec.delay && stress_rng_chance(&inj.rng, spec.delay)) {
		struct timespec ts = { 0, 1000 * (1 + stress_rng_below(&inj.rng, 100)) };

		nanosleep(&ts, NULL);
		inj.delays++;
	}
}

void stress_inject_install(const struct stress_config *cfg)
{
	spec = cfg->inject;
	kc_after_pcpu_add_hook = (spec.hop || spec.delay || spec.yield) ? inject_hook : NULL;
}

void stress_inject_attach(struct stress *s, unsigned int cpu)
{
	inj.active = true;
	inj.nr_cpus = s->cfg->nr_cpus;
	inj.hops = inj.delays = inj.yields = 0;
	stress_rng_seed(&inj.rng, s->seed, "inject", cpu);
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
