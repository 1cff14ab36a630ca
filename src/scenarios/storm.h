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

enum { K_HOT, K_G0, K_G1, K_G2_WARM, K_G3_COLD, K_COLD, NR_KEYS };
#define NR_GROUP	4
#define HOT_BURST	8

enum pattern { P_SMALL, P_LARGE, P_OSC, P_NEGRUN, P_HOP, NR_PATTERNS };

struct cs_cpu {
	int pattern;
	unsigned long left;
	unsigned int osc_key;
	unsigned int hop_target;	/* the CPU a hop run migrates to */
	long osc_unit;
	bool hot;
	unsigned long home[NR_KEYS];	/* our adds as our own CPU */
	unsigned long adds, other_adds;
} __attribute__((aligned(64)));

struct storm {
	struct percpu_counter_tree solo[2];
	struct percpu_counter_tree group[NR_GROUP];
	void *items[3];
	struct percpu_counter_tree *ctr[NR_KEYS];
	unsigned long under[NR_KEYS], over[NR_KEYS];
	struct truth *truth;
	struct cs_cpu *cpus;
	const struct hpcc_shape *shape;
	unsigned int nr_cpus;
	unsigned int cold_owner[NR_KEYS];
	bool checking;
	bool saved_skip;
	unsigned long warn_base;
	struct stress_rng qrng;		/* quiescent() runs on the controller only */
	atomic_ulong compares, unsettled, sets, far_pairs;
};

extern const char *const key_names[NR_KEYS];

void storm_select_step(struct stress *s, unsigned int id, struct stress_rng *r);
void storm_quiescent(struct stress *s);

#endif /* _STRESS_STORM_H */
