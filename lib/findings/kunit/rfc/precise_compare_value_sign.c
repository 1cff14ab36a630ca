/*
 * Counter 1000: precise_compare_value() is "-1 if the value less than
 * counter, 1 if the value is greater" (its own comment).
 */
static void @FN@(struct kunit *test)
{
	struct percpu_counter_tree c;
	int ret;

	ret = percpu_counter_tree_init(&c, 2, GFP_KERNEL);
	KUNIT_ASSERT_EQ(test, ret, 0);
	percpu_counter_tree_set(&c, 1000);
	ret = percpu_counter_tree_precise_compare_value(&c, 999);
	KUNIT_EXPECT_EQ(test, ret, -1);
	ret = percpu_counter_tree_precise_compare_value(&c, 1001);
	KUNIT_EXPECT_EQ(test, ret, 1);
	ret = percpu_counter_tree_precise_compare_value(&c, 1000);
	KUNIT_EXPECT_EQ(test, ret, 0);
	percpu_counter_tree_destroy(&c);
}
