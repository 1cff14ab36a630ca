// SPDX-License-Identifier: GPL-2.0
/*
 * frag-bench: the 2015 hogger-frag-movable experiment on the fragmentation
 * model (lib/mm/frag_model.c), the five kernels of the v2 cover letter (Base,
 * Limit, Nonmovable, Redesign, Threshold), printed beside the published columns
 * [C0] (docs/spec/compaction.md#cmp-published), and a sixth column, Stable:
 * Redesign with the reviewer's self-stabilising scan limit instead of P9. The
 * main table uses P5 as posted (the measured code); the kernels with P5 are
 * run again with the other P5 form for contrast. A second table splits the
 * compaction events by mode (async, sync) and the allocations by where they
 * came from.
 *
 *   frag-bench [--seed N] [--threads N] [--requests N] [--free-pages N]
 *              [--cluster-max 32|256] [--p5 intended|as-posted]
 *              [--pin-churn N] [--stable-mult N] [--stable-weight D]
 *              [--kernels LIST] [--no-contrast] [--check] [--json FILE]
 *
 * --stable-mult, --stable-weight: Stable's limit is N running averages of
 * the pages scanned per success, each success moving the average 1/D of
 * the way (default 2 and 8). --kernels: run only these columns (a comma
 * list of names, case-insensitive); the goals need Redesign and Threshold.
 * --no-contrast: no second run with the other P5 form.
 *
 * --check: exit 1 unless the published direction holds in the main table
 * (Threshold scans >= 10x less than Redesign, loses <= 15 Success(N)
 * points) and stall == success + fail within 1 in every run.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mm/frag_model.h"
#include "mm/kcompact.h"

#define NR_K		FRAG_NR_KERNELS
#define NR_ROWS		9

static const char *const kname[NR_K] = {
	"Base", "Limit", "Nonmovable", "Redesign", "Threshold", "Stable",
};

/* Kernels of the published tables (Stable was never posted). */
#define NR_PUB		FRAG_STABLE

/* hogger-frag-movable, v2 cover letter, all five columns. */
static const struct {
	const char *name;
	unsigned long pub[NR_K];
} rows[NR_ROWS] = {
	{ "Success(N)",              { 70, 60, 68, 94, 83 } },
	{ "compact_stall",           { 307, 4555, 4380, 3642, 4048 } },
	{ "compact_success",         { 64, 41, 79, 144, 212 } },
	{ "compact_fail",            { 243, 4514, 4301, 3498, 3835 } },
	{ "pgmigrate_success",       { 34592, 14243, 54207, 15897219, 216387 } },
	{ "compact_isolated",        { 73977, 105025, 258877, 31899553, 487712 } },
	{ "compact_migrate_scanned", { 2280770, 2886304, 37214115, 59146745, 2513245 } },
	{ "compact_free_scanned",    { 4710313, 1472874, 44372985, 49566134, 4124319 } },
	/* A cross-check of the tables (docs/spec/compaction.md#cmp-published). */
	{ "migrate_scanned/stall",   { 7429, 633, 8496, 16240, 620 } },
};

static unsigned long success_n(const struct frag_stats *st)
{
	return st->candidates ? st->alloc_success * 100 / st->candidates : 0;
}

static unsigned long row_value(const struct frag_stats *st, unsigned int row)
{
	switch (row) {
	case 0: return success_n(st);
	case 1: return st->compact_stall;
	case 2: return st->compact_success;
	case 3: return st->compact_fail;
	case 4: return st->pgmigrate_success;
	case 5: return st->compact_isolated;
	case 6: return st->compact_migrate_scanned;
	case 7: return st->compact_free_scanned;
	default: return st->compact_stall ?
		 st->compact_migrate_scanned / st->compact_stall : 0;
	}
}

static void print_table(const char *title, const struct frag_stats *st, bool run[NR_K])
{
	unsigned int i, r;

	printf("%-24s", title);
	for (i = 0; i < NR_K; i++)
		if (run[i])
			printf(" %11s", kname[i]);
	printf(" | published v2 (no Stable)\n");
	for (r = 0; r < NR_ROWS; r++) {
		printf("%-24s", rows[r].name);
		for (i = 0; i < NR_K; i++)
			if (run[i])
				printf(" %11lu", row_value(&st[i], r));
		printf(" |");
		for (i = 0; i < NR_PUB; i++)
			if (run[i])
				printf(" %10lu", rows[r].pub[i]);
		printf("\n");
	}
}

/* The async/sync split and where the allocations came from. */
static void print_modes(const struct frag_stats *st, bool run[NR_K])
{
	static const char *const mname[2] = { "async", "sync" };
	unsigned int i, md;

	printf("%-24s", "by mode");
	for (i = 0; i < NR_K; i++)
		if (run[i])
			printf(" %11s", kname[i]);
	printf("\n");
#define MODE_ROW(label, field)							\
	for (md = 0; md < 2; md++) {						\
		printf("%-6s%-18s", mname[md], label);				\
		for (i = 0; i < NR_K; i++)					\
			if (run[i])						\
				printf(" %11lu", st[i].field[md]);		\
		printf("\n");							\
	}
	MODE_ROW("compact_stall", mode_stall)
	MODE_ROW("compact_success", mode_success)
	MODE_ROW("compact_fail", mode_fail)
	MODE_ROW("migrate_scanned", mode_migrate_scanned)
	MODE_ROW("free_scanned", mode_free_scanned)
	MODE_ROW("budget_stops", mode_budget_stops)
#undef MODE_ROW
#define SRC_ROW(label, field)							\
	do {								\
		printf("%-24s", label);					\
		for (i = 0; i < NR_K; i++)					\
			if (run[i])						\
				printf(" %11lu", st[i].field);			\
		printf("\n");							\
	} while (0)
	SRC_ROW("alloc fast path", alloc_fast);
	SRC_ROW("alloc after async", alloc_async);
	SRC_ROW("alloc after reclaim", alloc_reclaim);
	SRC_ROW("alloc after sync", alloc_sync);
#undef SRC_ROW
}

/* One run as a JSON object. */
static void json_run(FILE *f, const char *kernel, const char *p5, bool main_table,
		     const struct frag_stats *st, bool first)
{
	fprintf(f, "%s\n    {\"kernel\": \"%s\", \"p5\": \"%s\", \"table\": \"%s\"",
		first ? "" : ",", kernel, p5, main_table ? "main" : "contrast");
#define J(name)		fprintf(f, ", \"" #name "\": %lu", st->name)
#define J2(name)	fprintf(f, ", \"" #name "\": [%lu, %lu]", st->name[0], st->name[1])
	J(candidates); J(alloc_success); J(compact_stall); J(compact_success);
	J(compact_fail); J(pgmigrate_success); J(compact_isolated);
	J(compact_migrate_scanned); J(compact_free_scanned);
	J2(mode_stall); J2(mode_success); J2(mode_fail); J2(mode_migrate_scanned);
	J2(mode_free_scanned); J2(mode_budget_stops);
	J(alloc_fast); J(alloc_async); J(alloc_reclaim); J(alloc_sync);
	J(deferred); J(skipped); J(resets); J(limited_runs); J(budget_stops);
	J(limited_scanned); J(max_depth); J(zone_successes); J(stable_avg);
	J(stable_samples); J(overshoot_violations); J(shift_overflows);
	J(trace_step);
#undef J
#undef J2
	fprintf(f, ", \"limit_trace\": [");
	for (unsigned int i = 0; i < st->trace_len; i++)
		fprintf(f, "%s%ld", i ? ", " : "", st->limit_trace[i]);
	fprintf(f, "]}");
}

static void print_diag(const struct frag_stats *st, bool run[NR_K])
{
	unsigned int i;

	for (i = 0; i < NR_K; i++)
		if (run[i])
			printf("# %-10s allocs %lu deferred %lu skipped %lu resets %lu "
			       "depleted-entries %lu limited %lu budget-stops %lu "
			       "limited-scanned %lu max-depth %lu zone-successes %lu "
			       "enomem %lu complete %lu\n",
			       kname[i], st[i].alloc_success, st[i].deferred, st[i].skipped,
			       st[i].resets, st[i].depleted_entries, st[i].limited_runs,
			       st[i].budget_stops, st[i].limited_scanned, st[i].max_depth,
			       st[i].zone_successes, st[i].enomem, st[i].zone_end);
}

/* Invariants 4 and 11 and the shift guard, for one run. */
static bool check_run(const char *what, const struct frag_stats *st)
{
	long d = (long)st->compact_stall - (long)(st->compact_success + st->compact_fail);
	bool inv = d >= -1 && d <= 1 &&
		   st->compact_isolated == st->migrate_isolated + st->free_isolated &&
		   st->pgmigrate_success <= st->migrate_isolated &&
		   !st->overshoot_violations && !st->shift_overflows;

	printf("# invariants (%s): stall - (success + fail) = %ld, isolated %lu = "
	       "%lu + %lu, pgmigrate %lu <= %lu; invariant 4 overshoots %lu; "
	       "shift overflows %lu: %s\n", what, d, st->compact_isolated,
	       st->migrate_isolated, st->free_isolated, st->pgmigrate_success,
	       st->migrate_isolated, st->overshoot_violations,
	       st->shift_overflows, inv ? "holds" : "BROKEN");
	return inv;
}

/* The candidates as placed, from the first run. */
static unsigned long candidates(const struct frag_stats *st, const bool run[NR_K])
{
	unsigned int i;

	for (i = 0; i < NR_K; i++)
		if (run[i])
			return st[i].candidates;
	return 0;
}

static double scan_ratio(const struct frag_stats *st)
{
	return st[FRAG_THRESHOLD].compact_migrate_scanned ?
	       (double)st[FRAG_REDESIGN].compact_migrate_scanned /
	       st[FRAG_THRESHOLD].compact_migrate_scanned : 0;
}

static long success_loss(const struct frag_stats *st)
{
	return (long)success_n(&st[FRAG_REDESIGN]) - (long)success_n(&st[FRAG_THRESHOLD]);
}

static int parse_ulong(const char *opt, const char *s, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-') {
		fprintf(stderr, "frag-bench: bad value for --%s: '%s'\n", opt, s);
		return -1;
	}
	return 0;
}

/* --kernels: a comma list of column names; 0, or -1 on an unknown one. */
static int parse_kernels(const char *arg, bool want[NR_K])
{
	char buf[128], *tok, *save = NULL;
	unsigned int i;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	memset(want, 0, NR_K * sizeof(*want));
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NR_K && strcasecmp(tok, kname[i]); i++)
			;
		if (i == NR_K)
			return -1;
		want[i] = true;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "threads", required_argument, NULL, 't' },
		{ "requests", required_argument, NULL, 'r' },
		{ "free-pages", required_argument, NULL, 'f' },
		{ "cluster-max", required_argument, NULL, 'c' },
		{ "p5", required_argument, NULL, 'p' },
		{ "pin-churn", required_argument, NULL, 'u' },
		{ "stable-mult", required_argument, NULL, 'm' },
		{ "stable-weight", required_argument, NULL, 'w' },
		{ "kernels", required_argument, NULL, 'K' },
		{ "no-contrast", no_argument, NULL, 'n' },
		{ "check", no_argument, NULL, 'k' },
		{ "json", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const p5_name[] = {
		[COMPACT_P5_INTENDED] = "intended", [COMPACT_P5_AS_POSTED] = "as posted",
	};
	struct frag_stats st[2][NR_K];
	bool run[2][NR_K];
	struct frag_config cfg;
	unsigned long seed = 2015, threads = 4, requests = 3000, free_pages = 32768, cm = 32;
	unsigned long churn = 0, smult = COMPACT_STABLE_MULT, sweight = COMPACT_STABLE_WEIGHT;
	bool want[NR_K] = { true, true, true, true, true, true };
	enum compact_p5 p5 = COMPACT_P5_AS_POSTED, other;
	bool check = false, ok = true, inv_ok = true, contrast = true;
	const char *json = NULL;
	double ratio, t0, secs;
	struct timespec ts;
	unsigned int i, v;
	long loss;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_ulong("seed", optarg, &seed))
				return 2;
			break;
		case 't':
			if (parse_ulong("threads", optarg, &threads) || !threads || threads > 64) {
				fprintf(stderr, "frag-bench: --threads takes 1..64\n");
				return 2;
			}
			break;
		case 'r':
			if (parse_ulong("requests", optarg, &requests) || requests > 1000000) {
				fprintf(stderr, "frag-bench: --requests takes 0..1000000\n");
				return 2;
			}
			break;
		case 'f':
			if (parse_ulong("free-pages", optarg, &free_pages) || free_pages > 65536) {
				fprintf(stderr, "frag-bench: --free-pages takes 0..65536\n");
				return 2;
			}
			break;
		case 'c':
			if (parse_ulong("cluster-max", optarg, &cm) || (cm != 32 && cm != 256)) {
				fprintf(stderr, "frag-bench: --cluster-max takes 32 or 256\n");
				return 2;
			}
			break;
		case 'p':
			if (!strcmp(optarg, "intended")) {
				p5 = COMPACT_P5_INTENDED;
			} else if (!strcmp(optarg, "as-posted")) {
				p5 = COMPACT_P5_AS_POSTED;
			} else {
				fprintf(stderr, "frag-bench: --p5 takes intended or as-posted\n");
				return 2;
			}
			break;
		case 'u':
			if (parse_ulong("pin-churn", optarg, &churn) || churn > 1024) {
				fprintf(stderr, "frag-bench: --pin-churn takes 0..1024\n");
				return 2;
			}
			break;
		case 'm':
			if (parse_ulong("stable-mult", optarg, &smult) || !smult ||
			    smult > COMPACT_STABLE_MULT_MAX) {
				fprintf(stderr, "frag-bench: --stable-mult takes 1..%d\n",
					COMPACT_STABLE_MULT_MAX);
				return 2;
			}
			break;
		case 'w':
			if (parse_ulong("stable-weight", optarg, &sweight) || !sweight ||
			    sweight > COMPACT_STABLE_WEIGHT_MAX) {
				fprintf(stderr, "frag-bench: --stable-weight takes 1..%d\n",
					COMPACT_STABLE_WEIGHT_MAX);
				return 2;
			}
			break;
		case 'K':
			if (parse_kernels(optarg, want)) {
				fprintf(stderr, "frag-bench: --kernels takes a comma list of Base, "
					"Limit, Nonmovable, Redesign, Threshold, Stable\n");
				return 2;
			}
			break;
		case 'n':
			contrast = false;
			break;
		case 'k':
			check = true;
			break;
		case 'j':
			json = optarg;
			break;
		case 'h':
			printf("usage: frag-bench [--seed N] [--threads N] [--requests N] "
			       "[--free-pages N] [--cluster-max 32|256] "
			       "[--p5 intended|as-posted] [--pin-churn N] "
			       "[--stable-mult N] [--stable-weight D] [--kernels LIST] "
			       "[--no-contrast] [--check] [--json FILE]\n"
			       "  --p5 chooses the main table's P5 (default as-posted, "
			       "the measured code); the other form is the contrast\n");
			return 0;
		default:
			fprintf(stderr, "frag-bench: unknown option (see --help)\n");
			return 2;
		}
	}
	if (check && (!want[FRAG_REDESIGN] || !want[FRAG_THRESHOLD])) {
		fprintf(stderr, "frag-bench: --check needs Redesign and Threshold in --kernels\n");
		return 2;
	}
	if (optind < argc) {
		fprintf(stderr, "frag-bench: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	memset(st, 0, sizeof(st));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = ts.tv_sec + ts.tv_nsec / 1e9;
	other = p5 == COMPACT_P5_INTENDED ? COMPACT_P5_AS_POSTED : COMPACT_P5_INTENDED;
	for (v = 0; v < 2; v++) {
		for (i = 0; i < NR_K; i++) {
			/* The contrast run: only the kernels that have P5. */
			run[v][i] = want[i] && (!v || (contrast && i >= FRAG_NONMOVABLE));
			if (!run[v][i])
				continue;
			frag_config_default(&cfg, i);
			cfg.seed = seed;
			cfg.threads = threads;
			cfg.requests = requests;
			cfg.free_pages = free_pages;
			cfg.cluster_max = cm;
			cfg.pin_churn = churn;
			cfg.stable_mult = smult;
			cfg.stable_weight = sweight;
			cfg.p5 = v ? other : p5;
			if (frag_run(&cfg, &st[v][i])) {
				fprintf(stderr, "frag-bench: model run failed\n");
				return 3;
			}
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	secs = ts.tv_sec + ts.tv_nsec / 1e9 - t0;

	printf("# fragmentation model, hogger-frag-movable: %lu frames, pageblock %lu, "
	       "%lu pinned, %lu order-%d candidates, %lu requests, %lu threads, "
	       "free pool %lu, COMPACT_CLUSTER_MAX %lu, pin churn %lu, seed %lu, "
	       "stable limit %lu x average, weight 1/%lu\n",
	       cfg.nr_frames, cfg.pageblock, cfg.pinned, candidates(st[0], run[0]), cfg.order,
	       requests, threads, free_pages, cm, churn, seed, smult, sweight);
	printf("# main table: P5 %s%s\n", p5_name[p5],
	       p5 == COMPACT_P5_AS_POSTED ? " (the code that was measured)" : "");
	print_table("model", st[0], run[0]);
	print_modes(st[0], run[0]);
	print_diag(st[0], run[0]);
	printf("#\n# contrast: P5 %s%s\n", p5_name[other],
	       other == COMPACT_P5_INTENDED ? " (what the series meant, never measured)" : "");
	print_table("model", st[1], run[1]);
	print_modes(st[1], run[1]);
	print_diag(st[1], run[1]);
	printf("#\n");

	ratio = scan_ratio(st[0]);
	loss = success_loss(st[0]);
	printf("# goal: migrate_scanned Redesign/Threshold = %.1fx (>= 10x): %s\n", ratio,
	       ratio >= 10 ? "met" : "NOT met");
	ok &= ratio >= 10;
	printf("# goal: Success(N) loss Redesign -> Threshold = %ld points (<= 15): %s\n", loss,
	       loss <= 15 ? "met" : "NOT met");
	ok &= loss <= 15;
	printf("# contrast (P5 %s): migrate_scanned Redesign/Threshold = %.1fx, "
	       "Success(N) loss %ld points\n", p5_name[other], scan_ratio(st[1]),
	       success_loss(st[1]));
	printf("# stable (not a goal): migrate_scanned Redesign/Stable = %.1fx, Success(N) "
	       "loss Redesign -> Stable = %ld points (Threshold: %ld)\n",
	       st[0][FRAG_STABLE].compact_migrate_scanned ?
	       (double)st[0][FRAG_REDESIGN].compact_migrate_scanned /
	       st[0][FRAG_STABLE].compact_migrate_scanned : 0,
	       (long)success_n(&st[0][FRAG_REDESIGN]) - (long)success_n(&st[0][FRAG_STABLE]),
	       loss);
	for (v = 0; v < 2; v++)
		for (i = 0; i < NR_K; i++) {
			char what[64];

			if (!run[v][i])
				continue;
			snprintf(what, sizeof(what), "%s, P5 %s", kname[i],
				 v ? p5_name[other] : p5_name[p5]);
			inv_ok &= check_run(what, &st[v][i]);
		}
	ok &= inv_ok;
	for (c = 0, v = 0; v < 2; v++)
		for (i = 0; i < NR_K; i++)
			c += run[v][i];
	printf("# %.2f s for the %d runs\n", secs, c);
	{
		char line[1024];
		/* A kernel tree's deferral decides Base: any disagreement fails the bench. */
		unsigned long bad = defer_agreement_line(line, sizeof(line));

		printf("# Base deferral: %s\n", line);
		if (json) {
			FILE *f = fopen(json, "w");
			bool first = true;

			if (!f) {
				fprintf(stderr, "frag-bench: cannot write %s: %s\n", json,
					strerror(errno));
				return 2;
			}
			fprintf(f, "{\"seed\": %lu, \"threads\": %lu, \"requests\": %lu, "
				"\"free_pages\": %lu, \"cluster_max\": %lu, \"pin_churn\": %lu, "
				"\"stable_mult\": %lu, \"stable_weight\": %lu, "
				"\"seconds\": %.3f, \"invariants\": %s, \"base_deferral\": \"",
				seed, threads, requests, free_pages, cm, churn, smult, sweight, secs,
				inv_ok ? "true" : "false");
			for (c = 0; line[c]; c++)
				fprintf(f, line[c] == '"' || line[c] == '\\' ? "\\%c" : "%c",
					line[c]);
			fprintf(f, "\",\n  \"runs\": [");
			for (v = 0; v < 2; v++)
				for (i = 0; i < NR_K; i++) {
					if (!run[v][i])
						continue;
					json_run(f, kname[i], (v ? other : p5) == COMPACT_P5_INTENDED ?
						 "intended" : "as-posted", !v, &st[v][i], first);
					first = false;
				}
			fprintf(f, "\n  ]\n}\n");
			if (fclose(f)) {
				fprintf(stderr, "frag-bench: cannot write %s\n", json);
				return 2;
			}
		}
		if (bad) {
			printf("# frag-bench: the kernel's deferral and the model disagree\n");
			return 1;
		}
	}
	if (check && !ok) {
		printf("# frag-bench: the published direction is NOT reproduced\n");
		return 1;
	}
	return 0;
}
