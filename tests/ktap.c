// SPDX-License-Identifier: GPL-2.0
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <kcompat/kcompat.h>
#include <linux/percpu_counter_tree.h>
#include "ktap.h"

struct ktap kt_ktap;

void kt_fail(struct kt *t, const char *file, int line, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	/* Cap the noise of a broken case; the count stays exact. */
	if (t->failures++ >= 10)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ktap_diag(&kt_ktap, "%s:%d: %s", file, line, msg);
}

void kt_diag(struct kt *t, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ktap_diag(&kt_ktap, "%s", msg);
}

void kt_skip(struct kt *t, const char *fmt, ...)
{
	va_list ap;

	t->skipped = true;
	va_start(ap, fmt);
	vsnprintf(t->skip_reason, sizeof(t->skip_reason), fmt, ap);
	va_end(ap);
}

void kt_expect_warns(struct kt *t)
{
	t->warns_expected = true;
	kc_warn_set_quiet(true);
}

bool kt_hpcc_setup(struct kt *t, unsigned int nr_cpus)
{
	t->checks++;
	if (kc_set_nr_cpu_ids(nr_cpus)) {
		kt_fail(t, __FILE__, __LINE__, "kc_set_nr_cpu_ids(%u) failed", nr_cpus);
		return false;
	}
	if (percpu_counter_tree_subsystem_init()) {
		kt_fail(t, __FILE__, __LINE__, "subsystem init failed for %u CPUs", nr_cpus);
		return false;
	}
	kc_set_cpu(0);
	return true;
}

/* Each pattern must select a case: a filter that runs nothing is a mistake. */
static int select_cases(const char *prog, const struct kt_case *cases, unsigned int nr_cases,
			int argc, char **argv, bool *run)
{
	unsigned int i;
	int a;

	for (i = 0; i < nr_cases; i++)
		run[i] = argc < 2;
	for (a = 1; a < argc; a++) {
		bool hit = false;

		if (argv[a][0] == '-') {
			fprintf(stderr, "%s: unknown option '%s' (usage: %s [--list] [PATTERN]...)\n",
				prog, argv[a], prog);
			return -1;
		}
		for (i = 0; i < nr_cases; i++) {
			if (!fnmatch(argv[a], cases[i].name, 0)) {
				run[i] = true;
				hit = true;
			}
		}
		if (!hit) {
			fprintf(stderr, "%s: no test case matches '%s' (--list shows them)\n",
				prog, argv[a]);
			return -1;
		}
	}
	return 0;
}

int kt_run(const char *suite, const struct kt_case *cases, unsigned int nr_cases,
	   int argc, char **argv)
{
	bool *run = calloc(nr_cases + 1, sizeof(*run));
	unsigned int i;

	if (!run)
		return 3;
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < nr_cases; i++)
			printf("%s\n", cases[i].name);
		free(run);
		return 0;
	}
	if (select_cases(argv[0], cases, nr_cases, argc, argv, run)) {
		free(run);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	ktap_begin(&kt_ktap, stdout, 1);
	ktap_subtest_begin(&kt_ktap, suite, nr_cases);
	for (i = 0; i < nr_cases; i++) {
		struct kt t = { .name = cases[i].name };
		unsigned long warns_before = kc_warn_count();
		struct kc_warn_info wi;

		if (!run[i]) {
			ktap_result(&kt_ktap, KTAP_SKIP, t.name, "not selected");
			continue;
		}
		cases[i].fn(&t);
		if (!t.warns_expected && kc_warn_count() != warns_before) {
			kc_warn_get(&wi);
			kt_fail(&t, __FILE__, __LINE__, "unexpected WARN (%lu); first: %s",
				kc_warn_count() - warns_before, wi.first);
		}
		kc_warn_set_quiet(false);
		if (t.failures) {
			ktap_diag(&kt_ktap, "%s: %lu of %lu checks failed", t.name, t.failures,
				  t.checks);
			ktap_result(&kt_ktap, KTAP_FAIL, t.name, NULL);
		} else if (t.skipped) {
			ktap_result(&kt_ktap, KTAP_SKIP, t.name, "%s", t.skip_reason);
		} else if (!t.checks) {
			/* A case that checked nothing proves nothing. */
			ktap_diag(&kt_ktap, "%s: no check was made", t.name);
			ktap_result(&kt_ktap, KTAP_FAIL, t.name, NULL);
		} else {
			ktap_result(&kt_ktap, KTAP_PASS, t.name, "checks=%lu", t.checks);
		}
	}
	ktap_subtest_end(&kt_ktap, KTAP_PASS, NULL, NULL);
	ktap_end(&kt_ktap, NULL);
	free(run);
	return ktap_counts(&kt_ktap)->fail ? 1 : 0;
}
