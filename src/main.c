// SPDX-License-Identifier: GPL-2.0
/*
 * ./stress: parse the command line, then list, describe, or run each
 * selected scenario (once, or in rounds with fresh seeds for
 * --until-fail) and report. Exit: 0 pass, 1 fail, 2 usage, 3 internal,
 * 4 incomplete, 128 + signal (src/verdict.c).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/percpu_counter_tree.h>
#include <kcompat/kcompat.h>
#include <hpcc_api.h>
#include "cli.h"
#include "config.h"
#include "describe.h"
#include "engine.h"
#include "output.h"
#include "recorder.h"
#include "registry.h"
#include "replay.h"
#include "replay_explore.h"
#include "report.h"
#include "run.h"
#include "signals.h"
#include "threads.h"
#include "verdict.h"
#include "watchdog.h"
#include "mm/oom_select.h"
#include "mm/kcompact.h"

#ifndef HPCC_SOURCE
#define HPCC_SOURCE "unknown"
#endif

/* Which implementation serves each OOM selection (model or a kernel tree). */
static void print_oom_impls(void)
{
	int a;

	for (a = 0; a < OOM_NR_ALGOS; a++)
		printf("oom %s: %s\n", oom_algo_names[a], oom_impl_describe(oom_impl_of(a)));
}

static void list_scenarios(void)
{
	unsigned int i;

	for (i = 0; i < scenario_count(); i++)
		printf("%-20s %s\n", scenario_at(i)->name, scenario_at(i)->summary);
}

static void free_run(struct stress *s)
{
	stress_tally_free(&s->tally);
	free(s->res.sc_text);
	free(s->res.sc_json);
	if (!s->res.stalled) {	/* a stalled run's threads may still use these */
		recorder_free(s->setup.rec);
		free(s->threads);
	}
	free(s);
}

static void print_cpu_map(const struct stress_config *cfg)
{
	int cores[CPU_SETSIZE], n = stress_host_cores(cores, CPU_SETSIZE);
	FILE *out = report_human(cfg);
	const char *pfx = report_diag(cfg);
	unsigned int i;

	fprintf(out, "%sstress: %d host core(s); vcpu->core map:", pfx, n);
	for (i = 0; i < cfg->nr_cpus; i++) {
		if (i % 16 == 0)
			fprintf(out, "\n%sstress:  ", pfx);
		fprintf(out, " %u->%d", i, n > 0 ? cores[i % n] : -1);
	}
	fprintf(out, "\n%sstress: %u selector(s) unpinned; vCPU threads at nice %d\n", pfx,
		cfg->nr_selectors, stress_vcpu_nice(cfg, cfg->nr_selectors));
	fprintf(out, "%sstress: watchdog: stall timeout W=%.1fs, stop limit S=%.1fs\n", pfx,
		cfg->stall_timeout ? cfg->stall_timeout : stress_default_stall_timeout(cfg),
		stress_stop_limit(cfg));
}

static int run_all(struct stress_config *cfg)
{
	FILE *out = stdout;
	unsigned long long seed = cfg->seed;
	double t0 = stress_now();
	struct report_sink k = { .cfg = cfg, .out = out, .err = stderr, .t0 = t0 };
	unsigned int index = 0, i = 0, j, round = 0;
	int status = STRESS_EXIT_PASS, signo = 0;
	bool stop = false, stalled = false;

	if (report_sink_begin(&k, cfg->until_fail ? 0 : cfg->nr_scenarios))
		return STRESS_EXIT_INTERNAL;
	if (cfg->verbose)
		print_cpu_map(cfg);
	if (!stress_out_check(out, "stdout")) {
		status = STRESS_EXIT_INTERNAL;
		stop = true;
	}
	while (!stop) {
		for (i = 0; i < cfg->nr_scenarios && !stop; i++) {
			struct stress *s;
			double share = cfg->until_fail ? cfg->round : cfg->duration;
			int rc;

			/*
			 * --until-fail with a total: what is left is shared by the
			 * scenarios of this round still to run, and none gets less
			 * than its fair share of the total (or its --round): a late
			 * scenario overruns the total rather than not run. A round
			 * starts only with time left.
			 */
			if (cfg->until_fail && cfg->duration > 0) {
				double left = (cfg->duration - (stress_now() - t0)) /
					      (cfg->nr_scenarios - i);
				double fair = cfg->duration / cfg->nr_scenarios;

				if (left < fair)
					left = fair;
				if (left < share)
					share = left;
			}
			s = stress_run_new(&(struct run_id){
				.cfg = cfg, .sc = cfg->scenarios[i], .seed = seed,
				.duration = share, .index = index + 1, .summary = &k.sum });
			if (!s)
				return STRESS_EXIT_INTERNAL;
			rc = stress_run(s);
			status = stress_exit_worse(status, rc);
			index++;
			report_sink_run(&k, s);
			findings_collect(s);
			if (rc == STRESS_EXIT_FAIL && !s->res.stalled && !s->res.interrupted &&
			    replay_after_failure(s, report_human(cfg)))
				status = STRESS_EXIT_INTERNAL;
			if (s->res.interrupted)
				signo = stress_signalled;
			/* --until-fail goes on past a round with no verdict: it is no pass either. */
			if (s->res.interrupted || stress_signalled || rc != STRESS_EXIT_PASS)
				stop = (cfg->until_fail && rc != STRESS_EXIT_INCOMPLETE) ||
				       s->res.interrupted || stress_signalled || s->res.stalled ||
				       rc == STRESS_EXIT_INTERNAL;
			if (!stress_out_check(out, "stdout")) {
				status = STRESS_EXIT_INTERNAL;
				stop = true;
			}
			stalled |= s->res.stalled;
			free_run(s);
		}
		if (!cfg->until_fail || stop ||
		    (status != STRESS_EXIT_PASS && status != STRESS_EXIT_INCOMPLETE))
			break;
		if (cfg->duration > 0 && stress_now() - t0 >= cfg->duration)
			break;
		if (cfg->rounds && ++round >= cfg->rounds)
			break;
		seed = stress_mix(seed);
	}
	/* A signal between runs: the scenarios not started still get a result. */
	if (stress_signalled && !cfg->until_fail && i < cfg->nr_scenarios &&
	    !stress_out_failed()) {
		signo = stress_signalled;
		for (j = i; j < cfg->nr_scenarios; j++, index++)
			report_sink_not_run(&k, cfg->scenarios[j]);
	}
	/* Nothing stopped the first round, yet a scenario did not run: never a SUCCESS. */
	if (!signo && !stop && status == STRESS_EXIT_PASS && index < cfg->nr_scenarios) {
		fprintf(stderr, "stress: %u of %u scenario(s) never started\n",
			cfg->nr_scenarios - index, cfg->nr_scenarios);
		status = STRESS_EXIT_INTERNAL;
	}
	if (signo && status == STRESS_EXIT_PASS)
		status = STRESS_EXIT_SIGNAL(signo);
	if (findings_save(cfg))
		status = STRESS_EXIT_INTERNAL;
	/* The scenarios a signal kept from starting (none with --until-fail). */
	status = report_sink_end(&k, status, signo, cfg->scenarios + i,
				 signo && !cfg->until_fail ? cfg->nr_scenarios - i : 0);
	if (stalled)	/* threads still stuck somewhere: do not wait for them */
		_exit(stress_out_finish(status));
	return status;
}


static int stress_main(int argc, char **argv)
{
	static struct stress_config cfg;	/* the watchdog reads it until exit */
	enum stress_action act;

	if (stress_cli_parse(argc, argv, &cfg, &act))
		return STRESS_EXIT_USAGE;
	/* Before any RCU call; replay trials (children) inherit the flavor. */
	if (kc_rcu_set_flavor(cfg.rcu) || setenv(KC_RCU_FLAVOR_ENV, cfg.rcu, 1)) {
		fprintf(stderr, "stress: cannot select RCU flavor %s\n", cfg.rcu);
		return STRESS_EXIT_INTERNAL;
	}
	switch (act) {
	case ACT_HELP:
		stress_usage(stdout, &cfg);
		return 0;
	case ACT_VERSION:
		printf("stress (hpcc-stress) %s; hpcc source: %s; API: %s; NR_CPUS=%d; "
		       "built with %s\n", STRESS_VERSION, HPCC_SOURCE, HPCC_API_DESC, NR_CPUS,
		       __VERSION__);
		print_oom_impls();
		printf("compaction deferral: %s\n", defer_impl_describe());
		return 0;
	case ACT_LIST:
		list_scenarios();
		return 0;
	case ACT_LIST_INVARIANTS:
		stress_list_invariants(stdout);
		return 0;
	case ACT_DESCRIBE:
		if (cfg.known_file && known_load(&cfg, cfg.known_file))
			return STRESS_EXIT_USAGE;
		return stress_describe(&cfg);
	case ACT_RUN:
	case ACT_REPLAY:
	case ACT_SHRINK:
		break;
	}
	if (!cfg.nr_scenarios) {
		fprintf(stderr, "stress: no scenario is registered\n");
		return STRESS_EXIT_INTERNAL;
	}
	/* An explorer's schedule: the explorer runs it, before any output is opened. */
	if (act == ACT_REPLAY && replay_is_schedule(cfg.replay_file))
		return replay_run_schedule(&cfg);
	/* Every input and output file before the run: no verdict is printed for nothing. */
	if (cfg.known_file && known_load(&cfg, cfg.known_file))
		return STRESS_EXIT_USAGE;
	if (stress_outputs_prepare(&cfg) || findings_prepare(&cfg))
		return STRESS_EXIT_USAGE;
	stress_signals_install();
	if (stress_watchdog_start(&cfg))
		return STRESS_EXIT_INTERNAL;
	if (act == ACT_REPLAY)
		return stress_replay_main(&cfg);
	if (act == ACT_SHRINK)
		return stress_shrink_main(&cfg);
	if (kc_set_nr_cpu_ids(cfg.nr_cpus) || percpu_counter_tree_subsystem_init()) {
		fprintf(stderr, "stress: hpcc subsystem init failed for %u CPUs\n", cfg.nr_cpus);
		return STRESS_EXIT_INTERNAL;
	}
	kc_pcpu_set_ops(cfg.pcpu_ops);
	kc_set_cpu(0);
	kc_rcu_register_thread();
	return run_all(&cfg);
}

int main(int argc, char **argv)
{
	/*
	 * A buffer that holds any report between two checks, so that a write
	 * fails where it is checked, with its errno (stress_out_check).
	 */
	static char outbuf[1 << 16];

	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	/* Whatever ran: stdout is flushed and closed, and a failure is exit 3. */
	return stress_out_finish(stress_main(argc, argv));
}
