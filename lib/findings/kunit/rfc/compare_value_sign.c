/*
 * Counter 1000, v just outside its inaccuracy range: "-1 if the value
 * less than counter, 1 if the value is greater" (the function's own
 * comment).
 */
static void @FN@(struct kunit *test)
{
	struct percpu_counter_tree c;
	int ret, d, v;

	ret = percpu_counter_tree_init(&c, 2, GFP_KERNEL);
	KUNIT_ASSERT_EQ(test, ret, 0);
	percpu_counter_tree_set(&c, 1000);
	d = percpu_counter_tree_inaccuracy(&c) + 1;
	v = 1000 - d;
	ret = percpu_counter_tree_approximate_compare_value(&c, v);
	KUNIT_EXPECT_EQ(test, ret, -1);
	v = 1000 + d;
	ret = percpu_counter_tree_approximate_compare_value(&c, v);
	KUNIT_EXPECT_EQ(test, ret, 1);
	percpu_counter_tree_destroy(&c);
}
