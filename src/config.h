/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run configuration (cli.c fills it, every engine part reads it): the
 * limits, the exit statuses, the report formats and --inject/--stutter.
 */
#ifndef _STRESS_CONFIG_H
#define _STRESS_CONFIG_H

#include <stdbool.h>
#include <kcompat/kcompat.h>
#include "scenario.h"

#define STRESS_VERSION		"0.1"
#define STRESS_MAX_SCENARIOS	32
#define STRESS_MAX_SELECTORS	1024
#define STRESS_MAX_BATCH	(1UL << 24)
#define STRESS_MAX_FAILURES	16
#define STRESS_MAX_KEYS		32	/* distinct margin / soft names per run */
#define STRESS_STACK_SIZE	(64UL << 10)

/* Exit status. */
enum {
	STRESS_EXIT_PASS = 0,
	STRESS_EXIT_FAIL = 1,
	STRESS_EXIT_USAGE = 2,
	STRESS_EXIT_INTERNAL = 3,
	STRESS_EXIT_INCOMPLETE = 4,	/* the host starved the run: no verdict */
};

enum stress_report_fmt { REPORT_TEXT, REPORT_KTAP, REPORT_JSON };

/* --inject hop=P,delay=P,yield=P */
struct inject_spec {
	double hop, delay, yield;
	char text[96];		/* as given, for the reproducer */
};

/* --stutter off | DUR | MIN-MAX (seconds; seeded uniform in [min, max]) */
struct stutter_spec {
	double min, max;	/* 0, 0: off */
	char text[64];
};

struct stress_config {
	const char *argv0;
	unsigned int nr_cpus;
	unsigned int nr_selectors;
	unsigned long batch;
	unsigned long long seed;
	bool seed_given;
	bool selectors_given;
	double duration;	/* per scenario; 0: until interrupted */
	bool duration_given;
	double stat_interval;	/* 0: no progress lines */
	double stall_timeout;	/* 0: computed default */
	double round;		/* --until-fail: length of one scenario run */
	unsigned long long rounds;	/* --until-fail: at most this many; 0: no limit */
	double selector_duty;	/* fraction of time a selector may run */
	unsigned long long steps;	/* per vCPU; 0: unbounded */
	int vcpu_nice;		/* 0..19, or -1: auto */
	enum kc_pcpu_ops pcpu_ops;	/* --pcpu-ops */
	struct inject_spec inject;
	struct stutter_spec stutter;
	double hotplug;		/* --hotplug: P(a CPU changes state) per quiescent point */
	char hotplug_text[32];	/* as given, for the reproducer */
	enum stress_report_fmt report;
	const char *json_file;
	struct stress_out *json_out;	/* json_file, prepared before the run */
	bool until_fail;
	bool verbose;
	bool no_check;
	const char *rcu;	/* --rcu: kcompat's RCU flavor */
	/* Replay (src/replay*.c, src/serial.c; docs/regress.md). */
	const char *replay_file;	/* --replay FILE */
	const char *replay_out;		/* --replay-out FILE */
	struct stress_out *replay_sink;	/* replay_out, prepared before the run */
	const char *shrink_file;	/* --shrink FILE */
	unsigned int replay_search;	/* --replay-search N */
	const struct scenario *scenarios[STRESS_MAX_SCENARIOS];
	unsigned int nr_scenarios;
	/* Scenario options as given ("--name=value" ...), for the reproducer. */
	char scenario_args[1024];
	/* --known FILE, --findings-out FILE (known.c) */
	const char *known_file;
	struct stress_sig *known;
	unsigned int nr_known;
	const char *findings_file;
	struct stress_out *findings_out;
	/* --help SCENARIO, --help-markdown */
	const struct scenario *help_scenario;
	bool help_markdown;
};

/* Exit status of a run a signal interrupted without a failure: 128 + signal. */
#define STRESS_EXIT_SIGNAL(sig)	(128 + (sig))

#endif /* _STRESS_CONFIG_H */
