// SPDX-License-Identifier: GPL-2.0
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <kcompat/kcompat.h>
#include <linux/percpu_counter_tree.h>
#include "ktap.h"

static const char *const kt_class_names[KT_NR_CLASSES] = {
	[KT_WRONG_ANSWER] = "wrong-answer",
	[KT_CONTRACT] = "contract",
	[KT_CRASH] = "crash",
};

const char *kt_class_name(enum kt_class c)
{
	return c < KT_NR_CLASSES ? kt_class_names[c] : "?";
}

static void kt_vfail(struct kt *t, enum kt_class cls, const char *fn, const char *file,
		     int line, const char *fmt, va_list ap)
{
	t->class_failures[cls]++;
	if (fn && !t->first_fn[0])
		snprintf(t->first_fn, sizeof(t->first_fn), "%s", fn);
	/* Cap the noise of a broken case; the count stays exact. */
	if (t->failures++ >= 10)
		return;
	printf("    # class=%s fn=%s %s:%d: ", kt_class_name(cls), fn ? fn : "-", file, line);
	vprintf(fmt, ap);
	printf("\n");
}

void kt_fail(struct kt *t, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kt_vfail(t, KT_WRONG_ANSWER, NULL, file, line, fmt, ap);
	va_end(ap);
}

void kt_fail_class(struct kt *t, enum kt_class cls, const char *fn, const char *file,
		   int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kt_vfail(t, cls, fn, file, line, fmt, ap);
	va_end(ap);
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

/* CPU count of this process's one boot (0: not booted). */
static unsigned int kt_booted;

unsigned int kt_booted_cpus(void)
{
	return kt_booted;
}

bool kt_hpcc_setup(struct kt *t, unsigned int nr_cpus)
{
	t->checks++;
	if (kt_booted) {
		if (kt_booted == nr_cpus) {
			kc_set_cpu(0);
			return true;
		}
		kt_fail(t, __FILE__, __LINE__, "boot model: this process booted with %u CPUs; "
			"%u CPUs need their own process (kt_run_config)", kt_booted, nr_cpus);
		return false;
	}
	if (kc_set_nr_cpu_ids(nr_cpus)) {
		kt_fail(t, __FILE__, __LINE__, "kc_set_nr_cpu_ids(%u) failed", nr_cpus);
		return false;
	}
	kt_booted = nr_cpus;
	if (percpu_counter_tree_subsystem_init()) {
		kt_fail_class(t, KT_WRONG_ANSWER, "percpu_counter_tree_subsystem_init",
			      __FILE__, __LINE__, "subsystem init failed for %u CPUs", nr_cpus);
		return false;
	}
	kc_set_cpu(0);
	return true;
}

/* Seconds a case (or one configuration of it) may run; 0: no limit. */
static unsigned int kt_case_timeout(void)
{
	const char *e = getenv("KT_CASE_TIMEOUT");

	return e ? (unsigned int)strtoul(e, NULL, 10) : 900;
}

/* What a child sends back: its struct kt, whole. */
static bool kt_read_report(int fd, struct kt *r)
{
	size_t got = 0;
	ssize_t n;

	while (got < sizeof(*r)) {
		n = read(fd, (char *)r + got, sizeof(*r) - got);
		if (n <= 0)
			break;
		got += n;
	}
	return got == sizeof(*r);
}

/*
 * Fork; the child runs @body(@t, @arg) and reports @t back; the parent
 * waits. Returns the child's report in @r; a signal, a non-zero exit
 * (sanitizer) or a missing report becomes a KT_CRASH failure in @r.
 */
static void kt_fork(struct kt *t, struct kt *r, const char *what,
		    void (*body)(struct kt *t, void *arg), void *arg)
{
	int fd[2], status = 0;
	bool reported;
	pid_t pid;

	*r = (struct kt){ .name = t->name };
	fflush(stdout);
	fflush(stderr);
	if (pipe(fd) || (pid = fork()) < 0) {
		kt_fail_class(r, KT_CRASH, NULL, __FILE__, __LINE__, "%s: cannot fork", what);
		return;
	}
	if (!pid) {
		close(fd[0]);
		alarm(kt_case_timeout());
		body(r, arg);
		fflush(stdout);
		if (write(fd[1], r, sizeof(*r)) != sizeof(*r))
			_exit(3);
		close(fd[1]);
		exit(0);	/* exit, not _exit: sanitizers report at exit */
	}
	close(fd[1]);
	reported = kt_read_report(fd[0], r);
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0)
		;
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		kt_fail_class(r, KT_CRASH, r->first_fn[0] ? r->first_fn : NULL, __FILE__,
			      __LINE__, "%s: %s (signal %d)", what,
			      sig == SIGALRM ? "timed out (KT_CASE_TIMEOUT)" : strsignal(sig), sig);
	} else if (WEXITSTATUS(status)) {
		kt_fail_class(r, KT_CRASH, NULL, __FILE__, __LINE__,
			      "%s: exited with status %d (sanitizer report?)", what,
			      WEXITSTATUS(status));
	} else if (!reported) {
		kt_fail_class(r, KT_CRASH, NULL, __FILE__, __LINE__,
			      "%s: ended without reporting", what);
	}
}

struct kt_config {
	unsigned int nr_cpus;
	void (*fn)(struct kt *t, void *arg);
	void *arg;
};

static void kt_config_body(struct kt *t, void *arg)
{
	struct kt_config *c = arg;

	if (c->nr_cpus & KT_NO_BOOT)
		c->fn(t, c->arg);
	else if (kt_hpcc_setup(t, c->nr_cpus))
		c->fn(t, c->arg);
}

bool kt_run_config(struct kt *t, unsigned int nr_cpus,
		   void (*fn)(struct kt *t, void *arg), void *arg)
{
	struct kt_config c = { .nr_cpus = nr_cpus, .fn = fn, .arg = arg };
	unsigned int i;
	char what[64];
	struct kt r;

	if (kt_booted && (nr_cpus & KT_NO_BOOT || kt_booted != nr_cpus)) {
		kt_fail(t, __FILE__, __LINE__, "boot model: kt_run_config(%u CPUs) from a process "
			"already booted with %u CPUs", nr_cpus, kt_booted);
		return false;
	}
	snprintf(what, sizeof(what), "configuration %u CPUs%s", nr_cpus & ~KT_NO_BOOT,
		 nr_cpus & KT_NO_BOOT ? " (boot under test)" : "");
	kt_fork(t, &r, what, kt_config_body, &c);
	t->checks += r.checks;
	for (i = 0; i < ARRAY_SIZE(t->tally); i++)
		t->tally[i] += r.tally[i];
	t->failures += r.failures;
	for (i = 0; i < KT_NR_CLASSES; i++)
		t->class_failures[i] += r.class_failures[i];
	if (r.first_fn[0] && !t->first_fn[0])
		memcpy(t->first_fn, r.first_fn, sizeof(t->first_fn));
	if (r.warns_expected)
		t->warns_expected = true;
	if (r.skipped && !t->skipped) {
		t->skipped = true;
		memcpy(t->skip_reason, r.skip_reason, sizeof(t->skip_reason));
	}
	return !r.failures;
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

/* The class a failed case is counted under: the most severe it saw. */
static enum kt_class kt_case_class(const struct kt *t)
{
	if (t->class_failures[KT_CRASH])
		return KT_CRASH;
	if (t->class_failures[KT_WRONG_ANSWER])
		return KT_WRONG_ANSWER;
	return KT_CONTRACT;
}

static void kt_case_body(struct kt *t, void *arg)
{
	const struct kt_case *c = arg;
	unsigned long warns_before = kc_warn_count();
	struct kc_warn_info wi;

	c->fn(t);
	if (!t->warns_expected && kc_warn_count() != warns_before) {
		kc_warn_get(&wi);
		kt_fail(t, __FILE__, __LINE__, "unexpected WARN (%lu); first: %s",
			kc_warn_count() - warns_before, wi.first);
	}
	kc_warn_set_quiet(false);
}

int kt_run(const char *suite, const struct kt_case *cases, unsigned int nr_cases,
	   int argc, char **argv)
{
	unsigned int i, c, passed = 0, failed = 0, skipped = 0;
	unsigned int by_class[KT_NR_CLASSES] = { 0 };
	const char *only = argc > 1 ? argv[1] : NULL;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n# Subtest: %s\n1..%u\n", suite, nr_cases);
	for (i = 0; i < nr_cases; i++) {
		struct kt t = { .name = cases[i].name };

		if (only && strcmp(only, cases[i].name)) {
			printf("ok %u %s # SKIP not selected\n", i + 1, cases[i].name);
			skipped++;
			continue;
		}
		/* One process per case: the kernel boots once (AGREEMENTS B). */
		kt_fork(&t, &t, cases[i].name, kt_case_body, (void *)&cases[i]);
		t.name = cases[i].name;
		if (t.failures) {
			c = kt_case_class(&t);
			printf("    # %s: %lu of %lu checks failed\n", t.name,
			       t.failures, t.checks);
			printf("    # class=%s fn=%s\n", kt_class_name(c),
			       t.first_fn[0] ? t.first_fn : "-");
			printf("not ok %u %s\n", i + 1, t.name);
			by_class[c]++;
			failed++;
		} else if (t.skipped) {
			printf("ok %u %s # SKIP %s\n", i + 1, t.name, t.skip_reason);
			skipped++;
		} else if (!t.checks) {
			/* A case that checked nothing proves nothing. */
			printf("    # %s: no check was made\n", t.name);
			printf("not ok %u %s\n", i + 1, t.name);
			by_class[KT_WRONG_ANSWER]++;
			failed++;
		} else {
			printf("ok %u %s # checks=%lu\n", i + 1, t.name, t.checks);
			passed++;
		}
	}
	printf("# %s: %u passed, %u failed, %u skipped\n", suite, passed, failed, skipped);
	printf("# %s: failed by class: contract=%u wrong-answer=%u crash=%u\n", suite,
	       by_class[KT_CONTRACT], by_class[KT_WRONG_ANSWER], by_class[KT_CRASH]);
	return failed ? 1 : 0;
}
