// SPDX-License-Identifier: GPL-2.0
/*
 * frag-bench: the 2015 hogger-frag-movable experiment on the
 * fragmentation model (lib/mm/frag_model.c), Base / Redesign / Threshold,
 * printed beside the published v2 column [C0] (spec §11.2).
 *
 *   frag-bench [--seed N] [--threads N] [--requests N] [--free-pages N]
 *              [--cluster-max 32|256] [--p5 intended|as-posted] [--check]
 *
 * --check: exit 1 unless the published direction holds (Threshold scans
 * >= 10x less than Redesign, loses <= 15 Success(N) points; stall ==
 * success + fail within 1 in every column).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mm/frag_model.h"

#define NR_POLICIES	3

static const char *const policy_name[NR_POLICIES] = { "Base", "Redesign", "Threshold" };
static const enum compact_policy policies[NR_POLICIES] = {
	COMPACT_POLICY_BASE, COMPACT_POLICY_THRESHOLD1, COMPACT_POLICY_P9,
};

/* hogger-frag-movable, v2 cover letter: Base, Redesign, Threshold. */
static const struct {
	const char *name;
	unsigned long pub[NR_POLICIES];
} rows[] = {
	{ "Success(N)",              { 70, 94, 83 } },
	{ "compact_stall",           { 307, 3642, 4048 } },
	{ "compact_success",         { 64, 144, 212 } },
	{ "compact_fail",            { 243, 3498, 3835 } },
	{ "pgmigrate_success",       { 34592, 15897219, 216387 } },
	{ "compact_isolated",        { 73977, 31899553, 487712 } },
	{ "compact_migrate_scanned", { 2280770, 59146745, 2513245 } },
	{ "compact_free_scanned",    { 4710313, 49566134, 4124319 } },
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
	default: return st->compact_free_scanned;
	}
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
		{ "check", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct frag_stats st[NR_POLICIES];
	struct frag_config cfg;
	unsigned long seed = 2015, threads = 4, requests = 3000, free_pages = 32768, cm = 32;
	unsigned long churn = 0;
	enum compact_p5 p5 = COMPACT_P5_INTENDED;
	bool check = false, ok = true;
	double ratio, t0, secs;
	struct timespec ts;
	unsigned int i, r;
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
		case 'k':
			check = true;
			break;
		case 'h':
			printf("usage: frag-bench [--seed N] [--threads N] [--requests N] "
			       "[--free-pages N] [--cluster-max 32|256] "
			       "[--p5 intended|as-posted] [--check]\n");
			return 0;
		default:
			fprintf(stderr, "frag-bench: unknown option (see --help)\n");
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "frag-bench: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = ts.tv_sec + ts.tv_nsec / 1e9;
	for (i = 0; i < NR_POLICIES; i++) {
		frag_config_default(&cfg, policies[i]);
		cfg.seed = seed;
		cfg.threads = threads;
		cfg.requests = requests;
		cfg.free_pages = free_pages;
		cfg.cluster_max = cm;
		cfg.pin_churn = churn;
		cfg.p5 = p5;
		if (frag_run(&cfg, &st[i])) {
			fprintf(stderr, "frag-bench: model run failed\n");
			return 3;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	secs = ts.tv_sec + ts.tv_nsec / 1e9 - t0;

	printf("# fragmentation model, hogger-frag-movable: %lu frames, pageblock %lu, "
	       "%lu pinned, %lu order-%d candidates, %lu requests, %lu threads, "
	       "free pool %lu, COMPACT_CLUSTER_MAX %lu, P5 %s, seed %lu\n",
	       cfg.nr_frames, cfg.pageblock, cfg.pinned, st[0].candidates, cfg.order,
	       requests, threads, free_pages, cm,
	       p5 == COMPACT_P5_INTENDED ? "intended" : "as-posted", seed);
	printf("%-24s %12s %12s %12s | %10s %10s %10s\n", "model (published v2)",
	       "Base", "Redesign", "Threshold", "Base", "Redesign", "Threshold");
	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		printf("%-24s", rows[r].name);
		for (i = 0; i < NR_POLICIES; i++)
			printf(" %12lu", row_value(&st[i], r));
		printf(" |");
		for (i = 0; i < NR_POLICIES; i++)
			printf(" %10lu", rows[r].pub[i]);
		printf("\n");
	}
	printf("# model only:            ");
	for (i = 0; i < NR_POLICIES; i++)
		printf(" %s: allocs %lu deferred %lu skipped %lu resets %lu limited %lu "
		       "budget-stops %lu limited-scanned %lu max-depth %lu zone-successes %lu enomem %lu zone-end %lu;\n#",
		       policy_name[i],
		       st[i].alloc_success, st[i].deferred, st[i].skipped, st[i].resets,
		       st[i].limited_runs, st[i].budget_stops, st[i].limited_scanned, st[i].max_depth,
		       st[i].zone_successes, st[i].enomem, st[i].zone_end);
	printf("\n");

	ratio = st[2].compact_migrate_scanned ?
		(double)st[1].compact_migrate_scanned / st[2].compact_migrate_scanned : 0;
	loss = (long)success_n(&st[1]) - (long)success_n(&st[2]);
	printf("# goal: migrate_scanned Redesign/Threshold = %.1fx (>= 10x): %s\n", ratio,
	       ratio >= 10 ? "met" : "NOT met");
	ok &= ratio >= 10;
	printf("# goal: Success(N) loss Redesign -> Threshold = %ld points (<= 15): %s\n", loss,
	       loss <= 15 ? "met" : "NOT met");
	ok &= loss <= 15;
	for (i = 0; i < NR_POLICIES; i++) {
		long d = (long)st[i].compact_stall -
			 (long)(st[i].compact_success + st[i].compact_fail);
		bool inv = d >= -1 && d <= 1 &&
			   st[i].compact_isolated == st[i].migrate_isolated + st[i].free_isolated &&
			   st[i].pgmigrate_success <= st[i].migrate_isolated &&
			   !st[i].overshoot_violations && !st[i].shift_overflows;

		printf("# invariant 11 (%s): stall - (success + fail) = %ld, isolated %lu = "
		       "%lu + %lu, pgmigrate %lu <= %lu; invariant 4 overshoots %lu; "
		       "shift overflows %lu: %s\n", policy_name[i], d, st[i].compact_isolated,
		       st[i].migrate_isolated, st[i].free_isolated, st[i].pgmigrate_success,
		       st[i].migrate_isolated, st[i].overshoot_violations,
		       st[i].shift_overflows, inv ? "holds" : "BROKEN");
		ok &= inv;
	}
	printf("# %.2f s for the three runs\n", secs);
	if (check && !ok) {
		printf("# frag-bench: the published direction is NOT reproduced\n");
		return 1;
	}
	return 0;
}
