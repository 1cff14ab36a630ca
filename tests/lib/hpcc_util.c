// SPDX-License-Identifier: GPL-2.0
/* Helpers for the hpcc unit tests; see hpcc_util.h. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <kcompat/kcompat.h>
#include <linux/kernel.h>
#include <linux/percpu_counter_tree.h>
#include "shape/hpcc_window.h"
#include "hpcc_util.h"

void *hu_items_alloc(unsigned int nr)
{
	size_t align = __alignof__(struct percpu_counter_tree_level_item);
	/* At least one item: the size is 0 at order 0. */
	size_t size = ALIGN(nr * percpu_counter_tree_items_size() + 1, align);
	void *p = aligned_alloc(align, size);

	if (p)
		memset(p, 0, size);
	return p;
}

bool hu_counter_init(struct kt *t, struct hu_counter *hc, unsigned long batch)
{
	size_t size = percpu_counter_tree_items_size();
	int ret;

	hc->items = hu_items_alloc(1);
	t->checks++;
	if (!hc->items) {
		kt_fail(t, __FILE__, __LINE__, "out of memory for %zu item bytes", size);
		return false;
	}
	ret = percpu_counter_tree_init(&hc->c, hc->items, batch, GFP_KERNEL);
	if (ret) {
		kt_fail(t, __FILE__, __LINE__, "init(batch %lu) = %d", batch, ret);
		free(hc->items);
		hc->items = NULL;
		return false;
	}
	return true;
}

void hu_counter_destroy(struct hu_counter *hc)
{
	percpu_counter_tree_destroy(&hc->c);
	free(hc->items);
	hc->items = NULL;
}

unsigned long hu_level0(struct percpu_counter_tree *c, unsigned int cpu)
{
	return __atomic_load_n(per_cpu_ptr(c->level0, cpu), __ATOMIC_RELAXED);
}

void hu_set_level0(struct percpu_counter_tree *c, unsigned int cpu, unsigned long v)
{
	__atomic_store_n(per_cpu_ptr(c->level0, cpu), v, __ATOMIC_RELAXED);
}

unsigned long hu_item(struct percpu_counter_tree *c, unsigned long idx)
{
	return (unsigned long)atomic_long_read(&c->items[idx].count);
}

void hu_set_item(struct percpu_counter_tree *c, unsigned long idx, unsigned long v)
{
	atomic_long_set(&c->items[idx].count, (long)v);
}

unsigned long hu_under(struct percpu_counter_tree *c)
{
	unsigned long under = 0, over = 0;

	percpu_counter_tree_approximate_accuracy_range(c, &under, &over);
	return under;
}

unsigned long hu_over(struct percpu_counter_tree *c)
{
	unsigned long under = 0, over = 0;

	percpu_counter_tree_approximate_accuracy_range(c, &under, &over);
	return over;
}

int hu_lib_skip_mode(void)
{
#ifdef PERCPU_COUNTER_TREE_HAS_SKIP_SWITCH
	return percpu_counter_tree_skip_levels ? 1 : 0;
#else
	return -1;
#endif
}

bool hu_lib_set_skip(bool skip)
{
#ifdef PERCPU_COUNTER_TREE_HAS_SKIP_SWITCH
	percpu_counter_tree_skip_levels = skip;
	return true;
#else
	(void)skip;
	return false;
#endif
}

void hu_add_as(struct percpu_counter_tree *c, unsigned int cpu, long inc)
{
	unsigned int was = kc_get_cpu();

	kc_set_cpu(cpu);
	percpu_counter_tree_add(c, inc);
	kc_set_cpu(was);
}

/* Where the calling thread moves right after its next level-0 add (-1: stay). */
static __thread int hu_migrate_to = -1;

static void hu_migrate_hook(void)
{
	if (hu_migrate_to >= 0) {
		kc_set_cpu(hu_migrate_to);
		hu_migrate_to = -1;
	}
}

void hu_install_migrate_hook(void)
{
	if (kc_get_after_pcpu_add_hook() != hu_migrate_hook)
		kc_set_after_pcpu_add_hook(hu_migrate_hook);
}

void hu_add_migrating(struct percpu_counter_tree *c, unsigned int cpu0,
		      unsigned int cpu_path, long inc)
{
	hu_install_migrate_hook();
	kc_set_cpu(cpu0);
	hu_migrate_to = cpu_path == cpu0 ? -1 : (int)cpu_path;
	percpu_counter_tree_add(c, inc);
	hu_migrate_to = -1;
	kc_set_cpu(cpu0);
}

bool hu_ref_init(struct hu_ref *r, unsigned long batch, bool skip)
{
	unsigned long idx = 0;
	unsigned int l;

	memset(r, 0, sizeof(*r));
	if (hpcc_shape_compute(&r->s, nr_cpu_ids, batch))
		return false;
	r->skip = skip;
	r->level0 = calloc(nr_cpu_ids, sizeof(*r->level0));
	r->items = calloc(r->s.nr_items + 1, sizeof(*r->items));
	r->item_level = calloc(r->s.nr_items + 1, 1);
	if (!r->level0 || !r->items || !r->item_level) {
		hu_ref_free(r);
		return false;
	}
	for (l = 1; l <= r->s.nr_levels; l++) {
		unsigned long n;

		for (n = 0; n < r->s.level_items[l]; n++)
			r->item_level[idx++] = l;
	}
	return idx == r->s.nr_items;
}

void hu_ref_free(struct hu_ref *r)
{
	free(r->level0);
	free(r->items);
	free(r->item_level);
	r->level0 = r->items = NULL;
	r->item_level = NULL;
}

unsigned long hu_carry(unsigned long orig, unsigned long res, unsigned long m)
{
	if (!m)
		return 0;
	return (res & ~(m - 1)) - (orig & ~(m - 1));
}

static unsigned long hu_uabs(unsigned long v)
{
	return (long)v < 0 ? -v : v;
}

void hu_ref_add(struct hu_ref *r, unsigned int cpu0, unsigned int cpu_path, long inc)
{
	const struct hpcc_shape *s = &r->s;
	unsigned long orig = r->level0[cpu0], c, m;
	unsigned int l;

	r->level0[cpu0] = orig + (unsigned long)inc;
	if (!s->nr_levels)
		return;
	c = hu_carry(orig, r->level0[cpu0], s->threshold[0]);
	for (l = 1; c && l < s->nr_levels; l++) {
		unsigned long idx = hpcc_shape_item_index(s, l, cpu_path);

		m = s->threshold[l];
		/*
		 * docs/spec/hpcc.md#hpcc-add: a carry with no bits below M
		 * passes a level unchanged.
		 */
		if (r->skip && !(hu_uabs(c) & (m - 1)))
			continue;
		orig = r->items[idx];
		r->items[idx] = orig + c;
		c = hu_carry(orig, r->items[idx], m);
	}
	if (c)
		r->items[s->nr_items - 1] += c;
}

long hu_ref_precise(const struct hu_ref *r)
{
	unsigned long sum = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < r->s.nr_cpus; cpu++)
		sum += r->level0[cpu];
	return (long)(sum + (unsigned long)r->bias);
}

long hu_ref_approx(const struct hu_ref *r)
{
	unsigned long root = r->s.nr_items ? r->items[r->s.nr_items - 1] : r->level0[0];

	return (long)(root + (unsigned long)r->bias);
}

unsigned long hu_ref_item_mask(const struct hu_ref *r, unsigned long idx)
{
	unsigned int l = r->item_level[idx];

	return l < r->s.nr_levels ? r->s.threshold[l] : 0;
}

void hu_ref_poke_level0(struct hu_ref *r, struct percpu_counter_tree *c,
			unsigned int cpu, unsigned long v)
{
	r->level0[cpu] = v;
	hu_set_level0(c, cpu, v);
}

void hu_ref_poke_item(struct hu_ref *r, struct percpu_counter_tree *c,
		      unsigned long idx, unsigned long v)
{
	r->items[idx] = v;
	hu_set_item(c, idx, v);
}

static unsigned long check_item(struct kt *t, const struct hu_ref *r,
				struct percpu_counter_tree *c, unsigned long idx,
				bool exact, const char *what)
{
	unsigned long want = r->items[idx], got = hu_item(c, idx);
	unsigned long m = hu_ref_item_mask(r, idx);

	t->checks++;
	if (!exact && m) {
		want &= m - 1;
		got &= m - 1;
	}
	if (want == got)
		return 0;
	kt_fail(t, __FILE__, __LINE__,
		"%s: item %lu (level %u of %u CPUs): got %#lx, model %#lx",
		what, idx, r->item_level[idx], r->s.nr_cpus, got, want);
	return 1;
}

static unsigned long check_level0(struct kt *t, const struct hu_ref *r,
				  struct percpu_counter_tree *c, unsigned int cpu,
				  const char *what)
{
	unsigned long got = hu_level0(c, cpu);

	t->checks++;
	if (got == r->level0[cpu])
		return 0;
	kt_fail(t, __FILE__, __LINE__, "%s: level0[cpu %u]: got %#lx, model %#lx",
		what, cpu, got, r->level0[cpu]);
	return 1;
}

static unsigned long check_sums(struct kt *t, const struct hu_ref *r,
				struct percpu_counter_tree *c, const char *what)
{
	long precise = percpu_counter_tree_precise_sum(c);
	long approx = percpu_counter_tree_approximate_sum(c);
	unsigned long bad = 0;

	t->checks += 2;
	if (precise != hu_ref_precise(r)) {
		kt_fail(t, __FILE__, __LINE__, "%s: precise %ld, model %ld",
			what, precise, hu_ref_precise(r));
		bad++;
	}
	if (approx != hu_ref_approx(r)) {
		kt_fail(t, __FILE__, __LINE__, "%s: approximate %ld, model %ld",
			what, approx, hu_ref_approx(r));
		bad++;
	}
	return bad;
}

unsigned long hu_ref_check(struct kt *t, const struct hu_ref *r,
			   struct percpu_counter_tree *c, const char *what)
{
	bool exact = hu_lib_skip_mode() == (int)r->skip;
	unsigned long bad = 0, idx;
	unsigned int cpu;

	for (cpu = 0; cpu < r->s.nr_cpus; cpu++)
		bad += check_level0(t, r, c, cpu, what);
	for (idx = 0; idx < r->s.nr_items; idx++)
		bad += check_item(t, r, c, idx, exact, what);
	return bad + check_sums(t, r, c, what);
}

unsigned long hu_ref_check_path(struct kt *t, const struct hu_ref *r,
				struct percpu_counter_tree *c, unsigned int cpu0,
				unsigned int cpu_path, const char *what)
{
	bool exact = hu_lib_skip_mode() == (int)r->skip;
	unsigned long bad = check_level0(t, r, c, cpu0, what);
	unsigned int l;

	for (l = 1; l < r->s.nr_levels; l++)
		bad += check_item(t, r, c, hpcc_shape_item_index(&r->s, l, cpu_path),
				  exact, what);
	if (r->s.nr_items)
		bad += check_item(t, r, c, r->s.nr_items - 1, true, what);
	return bad;
}

unsigned long hu_residual(struct percpu_counter_tree *c, const struct hpcc_shape *s)
{
	unsigned long sum = 0, idx = 0, n;
	unsigned int cpu, l;

	if (!s->nr_levels)
		return 0;
	for (cpu = 0; cpu < s->nr_cpus; cpu++)
		sum += hu_level0(c, cpu) & (s->threshold[0] - 1);
	for (l = 1; l < s->nr_levels; l++)
		for (n = 0; n < s->level_items[l]; n++)
			sum += hu_item(c, idx++) & (s->threshold[l] - 1);
	return sum;
}

int hu_compare_delta(long delta, unsigned long tol_neg, unsigned long tol_pos)
{
	/* Widen: -LONG_MIN and tolerances near ULONG_MAX stay exact. */
	__int128 d = delta;

	if (d >= 0)
		return d <= (__int128)tol_pos ? 0 : 1;
	return -d <= (__int128)tol_neg ? 0 : -1;
}

bool hu_judge_approx(struct kt *t, const char *file, int line, const char *fn,
		     const char *call, const char *what, int got, long delta,
		     unsigned long tol_neg, const char *neg_name,
		     unsigned long tol_pos, const char *pos_name, int truth)
{
	int want = hu_compare_delta(delta, tol_neg, tol_pos);
	char name[64];

	t->checks++;
	if (got == want)
		return true;
	hpcc_window_name(name, sizeof(name), delta, tol_neg, neg_name, tol_pos, pos_name);
	if (got && got != truth)
		kt_fail_class(t, KT_WRONG_ANSWER, fn, file, line,
			      "%s: %s = %s (%+ld) returns %d, but the precise comparison is %d",
			      call, what, name, delta, got, truth);
	else
		kt_fail_class(t, KT_CONTRACT, fn, file, line,
			      "%s: %s = %s (%+ld) returns %d; the documented range is "
			      "[-%s, +%s] = [-%lu, +%lu], so the answer must be %d",
			      call, what, name, delta, got, neg_name, pos_name, tol_neg,
			      tol_pos, want);
	return false;
}

int hu_sign(long v)
{
	return (v > 0) - (v < 0);
}

long hu_rand_inc(struct kt_rng *rng, unsigned long m)
{
	unsigned long r = kt_rng_next(rng), v;
	unsigned int k;

	if (!m)
		m = 1;
	switch (r % 10) {
	case 0: case 1:	/* small, around the threshold */
		return (long)kt_rng_below(rng, 4 * m + 1) - (long)(2 * m);
	case 2: {	/* edges: 0, ±1, ±M, ±(M-1), ±(M+1), ±kM */
		static const long e[] = { 0, 1, -1 };
		long k2 = (long)kt_rng_below(rng, 9) - 4;

		switch (kt_rng_below(rng, 6)) {
		case 0: return e[kt_rng_below(rng, 3)];
		case 1: return k2 * (long)m;
		case 2: return k2 * (long)m - 1;
		case 3: return k2 * (long)m + 1;
		case 4: return (long)m - 1;
		default: return -(long)m + 1;
		}
	}
	case 3: {	/* extremes */
		static const long e[] = { LONG_MIN, LONG_MAX, LONG_MIN + 1,
					  LONG_MAX - 1, -LONG_MAX };
		return e[kt_rng_below(rng, 5)];
	}
	case 4: case 5: case 6: case 7:	/* every magnitude, both signs */
		k = kt_rng_below(rng, 63);
		v = (1UL << k) | (kt_rng_next(rng) & ((1UL << k) - 1));
		return (r >> 32) & 1 ? -(long)v : (long)v;
	default:	/* anything */
		return (long)kt_rng_next(rng);
	}
}
