/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Findings by signature (docs/stress.md#known-findings): --known FILE names
 * signatures a run counts and goes on past; --findings-out FILE writes the
 * signatures the runs met, with their hits, in the same format.
 */
#ifndef _STRESS_KNOWN_H
#define _STRESS_KNOWN_H

#include <stdbool.h>
#include <stdio.h>

#define STRESS_MAX_FOUND	32	/* distinct signatures per run */
#define STRESS_KNOWN_SAMPLE	3	/* messages kept per known signature */
#define STRESS_FINDINGS_HEADER	"hpcc-stress findings 1"

struct stress;
struct stress_config;

/* scenario, invariant, class, kernel function ("-": not known) */
struct stress_sig {
	char scenario[32];
	char invariant[64];
	int cls;
	char fn[64];
};

/* A signature met in a run: its hits and, when known, a bounded sample. */
struct stress_found {
	struct stress_sig sig;
	bool known;
	unsigned long hits;
	unsigned int nr_sample;
	char sample[STRESS_KNOWN_SAMPLE][256];
};

/* The signatures a run met (struct stress's "found"): known.c writes it. */
struct run_found {
	struct stress_found sigs[STRESS_MAX_FOUND];
	unsigned int nr;
};

/* --known FILE: read and check it (0, or -1 after one line: exit 2). */
int known_load(struct stress_config *cfg, const char *path);
/* --findings-out FILE: prepared before the run (0, or -1 after one line: exit 2). */
int findings_prepare(struct stress_config *cfg);
/*
 * A failure of @s (under its fail_lock): counted under its signature.
 * True when the signature is known (the run goes on; the caller records
 * nothing else), false for a new one.
 */
bool known_count(struct stress *s, int cls, const char *invariant, const char *fn,
		 const char *msg, bool wd);
/* The run's known signatures met, and their hits in total. */
unsigned int known_hits(const struct stress *s, unsigned long *hits);
/* The verdict line's " known=K (H hits)", after its first @n characters. */
void known_verdict(const struct stress *s, char *buf, size_t len, int n);
/* The report's lines for them ("# known ..."), and its JSON "known" array. */
void known_report(const struct stress *s, FILE *out);
struct json;
void known_report_json(const struct stress *s, struct json *j);
/* After each run: its signatures into the invocation's tally. */
void findings_collect(const struct stress *s);
/* At the end: --findings-out FILE written (0, or -1 after one line: exit 3). */
int findings_save(const struct stress_config *cfg);

#endif /* _STRESS_KNOWN_H */
