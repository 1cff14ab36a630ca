/*
 * One unit below the root (approximate 0, precise 1): the precise sum
 * may lie anywhere in [approx - over, approx + under], so
 * approximate_compare_value() answers 0 for v at either edge.
 */
static void @FN@(struct kunit *test)
{
	struct percpu_counter_tree_level_item *items;
	struct percpu_counter_tree c;
	unsigned long under = 0, over = 0;
	long approx, v;
	int ret;

	items = kzalloc(percpu_counter_tree_items_size(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, items);
	ret = percpu_counter_tree_init(&c, items, 2, GFP_KERNEL);
	KUNIT_ASSERT_EQ(test, ret, 0);
	percpu_counter_tree_approximate_accuracy_range(&c, &under,
						       &over);
	/* A batch of 2 carries at 2: an add of 1 stays on this CPU. */
	migrate_disable();
	percpu_counter_tree_add(&c, 1);
	migrate_enable();
	approx = percpu_counter_tree_approximate_sum(&c);
	KUNIT_EXPECT_EQ(test, percpu_counter_tree_precise_sum(&c), 1);
	v = approx + under;
	ret = percpu_counter_tree_approximate_compare_value(&c, v);
	KUNIT_EXPECT_EQ(test, ret, 0);
	v = approx - over;
	ret = percpu_counter_tree_approximate_compare_value(&c, v);
	KUNIT_EXPECT_EQ(test, ret, 0);
	percpu_counter_tree_destroy(&c);
	kfree(items);
}
