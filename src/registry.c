// SPDX-License-Identifier: GPL-2.0
/* Scenarios register themselves from constructors; kept sorted by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stress.h"

static const struct scenario *registry[STRESS_MAX_SCENARIOS];
static unsigned int nr_registered;

void scenario_register(const struct scenario *sc)
{
	unsigned int i;

	if (nr_registered == STRESS_MAX_SCENARIOS) {
		fprintf(stderr, "stress: too many scenarios (max %d)\n", STRESS_MAX_SCENARIOS);
		exit(STRESS_EXIT_INTERNAL);
	}
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
