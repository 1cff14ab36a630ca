// SPDX-License-Identifier: GPL-2.0
/*
 * Harnesses register themselves from constructors (XP_HARNESS_REGISTER,
 * xp.h), kept sorted by name: adding one touches its own file only.
 */
#include <stdlib.h>
#include <string.h>
#include "xp.h"

static const struct xp_harness *registry[XP_MAX_HARNESSES];
static unsigned int nr_registered;

void xp_harness_register(const struct xp_harness *h)
{
	unsigned int i;

	/* A programming error, found by the first run of any build. */
	if (nr_registered == XP_MAX_HARNESSES || xp_harness_find(h->name) ||
	    (h->alias && xp_harness_find(h->alias)))
		abort();
	for (i = nr_registered; i > 0 && strcmp(registry[i - 1]->name, h->name) > 0; i--)
		registry[i] = registry[i - 1];
	registry[i] = h;
	nr_registered++;
}

const struct xp_harness *xp_harness_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < nr_registered; i++)
		if (!strcmp(name, registry[i]->name) ||
		    (registry[i]->alias && !strcmp(name, registry[i]->alias)))
			return registry[i];
	return NULL;
}

const struct xp_harness *xp_harness_at(unsigned int i)
{
	return i < nr_registered ? registry[i] : NULL;
}
