// SPDX-License-Identifier: GPL-2.0
/*
 * Searching and shrinking serial reproducers. Every candidate runs in a
 * fresh child (/proc/self/exe --replay A --replay-out B): the library's
 * global state (nr_cpu_ids, a broken tree after a failure) never leaks
 * from one candidate into the next, and a crash or a hang (alarm) of a
 * mutant is an outcome, not the end of the search.
 *  - after a failed concurrent run: try up to --replay-search schedule
 *    seeds (and preemption rates) serially until one fails; write the file;
 *  - --shrink FILE: fewer CPUs, fewer injections, fewer operations, while
 *    the same invariant still fails; print the smallest reproducer.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <kcompat/kcompat.h>
#include "config.h"
#include "output.h"
#include "replay.h"
#include "report.h"
#include "run.h"
#include "signals.h"

#define TRIAL_TIMEOUT	120	/* seconds per candidate */
#define SHRINK_TRIALS	400	/* candidates per --shrink */

static char tmpdir_buf[512];

static const char *tmpdir(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(tmpdir_buf, sizeof(tmpdir_buf), "%s", t && *t ? t : "/tmp");
	return tmpdir_buf;
}

int replay_trial(const struct replay *rp, struct replay *result, double timeout)
{
	char in[600], out[620], err[512];
	int fd, status, rc = STRESS_EXIT_INTERNAL;
	pid_t pid;

	snprintf(in, sizeof(in), "%s/stress-trial-XXXXXX", tmpdir());
	fd = mkstemp(in);
	if (fd < 0)
		return STRESS_EXIT_INTERNAL;
	close(fd);
	snprintf(out, sizeof(out), "%s.out", in);
	if (replay_save(in, rp))
		goto done;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		goto done;
	if (!pid) {
		int null = open("/dev/null", O_RDWR);
		sigset_t none;

		/* No orphan: the child dies with its parent, however the parent ends. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(STRESS_EXIT_INTERNAL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGALRM, SIG_DFL);
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		alarm((unsigned int)(timeout > 1 ? timeout : 1));	/* survives exec */
		execl("/proc/self/exe", "stress", "--replay", in, "--replay-out", out,
		      (char *)NULL);
		_exit(STRESS_EXIT_INTERNAL);
	}
	stress_set_child(pid);
	/*
	 * A signal (EINTR here) ends the search: the child is killed and its
	 * outcome is none, not a "crash"; the flag stays set so that every
	 * caller's loop stops too.
	 */
	for (;;) {
		pid_t r;

		if (stress_signalled)
			kill(pid, SIGKILL);
		r = waitpid(pid, &status, 0);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			kill(pid, SIGKILL);
			stress_set_child(0);
			goto done;
		}
	}
	stress_set_child(0);
	if (stress_signalled)
		goto done;
	if (WIFSIGNALED(status)) {
		/* Crash or hang: an outcome of this candidate, with its caps unknown. */
		if (replay_copy(result, rp))
			goto done;
		result->has_result = true;
		result->failed = true;
		result->fail_step = 0;
		snprintf(result->invariant, sizeof(result->invariant), "%s",
			 WTERMSIG(status) == SIGALRM ? "timeout" : "crash");
		snprintf(result->expect, sizeof(result->expect), "%s", result->invariant);
		rc = 0;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == STRESS_EXIT_USAGE) {
		rc = STRESS_EXIT_USAGE;		/* the child refused the file */
	} else if (WIFEXITED(status) && WEXITSTATUS(status) <= STRESS_EXIT_FAIL &&
		   !replay_load(out, result, err, sizeof(err))) {
		/* The exit status carries the verdict; the outcome line the details. */
		result->has_result = true;
		result->failed = WEXITSTATUS(status) == STRESS_EXIT_FAIL;
		if (result->failed && !result->invariant[0])
			snprintf(result->invariant, sizeof(result->invariant), "?");
		rc = 0;
	}
done:
	remove(in);
	remove(out);
	return rc;
}

/*
 * Does candidate @c fail with @inv? On success *best becomes the
 * tightened file. @c is freed either way.
 */
static bool still_fails(struct replay *c, const char *inv, struct replay *best,
			unsigned int *trials)
{
	struct replay res;
	int rc;

	(*trials)++;
	rc = replay_trial(c, &res, TRIAL_TIMEOUT);
	replay_free(c);
	if (rc)
		return false;
	if (!res.failed || strcmp(res.invariant, inv)) {
		replay_free(&res);
		return false;
	}
	replay_free(best);
	*best = res;
	return true;
}

static unsigned long long candidate_seed(unsigned long long seed, unsigned int i)
{
	return i ? stress_mix(seed ^ (0x5eedULL * i)) : seed;
}

static const double preempt_rates[] = { 0.05, 0.2, 0.01, 0.5 };

/*
 * The default name never replaces a file (an earlier failure's replay of
 * the same seed, or anything else of the user's): the first free one of
 * stress-replay-SEED.txt, stress-replay-SEED-2.txt, ... The line that
 * reports the failure names it.
 */
static void default_replay_path(char *path, size_t size, unsigned long long seed)
{
	struct stat st;
	unsigned int n;

	snprintf(path, size, "stress-replay-%llu.txt", seed);
	for (n = 2; n < 1000 && !lstat(path, &st); n++)
		snprintf(path, size, "stress-replay-%llu-%u.txt", seed, n);
}

int replay_after_failure(struct stress *s, FILE *out)
{
	const struct stress_config *cfg = s->run.cfg;
	const char *want = s->tally.nr_failures ? s->tally.failures[0].invariant : "";
	const char *pfx = report_diag(cfg);
	struct stress_out dflt = { .fd = -1 }, *sink = cfg->replay_sink;
	struct replay rp, res, found;
	char path[1024];
	unsigned int i, search = cfg->replay_search;
	bool have = false, match = false;
	int rc = 0;

#ifdef KC_TSAN
	search = 0;	/* the serial mode needs fibers: not in TSan builds */
#endif

	replay_init(&rp);
	snprintf(rp.scenario, sizeof(rp.scenario), "%s", s->run.sc->name);
	/* Only this scenario's options: the file's keys say the rest. */
	replay_args_for(cfg->scenario_args, s->run.sc, rp.args, sizeof(rp.args));
	rp.seed = s->run.seed;
	rp.nr_cpus = cfg->nr_cpus;
	rp.batch = cfg->batch;
	rp.nr_selectors = cfg->nr_selectors;
	rp.hop = cfg->inject.hop;
	rp.hotplug = cfg->hotplug;
	/*
	 * A check costs O(cpus) (truth windows, precise sums): past 64 CPUs
	 * the selectors get 16 / cpus of the steps, about 16 checks per
	 * round of operations, so that operations fill the schedule.
	 */
	if (rp.nr_cpus > 64)
		rp.selector_share = 16.0 / rp.nr_cpus;
	snprintf(rp.expect, sizeof(rp.expect), "%s", want);
	if (cfg->replay_out)
		snprintf(path, sizeof(path), "%s", cfg->replay_out);
	else
		default_replay_path(path, sizeof(path), s->run.seed);
	memset(&found, 0, sizeof(found));
	/* A stall or a crash of a thread has no serial counterpart to look for. */
	for (i = 0; i < search && strcmp(want, "watchdog") &&
	     !stress_signalled; i++) {
		rp.sched_seed = candidate_seed(s->run.seed, i);
		rp.preempt = preempt_rates[i % 4];
		if (replay_trial(&rp, &res, TRIAL_TIMEOUT))
			continue;
		if (!res.failed) {
			replay_free(&res);
			continue;
		}
		match = !strcmp(res.invariant, want);
		if (have)
			replay_free(&found);
		found = res;
		have = true;
		if (match)
			break;
	}
	if (have) {
		snprintf(found.origin, sizeof(found.origin), "concurrent %s failure of seed %llu "
			 "(invariant %s); serial schedule %u of %u tried fails %s%s",
			 s->run.sc->name, s->run.seed, want, i < search ? i + 1 : i, search,
			 match ? "the same invariant" : "another invariant: ",
			 match ? "" : found.invariant);
	} else {
		found = rp;
		snprintf(found.origin, sizeof(found.origin), "concurrent %s failure of seed %llu "
			 "(invariant %s); NOT reproduced serially by %u schedule(s)",
			 s->run.sc->name, s->run.seed, want, i);
	}
	if (!sink) {
		/* The default name is a convenience: a refusal is told, not a failure. */
		if (!stress_out_prepare(&dflt, path))
			sink = &dflt;
	}
	if (!sink) {
		rc = 0;
	} else if (replay_save_out(sink, &found)) {
		/* A file asked for (and prepared before the run) is an output that failed. */
		rc = cfg->replay_out ? -1 : 0;
	} else if (have) {
		fprintf(out, "%sstress: replay file %s: the serial schedule fails %s at step %lu "
			"(%lu ops); rerun: %s --replay %s; shrink: %s --shrink %s\n", pfx, path,
			found.invariant, found.fail_step, replay_total_ops(&found), cfg->argv0, path,
			cfg->argv0, path);
	} else {
		fprintf(out, "%sstress: replay file %s: %s (the file records the configuration "
			"only)\n", pfx, path, stress_signalled ? "serial search interrupted" :
			!strcmp(want, "watchdog") ? "a stall has no serial counterpart" :
			search ? "no serial schedule reproduced the failure" :
			"no serial search made");
	}
	if (have)
		replay_free(&found);
	stress_out_release(&dflt);
	stress_out_flush(out);
	return rc;
}

/* --- shrinking --- */

static void shrink_note(const char *what, const struct replay *b)
{
	fprintf(stderr, "stress: shrink: %s -> cpus=%u ops=%lu steps=%lu hops=%lu "
		"preempts=%lu\n", what, b->nr_cpus, replay_total_ops(b), b->steps, b->hops,
		b->preempts);
}

static void shrink_cpus(struct replay *best, const char *inv, unsigned long steps,
			unsigned int seeds, unsigned int *trials)
{
	static const unsigned int cands[] = { 1, 2, 3, 4, 6, 8, 12, 16, 32, 64, 128, 256,
					      512, 1024, 2048 };
	struct replay c;
	unsigned int i, k;

	for (i = 0; i < sizeof(cands) / sizeof(cands[0]); i++) {
		if (cands[i] >= best->nr_cpus)
			return;
		for (k = 0; k < seeds && *trials < SHRINK_TRIALS && !stress_signalled; k++) {
			if (replay_copy(&c, best))
				return;
			replay_free(&c);
			c.nr_cpus = cands[i];
			c.steps = steps;
			c.sched_seed = candidate_seed(best->sched_seed, k);
			if (still_fails(&c, inv, best, trials)) {
				shrink_note("fewer CPUs", best);
				return;
			}
		}
	}
}

/* Lower one injection probability as far as the failure allows. */
static void shrink_prob(struct replay *best, const char *inv, bool hop, unsigned int *trials)
{
	double lo = 0, hi = hop ? best->hop : best->preempt;
	struct replay c;
	int iter;

	for (iter = 0; iter < 8 && hi > 0 && *trials < SHRINK_TRIALS && !stress_signalled;
	     iter++) {
		double p = iter ? (lo + hi) / 2 : 0;

		if (replay_copy(&c, best))
			return;
		*(hop ? &c.hop : &c.preempt) = p;
		if (still_fails(&c, inv, best, trials)) {
			hi = p;
			if (!p)
				break;
		} else {
			lo = p;
		}
	}
	shrink_note(hop ? "fewer migrations" : "fewer preemptions", best);
}

static void shrink_ops(struct replay *best, const char *inv, unsigned int *trials)
{
	unsigned int n = best->nr_cpus, chunk, i, j;
	unsigned long lo, hi, mid;
	struct replay c;

	if (!best->ops)
		return;
	/* Whole CPUs out, in halves, quarters, ... */
	for (chunk = n / 2 ? n / 2 : 1; chunk >= 1; chunk /= 2) {
		for (i = 0; i < n && *trials < SHRINK_TRIALS && !stress_signalled; i += chunk) {
			bool any = false;

			for (j = i; j < i + chunk && j < n; j++)
				any |= best->ops[j] != 0;
			if (!any || replay_copy(&c, best))
				continue;
			for (j = i; j < i + chunk && j < n; j++)
				c.ops[j] = 0;
			still_fails(&c, inv, best, trials);
		}
		if (chunk == 1)
			break;
	}
	shrink_note("fewer CPUs taking part", best);
	/* Then the fewest operations per remaining CPU (binary search). */
	for (i = 0; i < n && best->ops; i++) {
		lo = 0;
		hi = best->ops[i];
		while (lo + 1 < hi && *trials < SHRINK_TRIALS && !stress_signalled) {
			mid = lo + (hi - lo) / 2;
			if (replay_copy(&c, best))
				return;
			c.ops[i] = mid;
			if (still_fails(&c, inv, best, trials))
				hi = best->ops[i];
			else
				lo = mid;
		}
	}
	shrink_note("fewer operations", best);
}

int stress_shrink_main(const struct stress_config *cli)
{
	struct stress_out min = { .fd = -1 }, *sink = cli->replay_sink;
	struct replay rp, best;
	unsigned int trials = 0, seeds = cli->replay_search ? cli->replay_search : 1;
	unsigned long steps;
	char err[512], path[1100], inv[64];
	int rc;

#ifdef KC_TSAN
	fprintf(stderr, "stress: --shrink is not supported in ThreadSanitizer builds "
		"(its trials replay with fibers); use a plain or ASan build\n");
	return STRESS_EXIT_USAGE;
#endif
	if (replay_load(cli->shrink_file, &rp, err, sizeof(err))) {
		if (stress_signalled)	/* a FIFO's wait for its writer, interrupted */
			return stress_signal_status();
		fprintf(stderr, "stress: %s\n", err);
		return STRESS_EXIT_USAGE;
	}
	/* Fewer CPUs may need a longer schedule to get there. */
	steps = rp.steps * 4 + 1000;
	if (steps < rp.steps)
		steps = rp.steps;
	memset(&best, 0, sizeof(best));
	rc = replay_trial(&rp, &best, TRIAL_TIMEOUT);
	if (rc && stress_signalled) {
		fprintf(stderr, "stress: shrink: interrupted before %s was tried\n",
			cli->shrink_file);
		replay_free(&rp);
		return stress_signal_status();
	}
	if (rc || !best.has_result || !best.failed) {
		if (rc == STRESS_EXIT_USAGE)
			fprintf(stderr, "stress: shrink: %s: './stress --replay' refuses it\n",
				cli->shrink_file);
		else if (rc)
			fprintf(stderr, "stress: shrink: %s: the replay of the file did not run\n",
				cli->shrink_file);
		else
			fprintf(stderr, "stress: shrink: %s does not fail when replayed: nothing to "
				"shrink\n", cli->shrink_file);
		replay_free(&rp);
		replay_free(&best);
		/* A file that does not fail is not a shrink input: a usage error. */
		return rc == STRESS_EXIT_INTERNAL ? rc : STRESS_EXIT_USAGE;
	}
	trials = 1;
	snprintf(inv, sizeof(inv), "%s", best.invariant);
	fprintf(stderr, "stress: shrink: %s fails %s at step %lu; shrinking (at most %d "
		"candidates)\n", cli->shrink_file, inv, best.fail_step, SHRINK_TRIALS);
	shrink_note("start", &best);
	shrink_cpus(&best, inv, steps, seeds, &trials);
	shrink_prob(&best, inv, false, &trials);
	shrink_prob(&best, inv, true, &trials);
	shrink_ops(&best, inv, &trials);
	if (sink) {
		snprintf(path, sizeof(path), "%s", cli->replay_out);
	} else {
		snprintf(path, sizeof(path), "%s.min", cli->shrink_file);
		if (!stress_out_prepare(&min, path))
			sink = &min;
	}
	snprintf(best.origin, sizeof(best.origin), "shrunk from %s (%u candidates%s): cpus %u -> "
		 "%u, ops %lu -> %lu, steps %lu -> %lu", cli->shrink_file, trials,
		 stress_signalled ? ", interrupted" : "", rp.nr_cpus,
		 best.nr_cpus, replay_total_ops(&rp), replay_total_ops(&best), rp.steps,
		 best.steps);
	if (!sink || replay_save_out(sink, &best)) {
		stress_out_release(&min);
		replay_free(&rp);
		replay_free(&best);
		return STRESS_EXIT_INTERNAL;
	}
	printf("stress: shrink: %s (%s, %u candidates tried): cpus=%u ops=%lu "
	       "steps=%lu hops=%lu preempts=%lu invariant=%s\n", stress_signalled ?
	       "interrupted; smallest reproducer so far" : "smallest reproducer", path, trials,
	       best.nr_cpus, replay_total_ops(&best), best.steps, best.hops, best.preempts, inv);
	replay_write(stdout, &best);
	printf("stress: reproduce: %s --replay %s\n", cli->argv0, path);
	stress_out_release(&min);
	replay_free(&rp);
	replay_free(&best);
	return stress_signalled ? stress_signal_status() : STRESS_EXIT_PASS;
}
