/*
 * The int-valued API: int values, caller-provided items, an unsigned
 * int accuracy range. A fresh counter: approximate == precise == 0.
 * Its precise sum may lie anywhere in [approx - over, approx + under]
 * (the comment on approx_accuracy_range), so
 * approximate_compare_value() answers 0 for v at either edge.
 */
static void @FN@(struct kunit *test)
{
	struct percpu_counter_tree_level_item *items;
	struct percpu_counter_tree c;
	unsigned int under = 0, over = 0;
	int ret;

	items = kzalloc(percpu_counter_tree_items_size(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, items);
	ret = percpu_counter_tree_init(&c, items, 2, GFP_KERNEL);
	KUNIT_ASSERT_EQ(test, ret, 0);
	percpu_counter_tree_approximate_accuracy_range(&c, &under,
						       &over);
	ret = percpu_counter_tree_approximate_sum(&c);
	KUNIT_EXPECT_EQ(test, ret, 0);
	/* v - approx == +under: the upper edge. */
	ret = percpu_counter_tree_approximate_compare_value(&c,
							    (int)under);
	KUNIT_EXPECT_EQ(test, ret, 0);
	/* v - approx == -over: the lower edge. */
	ret = percpu_counter_tree_approximate_compare_value(&c,
							    -(int)over);
	KUNIT_EXPECT_EQ(test, ret, 0);
	percpu_counter_tree_destroy(&c);
	kfree(items);
}
