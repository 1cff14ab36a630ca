// SPDX-License-Identifier: GPL-2.0
#include <fnmatch.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <kcompat/kcompat.h>
#include <linux/percpu_counter_tree.h>
#include "ktap.h"

struct ktap kt_ktap;

const char *kt_class_name(enum kt_class c)
{
	return fail_class_name(c);
}

static void kt_vfail(struct kt *t, enum kt_class cls, const char *fn, const char *file,
		     int line, const char *fmt, va_list ap)
{
	char msg[2048];

	t->class_failures[cls]++;
	if (fn && !t->first_fn[0])
		snprintf(t->first_fn, sizeof(t->first_fn), "%s", fn);
	/* Cap the noise of a broken case; the count stays exact. */
	if (t->failures++ >= 10)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	ktap_diag(&kt_ktap, "class=%s fn=%s %s:%d: %s", kt_class_name(cls), fn ? fn : "-",
		  file, line, msg);
}

void kt_diag(struct kt *t, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	(void)t;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ktap_diag(&kt_ktap, "%s", msg);
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
	const char *hang = getenv("KT_HANG_CASE");
	unsigned long warns_before = kc_warn_count(), frees_before = kc_warn_bad_frees();
	struct kc_warn_info wi;

	/* The runner's own test: a case that never returns. */
	while (hang && !strcmp(hang, c->name))
		pause();
	c->fn(t);
	/* An invalid free corrupts memory: class crash, expected WARNs or not. */
	if (!t->warns_expected && kc_warn_bad_frees() != frees_before) {
		kc_warn_get(&wi);
		kt_fail_class(t, KT_CRASH, "free", __FILE__, __LINE__,
			      "invalid free (%lu); first: %s", wi.bad_frees - frees_before,
			      wi.first_bad_free);
	} else if (!t->warns_expected && kc_warn_count() != warns_before) {
		kc_warn_get(&wi);
		kt_fail(t, __FILE__, __LINE__, "unexpected WARN (%lu); first: %s",
			kc_warn_count() - warns_before, wi.first);
	}
	kc_warn_set_quiet(false);
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
	unsigned int by_class[KT_NR_CLASSES] = { 0 };
	bool *run = calloc(nr_cases + 1, sizeof(*run));
	unsigned int i, c;
	char extra[96];

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

		if (!run[i]) {
			ktap_result(&kt_ktap, KTAP_SKIP, t.name, "not selected");
			continue;
		}
		/* One process per case: the kernel boots once (AGREEMENTS B). */
		kt_fork(&t, &t, cases[i].name, kt_case_body, (void *)&cases[i]);
		t.name = cases[i].name;
		if (t.failures) {
			c = kt_case_class(&t);
			ktap_diag(&kt_ktap, "%s: %lu of %lu checks failed", t.name, t.failures,
				  t.checks);
			ktap_diag(&kt_ktap, "class=%s fn=%s", kt_class_name(c),
				  t.first_fn[0] ? t.first_fn : "-");
			ktap_result(&kt_ktap, KTAP_FAIL, t.name, NULL);
			by_class[c]++;
		} else if (t.skipped) {
			ktap_result(&kt_ktap, KTAP_SKIP, t.name, "%s", t.skip_reason);
		} else if (!t.checks) {
			/* A case that checked nothing proves nothing. */
			ktap_diag(&kt_ktap, "%s: no check was made", t.name);
			ktap_result(&kt_ktap, KTAP_FAIL, t.name, NULL);
			by_class[KT_WRONG_ANSWER]++;
		} else {
			ktap_result(&kt_ktap, KTAP_PASS, t.name, "checks=%lu", t.checks);
		}
	}
	ktap_diag(&kt_ktap, "%s: failed by class: contract=%u wrong-answer=%u crash=%u", suite,
		  by_class[KT_CONTRACT], by_class[KT_WRONG_ANSWER], by_class[KT_CRASH]);
	ktap_subtest_end(&kt_ktap, KTAP_PASS, NULL, NULL);
	/* The closing totals carry the failures per class (AGREEMENTS A). */
	snprintf(extra, sizeof(extra), FAIL_CLASS_TOTALS, FAIL_CLASS_TOTALS_ARGS(by_class));
	ktap_end(&kt_ktap, extra);
	free(run);
	return ktap_counts(&kt_ktap)->fail ? 1 : 0;
}
