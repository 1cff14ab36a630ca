// needs: _extremes
/*
 * Counter b filled past approx + over; counter a set to
 * approx(b) + over + 1, so a fresh a is exact and lies below b's
 * precise sum (or on it, at 9 CPUs). precise_compare() must answer the
 * sign of a - b both ways round: the approximations are within range,
 * and each re-test against one precise sum must take the other
 * counter's tolerances in [approx - over, approx + under].
 */
static void @FN@(struct kunit *test)
{
	struct percpu_counter_tree_level_item *items_a, *items_b;
	struct percpu_counter_tree a, b;
	unsigned long under = 0, over = 0;
	long pa, pb;
	int ret, want;

	if (nr_cpu_ids < 9 || nr_cpu_ids > 16)
		kunit_skip(test, "needs 9 to 16 CPUs");
	items_a = kzalloc(percpu_counter_tree_items_size(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, items_a);
	items_b = kzalloc(percpu_counter_tree_items_size(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, items_b);
	ret = percpu_counter_tree_init(&a, items_a, 2, GFP_KERNEL);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = percpu_counter_tree_init(&b, items_b, 2, GFP_KERNEL);
	KUNIT_ASSERT_EQ(test, ret, 0);
	hpcc_extremes_fill(test, &b);
	percpu_counter_tree_approximate_accuracy_range(&b, &under,
						       &over);
	pb = percpu_counter_tree_approximate_sum(&b);
	percpu_counter_tree_set(&a, pb + (long)over + 1);
	pa = percpu_counter_tree_precise_sum(&a);
	pb = percpu_counter_tree_precise_sum(&b);
	want = pa < pb ? -1 : pa > pb;
	ret = percpu_counter_tree_precise_compare(&a, &b);
	KUNIT_EXPECT_EQ(test, ret, want);
	ret = percpu_counter_tree_precise_compare(&b, &a);
	KUNIT_EXPECT_EQ(test, ret, -want);
	percpu_counter_tree_destroy(&a);
	percpu_counter_tree_destroy(&b);
	kfree(items_a);
	kfree(items_b);
}
