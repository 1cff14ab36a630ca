// SPDX-License-Identifier: GPL-2.0
/*
 * ktap-run: run test programs (unit-test binaries, tests/TIER/NAME.sh) and write
 * one KTAP document with each program as one nested test, through the
 * suite's one KTAP writer (lib/util/ktap.h). Behind scripts/run-tests.
 *
 *   ktap-run [--timeout SECONDS] [--log FILE] [--keep DIR] [--jobs N] [--times FILE]
 *            [--order FILE] PROGRAM...
 *
 * Each program's output is read back as KTAP: a unit binary's document
 * (one suite) becomes that suite, renumbered; a shell test's flat results
 * become a subtest named after the script. Whatever the program did, the
 * result is valid KTAP and counts what happened: results it planned but
 * never printed (a crash, a timeout) are reported "not ok ... # ERROR" or
 * "# TIMEOUT", a non-zero exit status or a malformed stream fails the
 * program, a program that printed no result is one failed test. Other
 * lines become diagnostics. The end: "# Totals: pass:P fail:F skip:S
 * total:T contract:C wrong-answer:W crash:X" (failures per class); exit
 * status 1 when something failed.
 *
 * --timeout: per program (default $TEST_TIMEOUT, else 1800; 0: none);
 * the program's process group gets SIGTERM, then SIGKILL 10 s later.
 * Each case of a unit binary has a sixth of that (KT_CASE_TIMEOUT, which
 * the runner sets unless it is set: 300 s, KUnit's own per-case limit),
 * so a case that never returns fails alone and the program goes on.
 * --log FILE: also write the document to FILE. --keep DIR: save each
 * program's own output as DIR/NAME.ktap (for tests/lib/ktap_validate.py).
 * --jobs N: run up to N programs at once (default $TEST_JOBS, else 1); the
 * document is the same as a serial run's, in the command line's order.
 * --times FILE (or $TEST_TIMES): append "NAME WALL CPU" per program as it
 * ends, in seconds, CPU being user+sys of it and its children (where make
 * check's time goes; docs/testing.md).
 * --order FILE: start the programs longest first, by the CPU times
 * FILE holds from the last run, then record this run's there (order.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "util/fail_class.h"
#include "util/ktap.h"
#include "order.h"

enum item_kind { IT_DIAG, IT_RESULT, IT_SUB };

struct node;

struct item {
	enum item_kind kind;
	char *text;			/* diagnostic (with its '#'), or result name */
	enum ktap_status st;		/* results and subtests */
	char *data;			/* after " # " (directive reason or data) */
	unsigned long num;		/* the number the program printed */
	bool missing;			/* a subtest that never printed its result */
	struct node *sub;
};

struct node {
	char *name;
	long plan;			/* -1: none */
	unsigned int indent;
	bool fresh;			/* no line since its version line */
	struct item *items;
	size_t nr_items, cap;
	unsigned long nr_results;
};

struct run {
	const char *path, *name;
	char *out;			/* everything it printed */
	int status;			/* waitpid status */
	bool timed_out;
	double secs, t0, kill_at;
	double cpu;			/* user+sys, its waited-for children's too */
	pid_t pid;			/* while running */
	int fd;				/* its output */
	bool started, done;
	char why[160];			/* how it ended, when not well */
	char **case_names;		/* from --list, for unreported cases */
	unsigned int nr_case_names;
};

static struct ktap K;
static long timeout_s = 1800;
/* --times: one line per program, "NAME WALL CPU" in seconds, as each ends. */
static FILE *times_file;

/*
 * Failures per class (AGREEMENTS A) for the closing totals: a case's own
 * "# class=NAME" diagnostic before its "not ok" names it (wrong-answer
 * when there is none, as plain kt_fail); what the runner itself reports
 * (unreported cases, signals, timeouts, exit status) is a crash.
 */
enum { C_CONTRACT = FAIL_CONTRACT, C_WRONG_ANSWER = FAIL_WRONG_ANSWER, C_CRASH = FAIL_CRASH,
       NR_CLASSES = NR_FAIL_CLASSES };
static unsigned long by_class[NR_CLASSES];

static int class_of(const char *diag)
{
	const char *p = strstr(diag, "class=");
	int c;

	for (c = 0; p && c < NR_CLASSES; c++)
		if (!strncmp(p + 6, fail_class_name(c), strlen(fail_class_name(c))))
			return c;
	return -1;
}

static void result(enum ktap_status st, int cls, const char *name, const char *data)
{
	if (st != KTAP_PASS && st != KTAP_SKIP)
		by_class[cls < 0 ? C_WRONG_ANSWER : cls]++;
	ktap_result(&K, st, name, data ? "%s" : NULL, data);
}

/* Close a subtest; a failed one whose cases passed is one more (crash) failure. */
static void subtest_end(enum ktap_status st, const char *data)
{
	const struct ktap_counts *c = ktap_counts(&K);

	if (st != KTAP_PASS && st != KTAP_SKIP && !c->fail && c->pass)
		by_class[C_CRASH]++;
	ktap_subtest_end(&K, st, NULL, data ? "%s" : NULL, data);
}
static int errors_in_program;		/* malformed output seen while emitting */

static void *xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p) {
		fprintf(stderr, "ktap-run: out of memory\n");
		exit(3);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	return strcpy(xmalloc(strlen(s) + 1), s);
}

static struct item *add_item(struct node *n, enum item_kind kind)
{
	if (n->nr_items == n->cap) {
		n->cap = n->cap ? 2 * n->cap : 16;
		n->items = realloc(n->items, n->cap * sizeof(*n->items));
		if (!n->items) {
			fprintf(stderr, "ktap-run: out of memory\n");
			exit(3);
		}
	}
	memset(&n->items[n->nr_items], 0, sizeof(n->items[0]));
	n->items[n->nr_items].kind = kind;
	return &n->items[n->nr_items++];
}

static struct node *new_node(unsigned int indent)
{
	struct node *n = xmalloc(sizeof(*n));

	n->plan = -1;
	n->indent = indent;
	n->fresh = true;
	return n;
}

static void free_node(struct node *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->nr_items; i++) {
		free(n->items[i].text);
		free(n->items[i].data);
		free_node(n->items[i].sub);
	}
	free(n->items);
	free(n->name);
	free(n);
}

/* --- reading a program's output back --- */

static bool is_version(const char *t)
{
	return !strcmp(t, "KTAP version 1") || !strncmp(t, "TAP version ", 12) ||
	       !strncmp(t, "KTAP version ", 13);
}

static bool parse_plan(const char *t, long *n)
{
	char *end;

	if (strncmp(t, "1..", 3) || t[3] < '0' || t[3] > '9')
		return false;
	*n = strtol(t + 3, &end, 10);
	return !*end;
}

/* "ok N name # DIRECTIVE data": fills @it; false when not a result line. */
static bool parse_result(const char *t, struct item *it)
{
	bool ok;
	const char *p, *hash;
	char *end, *name;
	size_t len;

	if (!strncmp(t, "ok ", 3)) {
		ok = true;
		p = t + 3;
	} else if (!strncmp(t, "not ok ", 7)) {
		ok = false;
		p = t + 7;
	} else {
		return false;
	}
	if (*p < '0' || *p > '9')
		return false;
	it->num = strtoul(p, &end, 10);
	p = end;
	if (*p && *p != ' ')
		return false;
	while (*p == ' ')
		p++;
	if (*p == '-' && p[1] == ' ')	/* TAP's "ok 1 - name" */
		p += 2;
	hash = strchr(p, '#');
	len = hash ? (size_t)(hash - p) : strlen(p);
	while (len && p[len - 1] == ' ')
		len--;
	name = xmalloc(len + 1);
	memcpy(name, p, len);
	it->text = name;
	it->st = ok ? KTAP_PASS : KTAP_FAIL;
	if (hash) {
		const char *d = hash + 1;

		while (*d == ' ')
			d++;
		if (!strncmp(d, "SKIP", 4) && (!d[4] || d[4] == ' ')) {
			it->st = KTAP_SKIP;
			d += 4;
		} else if (!ok && !strncmp(d, "TIMEOUT", 7) && (!d[7] || d[7] == ' ')) {
			it->st = KTAP_TIMEOUT;
			d += 7;
		} else if (!ok && !strncmp(d, "ERROR", 5) && (!d[5] || d[5] == ' ')) {
			it->st = KTAP_ERROR;
			d += 5;
		}
		while (*d == ' ')
			d++;
		it->data = xstrdup(d);
	}
	return true;
}

/* Our own statistics and totals lines are recomputed, not copied. */
static bool is_stats(const char *t)
{
	const char *p = strstr(t, ": pass:");

	return t[0] == '#' && p && strstr(p, " fail:") && strstr(p, " total:");
}

static void add_diag(struct node *n, const char *t)
{
	struct item *it = add_item(n, IT_DIAG);

	if (t[0] == '#') {
		it->text = xstrdup(t);
	} else {
		it->text = xmalloc(strlen(t) + 3);
		sprintf(it->text, "# %s", t);
	}
}

/* Close the innermost open node into its parent's items. */
static void close_node(struct node **stack, unsigned int *depth, const struct item *res)
{
	struct node *done = stack[--*depth], *parent = stack[*depth - 1];
	struct item *it = add_item(parent, IT_SUB);

	it->sub = done;
	parent->nr_results++;
	if (res) {
		it->text = res->text;
		it->data = res->data;
		it->st = res->st;
		it->num = res->num;
	} else {
		it->missing = true;
		it->st = KTAP_ERROR;
	}
}

#define MAX_NEST	(KTAP_MAX_DEPTH - 2)

static struct node *read_ktap(char *out)
{
	struct node *stack[MAX_NEST + 1];
	unsigned int depth = 0;
	char *line, *save = NULL;

	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned int ind = 0;
		struct node *cur;
		struct item res = { 0 };
		char *t = line;
		size_t len = strlen(line);
		long plan;

		if (len && line[len - 1] == '\r')
			line[--len] = 0;
		while (*t == ' ')
			t++, ind++;
		if (!depth) {
			stack[depth++] = new_node(is_version(t) ? ind : 0);
			if (is_version(t))
				continue;
		}
		if (!*t)
			continue;
		cur = stack[depth - 1];
		if (is_version(t) && ind > cur->indent && depth <= MAX_NEST) {
			stack[depth++] = new_node(ind);
			continue;
		}
		if (!strncmp(t, "# Subtest: ", 11)) {
			if (ind == cur->indent && cur->fresh && depth > 1 && !cur->name) {
				cur->name = xstrdup(t + 11);
				continue;
			}
			if (ind > cur->indent && depth <= MAX_NEST) {	/* no version line */
				stack[depth] = new_node(ind);
				stack[depth++]->name = xstrdup(t + 11);
				continue;
			}
		}
		if (parse_plan(t, &plan) && ind == cur->indent && cur->plan < 0 &&
		    !cur->nr_results) {
			cur->plan = plan;
			cur->fresh = false;
			continue;
		}
		cur->fresh = false;
		if (parse_result(t, &res)) {
			if (ind < cur->indent && depth > 1) {
				/* Closes the nested tests deeper than @ind; the last one is its. */
				while (depth > 2 && stack[depth - 2]->indent > ind)
					close_node(stack, &depth, NULL);
				close_node(stack, &depth, &res);
				continue;
			}
			{
				struct item *it = add_item(cur, IT_RESULT);

				*it = res;
				it->kind = IT_RESULT;
				cur->nr_results++;
			}
			continue;
		}
		if (!is_stats(t))
			add_diag(cur, t);
	}
	if (!depth)
		return new_node(0);
	while (depth > 1)
		close_node(stack, &depth, NULL);
	return stack[0];
}

/* --- writing it as part of the aggregate --- */

static const char *case_name(const struct run *r, unsigned long num)
{
	static char buf[32];

	if (num >= 1 && num <= r->nr_case_names)
		return r->case_names[num - 1];
	snprintf(buf, sizeof(buf), "case_%lu", num);
	return buf;
}

static unsigned long emit_plan(const struct node *n)
{
	return n->plan > (long)n->nr_results ? (unsigned long)n->plan : n->nr_results;
}

static void emit_node(const struct run *r, const struct node *n, bool top);

static void emit_items(const struct run *r, const struct node *n, bool top)
{
	unsigned long i, expect = 0;
	int cls = -1;		/* from the diagnostics before a result */
	char why[256];

	for (i = 0; i < n->nr_items; i++) {
		const struct item *it = &n->items[i];

		if (it->kind == IT_DIAG) {
			ktap_diag_block(&K, it->text);
			if (class_of(it->text) >= 0)
				cls = class_of(it->text);
			continue;
		}
		if (it->num != ++expect) {
			ktap_diag(&K, "ktap-run: %s: result number %lu, expected %lu", r->name,
				  it->num, expect);
			errors_in_program++;
		}
		if (it->kind == IT_RESULT) {
			result(it->st, cls, it->text, it->data);
			cls = -1;
			continue;
		}
		ktap_subtest_begin(&K, it->sub->name ? it->sub->name :
				   it->text && *it->text ? it->text : "unnamed", emit_plan(it->sub));
		emit_node(r, it->sub, false);
		snprintf(why, sizeof(why), "no result line: %s", r->why);
		if (it->missing)
			subtest_end(r->timed_out ? KTAP_TIMEOUT : KTAP_ERROR, why);
		else
			subtest_end(it->st, it->data);
		cls = -1;
	}
	(void)top;
}

/* The results of @n, then the planned ones it never printed. */
static void emit_node(const struct run *r, const struct node *n, bool top)
{
	unsigned long i;

	if (n->name && n->plan >= 0 && n->nr_results > (unsigned long)n->plan) {
		ktap_diag(&K, "ktap-run: %s: %lu results, the plan says %ld", r->name,
			  n->nr_results, n->plan);
		errors_in_program++;
	}
	char why[256];

	emit_items(r, n, top);
	snprintf(why, sizeof(why), "not reported: %s", r->why);
	for (i = n->nr_results + 1; (long)i <= n->plan; i++)
		result(r->timed_out ? KTAP_TIMEOUT : KTAP_ERROR, C_CRASH,
		       top ? case_name(r, i) : "unreported", why);
}

static bool has_leaf(const struct node *n)
{
	return n->nr_results || n->plan > 0;
}

static void emit_program(struct run *r)
{
	struct node *root = read_ktap(r->out);
	struct node *entry = root;
	const struct item *sub = NULL;
	enum ktap_status st = KTAP_PASS;
	size_t i, nr_sub = 0;

	/* A document holding one suite: that suite is the program's test. */
	for (i = 0; i < root->nr_items; i++) {
		if (root->items[i].kind == IT_SUB) {
			sub = &root->items[i];
			nr_sub++;
		}
	}
	if (nr_sub == 1 && root->nr_results == 1 && root->plan <= 1 && sub->sub->name)
		entry = sub->sub;
	else
		sub = NULL;
	errors_in_program = 0;
	if (!has_leaf(entry)) {
		/* Nothing to nest: the program itself is one failed test. */
		for (i = 0; i < root->nr_items; i++)
			if (root->items[i].kind == IT_DIAG)
				ktap_diag_block(&K, root->items[i].text);
		char why[256];

		snprintf(why, sizeof(why), "no test result; %s", r->why);
		result(r->timed_out ? KTAP_TIMEOUT : KTAP_ERROR, C_CRASH, r->name, why);
		free_node(root);
		return;
	}
	ktap_subtest_begin(&K, sub ? entry->name : r->name, emit_plan(entry));
	emit_node(r, entry, true);
	if (sub) {	/* the document's own lines around its suite */
		for (i = 0; i < root->nr_items; i++)
			if (root->items[i].kind == IT_DIAG)
				ktap_diag_block(&K, root->items[i].text);
		if (sub->missing) {
			ktap_diag(&K, "ktap-run: %s: no result line for the suite", r->name);
			errors_in_program++;
		} else if (sub->st != KTAP_PASS && sub->st != KTAP_SKIP) {
			st = KTAP_FAIL;
		}
	}
	if (r->timed_out) {
		ktap_diag(&K, "class=crash program=%s timeout=%lds", r->name, timeout_s);
		subtest_end(KTAP_TIMEOUT, r->why);
	} else if (WIFSIGNALED(r->status)) {
		ktap_diag(&K, "class=crash program=%s signal=%d", r->name, WTERMSIG(r->status));
		subtest_end(KTAP_ERROR, r->why);
	} else if (WEXITSTATUS(r->status) && !ktap_counts(&K)->fail) {
		ktap_diag(&K, "ktap-run: %s: %s, with no failed case", r->name, r->why);
		subtest_end(KTAP_ERROR, r->why);
	} else if (errors_in_program) {
		subtest_end(KTAP_ERROR, "malformed KTAP output");
	} else {
		subtest_end(st, NULL);
	}
	free_node(root);
}

/* --- running --- */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static char *slurp(int fd)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = xmalloc(cap);
	ssize_t n;

	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += n;
		if (cap - len < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				exit(3);
		}
	}
	buf[len] = 0;
	/* A NUL byte in the output would cut it short: make it visible. */
	for (size_t i = 0; i < len; i++)
		if (!buf[i])
			buf[i] = '?';
	return buf;
}

static bool is_sh(const char *path)
{
	size_t n = strlen(path);

	return n > 3 && !strcmp(path + n - 3, ".sh");
}

/* Start @argv with stdout+stderr into @fd, in its own process group. */
static void start(struct run *r, char *const argv[], int fd)
{
	pid_t pid;

	r->t0 = now();
	r->kill_at = 0;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(r->why, sizeof(r->why), "fork: %s", strerror(errno));
		r->status = 3 << 8;
		r->pid = 0;
		return;
	}
	if (!pid) {
		setpgid(0, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], argv);
		fprintf(stderr, "ktap-run: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	r->pid = pid;
}

/* Has @r ended? Enforces the timeout on the way. */
static bool ended(struct run *r)
{
	struct rusage ru;
	pid_t w;

	if (!r->pid)
		return true;
	w = wait4(r->pid, &r->status, WNOHANG, &ru);
	if (w == r->pid || (w < 0 && errno != EINTR)) {
		if (w < 0)
			r->status = 3 << 8;
		/* Leftovers of the program's group (background jobs) do not outlive it. */
		kill(-r->pid, SIGKILL);
		if (w == r->pid)
			r->cpu = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
				 (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
		r->pid = 0;
		r->secs = now() - r->t0;
		return true;
	}
	if (timeout_s && !r->timed_out && now() - r->t0 > timeout_s) {
		r->timed_out = true;
		kill(-r->pid, SIGTERM);
		r->kill_at = now() + 10;
	}
	if (r->kill_at && now() > r->kill_at) {
		kill(-r->pid, SIGKILL);
		r->kill_at = 0;
	}
	return false;
}

static void nap(void)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

/* Run @argv with stdout+stderr into @fd, within the timeout. */
static void spawn(struct run *r, char *const argv[], int fd)
{
	start(r, argv, fd);
	while (!ended(r))
		nap();
}

static void describe_end(struct run *r)
{
	if (r->timed_out)
		snprintf(r->why, sizeof(r->why), "timed out after %lds", timeout_s);
	else if (WIFSIGNALED(r->status))
		snprintf(r->why, sizeof(r->why), "killed by signal %d (%s)", WTERMSIG(r->status),
			 strsignal(WTERMSIG(r->status)));
	else if (WIFEXITED(r->status) && WEXITSTATUS(r->status))
		snprintf(r->why, sizeof(r->why), "exit status %d", WEXITSTATUS(r->status));
	else if (!r->why[0])
		snprintf(r->why, sizeof(r->why), "exit status 0");
}

/* A unit binary names its cases (--list): unreported ones keep their names. */
static void list_cases(struct run *r)
{
	char *argv[] = { (char *)r->path, "--list", NULL };
	struct run l = { .path = r->path };
	char tmpl[] = "/tmp/ktap-run-XXXXXX", *p, *save = NULL;
	int fd;

	if (is_sh(r->path) || strncmp(r->name, "test_", 5))
		return;
	fd = mkstemp(tmpl);
	if (fd < 0)
		return;
	unlink(tmpl);
	spawn(&l, argv, fd);
	l.out = slurp(fd);
	close(fd);
	if (WIFEXITED(l.status) && !WEXITSTATUS(l.status)) {
		for (p = strtok_r(l.out, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
			r->case_names = realloc(r->case_names,
						(r->nr_case_names + 1) * sizeof(char *));
			if (!r->case_names)
				exit(3);
			r->case_names[r->nr_case_names++] = xstrdup(p);
		}
	}
	free(l.out);
}

static void run_start(struct run *r)
{
	char *argv[3];
	char tmpl[] = "/tmp/ktap-run-XXXXXX";

	r->fd = mkstemp(tmpl);
	if (r->fd < 0) {
		fprintf(stderr, "ktap-run: mkstemp: %s\n", strerror(errno));
		exit(3);
	}
	unlink(tmpl);
	if (is_sh(r->path)) {
		argv[0] = "bash";
		argv[1] = (char *)r->path;
		argv[2] = NULL;
	} else {
		argv[0] = (char *)r->path;
		argv[1] = NULL;
	}
	start(r, argv, r->fd);
}

static void run_finish(struct run *r, const char *keep)
{
	r->out = slurp(r->fd);
	close(r->fd);
	describe_end(r);
	if (keep) {
		char path[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s.ktap", keep, r->name);
		f = fopen(path, "w");
		if (!f || fputs(r->out, f) < 0 || fclose(f)) {
			fprintf(stderr, "ktap-run: cannot write %s\n", path);
			exit(3);
		}
	}
	if (times_file) {
		fprintf(times_file, "%s %.2f %.2f\n", r->name, r->secs, r->cpu);
		fflush(times_file);
	}
	if (r->timed_out || !WIFEXITED(r->status) || WEXITSTATUS(r->status))
		list_cases(r);
	r->done = true;
}

/* --log: the document goes to stdout and to the log. */
static FILE *log_file;


static ssize_t tee_write(void *cookie, const char *buf, size_t size)
{
	(void)cookie;
	if (fwrite(buf, 1, size, stdout) != size || fflush(stdout))
		return -1;
	/* Flushed at once: a forked test must not inherit a buffered copy. */
	if (log_file && (fwrite(buf, 1, size, log_file) != size || fflush(log_file)))
		return -1;
	return size;
}

/* The unit binaries' per-case limit (tests/lib/ktap.c), from the program's. */
static void case_limit(void)
{
	char v[24];

	if (!timeout_s || getenv("KT_CASE_TIMEOUT"))
		return;
	snprintf(v, sizeof(v), "%ld", timeout_s / 6 ? timeout_s / 6 : 1);
	setenv("KT_CASE_TIMEOUT", v, 1);
}

static void usage(void)
{
	fprintf(stderr, "usage: ktap-run [--timeout SECONDS] [--log FILE] [--keep DIR] [--jobs N] "
		"[--times FILE] [--order FILE] PROGRAM...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *keep = NULL, *order = NULL, *env = getenv("TEST_TIMEOUT");
	const char *jobs_env = getenv("TEST_JOBS");
	long jobs = 1;
	int nr, started = 0, finished = 0, emitted = 0;
	struct run *runs;
	cookie_io_functions_t io = { .write = tee_write };
	FILE *out = stdout;
	char extra[128];
	int i, first, *perm;
	const char **names;
	double *wall, *cpu;
	char *end;

	if (env && *env)
		timeout_s = strtol(env, NULL, 10);
	env = getenv("TEST_TIMES");
	if (env && *env && !(times_file = fopen(env, "ae"))) {
		fprintf(stderr, "ktap-run: cannot write %s: %s\n", env, strerror(errno));
		return 2;
	}
	/* A runner the tests start (tests/unit/runner_selfcheck.sh) keeps out of it. */
	unsetenv("TEST_TIMES");
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
		if (!strcmp(argv[i], "--"))  {
			i++;
			break;
		}
		if (i + 1 >= argc)
			usage();
		if (!strcmp(argv[i], "--timeout"))
			timeout_s = strtol(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--log"))
			log_file = fopen(argv[++i], "we");
		else if (!strcmp(argv[i], "--keep"))
			keep = argv[++i];
		else if (!strcmp(argv[i], "--times"))
			times_file = fopen(argv[++i], "ae");
		else if (!strcmp(argv[i], "--jobs"))
			jobs_env = argv[++i];
		else if (!strcmp(argv[i], "--order"))
			order = argv[++i];
		else
			usage();
		if (!strcmp(argv[i - 1], "--times") && !times_file) {
			fprintf(stderr, "ktap-run: cannot write %s: %s\n", argv[i], strerror(errno));
			return 2;
		}
		if (!strcmp(argv[i - 1], "--log") && !log_file) {
			fprintf(stderr, "ktap-run: cannot write %s: %s\n", argv[i], strerror(errno));
			return 2;
		}
	}
	case_limit();
	if (jobs_env && *jobs_env) {
		errno = 0;
		jobs = strtol(jobs_env, &end, 10);
		if (errno || *end || jobs < 1 || jobs > 64) {
			fprintf(stderr, "ktap-run: --jobs: want a number from 1 to 64\n");
			return 2;
		}
	}
	if (keep && mkdir(keep, 0777) && errno != EEXIST) {
		fprintf(stderr, "ktap-run: cannot create %s: %s\n", keep, strerror(errno));
		return 2;
	}
	if (log_file) {
		out = fopencookie(NULL, "w", io);
		if (!out)
			return 3;
		setvbuf(out, NULL, _IOLBF, 0);
	}
	first = i;
	nr = argc - first;
	runs = calloc(nr ? nr : 1, sizeof(*runs));
	perm = calloc(nr ? nr : 1, sizeof(*perm));
	names = calloc(nr ? nr : 1, sizeof(*names));
	wall = calloc(nr ? nr : 1, sizeof(*wall));
	cpu = calloc(nr ? nr : 1, sizeof(*cpu));
	if (!runs || !perm || !names || !wall || !cpu)
		return 3;
	for (i = 0; i < nr; i++) {
		char *base = strrchr(argv[first + i], '/'), *name;

		name = xstrdup(base ? base + 1 : argv[first + i]);
		if (is_sh(name))
			name[strlen(name) - 3] = 0;
		runs[i].path = argv[first + i];
		runs[i].name = names[i] = name;
		perm[i] = i;
	}
	if (order)
		order_plan(order, names, nr, perm);
	ktap_begin(&K, out, nr);
	/*
	 * Up to @jobs programs at once, started in @perm's order; the
	 * document keeps the command line's order, each program emitted as
	 * soon as those before it are.
	 */
	while (emitted < nr) {
		bool moved = false;

		for (; started < nr && started - finished < jobs; started++) {
			runs[perm[started]].started = true;
			run_start(&runs[perm[started]]);
		}
		for (i = emitted; i < nr; i++) {
			if (!runs[i].started || runs[i].done || !ended(&runs[i]))
				continue;
			run_finish(&runs[i], keep);
			finished++;
			moved = true;
		}
		for (; emitted < nr && runs[emitted].done; emitted++) {
			struct run *r = &runs[emitted];
			unsigned int k;

			emit_program(r);
			wall[emitted] = r->secs;
			cpu[emitted] = r->cpu;
			for (k = 0; k < r->nr_case_names; k++)
				free(r->case_names[k]);
			free(r->case_names);
			free(r->out);
		}
		if (!moved && emitted < nr)
			nap();
	}
	if (order && order_save(order, names, wall, cpu, nr))
		fprintf(stderr, "ktap-run: cannot write %s: %s\n", order, strerror(errno));
	for (i = 0; i < nr; i++)
		free((char *)names[i]);
	free(names);
	free(wall);
	free(cpu);
	free(perm);
	free(runs);
	snprintf(extra, sizeof(extra), FAIL_CLASS_TOTALS, FAIL_CLASS_TOTALS_ARGS(by_class));
	ktap_end(&K, extra);
	if (fflush(out) || (log_file && fclose(log_file))) {
		fprintf(stderr, "ktap-run: write error: %s\n", strerror(errno));
		return 3;
	}
	return ktap_counts(&K)->fail ? 1 : 0;
}
