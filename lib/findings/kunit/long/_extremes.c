/*
 * At 9 to 16 CPUs with a batch of 2, a settled counter reaches
 * precise - approx > over: one unit under the carry on every CPU's
 * word, 6 under it on each of the four first-level items, 8 on each
 * of the two second-level items (adds of 15, 15, 7 and 7 on CPUs 0
 * to 3, 1 on each other CPU; the root stays where it was).
 */
struct hpcc_extremes_add {
	struct percpu_counter_tree *counter;
	long inc;
	atomic_t done;
	struct wait_queue_head wq;
};

static int hpcc_extremes_add_fn(void *data)
{
	struct hpcc_extremes_add *a = data;

	percpu_counter_tree_add(a->counter, a->inc);
	atomic_set(&a->done, 1);
	wake_up(&a->wq);
	return 0;
}

/* Add @inc to @counter on @cpu, from a kernel thread bound to it. */
static int hpcc_extremes_add_on(struct percpu_counter_tree *counter,
				int cpu, long inc)
{
	struct hpcc_extremes_add a = { .counter = counter, .inc = inc };
	struct task_struct *task;

	atomic_set(&a.done, 0);
	init_waitqueue_head(&a.wq);
	task = kthread_create_on_cpu(hpcc_extremes_add_fn, &a, cpu,
				     "hpcc_extremes_add");
	if (IS_ERR(task))
		return PTR_ERR(task);
	get_task_struct(task);
	wake_up_process(task);
	wait_event(a.wq, atomic_read(&a.done));
	kthread_stop_put(task);
	return 0;
}

/* Fill @c (a batch of 2) up to precise - approx > over. */
static void hpcc_extremes_fill(struct kunit *test,
			       struct percpu_counter_tree *c)
{
	unsigned long under = 0, over = 0;
	long approx, precise;
	int cpu;

	for_each_possible_cpu(cpu) {
		long inc = cpu < 2 ? 15 : cpu < 4 ? 7 : 1;
		int ret = hpcc_extremes_add_on(c, cpu, inc);

		KUNIT_ASSERT_EQ(test, ret, 0);
	}
	percpu_counter_tree_approximate_accuracy_range(c, &under,
						       &over);
	approx = percpu_counter_tree_approximate_sum(c);
	precise = percpu_counter_tree_precise_sum(c);
	KUNIT_ASSERT_GT(test, precise - approx, (long)over);
}
