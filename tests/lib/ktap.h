/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small KUnit-like harness: each test binary prints one complete KTAP
 * document (lib/util/ktap.h writes it) holding one suite, each case one
 * result line, as a KUnit run of one suite does:
 *
 *   KTAP version 1
 *   1..1
 *     KTAP version 1
 *     # Subtest: hpcc_set
 *     1..2
 *     ok 1 set_fresh_counter # checks=9200
 *     # class=wrong-answer fn=percpu_counter_tree_set tests/unit/test_hpcc_set.c:80: ...
 *     # set_with_residual: 1 of 3612 checks failed
 *     # class=wrong-answer fn=percpu_counter_tree_set
 *     not ok 2 set_with_residual
 *     # hpcc_set: failed by class: contract=0 wrong-answer=1 crash=0
 *   # hpcc_set: pass:1 fail:1 skip:0 total:2
 *   not ok 1 hpcc_set
 *   # Totals: pass:1 fail:1 skip:0 total:2 contract:0 wrong-answer:1 crash:0
 *
 * A case also fails when a WARN fired during it that it did not announce
 * with kt_expect_warns(). Arguments: --list, or shell patterns selecting
 * cases (the others are reported as skipped); a pattern that selects no
 * case is a usage error (exit 2).
 */
#ifndef _TESTS_KTAP_H
#define _TESTS_KTAP_H

#include <stdbool.h>
#include <stdio.h>
#include "util/fail_class.h"
#include "util/ktap.h"
#include "util/rng.h"

/*
 * Failure classes (util/fail_class.h): every failure carries one;
 * kt_fail's is wrong-answer.
 */
enum kt_class {
	KT_WRONG_ANSWER = FAIL_WRONG_ANSWER,
	KT_CONTRACT = FAIL_CONTRACT,
	KT_CRASH = FAIL_CRASH,
	KT_NR_CLASSES = NR_FAIL_CLASSES,
};

const char *kt_class_name(enum kt_class c);

struct kt {
	const char *name;
	unsigned long failures;
	unsigned long checks;
	unsigned long class_failures[KT_NR_CLASSES];
	bool warns_expected;
	bool skipped;
	char skip_reason[128];
	char first_fn[64];		/* kernel function of the first failure */
	unsigned long tally[4];		/* counts the configurations add up */
};

struct kt_case {
	const char *name;
	void (*fn)(struct kt *t);
};

#define KT_CASE(fn)	{ #fn, fn }

void kt_fail(struct kt *t, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * A failure of class @cls in kernel function @fn (NULL: none in
 * particular), printed as "# class=<cls> fn=<fn> file:line: message".
 */
void kt_fail_class(struct kt *t, enum kt_class cls, const char *fn, const char *file,
		   int line, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

#define KT_FAIL_CLASS(t, cls, fn, fmt, ...)				\
	kt_fail_class(t, cls, fn, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

#define KT_EXPECT(t, cond, fmt, ...) do {				\
	(t)->checks++;							\
	if (!(cond))							\
		kt_fail(t, __FILE__, __LINE__, "expected %s: " fmt,	\
			#cond, ##__VA_ARGS__);				\
} while (0)

/* Compare as long; prints both values. */
#define KT_EXPECT_EQ(t, a, b) do {					\
	long __a = (long)(a), __b = (long)(b);				\
	(t)->checks++;							\
	if (__a != __b)							\
		kt_fail(t, __FILE__, __LINE__, "%s == %s: %ld != %ld",	\
			#a, #b, __a, __b);				\
} while (0)

#define KT_EXPECT_EQU(t, a, b) do {					\
	unsigned long __a = (unsigned long)(a), __b = (unsigned long)(b); \
	(t)->checks++;							\
	if (__a != __b)							\
		kt_fail(t, __FILE__, __LINE__, "%s == %s: %lu != %lu",	\
			#a, #b, __a, __b);				\
} while (0)

/* Stop the case on a failed precondition. */
#define KT_ASSERT(t, cond, fmt, ...) do {				\
	(t)->checks++;							\
	if (!(cond)) {							\
		kt_fail(t, __FILE__, __LINE__, "assertion %s: " fmt,	\
			#cond, ##__VA_ARGS__);				\
		return;							\
	}								\
} while (0)

void kt_skip(struct kt *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A diagnostic line ("# ...") in the case's output (a measurement, a note). */
void kt_diag(struct kt *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The case provokes warnings on purpose: record them quietly. */
void kt_expect_warns(struct kt *t);

/*
 * The kernel's boot model (AGREEMENTS B): __init code runs once per
 * process. Every case runs in its own forked process; in it,
 * kt_hpcc_setup() sets nr_cpu_ids and runs
 * percpu_counter_tree_subsystem_init() the first time, and only checks
 * that later calls ask for the same CPU count. A case that needs several
 * CPU counts runs each in a fresh process with kt_run_config().
 */
bool kt_hpcc_setup(struct kt *t, unsigned int nr_cpus);
/* The CPU count this process booted with, 0 before kt_hpcc_setup(). */
unsigned int kt_booted_cpus(void);

/*
 * Run @fn(@t, @arg) in a forked child booted with @nr_cpus CPUs
 * (kt_hpcc_setup() already done; @fn may call it again with @nr_cpus).
 * The child's checks, failures (per class) and skip are added to @t; a
 * child killed by a signal or exiting abnormally is a KT_CRASH failure
 * naming the configuration. False if the child failed or crashed.
 */
bool kt_run_config(struct kt *t, unsigned int nr_cpus,
		   void (*fn)(struct kt *t, void *arg), void *arg);
/* Or'ed into @nr_cpus: the child does not boot; @fn tests the boot itself. */
#define KT_NO_BOOT	(1U << 31)

/* Tests are reproducible: the suite's one generator (lib/util/rng.h), seeded per case. */
struct kt_rng {
	struct rng r;
};

static inline void kt_rng_seed(struct kt_rng *r, unsigned long long seed)
{
	rng_init(&r->r, seed ^ RNG_GOLDEN);
}

static inline unsigned long long kt_rng_next(struct kt_rng *r)
{
	return rng_next(&r->r);
}

/* Uniform in [0, n); 0 when n == 0. */
static inline unsigned long long kt_rng_below(struct kt_rng *r, unsigned long long n)
{
	return rng_below(&r->r, n);
}

/* The harness's KTAP writer (for diagnostics of helpers in tests/). */
extern struct ktap kt_ktap;

int kt_run(const char *suite, const struct kt_case *cases, unsigned int nr_cases,
	   int argc, char **argv);

#define KT_MAIN(suite, cases)						\
int main(int argc, char **argv)						\
{									\
	return kt_run(suite, cases, sizeof(cases) / sizeof(cases[0]),	\
		      argc, argv);					\
}

#endif /* _TESTS_KTAP_H */
