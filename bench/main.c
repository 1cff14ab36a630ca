// SPDX-License-Identifier: GPL-2.0
/* hpcc-bench: command line, run metadata and the results file. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include <kcompat/kcompat.h>
#include "bench.h"
#include "variants.h"

#ifndef HPCC_SOURCE
#define HPCC_SOURCE "lib/hpcc"
#endif

/* A sanitizer build measures the sanitizer: say so in the results. */
#if defined(KC_TSAN)
#define BENCH_SANITIZER "tsan"
#elif defined(__SANITIZE_ADDRESS__)
#define BENCH_SANITIZER "asan"
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BENCH_SANITIZER "asan"
#endif
#endif
#ifndef BENCH_SANITIZER
#define BENCH_SANITIZER "none"
#endif

enum { S_ADD = 1, S_OVERSUB = 2, S_READ = 4, S_SHAPE = 8, S_OOM = 16, S_ALL = 31 };

static const char *const section_name[] = { "add", "oversub", "read", "shape", "oom" };

static void usage(FILE *f)
{
	fprintf(f,
"usage: hpcc-bench [options]\n"
"  --quick            smoke run: few points, short loops (no claims)\n"
"  --reps N           repetitions per point, 5..%d (default 9; quick 5)\n"
"  --batch N          batch of every batched counter, power of two > 1 (32)\n"
"  --max-cpus N       upper end of the read/accuracy sweeps, 1..%d (4096)\n"
"  --max-add-cpus N   upper end of the add sweeps, 2..1024 (256)\n"
"  --target-ms X      length of one timed loop in ms (default 20; quick 1)\n"
"  --oom-tasks N      largest task count of the OOM table (10000)\n"
"  --oom-table        the OOM sizes of make bench-oom (40, 1000, 10000,\n"
"                     100000 up to --oom-tasks) and a printed table\n"
"  --sections LIST    comma list of add,oversub,read,shape,oom (all)\n"
"  --out FILE         write the JSON results there (default stdout)\n"
"  --add-once V       no benchmark: do --ops adds of variant V (atomic,\n"
"                     percpu_counter, split, hpcc) at --cpus CPUs, for\n"
"                     instruction counting under callgrind\n"
"  --cpus N, --ops N  see --add-once (defaults 256, 1000000)\n"
"  --help\n", BENCH_MAX_REPS, NR_CPUS);
}

static void die_usage(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, "hpcc-bench: bad %s '%s': %s\n", opt, val, why);
	exit(2);
}

static unsigned long parse_ulong(const char *opt, const char *val, unsigned long lo,
				 unsigned long hi)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(val, &end, 0);
	if (errno || end == val || *end || val[0] == '-')
		die_usage(opt, val, "not a number");
	if (v < lo || v > hi) {
		char why[64];

		snprintf(why, sizeof(why), "must be in %lu..%lu", lo, hi);
		die_usage(opt, val, why);
	}
	return v;
}

static unsigned int parse_sections(const char *val)
{
	char buf[256], *tok, *save;
	unsigned int mask = 0, i;

	if (strlen(val) >= sizeof(buf))
		die_usage("--sections", val, "too long");
	strcpy(buf, val);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(section_name) / sizeof(*section_name); i++)
			if (!strcmp(tok, section_name[i]))
				break;
		if (i == sizeof(section_name) / sizeof(*section_name))
			die_usage("--sections", val, "unknown section");
		mask |= 1U << i;
	}
	if (!mask)
		die_usage("--sections", val, "empty");
	return mask;
}

static void loadavg(struct json *j, const char *key)
{
	double l1 = -1;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%lf", &l1) != 1)
			l1 = -1;
		fclose(f);
	}
	json_knum(j, key, l1);
}

static void meta(const struct bench_cfg *cfg, struct json *j)
{
	struct utsname u;
	char when[32];
	time_t now = time(NULL);

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	uname(&u);
	json_kulong(j, "schema_version", 1);
	json_kstr(j, "generator", "hpcc-bench");
	json_key(j, "meta");
	json_obj_open(j);
	json_kstr(j, "date", when);
	json_kstr(j, "host", u.nodename);
	json_kstr(j, "kernel", u.release);
	json_kstr(j, "compiler", __VERSION__);
	json_kstr(j, "hpcc_source", HPCC_SOURCE);
	json_kstr(j, "sanitizer", BENCH_SANITIZER);
	json_kulong(j, "host_cpus", cfg->host_cpus);
	json_kulong(j, "NR_CPUS", NR_CPUS);
	json_kulong(j, "percpu_unit_bytes", KC_PERCPU_UNIT);
	json_kulong(j, "reps", cfg->reps);
	json_kulong(j, "batch", cfg->batch);
	json_knum(j, "target_ms", cfg->target_ms);
	json_key(j, "quick");
	json_bool(j, cfg->quick);
	loadavg(j, "loadavg_start");
	json_obj_close(j);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "quick", no_argument, NULL, 'q' },
		{ "reps", required_argument, NULL, 'r' },
		{ "batch", required_argument, NULL, 'b' },
		{ "max-cpus", required_argument, NULL, 'm' },
		{ "max-add-cpus", required_argument, NULL, 'M' },
		{ "target-ms", required_argument, NULL, 't' },
		{ "oom-tasks", required_argument, NULL, 'T' },
		{ "oom-table", no_argument, NULL, 'O' },
		{ "sections", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "add-once", required_argument, NULL, 'a' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "ops", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench_cfg cfg = { .batch = 32, .max_sum_cpus = 4096, .max_add_cpus = 256,
				 .oom_tasks_max = 10000 };
	unsigned int sections = S_ALL, once_cpus = 256;
	unsigned long once_ops = 1000000;
	const char *out = NULL, *once = NULL;
	double target = 0;
	struct json j;
	FILE *f = stdout;
	int c, ret = 0;

	opterr = 0;	/* our own one-line messages */
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'q':
			cfg.quick = true;
			break;
		case 'r':
			cfg.reps = parse_ulong("--reps", optarg, 5, BENCH_MAX_REPS);
			break;
		case 'b':
			cfg.batch = parse_ulong("--batch", optarg, 2, 1UL << 30);
			if (cfg.batch & (cfg.batch - 1))
				die_usage("--batch", optarg, "not a power of two");
			break;
		case 'm':
			cfg.max_sum_cpus = parse_ulong("--max-cpus", optarg, 1, NR_CPUS);
			break;
		case 'M':
			cfg.max_add_cpus = parse_ulong("--max-add-cpus", optarg, 2, 1024);
			break;
		case 't':
			target = parse_ulong("--target-ms", optarg, 1, 10000);
			break;
		case 'T':
			cfg.oom_tasks_max = parse_ulong("--oom-tasks", optarg, 10, 1000000);
			break;
		case 'O':
			cfg.oom_table = true;
			break;
		case 's':
			sections = parse_sections(optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'a':
			once = optarg;
			break;
		case 'c':
			once_cpus = parse_ulong("--cpus", optarg, 1, NR_CPUS);
			break;
		case 'n':
			once_ops = parse_ulong("--ops", optarg, 1, 1UL << 40);
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			fprintf(stderr, "hpcc-bench: option '%s' needs an argument\n",
				argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, "hpcc-bench: unknown option '%s' (see --help)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "hpcc-bench: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	kc_set_cpu(0);
	if (once) {
		if (bench_variant_parse(once) < 0)
			die_usage("--add-once", once, "unknown variant");
		return bench_add_once(once, once_cpus, once_ops) ? 1 : 0;
	}
	if (!cfg.reps)
		cfg.reps = cfg.quick ? 5 : 9;
	cfg.target_ms = target ? target : cfg.quick ? 1 : 20;
	cfg.host_cpus = bench_host_cpus();
	if (out) {
		f = fopen(out, "w");
		if (!f) {
			fprintf(stderr, "hpcc-bench: cannot write %s: %s\n", out, strerror(errno));
			return 2;
		}
	}
	if (strcmp(BENCH_SANITIZER, "none"))
		fprintf(stderr, "# hpcc-bench: %s build: the timings measure the sanitizer\n",
			BENCH_SANITIZER);
	json_begin(&j, f);
	json_obj_open(&j);
	meta(&cfg, &j);
	if (!ret && (sections & S_SHAPE))
		ret = bench_shape(&cfg, &j);
	if (!ret && (sections & S_ADD))
		ret = bench_add(&cfg, &j);
	if (!ret && (sections & S_OVERSUB))
		ret = bench_add_oversub(&cfg, &j);
	if (!ret && (sections & S_READ))
		ret = bench_read(&cfg, &j);
	if (!ret && (sections & S_OOM))
		ret = bench_oom(&cfg, &j);
	loadavg(&j, "loadavg_end");
	json_obj_close(&j);
	json_end(&j);
	if (f != stdout && fclose(f)) {
		fprintf(stderr, "hpcc-bench: cannot write %s\n", out);
		return 1;
	}
	if (ret)
		fprintf(stderr, "hpcc-bench: a self-check failed, results are not valid\n");
	return ret ? 1 : 0;
}
