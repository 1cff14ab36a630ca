// SPDX-License-Identifier: GPL-2.0
/*
 * The KUnit driver: boot (virtual CPUs, the hpcc subsystem if linked,
 * initcalls), then every registered suite, KTAP on stdout.
 *
 *   PROG [--cpus N] [--seed S] [--filter GLOB] [--list]
 *
 * Exit: 0 every case passed or was skipped, 1 a failure, 2 bad input.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/init.h>
#include <linux/random.h>
#include <kcompat/kcompat.h>
#include "kunit_run.h"

#define KC_KUNIT_MAX_CPUS	4096

/* The kernel runs it at boot, before any test; absent without hpcc. */
int percpu_counter_tree_subsystem_init(void) __attribute__((weak));

static void usage(FILE *f)
{
	fprintf(f, "usage: %s [--cpus N (1..%d, default 8)] [--seed S] [--filter GLOB] [--list]\n",
		program_invocation_short_name, KC_KUNIT_MAX_CPUS);
}

static int parse_ull(const char *s, unsigned long long max, unsigned long long *v)
{
	char *end;

	if (!*s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end || *v > max ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' },
		{ "filter", required_argument, NULL, 'f' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	unsigned long long cpus = 8, seed = 1;
	const char *filter = NULL;
	bool list = false;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (parse_ull(optarg, KC_KUNIT_MAX_CPUS, &cpus) || !cpus) {
				fprintf(stderr, "kunit: --cpus '%s' is not a number in 1..%d\n",
					optarg, KC_KUNIT_MAX_CPUS);
				return 2;
			}
			break;
		case 's':
			if (parse_ull(optarg, ~0ULL, &seed)) {
				fprintf(stderr, "kunit: --seed '%s' is not an unsigned number\n",
					optarg);
				return 2;
			}
			break;
		case 'f':
			filter = optarg;
			break;
		case 'l':
			list = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			fprintf(stderr, "kunit: bad option '%s'; --help lists them\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "kunit: unexpected argument '%s'; --help lists the options\n",
			argv[optind]);
		return 2;
	}
	if (list) {
		kc_kunit_list();
		return 0;
	}
	if (kc_set_nr_cpu_ids((unsigned int)cpus)) {
		fprintf(stderr, "kunit: cannot set %llu CPUs\n", cpus);
		return 2;
	}
	kc_random_seed(seed);
	if (percpu_counter_tree_subsystem_init && percpu_counter_tree_subsystem_init()) {
		fprintf(stderr, "kunit: percpu_counter_tree_subsystem_init() failed at %llu CPUs\n",
			cpus);
		return 1;
	}
	if (kc_do_initcalls()) {
		fprintf(stderr, "kunit: an initcall failed\n");
		return 1;
	}
	return kc_kunit_run_all(filter) ? 1 : 0;
}
