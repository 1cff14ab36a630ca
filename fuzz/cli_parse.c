// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the command line (stress_cli_parse(), src/cli.c). The
 * input is argv[1..]: words separated by NUL bytes, at most 64. Any
 * input parses or is refused without a sanitizer report; a configuration
 * it accepts is in range (what the engine sizes its arrays by).
 */
#include <math.h>
#include <string.h>
#include "cli.h"
#include "config.h"
#include "fuzz.h"

#define MAX_WORDS	64

int fuzz_accepted;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct stress_config cfg;
	char *argv[MAX_WORDS + 2], *copy;
	enum stress_action act;
	size_t i, start = 0;
	int argc = 0;

	/* One copy: each word NUL-terminated, the last one too. */
	copy = malloc(size + 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = 0;
	argv[argc++] = "stress";
	for (i = 0; i <= size && argc <= MAX_WORDS; i++) {
		if (i < size && copy[i])
			continue;
		argv[argc++] = copy + start;
		start = i + 1;
	}
	argv[argc] = NULL;
	fuzz_accepted = !stress_cli_parse(argc, argv, &cfg, &act);
	if (fuzz_accepted) {
		fuzz_assert(cfg.nr_cpus >= 1 && cfg.nr_cpus <= NR_CPUS, "cpus %u", cfg.nr_cpus);
		fuzz_assert(cfg.batch >= 2 && cfg.batch <= STRESS_MAX_BATCH &&
			    !(cfg.batch & (cfg.batch - 1)), "batch %lu", cfg.batch);
		fuzz_assert(cfg.nr_selectors <= STRESS_MAX_SELECTORS, "selectors %u",
			    cfg.nr_selectors);
		fuzz_assert(cfg.nr_scenarios >= 1 && cfg.nr_scenarios <= STRESS_MAX_SCENARIOS,
			    "%u scenarios", cfg.nr_scenarios);
		fuzz_assert(isfinite(cfg.duration) && cfg.duration >= 0, "duration %g",
			    cfg.duration);
		fuzz_assert(cfg.stutter.min <= cfg.stutter.max, "stutter %g-%g", cfg.stutter.min,
			    cfg.stutter.max);
		fuzz_assert(cfg.inject.hop >= 0 && cfg.inject.hop <= 1, "hop %g", cfg.inject.hop);
		fuzz_assert(act != ACT_REPLAY || (cfg.replay_file && *cfg.replay_file),
			    "--replay without a file");
		fuzz_assert(act != ACT_SHRINK || (cfg.shrink_file && *cfg.shrink_file),
			    "--shrink without a file");
		fuzz_assert(strlen(cfg.scenario_args) < sizeof(cfg.scenario_args), "args");
	}
	free(copy);
	return 0;
}
