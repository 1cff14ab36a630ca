/*
 * init() allocates the nr_cpus - 1 items of the tree above the per-CPU
 * counters; an add reaches them only through carries. A counter of
 * batch 2 must initialise, and its precise sum is what was added.
 */
static void @FN@(struct kunit *test)
{
	struct percpu_counter_tree c;
	int ret;

	ret = percpu_counter_tree_init(&c, 2);
	KUNIT_ASSERT_EQ(test, ret, 0);
	percpu_counter_tree_add(&c, 5);
	percpu_counter_tree_add(&c, -2);
	KUNIT_EXPECT_EQ(test, percpu_counter_tree_precise_sum(&c), 3);
	percpu_counter_tree_destroy(&c);
}
