// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the replay-file reader (src/replay_file.c). Properties:
 *  - any input is accepted or refused, without a sanitizer report or leak;
 *  - a refusal is one line of printable text (bad bytes escaped);
 *  - an accepted file is consistent: written back and read again it gives
 *    the same replay, and the run configuration built from it has the
 *    file's shape (CPUs, batch, selectors, seed, one scenario).
 */
#include <string.h>
#include "config.h"
#include "replay.h"
#include "fuzz.h"

int fuzz_accepted;

static void check_message(const char *err)
{
	size_t i, n = strlen(err);

	fuzz_assert(n > 0, "empty error message");
	for (i = 0; i < n; i++)
		fuzz_assert(err[i] >= 0x20 && err[i] < 0x7f,
			    "byte 0x%02x at %zu of the message: %s", (unsigned char)err[i], i, err);
}

static void check_same(const struct replay *a, const struct replay *b)
{
	unsigned int i;

	fuzz_assert(!strcmp(a->scenario, b->scenario) && !strcmp(a->args, b->args) &&
		    a->nr_cpus == b->nr_cpus && a->nr_selectors == b->nr_selectors &&
		    a->batch == b->batch && a->seed == b->seed && a->sched_seed == b->sched_seed &&
		    a->preempt == b->preempt && a->hop == b->hop &&
		    a->selector_share == b->selector_share && a->stutter_min == b->stutter_min &&
		    a->stutter_max == b->stutter_max && a->steps == b->steps &&
		    !strcmp(a->expect, b->expect) && !strcmp(a->origin, b->origin) &&
		    a->has_result == b->has_result && a->failed == b->failed &&
		    !strcmp(a->invariant, b->invariant) && a->fail_step == b->fail_step &&
		    a->hops == b->hops && a->preempts == b->preempts &&
		    a->quiescent == b->quiescent && !a->ops == !b->ops,
		    "the file written back reads differently");
	for (i = 0; a->ops && i < a->nr_cpus; i++)
		fuzz_assert(a->ops[i] == b->ops[i], "ops[%u] %lu -> %lu", i, a->ops[i], b->ops[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct stress_config cli, cfg;
	struct replay rp, again;
	char err[512], *text = NULL;
	size_t len = 0;
	FILE *m;

	fuzz_accepted = !replay_parse((const char *)data, size, "fuzz", &rp, err, sizeof(err));
	if (!fuzz_accepted) {
		check_message(err);
		return 0;
	}
	m = open_memstream(&text, &len);
	fuzz_assert(m, "open_memstream");
	replay_write(m, &rp);
	fuzz_assert(!fclose(m), "memstream");
	fuzz_assert(!replay_parse(text, len, "written", &again, err, sizeof(err)),
		    "the file written back is refused: %s", err);
	check_same(&rp, &again);
	cli.argv0 = "stress";
	fuzz_assert(!replay_to_config(&cli, &rp, &cfg), "no run configuration");
	fuzz_assert(cfg.nr_cpus == rp.nr_cpus && cfg.batch == rp.batch &&
		    cfg.nr_selectors == rp.nr_selectors && cfg.seed == rp.seed &&
		    cfg.nr_scenarios == 1 && !strcmp(cfg.scenarios[0]->name, rp.scenario),
		    "the run configuration differs from the file");
	free(text);
	replay_free(&rp);
	replay_free(&again);
	return 0;
}
