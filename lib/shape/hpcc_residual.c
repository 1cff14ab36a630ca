// SPDX-License-Identifier: GPL-2.0
/* Residual states of an hpcc tree and the adds that reach them; see hpcc_residual.h. */
#include <stdlib.h>
#include "hpcc_residual.h"

unsigned long hpcc_residual_cells(const struct hpcc_shape *s)
{
	if (!s->nr_levels)
		return 0;
	/* nr_items counts the root, which keeps no residual. */
	return s->nr_cpus + s->nr_items - 1;
}

/* Level of cell @idx and its index within that level. */
static unsigned int cell_locate(const struct hpcc_shape *s, unsigned long idx,
				unsigned long *j)
{
	unsigned int l;

	if (idx < s->nr_cpus) {
		*j = idx;
		return 0;
	}
	idx -= s->nr_cpus;
	for (l = 1; l < s->nr_levels && idx >= s->level_items[l]; l++)
		idx -= s->level_items[l];
	*j = idx;
	return l;
}

unsigned int hpcc_residual_cell_level(const struct hpcc_shape *s, unsigned long idx)
{
	unsigned long j;

	return cell_locate(s, idx, &j);
}

unsigned long hpcc_residual_cell_max(const struct hpcc_shape *s, unsigned long idx)
{
	unsigned int l = hpcc_residual_cell_level(s, idx);

	if (!s->nr_levels)
		return 0;
	return l ? s->threshold[l] - s->threshold[l - 1] : s->batch - 1;
}

unsigned long hpcc_residual_cell_step(const struct hpcc_shape *s, unsigned long idx)
{
	unsigned int l = hpcc_residual_cell_level(s, idx);

	return l ? s->threshold[l - 1] : 1;
}

int hpcc_residual_cell_cpu(const struct hpcc_shape *s, unsigned long idx, unsigned int k)
{
	unsigned long j, cpu;
	unsigned int l = cell_locate(s, idx, &j);

	if (!l)
		return k ? -1 : (int)j;
	/* CPUs congruent to j modulo the level's item count share the item. */
	cpu = j + (unsigned long)k * s->level_items[l];
	return cpu < s->nr_cpus ? (int)cpu : -1;
}

unsigned int hpcc_residual_cell_nr_cpus(const struct hpcc_shape *s, unsigned long idx)
{
	unsigned long j;
	unsigned int l = cell_locate(s, idx, &j);

	if (!l)
		return 1;
	return (s->nr_cpus - j + s->level_items[l] - 1) / s->level_items[l];
}

unsigned long hpcc_residual_cell_item(const struct hpcc_shape *s, unsigned long idx)
{
	unsigned long j;
	unsigned int l = cell_locate(s, idx, &j);

	return hpcc_shape_item_index(s, l, j);
}

int hpcc_residual_valid(const struct hpcc_shape *s, const unsigned long *cell)
{
	unsigned long i, n = hpcc_residual_cells(s);

	for (i = 0; i < n; i++)
		if (cell[i] > hpcc_residual_cell_max(s, i) ||
		    cell[i] % hpcc_residual_cell_step(s, i))
			return -1;
	return 0;
}

unsigned long hpcc_residual_sum(const struct hpcc_shape *s, const unsigned long *cell)
{
	unsigned long i, n = hpcc_residual_cells(s), r = 0;

	for (i = 0; i < n; i++)
		r += cell[i];
	return r;
}

/* First cell of level @l and the number of cells of that level. */
static unsigned long level_cells(const struct hpcc_shape *s, unsigned int l,
				 unsigned long *first)
{
	unsigned int k;

	if (!l) {
		*first = 0;
		return s->nr_cpus;
	}
	*first = s->nr_cpus;
	for (k = 1; k < l; k++)
		*first += s->level_items[k];
	return s->level_items[l];
}

/* Put @amount (a multiple of the level's step) into level @l's cells, greedily. */
static void level_put(const struct hpcc_shape *s, unsigned int l, unsigned long amount,
		      unsigned long *cell)
{
	unsigned long first, n = level_cells(s, l, &first), i;

	for (i = first; i < first + n; i++) {
		unsigned long max = hpcc_residual_cell_max(s, i), step = hpcc_residual_cell_step(s, i);
		unsigned long take = amount / step * step;

		cell[i] = take < max ? take : max;
		amount -= cell[i];
	}
}

static unsigned long level_capacity(const struct hpcc_shape *s, unsigned int l)
{
	unsigned long first, n = level_cells(s, l, &first);

	return n * hpcc_residual_cell_max(s, first);
}

int hpcc_residual_fill(const struct hpcc_shape *s, unsigned long r, enum hpcc_fill how,
		       unsigned long *cell)
{
	unsigned long rem = r, n = hpcc_residual_cells(s), i, take, cap, next;
	int l;

	for (i = 0; i < n; i++)
		cell[i] = 0;
	if (r > s->settled_max)
		return -1;
	if (!n)
		return 0;
	if (how == HPCC_FILL_TOP) {
		/* Each level leaves less than its step, or is full. */
		for (l = s->nr_levels - 1; l >= 0; l--) {
			unsigned long step = l ? s->threshold[l - 1] : 1;

			cap = level_capacity(s, l);
			take = rem / step * step;
			take = take < cap ? take : cap;
			level_put(s, l, take, cell);
			rem -= take;
		}
	} else {
		/* Each level takes the most it can and leaves a multiple of the next step. */
		for (l = 0; l < (int)s->nr_levels; l++) {
			cap = level_capacity(s, l);
			if (l + 1 == (int)s->nr_levels) {
				take = rem <= cap ? rem : 0;
			} else {
				next = s->threshold[l];
				take = rem < cap ? rem : cap;
				take -= (take - rem % next) % next;
				if (take > rem || (rem - take) % next)
					return -1;
			}
			level_put(s, l, take, cell);
			rem -= take;
		}
	}
	return rem ? -1 : 0;
}

long hpcc_residual_inc(const struct hpcc_shape *s, unsigned long idx, unsigned long from,
		       unsigned long to, bool from_above)
{
	unsigned long inc = to - from;

	if (from == to)
		return 0;
	if (from_above)
		inc -= s->m_top;
	return (long)inc;
}

long hpcc_residual_apply(const struct hpcc_shape *s, unsigned long *cell, unsigned int cpu0,
			 unsigned int cpu_path, long inc)
{
	unsigned long c = (unsigned long)inc, low, res, first = s->nr_cpus;
	unsigned int l;

	if (!s->nr_levels)
		return 0;	/* one CPU: no residual, the approximation is exact */
	/* The carry is the change of the bits at and above the threshold. */
	low = cell[cpu0];
	res = (low + c) & (s->batch - 1);
	c = low + c - res;
	cell[cpu0] = res;
	for (l = 1; l < s->nr_levels && c; l++) {
		unsigned long *item = &cell[first + (cpu_path & (s->level_items[l] - 1))];

		low = *item;
		res = (low + c) & (s->threshold[l] - 1);
		c = low + c - res;
		*item = res;
		first += s->level_items[l];
	}
	return (long)c;
}

static void add_unique(long *v, unsigned int *n, long x)
{
	unsigned int i;

	for (i = 0; i < *n; i++)
		if (v[i] == x)
			return;
	v[(*n)++] = x;
}

unsigned int hpcc_edge_extremes(const struct hpcc_shape *s, long *r)
{
	long T = s->settled_max, o = s->over;
	const long want[HPCC_EDGE_MAX_EXTREMES] = { 0, 1, o - 1, o, o + 1, T - 1, T };
	unsigned int i, n = 0;

	for (i = 0; i < HPCC_EDGE_MAX_EXTREMES; i++)
		if (want[i] >= 0 && want[i] <= T)
			add_unique(r, &n, want[i]);
	return n;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static unsigned int sort_unique(long *v, unsigned int n)
{
	unsigned int i, m = 0;

	qsort(v, n, sizeof(*v), cmp_long);
	for (i = 0; i < n; i++)
		if (!m || v[m - 1] != v[i])
			v[m++] = v[i];
	return m;
}

unsigned int hpcc_edge_value_offsets(unsigned long under, unsigned long over, unsigned long T,
				     long r, long *d)
{
	const long around[] = { 0, (long)under, -(long)under, (long)over, -(long)over,
				(long)T, r };
	unsigned int n = 0, k;
	long e;

	for (k = 0; k < sizeof(around) / sizeof(around[0]); k++)
		for (e = -1; e <= 1; e++)
			d[n++] = around[k] + e;
	return sort_unique(d, n);
}

unsigned int hpcc_edge_pair_offsets(unsigned long ua, unsigned long oa, long ra,
				    unsigned long ub, unsigned long ob, long rb, long *d)
{
	const long xs[] = { (long)ua, (long)oa, (long)ub, (long)ob, (long)(oa + ub),
			    (long)(ua + ob) };
	unsigned int n = 0, k, sg;
	long e;

	for (e = -1; e <= 1; e++) {
		d[n++] = e;
		d[n++] = rb - ra + e;
		for (k = 0; k < sizeof(xs) / sizeof(xs[0]); k++)
			for (sg = 0; sg < 2; sg++) {
				long x = sg ? -xs[k] : xs[k];

				d[n++] = x + e;
				d[n++] = x + e - ra;
				d[n++] = x + e + rb;
			}
	}
	return sort_unique(d, n);
}
