// SPDX-License-Identifier: GPL-2.0
/*
 * The invariants a run can fail with: the engine's own (the watchdog,
 * no_warn, the fault injectors, and the replay search's "crash", "timeout"
 * and "?" outcomes) here, each scenario's in its own files (struct
 * scenario's .invariants). A replay file's 'expect' and 'outcome fail',
 * and a --known file, must name one of them, so a typo is refused instead
 * of never matching. Names are lower_snake_case; the names of older
 * releases are still read (aliases below) and mean their new names.
 */
#include <stdio.h>
#include <string.h>
#include "registry.h"
#include "replay.h"

static const struct stress_invariant engine_invariants[] = {
	STRESS_INVARIANT("watchdog",
			 "every thread and the controller progress, and a run stops when told",
			 "docs/spec/stress.md#stress-invariants"),
	STRESS_INVARIANT("no_warn",
			 "no kcompat WARN fired during the run (RCU list checks among them)",
			 "docs/spec/stress.md#stress-invariants"),
	STRESS_INVARIANT("hotplug",
			 "CPU hotplug kept its rules and limits: callbacks as the CPU, at most "
			 "CPUs/16 offline",
			 "docs/spec/stress.md#stress-vcpus"),
	STRESS_INVARIANT("inject",
			 "the injected hops and delays stayed within --inject's limits",
			 "docs/spec/stress.md#stress-vcpus"),
	STRESS_INVARIANT("stutter",
			 "every quiescent interval lay within --stutter's range",
			 "docs/spec/stress.md#stress-invariants"),
	STRESS_INVARIANT("crash",
			 "a serial replay trial died of a signal",
			 "docs/spec/stress.md#stress-exit"),
	STRESS_INVARIANT("timeout",
			 "a serial replay trial did not end in time",
			 "docs/spec/stress.md#stress-exit"),
	STRESS_INVARIANT("?",
			 "a serial replay trial failed without naming an invariant",
			 "docs/spec/stress.md#stress-exit"),
	{ .name = NULL }
};

/* Names of older releases, read in replay and --known files as their new ones. */
static const char *const aliases[][2] = {
	{ "after-reset", "after_reset" },
	{ "deferral-range", "deferral_range" },
	{ "depth-writes", "depth_writes" },
	{ "desc-rcu", "desc_rcu" },
	{ "exact-counts", "exact_counts" },
	{ "failed-order", "failed_order" },
	{ "hpcc-decision", "hpcc_decision" },
	{ "hpcc-success-exact", "hpcc_success_exact" },
	{ "kernel-deferral", "kernel_deferral" },
	{ "limit-at-start", "limit_at_start" },
	{ "limit-overshoot", "limit_overshoot" },
	{ "scanallfree-implies-depleted", "scanallfree_implies_depleted" },
	{ "shift-range", "shift_range" },
	{ "stable-average", "stable_average" },
	{ "stable-limit", "stable_limit" },
	{ "shadow-reset", "shadow_reset" },
	{ "shadow-finish", "shadow_finish" },
	{ "shadow-success", "shadow_success" },
	{ "shadow-fail", "shadow_fail" },
	{ "shadow-failed-reset", "shadow_failed_reset" },
	{ "shadow-restarting", "shadow_restarting" },
	{ "shadow-depleted", "shadow_depleted" },
	{ "example/precise", "example_precise" },
	{ "example/accuracy", "example_accuracy" },
};

const struct stress_invariant *stress_engine_invariants(void)
{
	return engine_invariants;
}

static const struct stress_invariant *find_in(const struct stress_invariant *inv,
					      const char *name)
{
	for (; inv && inv->name; inv++)
		if (!strcmp(inv->name, name))
			return inv;
	return NULL;
}

/* @name's declaration by @sc or the engine (@sc NULL: the engine only), or NULL. */
const struct stress_invariant *stress_invariant_find(const struct scenario *sc,
						     const char *name)
{
	const struct stress_invariant *inv = find_in(engine_invariants, name);

	return inv ? inv : sc ? find_in(sc->invariants, name) : NULL;
}

/*
 * The name @name stands for (an alias's new name, or @name itself) when
 * the engine or any scenario of this build declares it; NULL otherwise.
 */
const char *stress_invariant_canonical(const char *name)
{
	const struct scenario *sc;
	unsigned int i;

	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(aliases[i][0], name))
			name = aliases[i][1];
	if (find_in(engine_invariants, name))
		return find_in(engine_invariants, name)->name;
	for (i = 0; (sc = scenario_declared_at(i)); i++)
		if (find_in(sc->invariants, name))
			return find_in(sc->invariants, name)->name;
	return NULL;
}

bool stress_invariant_known(const char *name)
{
	return stress_invariant_canonical(name) != NULL;
}

static void list_one(FILE *out, const char *owner, const struct stress_invariant *inv)
{
	for (; inv && inv->name; inv++)
		fprintf(out, "%-16s %-28s %s (%s)\n", owner, inv->name, inv->meaning, inv->anchor);
}

/*
 * --list-invariants: the engine's, then every listed scenario's, one a
 * line: owner, name, meaning, (spec anchor). scripts/docs-invariants
 * makes the docs' tables of it.
 */
void stress_list_invariants(FILE *out)
{
	unsigned int i;

	list_one(out, "engine", engine_invariants);
	for (i = 0; i < scenario_count(); i++)
		list_one(out, scenario_at(i)->name, scenario_at(i)->invariants);
}
