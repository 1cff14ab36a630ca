/*
 * Counters 64 and 65: precise_compare(a, b) is "-1 if counter @a less
 * than counter @b, 1 if counter @a is greater" (its own comment).
 */
static void @FN@(struct kunit *test)
{
	struct percpu_counter_tree a, b;
	int ret;

	ret = percpu_counter_tree_init(&a, 2, GFP_KERNEL);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = percpu_counter_tree_init(&b, 2, GFP_KERNEL);
	KUNIT_ASSERT_EQ(test, ret, 0);
	percpu_counter_tree_set(&a, 64);
	percpu_counter_tree_set(&b, 65);
	ret = percpu_counter_tree_precise_compare(&a, &b);
	KUNIT_EXPECT_EQ(test, ret, -1);
	ret = percpu_counter_tree_precise_compare(&b, &a);
	KUNIT_EXPECT_EQ(test, ret, 1);
	percpu_counter_tree_destroy(&a);
	percpu_counter_tree_destroy(&b);
}
