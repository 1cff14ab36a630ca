// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "hpcc_shape.h"

static unsigned int ceil_log2(unsigned int n)
{
	unsigned int order = 0;

	while ((1UL << order) < n)
		order++;
	return order;
}

/*
 * The kernel table follows a rule: up to order 3 one level per order;
 * beyond, the fewest levels (at most 5) with a fan-in of at most 2^3,
 * the order spread as evenly as possible with the larger arities first.
 */
static unsigned int levels_for_order(unsigned int order)
{
	unsigned int l;

	if (order <= 3)
		return order;
	l = (order + 2) / 3;
	if (l < 3)
		l = 3;
	return l > HPCC_MAX_LEVELS ? HPCC_MAX_LEVELS : l;
}

int hpcc_shape_compute(struct hpcc_shape *s, unsigned int nr_cpus, unsigned long batch)
{
	unsigned int l, base, rem, prefix = 0;

	if (!nr_cpus || batch <= 1 || (batch & (batch - 1)))
		return -1;
	*s = (struct hpcc_shape){ .nr_cpus = nr_cpus, .batch = batch };
	s->order = ceil_log2(nr_cpus);
	if (s->order > HPCC_MAX_ORDER)
		return -1;
	s->nr_levels = levels_for_order(s->order);
	if (s->nr_levels) {
		base = s->order / s->nr_levels;
		rem = s->order % s->nr_levels;
		for (l = 0; l < s->nr_levels; l++)
			s->arity[l] = base + (l < rem);
	}
	s->level_items[0] = 1UL << s->order;
	s->threshold[0] = batch;
	for (l = 0; l < s->nr_levels; l++) {
		s->level_items[l + 1] = s->level_items[l] >> s->arity[l];
		if (l + 1 < s->nr_levels)
			s->threshold[l + 1] = s->threshold[l] << s->arity[l];
		s->nr_items += s->level_items[l + 1];
		s->multiplier += s->level_items[l] << prefix;
		prefix += s->arity[l];
	}
	s->under = batch * s->multiplier;
	s->over = (batch - 1) * s->multiplier;
	if (s->nr_levels) {
		s->settled_max = (unsigned long)nr_cpus * (batch - 1);
		for (l = 1; l < s->nr_levels; l++)
			s->settled_max += s->level_items[l] *
					  (s->threshold[l] - s->threshold[l - 1]);
		s->m_top = s->threshold[s->nr_levels - 1];
	}
	return 0;
}

unsigned long hpcc_shape_item_index(const struct hpcc_shape *s, unsigned int level,
				    unsigned int cpu)
{
	unsigned long base = 0;
	unsigned int l;

	for (l = 1; l < level; l++)
		base += s->level_items[l];
	return base + (cpu & (s->level_items[level] - 1));
}

unsigned long hpcc_shape_pending_bound(const struct hpcc_shape *s, long inc)
{
	unsigned long a = inc < 0 ? -(unsigned long)inc : (unsigned long)inc;

	if (!s->m_top)
		return 0;
	return (a + s->m_top - 1) & ~(s->m_top - 1);
}

int hpcc_shape_json(const struct hpcc_shape *s, char *buf, unsigned long len)
{
	char arity[64] = "";
	int n = 0;
	unsigned int l;

	for (l = 0; l < s->nr_levels; l++)
		n += snprintf(arity + n, sizeof(arity) - n, "%s%u", l ? "," : "",
			      s->arity[l]);
	return snprintf(buf, len,
			"{\"nr_cpus\":%u,\"nr_cpus_order\":%u,\"nr_levels\":%u,"
			"\"n_arity_order\":[%s],\"nr_items\":%lu,\"batch\":%lu,"
			"\"accuracy_multiplier\":%lu,\"under\":%lu,\"over\":%lu,"
			"\"settled_max_error\":%lu,\"m_top\":%lu}",
			s->nr_cpus, s->order, s->nr_levels, arity, s->nr_items,
			s->batch, s->multiplier, s->under, s->over, s->settled_max,
			s->m_top);
}
