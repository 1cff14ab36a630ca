/* SPDX-License-Identifier: GPL-2.0 */
/* counter_storm's shared state: the update side (counter_storm.c) and the checks (storm_check.c). */
#ifndef _STRESS_STORM_H
#define _STRESS_STORM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <linux/percpu_counter_tree.h>
#include "scenario.h"
#include "shape/hpcc_shape.h"
#include "truth.h"

/*
 * K_EDGE*: counters of batch 2, 4 and the run's batch that only the edge
 * plans move (storm_edge.c): never picked by the update patterns.
 */
enum { K_HOT, K_G0, K_G1, K_G2_WARM, K_G3_COLD, K_COLD, K_EDGE0, K_EDGE1, K_EDGE2, NR_KEYS };
#define NR_EDGE		3
#define NR_GROUP	4
#define HOT_BURST	8

enum pattern { P_SMALL, P_LARGE, P_OSC, P_NEGRUN, P_HOP, NR_PATTERNS };

struct cs_cpu {
	struct truth_cell *truth;	/* this thread's cells, by key (checking) */
	struct stress_trace_ring *ring;	/* this thread's flight recorder ring */
	int pattern;
	unsigned long left;
	unsigned int osc_key;
	unsigned int hop_target;	/* the CPU a hop run migrates to */
	bool hopped;			/* this run migrated: go back when it ends */
	long osc_unit;
	bool hot;
	/*
	 * Our adds, as any CPU: the osc pattern parks our word by it. Not
	 * the word itself (hops, swaps), but a function of our own sequence
	 * only, so that a seed replays the same adds in either per-CPU model.
	 */
	unsigned long home[NR_KEYS];
	unsigned long adds, other_adds;
	unsigned int edge_pos;		/* next edge-plan add of this CPU */
	unsigned int edge_end;		/* past its last one (a cheap test per step) */
	unsigned long sr_bursts;	/* bursts run: a set-race turn every 32 */
} __attribute__((aligned(64)));

struct storm_edge;
struct storm_set_race;

struct storm {
	struct percpu_counter_tree solo[2];
	struct percpu_counter_tree group[NR_GROUP];
	struct percpu_counter_tree edge[NR_EDGE];
	void *items[3 + NR_EDGE];
	struct percpu_counter_tree *ctr[NR_KEYS];
	unsigned long under[NR_KEYS], over[NR_KEYS];
	struct hpcc_shape kshape[NR_KEYS];	/* each counter's own batch */
	struct storm_edge *edge_plan;
	struct storm_set_race *set_race;	/* storm_set_race.c; NULL: none */
	struct truth *truth;
	struct cs_cpu *cpus;
	const struct hpcc_shape *shape;
	unsigned int nr_cpus;
	unsigned int cold_owner[NR_KEYS];
	bool checking;
	bool saved_skip;
	struct stress_rng qrng;		/* quiescent() runs on the controller only */
	atomic_ulong compares, unsettled, sets, far_pairs;
};

extern const char *const key_names[NR_KEYS];
/* storm_invariants.c: what counter_storm may fail with. */
extern const struct stress_invariant storm_invariants[];

void storm_select_step(struct stress *s, unsigned int id, struct stress_rng *r);
void storm_quiescent(struct stress *s);
/* One add by @cpu, with its ground truth. */
void storm_add(struct stress *s, struct storm *st, unsigned int cpu, unsigned int key, long inc);
/* Verdicts on settled counters (exact values @exact / @ea, @eb). */
void storm_compare_value_verdict(struct stress *s, struct storm *st, unsigned int key, long v,
				 unsigned long exact, long approx, int ra, int rp);
/* precise_window, approx_window: the error within [@lo, @hi], both ends allowed. */
static inline bool storm_in_window(__int128 err, __int128 lo, __int128 hi)
{
	return err >= lo && err <= hi;
}

int storm_pair_expect(const struct storm *st, unsigned int ka, unsigned int kb, long d);
void storm_compare_pair_verdict(struct stress *s, struct storm *st, unsigned int ka,
				unsigned int kb, unsigned long ea, unsigned long eb, long aa,
				long ab, int ra, int rp);

/* storm_edge.c: the edge plans (worst residual states, every comparison boundary). */
int storm_edge_setup(struct stress *s, struct storm *st);
void storm_edge_free(struct storm *st);
void storm_edge_step(struct stress *s, struct storm *st, unsigned int cpu);
void storm_edge_quiescent(struct stress *s, struct storm *st);
void storm_edge_report(struct storm *st, FILE *out);
void storm_edge_report_json(struct storm *st, struct json *j);

int storm_set_race_setup(struct stress *s, struct storm *st);
void storm_set_race_free(struct storm *st);
void storm_set_race_step(struct stress *s, struct storm *st, unsigned int cpu, unsigned long n);
void storm_set_race_quiescent(struct stress *s, struct storm *st);
void storm_set_race_report(struct storm *st, FILE *out);

#endif /* _STRESS_STORM_H */
