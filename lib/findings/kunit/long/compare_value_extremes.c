// needs: _extremes
/*
 * The precise sum may lie anywhere in [approx - over, approx + under]
 * (the kernel-doc of approximate_accuracy_range()). With the counter
 * filled past approx + over, a value between approx + over and the
 * precise sum is not greater than the counter:
 * approximate_compare_value() must not answer 1, and
 * precise_compare_value() must answer the sign of v - sum.
 */
static void @FN@(struct kunit *test)
{
	struct percpu_counter_tree_level_item *items;
	struct percpu_counter_tree c;
	unsigned long under = 0, over = 0;
	long approx, precise, v;
	int ret, want;

	if (nr_cpu_ids < 9 || nr_cpu_ids > 16)
		kunit_skip(test, "needs 9 to 16 CPUs");
	items = kzalloc(percpu_counter_tree_items_size(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, items);
	ret = percpu_counter_tree_init(&c, items, 2, GFP_KERNEL);
	KUNIT_ASSERT_EQ(test, ret, 0);
	hpcc_extremes_fill(test, &c);
	percpu_counter_tree_approximate_accuracy_range(&c, &under,
						       &over);
	approx = percpu_counter_tree_approximate_sum(&c);
	precise = percpu_counter_tree_precise_sum(&c);
	v = approx + (long)over + 1;
	ret = percpu_counter_tree_approximate_compare_value(&c, v);
	KUNIT_EXPECT_NE(test, ret, 1);
	want = v < precise ? -1 : 0;
	ret = percpu_counter_tree_precise_compare_value(&c, v);
	KUNIT_EXPECT_EQ(test, ret, want);
	percpu_counter_tree_destroy(&c);
	kfree(items);
}
