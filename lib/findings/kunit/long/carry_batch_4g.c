/*
 * A batch of 2^32: the level-0 carry bit is the batch itself, so an
 * add of 2^62 carries up to the root and the approximate sum stays
 * within the counter's accuracy range of the precise one.
 */
static void @FN@(struct kunit *test)
{
	struct percpu_counter_tree_level_item *items;
	struct percpu_counter_tree c;
	unsigned long under = 0, over = 0;
	long precise, approx;
	int ret;

	if (BITS_PER_LONG < 64)
		kunit_skip(test, "a batch of 2^32 needs a 64-bit long");
	items = kzalloc(percpu_counter_tree_items_size(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, items);
	ret = percpu_counter_tree_init(&c, items, 1UL << 32,
				       GFP_KERNEL);
	KUNIT_ASSERT_EQ(test, ret, 0);
	percpu_counter_tree_approximate_accuracy_range(&c, &under,
						       &over);
	percpu_counter_tree_add(&c, 1L << 62);
	precise = percpu_counter_tree_precise_sum(&c);
	approx = percpu_counter_tree_approximate_sum(&c);
	KUNIT_EXPECT_EQ(test, precise, 1L << 62);
	KUNIT_EXPECT_LE(test, precise - approx, (long)under);
	KUNIT_EXPECT_LE(test, approx - precise, (long)over);
	percpu_counter_tree_destroy(&c);
	kfree(items);
}
