/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Engine internals shared by the files of src/ (not by scenarios, which
 * see only scenario.h): the run configuration, the per-run state, and the
 * entry points of each engine part.
 */
#ifndef _STRESS_STRESS_H
#define _STRESS_STRESS_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <kcompat/kcompat.h>
#include <sys/types.h>
#include "scenario.h"
#include "shape/hpcc_shape.h"
#include "util/ktap.h"
#include "known.h"

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

/* Parsing helpers: 0, or -1 with a reason in @err. */
int stress_parse_ulong(const char *s, unsigned long long min, unsigned long long max,
		       unsigned long long *out, char *err, size_t errlen);
int stress_parse_duration(const char *s, double *out, char *err, size_t errlen);
int stress_parse_inject(const char *s, struct inject_spec *out, char *err, size_t errlen);
int stress_parse_stutter(const char *s, struct stutter_spec *out, char *err, size_t errlen);
int stress_parse_hotplug(const char *s, double *p, char *text, size_t textlen, char *err,
			 size_t errlen);
void stress_format_duration(double secs, char *buf, size_t len);
/* @s for a message: bytes outside printable ASCII as \xNN, a newline as \n. */
const char *stress_escape(const char *s, char *buf, size_t len);
bool stress_printable(const char *s);

/* cli.c: parse argv. Returns -1 after printing usage errors (exit 2). */
enum stress_action { ACT_RUN, ACT_LIST, ACT_HELP, ACT_VERSION, ACT_DESCRIBE, ACT_REPLAY,
		     ACT_SHRINK, ACT_LIST_INVARIANTS };
int stress_cli_parse(int argc, char **argv, struct stress_config *cfg,
		     enum stress_action *act);
/* The engine's option rows, ended by a row without a name. */
const struct stress_opt *stress_engine_opts(void);
void stress_usage(FILE *out, const struct stress_config *cfg);

/*
 * output.c: checked output. Each failure prints "stress: cannot write
 * PATH: strerror" once; the process then exits 3 (stress_out_finish).
 */
bool stress_out_check(FILE *f, const char *path);	/* fflush + ferror: false on failure */
void stress_out_flush(FILE *f);		/* fflush; checked for stdout */
int stress_out_write(FILE *f, const char *path, const void *buf, size_t len);	/* 0 or -1 */
int stress_out_close(FILE *f, const char *path);	/* check + fclose: 0 or -1 */
/*
 * An output file (output.c): prepare before the run (0, or -1 after one
 * line: exit 2), then begin / write / commit once or more (-1 after one
 * line: exit 3), release at the end.
 */
struct stress_out {
	const char *path;	/* as given, for messages */
	char *target;		/* regular or new: replaced by rename; NULL: in place */
	int fd;			/* in place: opened before the run */
	mode_t mode;		/* of the file replaced */
	uid_t uid;		/* its owner and group, kept too */
	gid_t gid;
	bool keep_mode;
	FILE *f;
};
int stress_out_prepare(struct stress_out *o, const char *path);
FILE *stress_out_begin(struct stress_out *o);
int stress_out_commit(struct stress_out *o);
int stress_out_save(struct stress_out *o, const void *buf, size_t len);	/* begin+write+commit */
void stress_out_release(struct stress_out *o);
/* --json FILE and --replay-out FILE prepared into @cfg: 0, or -1 after one line (exit 2). */
int stress_outputs_prepare(struct stress_config *cfg);
bool stress_out_failed(void);
int stress_out_finish(int status);	/* close stdout: @status, or 3 after any failure */
/* Exit status of a run a signal interrupted without a failure: 128 + signal. */
#define STRESS_EXIT_SIGNAL(sig)	(128 + (sig))

/* registry.c */
unsigned int scenario_count(void);
const struct scenario *scenario_at(unsigned int i);
const struct scenario *scenario_find(const char *name);
/* invariants.c: the engine's invariants, and @name's declaration by @sc or the engine. */
const struct stress_invariant *stress_engine_invariants(void);
const struct stress_invariant *stress_invariant_find(const struct scenario *sc,
						     const char *name);
void stress_list_invariants(FILE *out);
/* Every scenario of the build, hidden ones too (scenario_declare()); NULL past the end. */
const struct scenario *scenario_declared_at(unsigned int i);

/* describe.c */
int stress_describe(const struct stress_config *cfg);


/* One tracked key (margin or soft event). */
struct stress_key {
	const char *name;
	atomic_ulong count;		/* checks (margins) or events (soft) */
	double worst, used, bound;	/* margins, under @lock */
	_Atomic double worst_fast;	/* lock-free pre-test */
};

struct stress_failure {
	char invariant[64];
	int cls;		/* enum stress_class */
	int cpu;
	char msg[512];
	char *excerpt;		/* flight-recorder dump (malloc) */
};

/* Per-thread engine state (virtual CPU or selector). */
struct stress_thread {
	struct stress *s;
	pthread_t tid;
	unsigned int id;		/* CPU number, or selector index */
	bool selector;
	atomic_bool started;		/* release: the fields above are set */
	int core;			/* host core it is pinned to, -1: none */
	atomic_ulong progress;		/* steps done */
	atomic_int state;		/* enum thread_state */
	atomic_int os_tid;		/* gettid(), once running (watchdog) */
	/* watchdog bookkeeping (watchdog thread only) */
	unsigned long seen;
	double seen_at;
} __attribute__((aligned(64)));

/* TS_OFFLINE: a vCPU thread parked while its CPU is offline (--hotplug). */
enum thread_state { TS_NEW, TS_RUN, TS_STEP, TS_PARKED, TS_EXITED, TS_OFFLINE };

/* What the controller is doing (watchdog reports). */
enum stress_phase { PH_IDLE, PH_SETUP, PH_START, PH_RUN, PH_STUTTER, PH_STOP, PH_FINAL,
		    PH_SERIAL };

struct flight_recorder;

struct stress {
	const struct stress_config *cfg;
	const struct scenario *sc;
	struct hpcc_shape shape;
	unsigned long long seed;	/* this run's seed */
	double duration;		/* this run's duration */
	void *priv;

	atomic_bool stop;
	atomic_bool failed;

	/* threads and phases */
	struct stress_thread *threads;	/* nr_cpus vCPUs, then the selectors */
	unsigned int nr_threads;
	/*
	 * No lock: the words marked futex are slept on (threads.c), so that
	 * a start or a resume wakes every worker at once instead of handing
	 * one mutex from worker to worker (under host load each hand-off
	 * waits for a time slice: 258 of them made a stutter last 30 s).
	 */
	atomic_uint go;			/* futex: 1 once the workers may run */
	atomic_bool park_req;
	atomic_uint park_gen;		/* futex: +1 at every resume */
	atomic_uint nr_started;		/* workers created (set before go) */
	atomic_uint nr_parked;
	atomic_uint nr_exited;
	atomic_uint nr_vcpus_done;	/* vCPUs that did --steps */
	struct stress_rng hp_rng;	/* hotplug.c: the controller's seeded choices */
	atomic_uint ctl_seq;		/* futex: +1 when a worker wakes the controller */
	int ctl_tid;			/* the controller's thread id (watchdog) */
	int vcpu_nice;			/* vCPU threads' nice value */

	/* accounting */
	atomic_ulong checks;
	atomic_ulong quiescent;
	struct stress_key margins[STRESS_MAX_KEYS];
	atomic_uint nr_margins;
	struct stress_key softs[STRESS_MAX_KEYS];
	atomic_uint nr_softs;
	pthread_mutex_t key_lock;

	/* failures */
	pthread_mutex_t fail_lock;
	struct stress_failure failures[STRESS_MAX_FAILURES];
	unsigned int nr_failures;	/* recorded */
	unsigned long nr_fail_events;	/* including unrecorded */
	struct stress_found found[STRESS_MAX_FOUND];	/* by signature (known.c) */
	unsigned int nr_found;
	bool internal_error;
	bool stalled;
	bool interrupted;
	unsigned int index;		/* 1-based position in the report (KTAP) */
	const struct stress_summary *summary;	/* the runs before this one, or NULL */
	char reproducer[2048];

	struct flight_recorder *rec;
	unsigned long warn_base;

	/* watchdog (watchdog.c): what the controller publishes */
	double deadline;		/* absolute stress_now(); 0: none */
	atomic_int phase;		/* enum stress_phase */
	_Atomic double wd_fired_at;	/* when the watchdog failed the run; 0: not */
	_Atomic double t0;		/* the threads run from here (elapsed, ops/s) */

	/* results */
	double elapsed;			/* from the first worker step ("go") */
	double startup;			/* creating the threads, before "go" */
	bool starved;			/* no verdict: a starved run, or one whose threads outlasted it */
	char incomplete_why[128];	/* why no verdict, for the reports; "": starved */
	double park_time;		/* waiting for every thread to park */
	double quiescent_time;		/* in quiescent() */
	unsigned long ops;
	bool skipped;			/* checking off, or skip_why */
	const char *skip_why;		/* the scenario's unavailable reason */
	char *sc_text, *sc_json;	/* scenario reports, taken before teardown */
};

/* hotplug.c: --hotplug at quiescent points (every worker parked) */
void stress_hotplug_begin(struct stress *s);
void stress_hotplug_step(struct stress *s);
void stress_hotplug_end(struct stress *s);

/* engine.c */
/* Locks, shape, thread state, recorder, scenario setup: 0 or -1 (reported). */
int stress_run_prepare(struct stress *s);
/* The scenario's text and JSON report, captured before teardown. */
void stress_capture_reports(struct stress *s);
/* The fewest operations a run must do to be judged (docs/stress.md): one per vCPU. */
static inline unsigned long stress_min_ops(const struct stress_config *cfg)
{
	return cfg->nr_cpus;
}
int stress_run(struct stress *s);	/* its verdict's exit status: 0, 1, 3, 4, 128 + signal */
void stress_build_reproducer(const struct stress_config *cfg, const struct scenario *sc,
			     unsigned long long seed, double duration, char *buf, size_t len);
double stress_now(void);
void stress_internal_error(struct stress *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The watchdog's failure (watchdog thread only; never blocks on a lock). */
void stress_fail_watchdog(struct stress *s, int cpu, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* replay_explore.c: --replay of an explorer's schedule (docs/explore.md). */
bool replay_is_schedule(const char *path);
int replay_run_schedule(const struct stress_config *cfg);

/* signals.c: SIGINT/SIGTERM; stress_signalled is the first one's number, 0: none. */
extern volatile sig_atomic_t stress_signalled;
void stress_signals_install(void);
double stress_signalled_at(void);	/* stress_now() clock */
int stress_signal_status(void);		/* 128 + signo, 0: no signal */
int stress_signal_number(void);		/* the same as stress_signalled, from any thread */
void stress_signal_note_pending(int sig);	/* seen pending, not yet handled */
void stress_signals_block(sigset_t *old);
void stress_signals_restore(const sigset_t *old);
void stress_set_child(pid_t pid);	/* replay child to kill on a forced exit; 0: none */
void stress_kill_child(void);

/* threads.c */
/* 0, 1: stopped by a signal first, -1: internal error (reported). */
int stress_threads_start(struct stress *s);
/* Park every worker, run quiescent(), resume; false when given up (stop, signal, deadline). */
bool stress_threads_quiesce(struct stress *s);
/* Stop and join every worker; false when the watchdog failed the run and some did not exit. */
bool stress_threads_stop(struct stress *s);
unsigned long stress_threads_ops(struct stress *s);
bool stress_threads_done(struct stress *s);
int stress_host_cores(int *cores, int max);
int stress_vcpu_nice(const struct stress_config *cfg, unsigned int nr_selectors);

/* inject.c */
void stress_inject_attach(struct stress *s, unsigned int cpu);
void stress_inject_detach(void);
void stress_inject_install(const struct stress_config *cfg);
void stress_inject_counts(unsigned long *hops, unsigned long *delays, unsigned long *yields);

/* sched.c: what the scheduler did with a thread (the watchdog's starvation test). */
struct stress_sched {
	unsigned long long cpu_ns;	/* on a CPU */
	unsigned long long wait_ns;	/* runnable, waiting for a CPU */
	unsigned long long slices;	/* times it was given a CPU */
	bool runnable;			/* waiting for or on a CPU now */
};
bool stress_sched_read(int tid, struct stress_sched *out);
bool stress_sched_starved(const struct stress_sched *a, const struct stress_sched *b,
			  double secs);

/* watchdog.c: an independent thread; see the comment at its top. */
int stress_watchdog_start(const struct stress_config *cfg);
double stress_default_stall_timeout(const struct stress_config *cfg);	/* W */
double stress_stall_limit(const struct stress_config *cfg);	/* --stall-timeout, else W */
double stress_stop_limit(const struct stress_config *cfg);		/* S */
void stress_watch_run(struct stress *s, double deadline);
void stress_watch_phase(struct stress *s, enum stress_phase ph);
void stress_watch_beat(void);
void stress_watch_end(struct stress *s);
void stress_dump_threads(struct stress *s, FILE *out);	/* watchdog thread only */

/* Engine test hooks (scenario.h), NULL outside the selftest scenario. */
static inline void stress_test_hook(struct stress *s, enum stress_hook where, unsigned int arg)
{
	if (__builtin_expect(stress_hook != NULL, 0))
		stress_hook(s, where, arg);
}

/* recorder.c */
struct flight_recorder *recorder_new(unsigned int nr_rings, unsigned int depth);
void recorder_free(struct flight_recorder *r);
void recorder_add(struct flight_recorder *r, unsigned int ring, const char *op,
		  long a, long b);
/* Malloc'ed text: the last @n entries of @ring (all rings' last few when ring < 0). */
char *recorder_dump(struct flight_recorder *r, int ring, unsigned int n);

/* report.c */
void report_progress(struct stress *s, double t, unsigned long ops, double rate);
/* The runs of one invocation, for the closing line. */
struct stress_summary {
	unsigned int runs, passed, failed, skipped, errors;
	unsigned int not_run;		/* planned, never started (a signal) */
	unsigned int by_class[NR_FAIL_CLASSES];	/* failed or errored runs per class */
	bool interrupted;
	double elapsed;
};
/*
 * One invocation's report, wherever it goes: text or KTAP on @out (human
 * lines on @err in JSON mode), the JSON document kept in memory and, at
 * the end, written to stdout (JSON mode) and to --json FILE. Callers fill
 * the public fields, then begin, one run() per result, end once.
 */
struct report_sink {
	const struct stress_config *cfg;
	FILE *out, *err;
	double t0;			/* for the closing line's elapsed time */
	struct stress_summary sum;	/* may start from an earlier tally */
	bool replay;	/* the outcome line speaks: a closing line in KTAP only */
	/*
	 * The watchdog's last report: the exit status is decided, so nothing
	 * is checked; no header, no verdict line in JSON mode, and the JSON
	 * document goes to @out (not --json FILE) in JSON mode.
	 */
	bool forced;
	/* The sink's own: the JSON document so far. */
	FILE *body;
	char *body_buf;
	size_t body_len;
};
/* 0, or -1 (no memory); the header unless forced (@nr_runs: the KTAP plan). */
int report_sink_begin(struct report_sink *k, unsigned int nr_runs);
void report_sink_run(struct report_sink *k, struct stress *s);
/* A scenario a signal left unstarted: its KTAP result (# SKIP) or text line. */
void report_sink_not_run(struct report_sink *k, const struct scenario *sc);
/*
 * The closing line, then the JSON document, whose "interrupted" names
 * @signo (0: null) and the scenarios @not_run; returns @status, or
 * STRESS_EXIT_INTERNAL if an output failed.
 */
int report_sink_end(struct report_sink *k, int status, int signo,
		    const struct scenario *const *not_run, unsigned int nr_not_run);
double stress_worst_margin(struct stress *s, const char **name);

/*
 * verdict.c: a run's verdict and how every report and the exit status
 * tell it (one table, so that none can disagree).
 */
enum stress_verdict { VERDICT_PASS, VERDICT_FAIL, VERDICT_ERROR, VERDICT_INCOMPLETE,
		      VERDICT_INTERRUPTED, VERDICT_SKIP, NR_VERDICTS };
enum stress_tally { TALLY_PASSED, TALLY_FAILED, TALLY_SKIPPED, TALLY_ERRORS };
struct stress_verdict_info {
	const char *name;		/* text and JSON: "PASS", "FAIL", ... */
	enum ktap_status ktap;		/* ok, not ok, # SKIP, # ERROR */
	int exit;			/* exit status (interrupted: 128 + the signal) */
	enum stress_tally tally;	/* the closing line's and KTAP totals' column */
};
enum stress_verdict stress_verdict_of(struct stress *s);
const struct stress_verdict_info *stress_verdict_info(enum stress_verdict v);
const char *stress_verdict(struct stress *s);
int stress_verdict_exit(enum stress_verdict v, int signo);
/* The KTAP result's reason in @buf (or a constant); NULL for a pass. */
const char *stress_verdict_reason(struct stress *s, int signo, char *buf, size_t len);
void stress_verdict_tally(struct stress_summary *sum, struct stress *s);
int stress_exit_worse(int a, int b);
const char *stress_signal_name(int sig);

#endif /* _STRESS_STRESS_H */
