// SPDX-License-Identifier: GPL-2.0
/*
 * Scenarios register themselves from constructors; kept sorted by name.
 *
 * STRESS_SELFTEST_SLOWDOWN=N (2..8, with STRESS_SELFTEST set) makes every
 * vCPU step of every scenario but selftest do the work of N steps: the
 * seeded "Nx slowdown" with which scripts/regress-eval measures whether
 * scripts/regress catches one (its calibration run, the selftest scenario,
 * stays as fast). Read once here, so a normal run pays nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "registry.h"
#include "run.h"

static const struct scenario *registry[STRESS_MAX_SCENARIOS];
static unsigned int nr_registered;
/* Every scenario this build has, hidden ones too: whose invariants are known. */
static const struct scenario *declared[STRESS_MAX_SCENARIOS];
static unsigned int nr_declared;

static struct scenario slowed[STRESS_MAX_SCENARIOS];
static const struct scenario *slowed_orig[STRESS_MAX_SCENARIOS];
static unsigned int nr_slowed, slowdown;

static void slow_cpu_step(struct stress *s, unsigned int cpu, struct stress_rng *rng)
{
	const struct scenario *orig = NULL;
	unsigned int i;

	for (i = 0; i < nr_slowed && !orig; i++)
		if (&slowed[i] == s->run.sc)
			orig = slowed_orig[i];
	for (i = 0; orig && i < slowdown; i++)
		orig->cpu_step(s, cpu, rng);
}

static const struct scenario *maybe_slowed(const struct scenario *sc)
{
	const char *v = getenv("STRESS_SELFTEST_SLOWDOWN");

	if (!v || !getenv("STRESS_SELFTEST") || !strcmp(sc->name, "selftest") ||
	    atoi(v) < 2 || atoi(v) > 8 || !sc->cpu_step)
		return sc;
	slowdown = atoi(v);
	slowed[nr_slowed] = *sc;
	slowed[nr_slowed].cpu_step = slow_cpu_step;
	slowed[nr_slowed].cpu_steps = NULL;	/* each step through the slow one */
	slowed_orig[nr_slowed] = sc;
	return &slowed[nr_slowed++];
}

void scenario_register(const struct scenario *sc)
{
	unsigned int i;

	if (nr_registered == STRESS_MAX_SCENARIOS) {
		fprintf(stderr, "stress: too many scenarios (max %d)\n", STRESS_MAX_SCENARIOS);
		exit(STRESS_EXIT_INTERNAL);
	}
	scenario_declare(sc);
	sc = maybe_slowed(sc);
	for (i = nr_registered; i > 0 && strcmp(registry[i - 1]->name, sc->name) > 0; i--)
		registry[i] = registry[i - 1];
	registry[i] = sc;
	nr_registered++;
}

unsigned int scenario_count(void)
{
	return nr_registered;
}

const struct scenario *scenario_at(unsigned int i)
{
	return i < nr_registered ? registry[i] : NULL;
}

const struct scenario *scenario_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < nr_registered; i++)
		if (!strcmp(registry[i]->name, name))
			return registry[i];
	return NULL;
}

void scenario_declare(const struct scenario *sc)
{
	unsigned int i;

	for (i = 0; i < nr_declared; i++)
		if (declared[i] == sc)
			return;
	if (nr_declared < STRESS_MAX_SCENARIOS)
		declared[nr_declared++] = sc;
}

const struct scenario *scenario_declared_at(unsigned int i)
{
	return i < nr_declared ? declared[i] : NULL;
}
