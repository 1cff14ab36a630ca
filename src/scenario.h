/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The contract between the stress engine and a scenario. A scenario is a
 * table of callbacks; the engine owns threads, phases, injection, the
 * watchdog, the flight recorder and reporting. Scenarios register
 * themselves (SCENARIO_REGISTER), so adding one touches no shared file.
 */
#ifndef _STRESS_SCENARIO_H
#define _STRESS_SCENARIO_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <kcompat/kcompat.h>
#include "util/fail_class.h"
#include "util/rng.h"
#include "opts.h"

struct stress;		/* one run of one scenario (engine-owned) */
struct json;		/* lib/util/json.h */
struct hpcc_shape;

/*
 * Per-thread deterministic PRNG, seeded from --seed, the scenario and the
 * thread: the suite's one generator (lib/util/rng.h) under the engine's
 * names. Scenarios may also use struct rng and rng_*() directly.
 */
struct stress_rng {
	struct rng r;
};

static inline unsigned long long stress_rng_next(struct stress_rng *r)
{
	return rng_next(&r->r);
}

/* Uniform in [0, n); 0 when n == 0. */
static inline unsigned long long stress_rng_below(struct stress_rng *r, unsigned long long n)
{
	return rng_below(&r->r, n);
}

/* True with probability p (0..1). */
static inline bool stress_rng_chance(struct stress_rng *r, double p)
{
	return rng_chance(&r->r, p);
}

/*
 * Set by an injected hop (src/inject.c): the thread acts as another CPU
 * until its step ends. Before each step the engine (or a cpu_steps()
 * loop) brings it home: a TLS load and a well-predicted branch.
 */
extern __thread bool stress_hop_pending;
static inline void stress_step_home(unsigned int cpu)
{
	if (__builtin_expect(stress_hop_pending, 0)) {
		stress_hop_pending = false;
		kc_set_cpu(cpu);
	}
}

/*
 * A bound an invariant compares against: ok(v, arg) is the predicate the
 * check itself calls, true when @v passes; it passes at @at and on one
 * side of it (at most / at least). Tests drive every declared bound at
 * @at and one step either side, both ways (tests/unit/test_stress_bounds.c),
 * so a comparison one off in either direction fails a case.
 */
enum stress_bound_kind {
	STRESS_AT_MOST,
	STRESS_AT_LEAST,
};

struct stress_bound {
	const char *what;		/* which comparison, for the test's line */
	long at;
	enum stress_bound_kind kind;
	bool (*ok)(long v, long arg);
	long arg;			/* the predicate's other input */
};

/*
 * An invariant a scenario (or the engine) may fail with: its name in
 * lower_snake_case, what it means in one line, and the specification
 * anchor it checks (a page under docs/spec and its id). Replay files,
 * --known files, --list-invariants and the docs' tables read these; a
 * run that fails with a name its scenario did not declare is an
 * internal error.
 */
struct stress_invariant {
	const char *name;
	const char *meaning;
	const char *anchor;
	const struct stress_bound *bounds;	/* NULL, or ended by a row without ok */
};

/* A row of a table of them: STRESS_INVARIANT(name, meaning, anchor[, .bounds = rows]). */
#define STRESS_INVARIANT(n, m, a, ...)	{ .name = (n), .meaning = (m), .anchor = (a), __VA_ARGS__ }

struct scenario {
	const char *name;
	const char *summary;
	/* What it may fail with, ended by { .name = NULL } (engine ones: src/invariants.c). */
	const struct stress_invariant *invariants;
	/* Its options (opts.h; may be NULL): fields of *opt_cfg, set before setup(). */
	const struct stress_opt *opts;
	void *opt_cfg;
	/* Before the threads start. 0, or -1: internal error (exit 3). */
	int (*setup)(struct stress *s);
	/*
	 * One operation by the thread of virtual CPU @cpu. The thread runs as
	 * kc_get_cpu(): @cpu, unless the scenario itself migrated it in an
	 * earlier step (kc_set_cpu(); the engine brings it back only after an
	 * injected hop) or, in the owned per-CPU model, another thread's
	 * migration moved it to the CPU that thread left (a swap, at any
	 * preemption point: kcompat.h); it stays there until a migration
	 * moves it again.
	 */
	void (*cpu_step)(struct stress *s, unsigned int cpu, struct stress_rng *rng);
	/*
	 * Optional: @n cpu_step()s in one call, the same operations in the same
	 * order, each preceded by stress_step_home(@cpu): one indirect call per
	 * burst, and the scenario's loop keeps its state in registers across
	 * steps.
	 */
	void (*cpu_steps)(struct stress *s, unsigned int cpu, struct stress_rng *rng,
			  unsigned long n);
	/* One round of continuous checking by selector/checker thread @id. */
	void (*select_step)(struct stress *s, unsigned int id, struct stress_rng *rng);
	/* Every virtual CPU is parked (stutter): verify the quiescent state. */
	void (*quiescent)(struct stress *s);
	/* After every thread has stopped: final checks, then free everything. */
	void (*teardown)(struct stress *s);
	/*
	 * Extra report: text lines (each starting "# "), and JSON members of
	 * the run's "scenario_data" object through the suite's JSON writer
	 * (lib/util/json.h: json_ku64(j, "adds", n), json_kobj_begin(j, "oom"), ...).
	 */
	void (*report_text)(struct stress *s, FILE *out);
	void (*report_json)(struct stress *s, struct json *j);
	/*
	 * Set when this build cannot run the scenario (an older hpcc API,
	 * src/scenarios/adapt/): the reason, one line. Its run is a SKIP
	 * with that reason; nothing is set up or started.
	 */
	const char *unavailable;
};

void scenario_register(const struct scenario *sc);
/* Known to replay and --known files, but not listed nor run (a hidden scenario). */
void scenario_declare(const struct scenario *sc);

/* selftest: the watchdog finds every run starved of CPU (the INCOMPLETE verdict's test). */
extern bool stress_wd_fake_starved;
/* selftest: the controller's heartbeat, for a hook that hangs yet stays alive. */
void stress_watch_beat(void);

/* A plain decimal number at @s (no sign, exponent, hex): where it ends, or NULL. */
const char *stress_decimal(const char *s, double *out);
#define SCENARIO_REGISTER(sc)						\
static void __attribute__((constructor)) __scenario_register_##sc(void) \
{									\
	scenario_register(&sc);						\
}

/* Engine services for scenarios (implemented in src/engine.c). */
unsigned int stress_nr_cpus(struct stress *s);
unsigned int stress_nr_selectors(struct stress *s);
unsigned long stress_batch(struct stress *s);
unsigned long long stress_seed(struct stress *s);
const struct hpcc_shape *stress_shape(struct stress *s);
void *stress_priv(struct stress *s);
void stress_set_priv(struct stress *s, void *priv);
bool stress_stopping(struct stress *s);

/*
 * A hard invariant failed: record it (invariant name, the numbers in the
 * message, the CPU or -1), dump the flight recorder, print the exact
 * reproducer command and stop the run. Thread-safe. A failure whose
 * signature --known names is only counted: the run goes on, so a check
 * goes on past a failure when stress_failed() is still false.
 */
void stress_fail(struct stress *s, const char *invariant, int cpu,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/*
 * Failure classes (util/fail_class.h), shown as class=... in the verdict
 * line and "class" in JSON. stress_fail() is a wrong answer (the
 * watchdog's a crash); stress_fail_class() names the class.
 */
enum stress_class {
	STRESS_WRONG_ANSWER = FAIL_WRONG_ANSWER,
	STRESS_CONTRACT = FAIL_CONTRACT,
	STRESS_CRASH = FAIL_CRASH,
};
const char *stress_class_name(enum stress_class cls);
void stress_fail_class(struct stress *s, enum stress_class cls, const char *invariant,
		       int cpu, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/*
 * The same, naming the kernel function that answered wrong (without its
 * percpu_counter_tree_ prefix; NULL: none in particular). The finding's
 * signature is (scenario, invariant, class, function): one that --known
 * names is counted and the run goes on; stress_failed() stays false.
 */
void stress_fail_fn(struct stress *s, enum stress_class cls, const char *invariant,
		    const char *fn, int cpu, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* A soft event (benign race, budget ran out, ...): counted and reported. */
void stress_soft(struct stress *s, const char *what, unsigned long n);
/* A check was made: @used out of @bound (margin = used / bound, worst kept). */
void stress_margin(struct stress *s, const char *invariant, double used, double bound);
void stress_count_checks(struct stress *s, unsigned long n);
/* No kernel WARN fired since the run began (a check; "no_warn" if one did). */
void stress_check_no_warn(struct stress *s);
/* Flight recorder: the last operations of @cpu, dumped on failure. */
void stress_trace(struct stress *s, unsigned int cpu, const char *op, long a, long b);
/*
 * The same for hot loops, without the call: the ring of @cpu's thread
 * (NULL if there is none), then stress_trace_to() on it. One writer per
 * ring: only @cpu's own thread may use it.
 */
struct stress_trace_entry {
	_Atomic(uintptr_t) op;
	atomic_long a, b;
};
struct stress_trace_ring {
	atomic_ulong head;
	unsigned long mask;		/* entries - 1, a power of two minus one */
	struct stress_trace_entry *e;
} __attribute__((aligned(64)));
struct stress_trace_ring *stress_trace_ring(struct stress *s, unsigned int cpu);
static inline void stress_trace_to(struct stress_trace_ring *rg, const char *op, long a, long b)
{
	unsigned long h = atomic_load_explicit(&rg->head, memory_order_relaxed);
	struct stress_trace_entry *e = &rg->e[h & rg->mask];

	atomic_store_explicit(&e->op, (uintptr_t)op, memory_order_relaxed);
	atomic_store_explicit(&e->a, a, memory_order_relaxed);
	atomic_store_explicit(&e->b, b, memory_order_relaxed);
	atomic_store_explicit(&rg->head, h + 1, memory_order_release);
}
/*
 * Additions (compatible): false with --no-check (benchmark mode: keep no
 * ground truth and make no check); true with --verbose.
 */
bool stress_checking(struct stress *s);
bool stress_verbose(struct stress *s);
/* The run is a serial replay (fibers on one thread, src/serial.c). */
bool stress_serial(struct stress *s);
/* A SIGINT or SIGTERM arrived: the run is being stopped. */
bool stress_interrupted(void);
/* An invariant failed in this run (stress_stopping() is also true at the end). */
bool stress_failed(struct stress *s);
/* Seed a private stream from the run's seed, a stream name and an id. */
static inline void stress_rng_seed(struct stress_rng *r, unsigned long long seed,
				   const char *stream, unsigned long long id)
{
	rng_init_stream(&r->r, seed, stream, id);
}

/*
 * Engine test hooks: the selftest scenario sets stress_hook (below) to
 * stall the controller or a worker at one of these points, deterministically.
 */
enum stress_hook {
	STRESS_HOOK_THREAD_START,	/* before creating worker @arg */
	STRESS_HOOK_QUIESCENT,		/* every worker parked, before quiescent() */
	STRESS_HOOK_RESUMED,		/* worker @arg woke from a park, holds nothing yet */
	STRESS_HOOK_WORKER_GO,		/* worker @arg let go, before its first step */
};
extern void (*stress_hook)(struct stress *s, enum stress_hook where, unsigned int arg);

/* splitmix64: derive well-spread values from a seed. */
static inline unsigned long long stress_mix(unsigned long long x)
{
	return rng_mix(x);
}

#endif /* _STRESS_SCENARIO_H */
