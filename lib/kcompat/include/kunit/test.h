/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit in userspace: the kernel's test API, so that a kernel KUnit file
 * builds unchanged and runs on virtual CPUs (docs/kunit.md). The runner
 * (lib/kcompat/kunit/kunit.c) prints KTAP as the kernel's KUnit does.
 *
 * Each case runs in a thread of its own, as the kernel runs it in a
 * kthread: a failed assertion ends that thread, an expectation only
 * marks the case failed. Failure text follows lib/kunit/assert.c:
 *
 *     # case: EXPECTATION FAILED at lib/tests/x_kunit.c:42
 *     Expected a == b, but
 *         a == 1 (0x1)
 *         b == 2 (0x2)
 */
#ifndef _KC_KUNIT_TEST_H
#define _KC_KUNIT_TEST_H

#include <stdarg.h>
#include <string.h>
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/cpumask.h>
#include <kcompat/kunit_fallback.h>

#define KUNIT_PARAM_DESC_SIZE	128
#define KUNIT_STATUS_COMMENT_SIZE	256

enum kunit_status {
	KUNIT_SUCCESS,
	KUNIT_FAILURE,
	KUNIT_SKIPPED,
};

enum kunit_assert_type {
	KUNIT_ASSERTION,
	KUNIT_EXPECTATION,
};

struct kunit {
	void *priv;
	const char *name;		/* the case's */
	const void *param_value;	/* parameterised cases: this run's */
	int param_index;
	/* Runner state. */
	_Atomic int status;		/* enum kunit_status */
	char status_comment[KUNIT_STATUS_COMMENT_SIZE];
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	const void *(*generate_params)(const void *prev, char *desc);
	/* Runner state. */
	enum kunit_status status;
};

struct kunit_suite {
	const char name[256];
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(test_name)						\
	{ .run_case = test_name, .name = #test_name }
#define KUNIT_CASE_SLOW(test_name)	KUNIT_CASE(test_name)
#define KUNIT_CASE_PARAM(test_name, gen_params)				\
	{ .run_case = test_name, .name = #test_name,			\
	  .generate_params = gen_params }

/* Parameters from an array; @get_desc (or NULL) names each one. */
#define KUNIT_ARRAY_PARAM(name, array, get_desc)			\
	static const void *name##_gen_params(const void *prev, char *desc) \
	{								\
		typeof((array)[0]) *__next = prev ?			\
			((typeof(__next))prev) + 1 : (array);		\
		if (__next - (array) < (long)ARRAY_SIZE((array))) {	\
			void (*__get_desc)(typeof(__next), char *) = get_desc; \
			if (__get_desc)					\
				__get_desc(__next, desc);		\
			return __next;					\
		}							\
		return NULL;						\
	}

/* Registration: a constructor adds the suites before main(). */
void kc_kunit_register(struct kunit_suite *suite);

#define __KC_KUNIT_CAT2(a, b)	a##b
#define __KC_KUNIT_CAT(a, b)	__KC_KUNIT_CAT2(a, b)
#define kunit_test_suites(__suites...)					\
	static void __attribute__((constructor))			\
	__KC_KUNIT_CAT(__kc_kunit_register_, __COUNTER__)(void)	\
	{								\
		struct kunit_suite *__s[] = { __suites };		\
		unsigned int __i;					\
		for (__i = 0; __i < ARRAY_SIZE(__s); __i++)		\
			kc_kunit_register(__s[__i]);			\
	}
#define kunit_test_suite(suite)		kunit_test_suites(&suite)
#define kunit_test_init_section_suites(__suites...)	kunit_test_suites(__suites)

/* Logging: "    # <case>: <message>" in the case's KTAP block. */
void kc_kunit_log(struct kunit *test, const char *level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define kunit_info(test, fmt, ...)	kc_kunit_log(test, "info", fmt, ##__VA_ARGS__)
#define kunit_warn(test, fmt, ...)	kc_kunit_log(test, "warn", fmt, ##__VA_ARGS__)
#define kunit_err(test, fmt, ...)	kc_kunit_log(test, "err", fmt, ##__VA_ARGS__)
#define kunit_log(lvl, test, fmt, ...)	kc_kunit_log(test, "info", fmt, ##__VA_ARGS__)

/* Skips: the case ends "ok N name # SKIP reason". */
void kc_kunit_mark_skipped(struct kunit *test, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void __attribute__((noreturn)) kc_kunit_abort(struct kunit *test);
#define kunit_mark_skipped(test, fmt, ...)				\
	kc_kunit_mark_skipped(test, fmt, ##__VA_ARGS__)
#define kunit_skip(test, fmt, ...)					\
do {									\
	kc_kunit_mark_skipped(test, fmt, ##__VA_ARGS__);		\
	kc_kunit_abort(test);						\
} while (0)

/* Failure reports (kunit.c prints them; an assertion then aborts). */
struct kc_kunit_loc {
	const char *file;
	int line;
	enum kunit_assert_type type;
};
#define KC_KUNIT_LOC(type)	((struct kc_kunit_loc){ __FILE__, __LINE__, type })

void kc_kunit_fail_binary_int(struct kunit *test, struct kc_kunit_loc loc,
			      const char *left, const char *op, const char *right,
			      long long lv, long long rv, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));
void kc_kunit_fail_binary_ptr(struct kunit *test, struct kc_kunit_loc loc,
			      const char *left, const char *op, const char *right,
			      const void *lv, const void *rv, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));
void kc_kunit_fail_binary_str(struct kunit *test, struct kc_kunit_loc loc,
			      const char *left, const char *op, const char *right,
			      const char *lv, const char *rv, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));
void kc_kunit_fail_unary(struct kunit *test, struct kc_kunit_loc loc, const char *cond,
			 bool expected_true, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void kc_kunit_fail_ptr_not_err(struct kunit *test, struct kc_kunit_loc loc, const char *text,
			       const void *ptr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void kc_kunit_fail_msg(struct kunit *test, struct kc_kunit_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An assertion that failed ends the case; an expectation goes on. */
#define __KC_KUNIT_END(test, type)					\
do {									\
	if ((type) == KUNIT_ASSERTION)					\
		kc_kunit_abort(test);					\
} while (0)

#define KUNIT_SUCCEED(test)	do { (void)(test); } while (0)

#define KUNIT_FAIL_ASSERTION(test, type, fmt, ...)			\
do {									\
	kc_kunit_fail_msg(test, KC_KUNIT_LOC(type), fmt, ##__VA_ARGS__); \
	__KC_KUNIT_END(test, type);					\
} while (0)
#define KUNIT_FAIL(test, fmt, ...)					\
	KUNIT_FAIL_ASSERTION(test, KUNIT_EXPECTATION, fmt, ##__VA_ARGS__)

#define KUNIT_UNARY_ASSERTION(test, type, cond, expected_true, fmt, ...) \
do {									\
	if ((bool)(cond) != (bool)(expected_true)) {				\
		kc_kunit_fail_unary(test, KC_KUNIT_LOC(type), #cond,	\
				    expected_true, fmt, ##__VA_ARGS__);	\
		__KC_KUNIT_END(test, type);				\
	}								\
} while (0)

#define KUNIT_BINARY_INT_ASSERTION(test, type, left, op, right, fmt, ...) \
do {									\
	const typeof(left) __left = (left);				\
	const typeof(right) __right = (right);				\
	if (!(__left op __right)) {					\
		kc_kunit_fail_binary_int(test, KC_KUNIT_LOC(type), #left, #op, \
					 #right, (long long)__left,	\
					 (long long)__right, fmt, ##__VA_ARGS__); \
		__KC_KUNIT_END(test, type);				\
	}								\
} while (0)

#define KUNIT_BINARY_PTR_ASSERTION(test, type, left, op, right, fmt, ...) \
do {									\
	const typeof(left) __left = (left);				\
	const typeof(right) __right = (right);				\
	if (!(__left op __right)) {					\
		kc_kunit_fail_binary_ptr(test, KC_KUNIT_LOC(type), #left, #op, \
					 #right, (const void *)__left,	\
					 (const void *)__right, fmt, ##__VA_ARGS__); \
		__KC_KUNIT_END(test, type);				\
	}								\
} while (0)

#define KUNIT_BINARY_STR_ASSERTION(test, type, left, op, right, fmt, ...) \
do {									\
	const char *__left = (left);					\
	const char *__right = (right);					\
	if (!(strcmp(__left, __right) op 0)) {				\
		kc_kunit_fail_binary_str(test, KC_KUNIT_LOC(type), #left, #op, \
					 #right, __left, __right, fmt, ##__VA_ARGS__); \
		__KC_KUNIT_END(test, type);				\
	}								\
} while (0)

#define KUNIT_PTR_NOT_ERR_OR_NULL_ASSERTION(test, type, ptr, fmt, ...)	\
do {									\
	const typeof(ptr) __ptr = (ptr);				\
	if (IS_ERR_OR_NULL(__ptr)) {					\
		kc_kunit_fail_ptr_not_err(test, KC_KUNIT_LOC(type), #ptr, \
					  (const void *)__ptr, fmt, ##__VA_ARGS__); \
		__KC_KUNIT_END(test, type);				\
	}								\
} while (0)

/* KUNIT_{EXPECT,ASSERT}_<CHECK>[_MSG](test, ...) */
#define KUNIT_EXPECT_TRUE_MSG(test, c, fmt, ...)	KUNIT_UNARY_ASSERTION(test, KUNIT_EXPECTATION, c, true, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(test, c, fmt, ...)	KUNIT_UNARY_ASSERTION(test, KUNIT_EXPECTATION, c, false, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_EQ_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_EXPECTATION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_EXPECTATION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_EXPECTATION, l, <, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_EXPECTATION, l, <=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_EXPECTATION, l, >, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_EXPECTATION, l, >=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_PTR_EQ_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_PTR_ASSERTION(test, KUNIT_EXPECTATION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_PTR_NE_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_PTR_ASSERTION(test, KUNIT_EXPECTATION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NULL_MSG(test, p, fmt, ...)	KUNIT_BINARY_PTR_ASSERTION(test, KUNIT_EXPECTATION, p, ==, NULL, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NOT_NULL_MSG(test, p, fmt, ...)	KUNIT_BINARY_PTR_ASSERTION(test, KUNIT_EXPECTATION, p, !=, NULL, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(test, p, fmt, ...) KUNIT_PTR_NOT_ERR_OR_NULL_ASSERTION(test, KUNIT_EXPECTATION, p, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_STREQ_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_STR_ASSERTION(test, KUNIT_EXPECTATION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_STRNEQ_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_STR_ASSERTION(test, KUNIT_EXPECTATION, l, !=, r, fmt, ##__VA_ARGS__)

#define KUNIT_ASSERT_TRUE_MSG(test, c, fmt, ...)	KUNIT_UNARY_ASSERTION(test, KUNIT_ASSERTION, c, true, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_FALSE_MSG(test, c, fmt, ...)	KUNIT_UNARY_ASSERTION(test, KUNIT_ASSERTION, c, false, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_EQ_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_ASSERTION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NE_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_ASSERTION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_LT_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_ASSERTION, l, <, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_LE_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_ASSERTION, l, <=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_GT_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_ASSERTION, l, >, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_GE_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_ASSERTION, l, >=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_PTR_EQ_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_PTR_ASSERTION(test, KUNIT_ASSERTION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_PTR_NE_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_PTR_ASSERTION(test, KUNIT_ASSERTION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NULL_MSG(test, p, fmt, ...)	KUNIT_BINARY_PTR_ASSERTION(test, KUNIT_ASSERTION, p, ==, NULL, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NOT_NULL_MSG(test, p, fmt, ...)	KUNIT_BINARY_PTR_ASSERTION(test, KUNIT_ASSERTION, p, !=, NULL, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, p, fmt, ...) KUNIT_PTR_NOT_ERR_OR_NULL_ASSERTION(test, KUNIT_ASSERTION, p, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_STREQ_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_STR_ASSERTION(test, KUNIT_ASSERTION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_STRNEQ_MSG(test, l, r, fmt, ...)	KUNIT_BINARY_STR_ASSERTION(test, KUNIT_ASSERTION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_FAILURE(test, fmt, ...)		KUNIT_FAIL_ASSERTION(test, KUNIT_ASSERTION, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_TRUE(test, c)		KUNIT_EXPECT_TRUE_MSG(test, c, NULL)
#define KUNIT_EXPECT_FALSE(test, c)		KUNIT_EXPECT_FALSE_MSG(test, c, NULL)
#define KUNIT_EXPECT_EQ(test, l, r)		KUNIT_EXPECT_EQ_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_NE(test, l, r)		KUNIT_EXPECT_NE_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_LT(test, l, r)		KUNIT_EXPECT_LT_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_LE(test, l, r)		KUNIT_EXPECT_LE_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_GT(test, l, r)		KUNIT_EXPECT_GT_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_GE(test, l, r)		KUNIT_EXPECT_GE_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_PTR_EQ(test, l, r)		KUNIT_EXPECT_PTR_EQ_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_PTR_NE(test, l, r)		KUNIT_EXPECT_PTR_NE_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_NULL(test, p)		KUNIT_EXPECT_NULL_MSG(test, p, NULL)
#define KUNIT_EXPECT_NOT_NULL(test, p)		KUNIT_EXPECT_NOT_NULL_MSG(test, p, NULL)
#define KUNIT_EXPECT_NOT_ERR_OR_NULL(test, p)	KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(test, p, NULL)
#define KUNIT_EXPECT_STREQ(test, l, r)		KUNIT_EXPECT_STREQ_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_STRNEQ(test, l, r)		KUNIT_EXPECT_STRNEQ_MSG(test, l, r, NULL)

#define KUNIT_ASSERT_TRUE(test, c)		KUNIT_ASSERT_TRUE_MSG(test, c, NULL)
#define KUNIT_ASSERT_FALSE(test, c)		KUNIT_ASSERT_FALSE_MSG(test, c, NULL)
#define KUNIT_ASSERT_EQ(test, l, r)		KUNIT_ASSERT_EQ_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_NE(test, l, r)		KUNIT_ASSERT_NE_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_LT(test, l, r)		KUNIT_ASSERT_LT_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_LE(test, l, r)		KUNIT_ASSERT_LE_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_GT(test, l, r)		KUNIT_ASSERT_GT_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_GE(test, l, r)		KUNIT_ASSERT_GE_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_PTR_EQ(test, l, r)		KUNIT_ASSERT_PTR_EQ_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_PTR_NE(test, l, r)		KUNIT_ASSERT_PTR_NE_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_NULL(test, p)		KUNIT_ASSERT_NULL_MSG(test, p, NULL)
#define KUNIT_ASSERT_NOT_NULL(test, p)		KUNIT_ASSERT_NOT_NULL_MSG(test, p, NULL)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p)	KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, p, NULL)
#define KUNIT_ASSERT_STREQ(test, l, r)		KUNIT_ASSERT_STREQ_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_STRNEQ(test, l, r)		KUNIT_ASSERT_STRNEQ_MSG(test, l, r, NULL)

#endif /* _KC_KUNIT_TEST_H */
