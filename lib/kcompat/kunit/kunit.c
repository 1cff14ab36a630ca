// SPDX-License-Identifier: GPL-2.0
/*
 * The KUnit runner: registered suites, each case in a thread of its own
 * (an assertion ends it), and KTAP output laid out as the kernel's KUnit
 * prints it (lib/kunit/test.c), so that tools/testing/kunit/kunit.py
 * parses it: a top-level plan of suites, each suite a subtest indented by
 * four spaces with its own plan, parameterised cases a further level,
 * "# <suite>: pass:..." and "# Totals: ..." before the suite's result.
 */
#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <time.h>
#include <kcompat/kcompat.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kunit/test.h>
#include "kunit_run.h"

#define KC_KUNIT_MAX_SUITES	64
#define INDENT			"    "

static struct kunit_suite *suites[KC_KUNIT_MAX_SUITES];
static unsigned int nr_suites;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

struct kc_kunit_stats {
	unsigned long pass, fail, skip, total;
};

/* Constructors: single-threaded, before main(). */
void kc_kunit_register(struct kunit_suite *suite)
{
	if (nr_suites == KC_KUNIT_MAX_SUITES) {
		fprintf(stderr, "kunit: more than %d suites\n", KC_KUNIT_MAX_SUITES);
		exit(2);
	}
	suites[nr_suites++] = suite;
}

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&out_lock);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
}

/* A growing text buffer: one failure report is printed in one piece. */
struct kc_buf {
	char *s;
	size_t len, cap;
};

static void buf_vadd(struct kc_buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *s = realloc(b->s, cap);

		if (!s)
			return;
		b->s = s;
		b->cap = cap;
	}
	vsnprintf(b->s + b->len, n + 1, fmt, ap);
	b->len += n;
}

static void buf_add(struct kc_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void buf_add(struct kc_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vadd(b, fmt, ap);
	va_end(ap);
}

/* Messages get one trailing newline, whether or not the caller wrote one. */
static void buf_line(struct kc_buf *b)
{
	if (!b->len || b->s[b->len - 1] != '\n')
		buf_add(b, "\n");
}

void kc_kunit_log(struct kunit *test, const char *level, const char *fmt, ...)
{
	struct kc_buf b = { 0 };
	va_list ap;

	(void)level;
	buf_add(&b, INDENT "# %s: ", test->name);
	va_start(ap, fmt);
	buf_vadd(&b, fmt, ap);
	va_end(ap);
	buf_line(&b);
	out("%s", b.s ? b.s : "");
	free(b.s);
}

static void set_failed(struct kunit *test)
{
	atomic_store(&test->status, KUNIT_FAILURE);
}

void kc_kunit_mark_skipped(struct kunit *test, const char *fmt, ...)
{
	va_list ap;

	/* A failure stays a failure (the kernel's kunit_mark_skipped). */
	if (atomic_load(&test->status) == KUNIT_FAILURE)
		return;
	atomic_store(&test->status, KUNIT_SKIPPED);
	va_start(ap, fmt);
	vsnprintf(test->status_comment, sizeof(test->status_comment), fmt, ap);
	va_end(ap);
}

void kc_kunit_abort(struct kunit *test)
{
	(void)test;
	/*
	 * The kernel ends the thread that failed (the case's, or a kthread
	 * of its own); so do we.
	 */
	kc_kthread_abort();
	pthread_exit(NULL);
}

/* "EXPECTATION FAILED at file:line", as kunit_assert_prologue() words it. */
static void report_begin(struct kc_buf *b, struct kunit *test, struct kc_kunit_loc loc)
{
	buf_add(b, INDENT "# %s: %s FAILED at %s:%d\n", test->name,
		loc.type == KUNIT_ASSERTION ? "ASSERTION" : "EXPECTATION", loc.file, loc.line);
}

static void report_end(struct kc_buf *b, struct kunit *test, const char *fmt, va_list ap)
{
	if (fmt) {
		buf_add(b, INDENT);
		buf_vadd(b, fmt, ap);
		buf_line(b);
	}
	set_failed(test);
	out("%s", b->s ? b->s : "");
	free(b->s);
}

/* A side that is its own literal (the "0" of "x == 0") is not repeated. */
static bool is_literal(const char *text, long long value)
{
	char v[32];

	snprintf(v, sizeof(v), "%lld", value);
	return !strcmp(v, text);
}

/* Nor a string side that is its own literal ("abc"). */
static bool is_str_literal(const char *text, const char *value)
{
	size_t n = strlen(value);

	return strlen(text) == n + 2 && text[0] == '"' && text[n + 1] == '"' &&
	       !strncmp(text + 1, value, n);
}

void kc_kunit_fail_binary_int(struct kunit *test, struct kc_kunit_loc loc,
			      const char *left, const char *op, const char *right,
			      long long lv, long long rv, const char *fmt, ...)
{
	struct kc_buf b = { 0 };
	va_list ap;

	report_begin(&b, test, loc);
	buf_add(&b, INDENT "Expected %s %s %s, but\n", left, op, right);
	if (!is_literal(left, lv))
		buf_add(&b, INDENT INDENT "%s == %lld (0x%llx)\n", left, lv,
			(unsigned long long)lv);
	if (!is_literal(right, rv))
		buf_add(&b, INDENT INDENT "%s == %lld (0x%llx)\n", right, rv,
			(unsigned long long)rv);
	va_start(ap, fmt);
	report_end(&b, test, fmt, ap);
	va_end(ap);
}

void kc_kunit_fail_binary_ptr(struct kunit *test, struct kc_kunit_loc loc,
			      const char *left, const char *op, const char *right,
			      const void *lv, const void *rv, const char *fmt, ...)
{
	struct kc_buf b = { 0 };
	va_list ap;

	report_begin(&b, test, loc);
	buf_add(&b, INDENT "Expected %s %s %s, but\n", left, op, right);
	buf_add(&b, INDENT INDENT "%s == %016lx\n", left, (unsigned long)lv);
	buf_add(&b, INDENT INDENT "%s == %016lx\n", right, (unsigned long)rv);
	va_start(ap, fmt);
	report_end(&b, test, fmt, ap);
	va_end(ap);
}

void kc_kunit_fail_binary_str(struct kunit *test, struct kc_kunit_loc loc,
			      const char *left, const char *op, const char *right,
			      const char *lv, const char *rv, const char *fmt, ...)
{
	struct kc_buf b = { 0 };
	va_list ap;

	report_begin(&b, test, loc);
	buf_add(&b, INDENT "Expected %s %s %s, but\n", left, op, right);
	if (!is_str_literal(left, lv))
		buf_add(&b, INDENT INDENT "%s == \"%s\"\n", left, lv);
	if (!is_str_literal(right, rv))
		buf_add(&b, INDENT INDENT "%s == \"%s\"\n", right, rv);
	va_start(ap, fmt);
	report_end(&b, test, fmt, ap);
	va_end(ap);
}

void kc_kunit_fail_unary(struct kunit *test, struct kc_kunit_loc loc, const char *cond,
			 bool expected_true, const char *fmt, ...)
{
	struct kc_buf b = { 0 };
	va_list ap;

	report_begin(&b, test, loc);
	buf_add(&b, INDENT "Expected %s to be %s, but is %s\n", cond,
		expected_true ? "true" : "false", expected_true ? "false" : "true");
	va_start(ap, fmt);
	report_end(&b, test, fmt, ap);
	va_end(ap);
}

void kc_kunit_fail_ptr_not_err(struct kunit *test, struct kc_kunit_loc loc, const char *text,
			       const void *ptr, const char *fmt, ...)
{
	struct kc_buf b = { 0 };
	va_list ap;

	report_begin(&b, test, loc);
	if (!ptr)
		buf_add(&b, INDENT "Expected %s is not null, but is\n", text);
	else
		buf_add(&b, INDENT "Expected %s is not error, but is: %ld\n", text, PTR_ERR(ptr));
	va_start(ap, fmt);
	report_end(&b, test, fmt, ap);
	va_end(ap);
}

void kc_kunit_fail_msg(struct kunit *test, struct kc_kunit_loc loc, const char *fmt, ...)
{
	struct kc_buf b = { 0 };
	va_list ap;

	report_begin(&b, test, loc);
	va_start(ap, fmt);
	report_end(&b, test, fmt, ap);
	va_end(ap);
}

/* One step of a case (init, the case, exit) in a thread of its own. */
struct kc_try {
	struct kunit *test;
	struct kunit_suite *suite;
	struct kunit_case *tcase;
	enum { TRY_INIT_AND_RUN, TRY_EXIT } what;
};

static void *try_main(void *arg)
{
	struct kc_try *t = arg;
	int ret;

	kc_set_cpu(0);
	if (t->what == TRY_EXIT) {
		t->suite->exit(t->test);
		return NULL;
	}
	if (t->suite->init) {
		ret = t->suite->init(t->test);
		if (ret) {
			kunit_err(t->test, "failed to initialize: %d\n", ret);
			set_failed(t->test);
			return NULL;
		}
	}
	t->tcase->run_case(t->test);
	return NULL;
}

/* Seconds a step may take (KUNIT_CASE_TIMEOUT, default 300): a hang is a crash. */
static unsigned int case_timeout(void)
{
	const char *s = getenv("KUNIT_CASE_TIMEOUT");
	char *end;
	unsigned long v;

	if (!s || !*s)
		return 300;
	v = strtoul(s, &end, 10);
	return *end || !v || v > 86400 ? 300 : (unsigned int)v;
}

static bool try_run(struct kc_try *t)
{
	struct timespec until;
	pthread_t th;
	int err = pthread_create(&th, NULL, try_main, t);

	if (err) {
		kunit_err(t->test, "cannot start the case's thread: %s\n", strerror(err));
		set_failed(t->test);
		return true;
	}
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += case_timeout();
	err = pthread_timedjoin_np(th, NULL, &until);
	if (err == ETIMEDOUT) {
		/*
		 * The thread is left where it hangs (a thread cannot be killed
		 * safely); the suite goes on and the process ends with it.
		 */
		pthread_detach(th);
		kunit_err(t->test, "class=crash (timeout): did not return within %u s\n",
			  case_timeout());
		set_failed(t->test);
		return false;
	}
	return true;
}

/* WARNs and invalid frees during a case: diagnostics, and a free fails it. */
static void case_warns(struct kunit *test, unsigned long warns, unsigned long frees)
{
	struct kc_warn_info wi;

	kc_warn_get(&wi);
	if (wi.bad_frees != frees) {
		kunit_err(test, "class=crash: invalid free (%lu); first: %s\n",
			  wi.bad_frees - frees, wi.first_bad_free);
		set_failed(test);
	}
	/* The first WARN of the run is known by its site; later ones by stderr. */
	if (wi.count != warns)
		out(INDENT "# %s: WARNING %lu%s%s\n", test->name, wi.count - warns,
		    warns ? "" : "; first: ", warns ? "" : wi.first);
}

static void run_case(struct kunit_suite *suite, struct kunit_case *tcase, struct kunit *test)
{
	struct kc_try t = { test, suite, tcase, TRY_INIT_AND_RUN };
	unsigned long warns = kc_warn_count(), frees = kc_warn_bad_frees();

	if (!try_run(&t))
		return;	/* hung: its exit would race with it */
	case_warns(test, warns, frees);
	if (suite->exit) {
		t.what = TRY_EXIT;
		try_run(&t);
	}
}

static void stats_add(struct kc_kunit_stats *s, enum kunit_status st)
{
	s->total++;
	if (st == KUNIT_SUCCESS)
		s->pass++;
	else if (st == KUNIT_FAILURE)
		s->fail++;
	else
		s->skip++;
}

static void print_result(const char *indent, enum kunit_status st, unsigned long n,
			 const char *name, const char *comment)
{
	out("%s%s %lu %s%s%s\n", indent, st == KUNIT_FAILURE ? "not ok" : "ok", n, name,
	    st == KUNIT_SKIPPED ? " # SKIP " : "", st == KUNIT_SKIPPED ? comment : "");
}

static void print_stats(const char *indent, const char *name, struct kc_kunit_stats s)
{
	if (s.total > 1)
		out("%s# %s: pass:%lu fail:%lu skip:%lu total:%lu\n", indent, name, s.pass, s.fail,
		    s.skip, s.total);
}

static bool selected(const char *filter, struct kunit_suite *suite, struct kunit_case *tcase)
{
	char full[512];
	const char *dot;

	if (!filter)
		return true;
	dot = strchr(filter, '.');
	if (!dot)
		return !fnmatch(filter, suite->name, 0);
	if (!tcase) {	/* a suite is run when its name matches the suite part */
		char spart[256];

		snprintf(spart, sizeof(spart), "%.*s", (int)(dot - filter), filter);
		return !fnmatch(spart, suite->name, 0);
	}
	snprintf(full, sizeof(full), "%s.%s", suite->name, tcase->name);
	return !fnmatch(filter, full, 0);
}

static unsigned int nr_cases(struct kunit_suite *suite, const char *filter)
{
	struct kunit_case *c;
	unsigned int n = 0;

	for (c = suite->test_cases; c->run_case; c++)
		n += selected(filter, suite, c);
	return n;
}

static enum kunit_status run_suite(struct kunit_suite *suite, unsigned int index,
				   const char *filter)
{
	struct kc_kunit_stats suite_stats = { 0 }, total_stats = { 0 };
	enum kunit_status suite_status = KUNIT_SKIPPED;
	struct kunit_case *tcase;
	unsigned long n = 0;
	int err = 0;

	out(INDENT "KTAP version 1\n" INDENT "# Subtest: %s\n" INDENT "1..%u\n", suite->name,
	    nr_cases(suite, filter));
	if (suite->suite_init) {
		err = suite->suite_init(suite);
		if (err) {
			out(INDENT "# failed to initialize (%d)\n", err);
			suite_status = KUNIT_FAILURE;
			goto end;
		}
	}
	for (tcase = suite->test_cases; tcase->run_case; tcase++) {
		struct kc_kunit_stats param_stats = { 0 };
		struct kunit test = { .name = tcase->name };

		if (!selected(filter, suite, tcase))
			continue;
		n++;
		if (!tcase->generate_params) {
			atomic_store(&test.status, KUNIT_SUCCESS);
			run_case(suite, tcase, &test);
			tcase->status = atomic_load(&test.status);
			stats_add(&param_stats, tcase->status);
		} else {
			char desc[KUNIT_PARAM_DESC_SIZE] = "";

			tcase->status = KUNIT_SKIPPED;
			out(INDENT INDENT "KTAP version 1\n" INDENT INDENT "# Subtest: %s\n",
			    tcase->name);
			test.param_value = tcase->generate_params(NULL, desc);
			while (test.param_value) {
				enum kunit_status st;

				atomic_store(&test.status, KUNIT_SUCCESS);
				test.status_comment[0] = '\0';
				test.priv = NULL;
				run_case(suite, tcase, &test);
				st = atomic_load(&test.status);
				if (!desc[0])
					snprintf(desc, sizeof(desc), "param-%d", test.param_index);
				print_result(INDENT INDENT, st, test.param_index + 1, desc,
					     test.status_comment);
				stats_add(&param_stats, st);
				if (st == KUNIT_FAILURE)
					tcase->status = KUNIT_FAILURE;
				else if (st == KUNIT_SUCCESS && tcase->status != KUNIT_FAILURE)
					tcase->status = KUNIT_SUCCESS;
				desc[0] = '\0';
				test.param_value = tcase->generate_params(test.param_value, desc);
				test.param_index++;
			}
			test.status_comment[0] = '\0';
			print_stats(INDENT, tcase->name, param_stats);
		}
		print_result(INDENT, tcase->status, n, tcase->name, test.status_comment);
		stats_add(&suite_stats, tcase->status);
		total_stats.pass += param_stats.pass;
		total_stats.fail += param_stats.fail;
		total_stats.skip += param_stats.skip;
		total_stats.total += param_stats.total;
		if (tcase->status == KUNIT_FAILURE)
			suite_status = KUNIT_FAILURE;
		else if (tcase->status == KUNIT_SUCCESS && suite_status != KUNIT_FAILURE)
			suite_status = KUNIT_SUCCESS;
	}
	if (suite->suite_exit)
		suite->suite_exit(suite);
end:
	print_stats("", suite->name, suite_stats);
	print_stats("", "Totals", total_stats);
	print_result("", suite_status, index, suite->name, "");
	return suite_status;
}

int kc_kunit_run_all(const char *filter)
{
	unsigned int i, n = 0, run = 0;
	unsigned long warns;
	bool failed = false;

	for (i = 0; i < nr_suites; i++)
		n += selected(filter, suites[i], NULL) && nr_cases(suites[i], filter);
	out("KTAP version 1\n1..%u\n", n);
	warns = kc_warn_count();
	for (i = 0; i < nr_suites; i++) {
		if (!selected(filter, suites[i], NULL) || !nr_cases(suites[i], filter))
			continue;
		failed |= run_suite(suites[i], ++run, filter) == KUNIT_FAILURE;
	}
	/* After the results: kunit_parser.py ignores it, kernel-check counts it. */
	if (kc_warn_count() != warns)
		out("# warnings: %lu\n", kc_warn_count() - warns);
	return failed;
}

void kc_kunit_list(void)
{
	struct kunit_case *c;
	unsigned int i;

	for (i = 0; i < nr_suites; i++)
		for (c = suites[i]->test_cases; c->run_case; c++)
			printf("%s.%s\n", suites[i]->name, c->name);
}

unsigned int kc_kunit_nr_suites(void)
{
	return nr_suites;
}
