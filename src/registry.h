/* SPDX-License-Identifier: GPL-2.0 */
/*
 * registry.c and invariants.c: the scenarios of the build and the
 * invariants they and the engine declare.
 */
#ifndef _STRESS_REGISTRY_H
#define _STRESS_REGISTRY_H

#include <stdio.h>
#include "scenario.h"

/* registry.c */
unsigned int scenario_count(void);
const struct scenario *scenario_at(unsigned int i);
const struct scenario *scenario_find(const char *name);
/* invariants.c: the engine's invariants, and @name's declaration by @sc or the engine. */
const struct stress_invariant *stress_engine_invariants(void);
const struct stress_invariant *stress_invariant_find(const struct scenario *sc,
						     const char *name);
void stress_list_invariants(FILE *out);
/* Every scenario of the build, hidden ones too (scenario_declare()); NULL past the end. */
const struct scenario *scenario_declared_at(unsigned int i);

#endif /* _STRESS_REGISTRY_H */
