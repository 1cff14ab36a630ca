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
 *     ok 2 set_with_residual # checks=3612
 *   # hpcc_set: pass:2 fail:0 skip:0 total:2
 *   ok 1 hpcc_set
 *   # Totals: pass:2 fail:0 skip:0 total:2
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
#include "util/ktap.h"
#include "util/rng.h"

struct kt {
	const char *name;
	unsigned long failures;
	unsigned long checks;
	bool warns_expected;
	bool skipped;
	char skip_reason[128];
};

struct kt_case {
	const char *name;
	void (*fn)(struct kt *t);
};

#define KT_CASE(fn)	{ #fn, fn }

void kt_fail(struct kt *t, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

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

/* Set nr_cpu_ids and run percpu_counter_tree_subsystem_init(); asserts success. */
bool kt_hpcc_setup(struct kt *t, unsigned int nr_cpus);

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
