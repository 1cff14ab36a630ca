// SPDX-License-Identifier: GPL-2.0
/*
 * ./stress --replay FILE: load the file (src/replay_file.c), run it
 * serially, report, and with --replay-out write the file tightened to
 * the failure.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/percpu_counter_tree.h>
#include <kcompat/kcompat.h>
#include "cli.h"
#include "config.h"
#include "engine.h"
#include "output.h"
#include "recorder.h"
#include "registry.h"
#include "replay.h"
#include "report.h"
#include "run.h"
#include "signals.h"
#include "verdict.h"

/* The configuration @rp describes, through the ordinary option parser. */
int replay_to_config(const struct stress_config *cli, const struct replay *rp,
		     struct stress_config *cfg)
{
	char *argv[16 + REPLAY_MAX_ARGS], buf[5][32], args[sizeof(rp->args)];
	enum stress_action act;
	int argc = 0, n;

	argv[argc++] = (char *)cli->argv0;
	argv[argc++] = "--scenario";
	argv[argc++] = (char *)rp->scenario;
	snprintf(buf[0], sizeof(buf[0]), "%u", rp->nr_cpus);
	snprintf(buf[1], sizeof(buf[1]), "%lu", rp->batch);
	snprintf(buf[2], sizeof(buf[2]), "%u", rp->nr_selectors);
	snprintf(buf[3], sizeof(buf[3]), "%llu", rp->seed);
	argv[argc++] = "--cpus";
	argv[argc++] = buf[0];
	argv[argc++] = "--batch";
	argv[argc++] = buf[1];
	argv[argc++] = "--selectors";
	argv[argc++] = buf[2];
	argv[argc++] = "--seed";
	argv[argc++] = buf[3];
	n = replay_args_argv(rp->args, args, sizeof(args), argv + argc, REPLAY_MAX_ARGS);
	if (n < 0)
		return -1;
	argc += n;
	argv[argc] = NULL;
	if (stress_cli_parse(argc, argv, cfg, &act))
		return -1;
	/* The file's keys, not its 'args', size everything (replay_parse checks). */
	if (act != ACT_RUN || cfg->nr_scenarios != 1 || cfg->nr_cpus != rp->nr_cpus ||
	    cfg->batch != rp->batch || cfg->nr_selectors != rp->nr_selectors ||
	    cfg->seed != rp->seed) {
		fprintf(stderr, "stress: internal error: the replay configuration differs from "
			"the file's keys\n");
		return -1;
	}
	cfg->argv0 = cli->argv0;
	cfg->rcu = cli->rcu;
	cfg->report = cli->report;
	cfg->json_file = cli->json_file;
	cfg->verbose = cli->verbose;
	cfg->stall_timeout = cli->stall_timeout;
	cfg->stat_interval = 0;
	cfg->duration = 0;
	snprintf(cfg->inject.text, sizeof(cfg->inject.text), "serial");
	snprintf(cfg->stutter.text, sizeof(cfg->stutter.text), "%lu-%lu-steps",
		 rp->stutter_min, rp->stutter_max);
	cfg->hotplug = rp->hotplug;
	snprintf(cfg->hotplug_text, sizeof(cfg->hotplug_text), "%.17g", rp->hotplug);
	if (!rp->hotplug)
		snprintf(cfg->hotplug_text, sizeof(cfg->hotplug_text), "off");
	return 0;
}

static void free_stress(struct stress *s)
{
	stress_tally_free(&s->tally);
	free(s->res.sc_text);
	free(s->res.sc_json);
	recorder_free(s->setup.rec);
	free(s->threads);
	free(s);
}

static bool tsan_build(void)
{
#ifdef KC_TSAN
	return true;
#else
	return false;
#endif
}

/* The "replay outcome" line: what the file's schedule did. */
static void outcome_line(FILE *f, const struct stress *s, const struct replay *rp,
			 const struct replay *out)
{
	bool other = rp->expect[0] && strcmp(rp->expect, out->invariant);

	fprintf(f, "%sstress: replay outcome: %s%s%s at step %lu of %lu; ops=%lu hops=%lu "
		"preempts=%lu quiescent=%lu%s%s%s\n", report_diag(s->run.cfg),
		out->failed ? "FAIL" : s->res.interrupted ? "INTERRUPTED" : "PASS",
		out->failed ? " invariant=" : "", out->invariant, out->fail_step, rp->steps,
		replay_total_ops(out), out->hops, out->preempts, out->quiescent,
		other ? " (expected invariant " : "", other ? rp->expect : "", other ? ")" : "");
}

int stress_replay_main(const struct stress_config *cli)
{
	static struct stress_config cfg;
	struct replay rp, out;
	struct stress *s;
	struct report_sink k = { .cfg = &cfg, .out = stdout, .err = stderr,
				 .t0 = stress_now(), .replay = true };
	FILE *human;
	char err[512];
	int rc, signo;

	if (tsan_build()) {
		fprintf(stderr, "stress: --replay is not supported in ThreadSanitizer builds "
			"(fibers); use a plain or ASan build\n");
		return STRESS_EXIT_USAGE;
	}
	if (replay_load(cli->replay_file, &rp, err, sizeof(err))) {
		if (stress_signalled)	/* a FIFO's wait for its writer, interrupted */
			return stress_signal_status();
		fprintf(stderr, "stress: %s\n", err);
		return STRESS_EXIT_USAGE;
	}
	if (replay_to_config(cli, &rp, &cfg)) {
		replay_free(&rp);
		return STRESS_EXIT_INTERNAL;	/* replay_parse() accepted what the CLI refuses */
	}
	cfg.json_out = cli->json_out;	/* prepared before the run */
	if (kc_set_nr_cpu_ids(cfg.nr_cpus) || percpu_counter_tree_subsystem_init()) {
		fprintf(stderr, "stress: hpcc subsystem init failed for %u CPUs\n", cfg.nr_cpus);
		return STRESS_EXIT_INTERNAL;
	}
	kc_set_cpu(0);
	kc_rcu_register_thread();
	human = report_human(&cfg);
	if (report_sink_begin(&k, 1))
		return STRESS_EXIT_INTERNAL;
	fprintf(human, "%sstress: replay %s: serial, sched-seed=%llu steps=%lu preempt=%g hop=%g "
		"selector-share=%g ops-cap=%s\n", report_diag(&cfg),
		cli->replay_file, rp.sched_seed, rp.steps, rp.preempt, rp.hop, rp.selector_share,
		rp.ops ? "per-cpu" : "none");
	if (!stress_out_check(stdout, "stdout"))
		return STRESS_EXIT_INTERNAL;	/* nobody would see the outcome */
	s = stress_run_new(&(struct run_id){ .cfg = &cfg, .sc = scenario_find(rp.scenario),
					     .seed = rp.seed });
	if (!s)
		return STRESS_EXIT_INTERNAL;
	if (replay_copy(&out, &rp))
		return STRESS_EXIT_INTERNAL;
	rc = serial_run(s, &out);
	signo = s->res.interrupted ? stress_signalled : 0;
	/* The status is the verdict's, as the reports tell it. */
	if (rc == STRESS_EXIT_INTERNAL)
		stress_gave_up(s);
	rc = stress_verdict_exit(stress_verdict_of(s), signo);
	stress_set_reproducer(s, "%s --replay %s", cfg.argv0, cli->replay_file);
	outcome_line(human, s, &rp, &out);
	report_sink_run(&k, s);
	rc = report_sink_end(&k, rc, signo, NULL, 0);
	/* An interrupted schedule is no outcome: its caps would replay the prefix only. */
	if (cli->replay_out && signo) {
		fprintf(stderr, "stress: replay interrupted: %s not written\n", cli->replay_out);
	} else if (cli->replay_out) {
		snprintf(out.origin, sizeof(out.origin), "replay of %s%s", cli->replay_file,
			 out.failed ? ", tightened to the failure" : "");
		if (replay_save_out(cli->replay_sink, &out))
			rc = STRESS_EXIT_INTERNAL;
	}
	replay_free(&rp);
	replay_free(&out);
	free_stress(s);
	return rc;
}
