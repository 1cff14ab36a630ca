// probe: HPCC_API_ACCURACY_ACCUMULATES
// mode: run
// yes: accuracy_range=accumulates
// no: accuracy_range=assigns
// The documented contract adds the range into *under and *over; some
// versions assign it. Exit 0: adds, 1: assigns, anything else: unknown.
#include <stdlib.h>
#include <kcompat/kcompat.h>
#include <linux/percpu_counter_tree.h>

int main(void)
{
	struct percpu_counter_tree c;
	unsigned long u0 = 0, o0 = 0, u = 7, o = 7;
	void *items;

	if (kc_set_nr_cpu_ids(4) || percpu_counter_tree_subsystem_init())
		return 3;
	items = aligned_alloc(256, 16 * 256);
	if (!items || percpu_counter_tree_init(&c, items, 32, GFP_KERNEL))
		return 3;
	percpu_counter_tree_approximate_accuracy_range(&c, &u0, &o0);
	percpu_counter_tree_approximate_accuracy_range(&c, &u, &o);
	free(items);	/* no leak: a sanitizer's exit status must not answer */
	if (!u0 || !o0)
		return 3;
	if (u == u0 + 7 && o == o0 + 7)
		return 0;
	if (u == u0 && o == o0)
		return 1;
	return 3;
}
