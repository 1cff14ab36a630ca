// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <kcompat/kcompat.h>
#include <linux/percpu_counter_tree.h>
#include "ktap.h"

void kt_fail(struct kt *t, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	/* Cap the noise of a broken case; the count stays exact. */
	if (t->failures++ >= 10)
		return;
	printf("    # %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
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

void kt_rng_seed(struct kt_rng *r, unsigned long long seed)
{
	r->s = seed ^ 0x9e3779b97f4a7c15ULL;
}

unsigned long long kt_rng_next(struct kt_rng *r)
{
	unsigned long long z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

unsigned long long kt_rng_below(struct kt_rng *r, unsigned long long n)
{
	return n ? kt_rng_next(r) % n : 0;
}

int kt_run(const char *suite, const struct kt_case *cases, unsigned int nr_cases,
	   int argc, char **argv)
{
	unsigned int i, passed = 0, failed = 0, skipped = 0;
	const char *only = argc > 1 ? argv[1] : NULL;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n# Subtest: %s\n1..%u\n", suite, nr_cases);
	for (i = 0; i < nr_cases; i++) {
		struct kt t = { .name = cases[i].name };
		unsigned long warns_before = kc_warn_count();
		struct kc_warn_info wi;

		if (only && strcmp(only, cases[i].name)) {
			printf("ok %u %s # SKIP not selected\n", i + 1, cases[i].name);
			skipped++;
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
			printf("    # %s: %lu of %lu checks failed\n", t.name,
			       t.failures, t.checks);
			printf("not ok %u %s\n", i + 1, t.name);
			failed++;
		} else if (t.skipped) {
			printf("ok %u %s # SKIP %s\n", i + 1, t.name, t.skip_reason);
			skipped++;
		} else if (!t.checks) {
			/* A case that checked nothing proves nothing. */
			printf("    # %s: no check was made\n", t.name);
			printf("not ok %u %s\n", i + 1, t.name);
			failed++;
		} else {
			printf("ok %u %s # checks=%lu\n", i + 1, t.name, t.checks);
			passed++;
		}
	}
	printf("# %s: %u passed, %u failed, %u skipped\n", suite, passed, failed, skipped);
	return failed ? 1 : 0;
}
