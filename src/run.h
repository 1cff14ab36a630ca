/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run object, struct stress: one scenario run's state, which the
 * engine's parts share (engine.c sets it up, threads.c runs its workers,
 * the watchdog watches it, report.c and verdict.c read its results).
 * A member marked "owner: FILE..." is written by those files only
 * (tests/unit/run_owners.sh; docs/layout.md).
 */
#ifndef _STRESS_RUN_H
#define _STRESS_RUN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include "config.h"
#include "known.h"
#include "scenario.h"
#include "shape/hpcc_shape.h"
#include "tally.h"

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

/*
 * How the workers and the controller hand over (threads.c writes it; the
 * engine and hotplug.c read it). No lock: the words marked futex are
 * slept on, so that a start or a resume wakes every worker at once
 * instead of handing one mutex from worker to worker (under host load
 * each hand-off waits for a time slice: 258 of them made a stutter last
 * 30 s).
 */
struct run_workers {
	atomic_uint go;			/* futex: 1 once the workers may run */
	atomic_bool park_req;
	atomic_uint park_gen;		/* futex: +1 at every resume */
	atomic_uint nr_started;		/* workers created (set before go) */
	atomic_uint nr_parked;
	atomic_uint nr_exited;
	atomic_uint nr_vcpus_done;	/* vCPUs that did --steps */
	atomic_uint ctl_seq;		/* futex: +1 when a worker wakes the controller */
	int vcpu_nice;			/* vCPU threads' nice value */
	double park_time;		/* the controller waiting for every thread to park */
	double quiescent_time;		/* the controller in quiescent() */
	unsigned long long cpu_at_go;	/* the process's CPU time (us) when go was published */
};

/*
 * What the watchdog holds the run to (watchdog.c writes it: the
 * controller through stress_watch_run() and stress_watch_phase(), the
 * watchdog thread when it fails the run; the others read it).
 */
struct run_watch {
	double deadline;		/* absolute stress_now(); 0: none */
	atomic_int phase;		/* enum stress_phase */
	_Atomic double fired_at;	/* when the watchdog failed the run; 0: not */
	int ctl_tid;			/* the controller's thread id */
};

/*
 * Which run this is: set when the run object is made (stress_run_new()),
 * its reproducer once known (stress_set_reproducer()); run.c writes it,
 * the others read it.
 */
struct run_id {
	const struct stress_config *cfg;
	const struct scenario *sc;
	unsigned long long seed;	/* this run's seed */
	double duration;		/* this run's duration */
	unsigned int index;		/* 1-based position in the report (KTAP) */
	const struct stress_summary *summary;	/* the runs before this one, or NULL */
	char reproducer[2048];
};

/*
 * What the engine set the run up with (engine.c writes it, in
 * stress_run_prepare() and stress_set_priv(); the others read it).
 */
struct run_setup {
	struct hpcc_shape shape;
	unsigned int nr_threads;	/* nr_cpus vCPUs, then the selectors */
	struct flight_recorder *rec;
	unsigned long warn_base;	/* kc_warn_count() before the run */
	void *priv;			/* the scenario's */
};

/*
 * How the run went, for the verdict and the reports: written by the
 * engine that ran it (engine.c for a concurrent run, serial.c for a
 * serial one), and by run.c for the others: stress_quiescent_point(),
 * stress_internal_error(), stress_gave_up(), and stress_result_forced()
 * for the watchdog's snapshot.
 */
struct run_result {
	atomic_ulong quiescent;		/* quiescent points reached */
	double elapsed;			/* from the first worker step ("go") */
	double startup;			/* creating the threads, before "go" */
	/*
	 * The process's CPU time (every thread: vCPUs, checkers, controller)
	 * from "go" to the threads' stop; setup, the final checks and the
	 * teardown are outside it. Meaningful only when run_cpu_known (a
	 * run whose threads ran; not a serial replay).
	 */
	double run_cpu;
	bool run_cpu_known;
	unsigned long ops;
	bool starved;			/* no verdict: starved, or threads outlasted the run */
	char incomplete_why[128];	/* why no verdict, for the reports; "": starved */
	bool internal_error;
	bool stalled;
	bool interrupted;
	bool skipped;			/* checking off, or skip_why */
	const char *skip_why;		/* the scenario's unavailable reason */
	char *sc_text, *sc_json;	/* scenario reports, taken before teardown */
};

struct stress {
	struct run_id run;		/* owner: run.c */
	struct run_setup setup;		/* owner: engine.c */
	struct run_workers workers;	/* owner: threads.c */
	struct run_tally tally;		/* owner: tally.c */
	struct run_found found;		/* owner: known.c */
	struct run_watch wd;		/* owner: watchdog.c */
	struct run_result res;		/* owner: engine.c serial.c run.c */

	/* not grouped (docs/layout.md) */
	atomic_bool stop;
	struct stress_thread *threads;	/* nr_cpus vCPUs, then the selectors */
	_Atomic double t0;		/* the threads run from here (elapsed, ops/s) */
	struct stress_rng hp_rng;	/* hotplug.c: the controller's seeded choices */
};

/* run.c: the owners' calls for the identity and the results. */
/* A zeroed run object with identity @id (calloc; NULL: out of memory). */
struct stress *stress_run_new(const struct run_id *id);
/* The reproducer the reports print, for a run stress_run() does not build it for. */
void stress_set_reproducer(struct stress *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* An internal error, told on stderr: the run stops, its verdict is "internal error". */
void stress_internal_error(struct stress *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The run gave up after reporting why (its verdict: internal error). */
void stress_gave_up(struct stress *s);
/* A quiescent point reached: counted, and the scenario's quiescent() run. */
void stress_quiescent_point(struct stress *s);
/*
 * The results of the watchdog's snapshot @c of the live run @s, read
 * without what the controller may be writing: its quiescent points and
 * startup as they stand, elapsed to @now and @ops once the threads run,
 * checking as configured.
 */
void stress_result_forced(struct stress *c, struct stress *s, double now, unsigned long ops,
			  bool interrupted, bool starved);

#endif /* _STRESS_RUN_H */
