// SPDX-License-Identifier: GPL-2.0
/*
 * A KUnit-style fixture for the KUnit shim itself: every feature the shim
 * offers, written the way a kernel KUnit file is. Suite kunit_shim must
 * pass; suite kunit_shim_fails fails on purpose, and tests/seam/kunit_shim.sh
 * checks each failure's text and that an assertion ends its case.
 */
#include <kunit/test.h>
#include <linux/kthread.h>
#include <linux/wait.h>
#include <linux/random.h>
#include <linux/cpuhplock.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sched/task.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int suite_inits, case_inits, case_exits;

static int shim_suite_init(struct kunit_suite *suite)
{
	suite_inits++;
	return 0;
}

static void shim_suite_exit(struct kunit_suite *suite)
{
	/* Runs after the last case: its count is the number of cases run. */
	printf("    # suite_exit: %d case inits, %d case exits\n", case_inits, case_exits);
}

static int shim_init(struct kunit *test)
{
	case_inits++;
	test->priv = &case_inits;
	return 0;
}

static void shim_exit(struct kunit *test)
{
	case_exits++;
}

static void shim_hooks(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, suite_inits, 1);
	KUNIT_EXPECT_PTR_EQ(test, test->priv, (void *)&case_inits);
	KUNIT_EXPECT_EQ(test, case_inits, case_exits + 1);
	kunit_info(test, "init and exit hooks ran\n");
}

static void shim_expectations_pass(struct kunit *test)
{
	long minus = -5;
	char *p = kzalloc(16, GFP_KERNEL);

	KUNIT_EXPECT_TRUE(test, 1 + 1 == 2);
	KUNIT_EXPECT_FALSE(test, minus > 0);
	KUNIT_EXPECT_EQ(test, minus * 2, -10L);
	KUNIT_EXPECT_NE(test, minus, 0);
	KUNIT_EXPECT_LT(test, minus, 0);
	KUNIT_EXPECT_LE(test, minus, -5);
	KUNIT_EXPECT_GT(test, 0, minus);
	KUNIT_EXPECT_GE(test, -5, minus);
	KUNIT_EXPECT_NOT_NULL(test, p);
	KUNIT_EXPECT_NULL(test, NULL);
	KUNIT_EXPECT_PTR_NE(test, p, NULL);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, p);
	KUNIT_EXPECT_STREQ(test, "abc", "abc");
	KUNIT_EXPECT_STRNEQ(test, "abc", "abd");
	KUNIT_ASSERT_EQ_MSG(test, minus, -5, "never printed: %ld", minus);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	KUNIT_EXPECT_TRUE(test, IS_ERR(ERR_PTR(-ENOMEM)));
	KUNIT_EXPECT_EQ(test, PTR_ERR(ERR_PTR(-EINVAL)), (long)-EINVAL);
	KUNIT_SUCCEED(test);
	kfree(p);
}

static void shim_skip(struct kunit *test)
{
	kunit_skip(test, "skipped on purpose");
	KUNIT_FAIL(test, "kunit_skip() did not end the case");
}

static void shim_mark_skipped(struct kunit *test)
{
	kunit_mark_skipped(test, "marked, then went on");
	kunit_info(test, "still running after kunit_mark_skipped()\n");
}

/* Parameterised: three values from an array, each named by get_desc. */
static const int shim_params[] = { 1, 2, 4 };

static void shim_param_desc(const int *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "value %d", *p);
}

KUNIT_ARRAY_PARAM(shim_pow2, shim_params, shim_param_desc);

static void shim_param(struct kunit *test)
{
	const int *v = test->param_value;

	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_EXPECT_EQ(test, *v & (*v - 1), 0);
}

/* Every kthread runs as the CPU it was created on. */
static DECLARE_WAIT_QUEUE_HEAD(shim_wq);
static atomic_t shim_left;
static atomic_t shim_wrong_cpu;

static int shim_on_cpu_fn(void *data)
{
	if (smp_processor_id() != (int)(long)data)
		atomic_inc(&shim_wrong_cpu);
	if (atomic_dec_and_test(&shim_left))
		wake_up(&shim_wq);
	return 0;
}

static void shim_kthread_run_on_cpu(struct kunit *test)
{
	unsigned int cpu, n = 0;

	atomic_set(&shim_left, 1);
	atomic_set(&shim_wrong_cpu, 0);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct task_struct *t;

		atomic_inc(&shim_left);
		t = kthread_run_on_cpu(shim_on_cpu_fn, (void *)(long)cpu, cpu, "shim/%u");
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
		n++;
	}
	cpus_read_unlock();
	if (atomic_dec_and_test(&shim_left))
		wake_up(&shim_wq);
	wait_event(shim_wq, atomic_read(&shim_left) == 0);
	KUNIT_EXPECT_EQ(test, n, num_online_cpus());
	KUNIT_EXPECT_EQ(test, atomic_read(&shim_wrong_cpu), 0);
}

static atomic_t shim_ran;

static int shim_result_fn(void *data)
{
	atomic_inc(&shim_ran);
	wake_up(&shim_wq);
	return 40 + smp_processor_id();
}

static void shim_kthread_stop(struct kunit *test)
{
	unsigned int last = num_online_cpus() - 1;
	struct task_struct *t = kthread_create_on_cpu(shim_result_fn, NULL, last, "shim");

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	get_task_struct(t);
	atomic_set(&shim_ran, 0);
	wake_up_process(t);
	/*
	 * As in the kernel, a stop that comes before the woken thread runs
	 * keeps it from running its function: wait until it has.
	 */
	wait_event(shim_wq, atomic_read(&shim_ran) == 1);
	/* kthread_stop() waits for the function and returns its result. */
	KUNIT_EXPECT_EQ(test, kthread_stop_put(t), 40 + (int)last);

	/* A kthread stopped before it was woken never runs its function. */
	t = kthread_create_on_cpu(shim_result_fn, NULL, 0, "shim");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	KUNIT_EXPECT_EQ(test, kthread_stop(t), -EINTR);

	/* A CPU beyond nr_cpu_ids is an error pointer. */
	t = kthread_create_on_cpu(shim_result_fn, NULL, nr_cpu_ids, "shim");
	KUNIT_EXPECT_TRUE(test, IS_ERR(t));
}

/*
 * Rounds of a kthread per CPU, each adding to its CPU's per-CPU word, as
 * the kernel's KUnit files do: every kthread ran once, as its CPU, and
 * no add was lost (the shim's kthreads are pooled threads: docs/kunit.md).
 */
#define SHIM_ROUNDS	20
#define SHIM_ADDS	64
static unsigned long __percpu *shim_word;

static int shim_add_fn(void *data)
{
	int i;

	if (smp_processor_id() != (int)(long)data)
		atomic_inc(&shim_wrong_cpu);
	for (i = 0; i < SHIM_ADDS; i++)
		this_cpu_add(*shim_word, 1);
	if (atomic_dec_and_test(&shim_left))
		wake_up(&shim_wq);
	return 0;
}

static void shim_kthread_adds(struct kunit *test)
{
	unsigned int cpu, round;
	unsigned long sum = 0;

	shim_word = alloc_percpu(unsigned long);
	KUNIT_ASSERT_NOT_NULL(test, shim_word);
	atomic_set(&shim_wrong_cpu, 0);
	for (round = 0; round < SHIM_ROUNDS; round++) {
		atomic_set(&shim_left, 1);
		for_each_online_cpu(cpu) {
			struct task_struct *t;

			atomic_inc(&shim_left);
			t = kthread_run_on_cpu(shim_add_fn, (void *)(long)cpu, cpu, "shim/%u");
			KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
		}
		if (atomic_dec_and_test(&shim_left))
			wake_up(&shim_wq);
		wait_event(shim_wq, atomic_read(&shim_left) == 0);
	}
	for_each_online_cpu(cpu) {
		KUNIT_EXPECT_EQ(test, *per_cpu_ptr(shim_word, cpu),
				(unsigned long)SHIM_ROUNDS * SHIM_ADDS);
		sum += *per_cpu_ptr(shim_word, cpu);
	}
	KUNIT_EXPECT_EQ(test, sum, (unsigned long)SHIM_ROUNDS * SHIM_ADDS * num_online_cpus());
	KUNIT_EXPECT_EQ(test, atomic_read(&shim_wrong_cpu), 0);
	free_percpu(shim_word);
}

/*
 * Kthreads woken behind a running one on its CPU wait in that CPU's run
 * queue (docs/kunit.md): each runs once, or, stopped before it ran,
 * returns -EINTR without running; none is lost.
 */
#define SHIM_QUEUED	8
static atomic_t shim_gate, shim_started, shim_queued_ran;

static int shim_gate_fn(void *data)
{
	atomic_set(&shim_started, 1);
	wake_up(&shim_wq);
	while (!atomic_read(&shim_gate))
		barrier();
	return 0;
}

static int shim_queued_fn(void *data)
{
	atomic_inc(&shim_queued_ran);
	return 0;
}

static void shim_kthread_queue(struct kunit *test)
{
	struct task_struct *gate, *t[SHIM_QUEUED];
	int i, ret, ran = 0;

	atomic_set(&shim_gate, 0);
	atomic_set(&shim_started, 0);
	atomic_set(&shim_queued_ran, 0);
	gate = kthread_create_on_cpu(shim_gate_fn, NULL, 0, "shim");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, gate);
	get_task_struct(gate);
	wake_up_process(gate);
	wait_event(shim_wq, atomic_read(&shim_started));
	for (i = 0; i < SHIM_QUEUED; i++) {
		t[i] = kthread_create_on_cpu(shim_queued_fn, NULL, 0, "shim");
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t[i]);
		get_task_struct(t[i]);
		wake_up_process(t[i]);
	}
	/* The first half stopped while the gate runs, the rest once it is done. */
	for (i = 0; i < SHIM_QUEUED; i++) {
		if (i == SHIM_QUEUED / 2) {
			atomic_set(&shim_gate, 1);
			KUNIT_EXPECT_EQ(test, kthread_stop_put(gate), 0);
		}
		ret = kthread_stop_put(t[i]);
		KUNIT_EXPECT_TRUE(test, ret == 0 || ret == -EINTR);
		ran += ret == 0;
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&shim_queued_ran), ran);
}

/*
 * The case's thread runs the kthreads it woke while it waits, each on a
 * stack of its own (docs/kunit.md): one that wakes its waiter gives the
 * thread back and goes on later; one that sleeps or polls
 * kthread_should_stop() moves to a runner thread. Each runs as its own
 * CPU throughout, before and after every such switch, and its per-CPU
 * adds land on that CPU. Rounds over the CPUs.
 */
#define SHIM_WAITER_ROUNDS	8
static atomic_t shim_phase;

static int shim_sleeper_fn(void *data)
{
	int cpu = (int)(long)data;

	if (smp_processor_id() != cpu)
		atomic_inc(&shim_wrong_cpu);
	this_cpu_add(*shim_word, 1);
	atomic_set(&shim_phase, 1);
	wake_up(&shim_wq);
	if (smp_processor_id() != cpu)
		atomic_inc(&shim_wrong_cpu);
	wait_event(shim_wq, atomic_read(&shim_phase) >= 2);
	if (smp_processor_id() != cpu)
		atomic_inc(&shim_wrong_cpu);
	this_cpu_add(*shim_word, 1);
	atomic_set(&shim_phase, 3);
	wake_up(&shim_wq);
	while (!kthread_should_stop())
		barrier();
	if (smp_processor_id() != cpu)
		atomic_inc(&shim_wrong_cpu);
	return 7;
}

static int shim_setter_fn(void *data)
{
	if (smp_processor_id() != (int)(long)data)
		atomic_inc(&shim_wrong_cpu);
	atomic_set(&shim_phase, 2);
	wake_up(&shim_wq);
	return 0;
}

static void shim_kthread_waiter(struct kunit *test)
{
	unsigned int n = num_online_cpus(), round, cpu, other;
	struct task_struct *sleeper, *setter;

	shim_word = alloc_percpu(unsigned long);
	KUNIT_ASSERT_NOT_NULL(test, shim_word);
	atomic_set(&shim_wrong_cpu, 0);
	for (round = 0; round < SHIM_WAITER_ROUNDS; round++) {
		cpu = n - 1 - round % n;
		other = (cpu + 1) % n;
		atomic_set(&shim_phase, 0);
		sleeper = kthread_create_on_cpu(shim_sleeper_fn, (void *)(long)cpu, cpu, "shim");
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sleeper);
		setter = kthread_create_on_cpu(shim_setter_fn, (void *)(long)other, other, "shim");
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, setter);
		get_task_struct(sleeper);
		get_task_struct(setter);
		wake_up_process(sleeper);
		wait_event(shim_wq, atomic_read(&shim_phase) >= 1);
		wake_up_process(setter);
		wait_event(shim_wq, atomic_read(&shim_phase) >= 3);
		KUNIT_EXPECT_EQ(test, kthread_stop_put(sleeper), 7);
		KUNIT_EXPECT_EQ(test, kthread_stop_put(setter), 0);
	}
	for (cpu = 0, round = 0; cpu < n; cpu++)
		round += *per_cpu_ptr(shim_word, cpu);
	KUNIT_EXPECT_EQ(test, round, 2U * SHIM_WAITER_ROUNDS);
	KUNIT_EXPECT_EQ(test, *per_cpu_ptr(shim_word, n - 1), 2UL * ((SHIM_WAITER_ROUNDS + n - 1) / n));
	KUNIT_EXPECT_EQ(test, atomic_read(&shim_wrong_cpu), 0);
	free_percpu(shim_word);
}

static void shim_wait_queue(struct kunit *test)
{
	struct wait_queue_head wq;

	init_waitqueue_head(&wq);
	/* A true condition does not sleep. */
	wait_event(wq, 1);
	__wait_event(wq, 1);
	KUNIT_SUCCEED(test);
}

static void shim_cpumask(struct kunit *test)
{
	unsigned int n = num_online_cpus(), i, seen = 0, cpu;
	bool *hit = kvcalloc(n, sizeof(*hit), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, hit);
	KUNIT_EXPECT_EQ(test, cpumask_first(cpu_online_mask), 0);
	KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(n - 1, cpu_online_mask));
	KUNIT_EXPECT_FALSE(test, cpumask_test_cpu(n, cpu_online_mask));
	for_each_online_cpu(cpu)
		seen++;
	KUNIT_EXPECT_EQ(test, seen, n);
	/* n picks in a row visit every online CPU once. */
	for (i = 0; i < n; i++) {
		cpu = cpumask_any_distribute(cpu_online_mask);
		KUNIT_ASSERT_LT(test, cpu, n);
		KUNIT_EXPECT_FALSE(test, hit[cpu]);
		hit[cpu] = true;
	}
	kvfree(hit);
}

static void shim_random(struct kunit *test)
{
	unsigned long a, b;

	kc_random_seed(42);
	a = get_random_long();
	kc_random_seed(42);
	b = get_random_long();
	KUNIT_EXPECT_EQ(test, a, b);
	KUNIT_EXPECT_NE(test, get_random_long(), get_random_long());
	KUNIT_EXPECT_LT(test, get_random_u32_below(10), 10U);
	(void)get_random_u32();
}

static struct kunit_case shim_cases[] = {
	KUNIT_CASE(shim_hooks),
	KUNIT_CASE(shim_expectations_pass),
	KUNIT_CASE(shim_skip),
	KUNIT_CASE(shim_mark_skipped),
	KUNIT_CASE_PARAM(shim_param, shim_pow2_gen_params),
	KUNIT_CASE(shim_kthread_run_on_cpu),
	KUNIT_CASE(shim_kthread_stop),
	KUNIT_CASE(shim_wait_queue),
	KUNIT_CASE(shim_cpumask),
	KUNIT_CASE(shim_random),
	KUNIT_CASE(shim_kthread_adds),
	KUNIT_CASE(shim_kthread_queue),
	KUNIT_CASE(shim_kthread_waiter),
	{}
};

static struct kunit_suite shim_suite = {
	.name = "kunit_shim",
	.suite_init = shim_suite_init,
	.suite_exit = shim_suite_exit,
	.init = shim_init,
	.exit = shim_exit,
	.test_cases = shim_cases,
};

/* Failures on purpose: tests/seam/kunit_shim.sh checks each text. */
static void fails_expect_eq(struct kunit *test)
{
	long got = 3;

	KUNIT_EXPECT_EQ(test, got, 4);
	kunit_info(test, "an expectation does not end the case\n");
}

static void fails_assert(struct kunit *test)
{
	int x = 1;

	KUNIT_ASSERT_GT_MSG(test, x, 2, "x is %d", x);
	kunit_info(test, "NOT REACHED after a failed assertion\n");
}

static void fails_kinds(struct kunit *test)
{
	void *null = NULL;

	KUNIT_EXPECT_TRUE(test, 2 < 1);
	KUNIT_EXPECT_PTR_EQ(test, null, (void *)test);
	KUNIT_EXPECT_STREQ(test, "left", "right");
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, null);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, ERR_PTR(-ENOMEM));
	KUNIT_FAIL(test, "plain failure %d", 7);
}

static void fails_one_param(struct kunit *test)
{
	const int *v = test->param_value;

	KUNIT_EXPECT_NE(test, *v, 2);
}

static struct kunit_case fails_cases[] = {
	KUNIT_CASE(fails_expect_eq),
	KUNIT_CASE(fails_assert),
	KUNIT_CASE(fails_kinds),
	KUNIT_CASE_PARAM(fails_one_param, shim_pow2_gen_params),
	{}
};

static struct kunit_suite fails_suite = {
	.name = "kunit_shim_fails",
	.test_cases = fails_cases,
};

/*
 * What the runner must survive and count (tests/seam/kunit_robust.sh): a
 * WARN is counted and named, an invalid free_percpu() fails its case as
 * a crash, a case that never returns fails by the per-case timeout
 * (KUNIT_CASE_TIMEOUT) and the suite goes on. The hang needs
 * KUNIT_FIXTURE_HANG=1, so that a run of every suite stays short.
 */
static void robust_warn(struct kunit *test)
{
	int i;

	for (i = 0; i < 3; i++)
		WARN_ON(i >= 0);
	KUNIT_EXPECT_EQ(test, i, 3);
}

static void robust_bad_free(struct kunit *test)
{
	int __percpu *p = alloc_percpu(int);

	KUNIT_ASSERT_NOT_NULL(test, p);
	free_percpu(p);
	free_percpu(p);		/* the double free under test */
}

static void robust_hang(struct kunit *test)
{
	const char *hang = getenv("KUNIT_FIXTURE_HANG");

	if (!hang || strcmp(hang, "1"))
		kunit_skip(test, "hangs only with KUNIT_FIXTURE_HANG=1");
	for (;;)
		pause();
}

static void robust_after(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 1 + 1, 2);
}

static struct kunit_case robust_cases[] = {
	KUNIT_CASE(robust_warn),
	KUNIT_CASE(robust_bad_free),
	KUNIT_CASE(robust_hang),
	KUNIT_CASE(robust_after),
	{}
};

static struct kunit_suite robust_suite = {
	.name = "kunit_shim_robust",
	.test_cases = robust_cases,
};

kunit_test_suites(&shim_suite, &fails_suite, &robust_suite);
