// SPDX-License-Identifier: GPL-2.0
/*
 * ./stress on an older hpcc API (make adapt-stress): oom_race and
 * compaction_churn build on the mm model, which needs the long API, so
 * they are not built; each run is a SKIP that says so. The engine's
 * other calls into the mm model and lib/hpcc's layout (--version's
 * selection lines, --describe) answer here.
 */
#include <stdio.h>
#include "hpcc_adapt_api.h"
#include "mm/oom_select.h"
#include "mm/kcompact.h"
#include "config.h"
#include "describe.h"

#define NEEDS_LONG	"needs the long hpcc API; this tree's is " HPCC_ADAPT_API_DESC

static const struct scenario oom_race = {
	.name = "oom_race",
	.summary = "OOM victim selection (not built: " NEEDS_LONG ")",
	.unavailable = NEEDS_LONG,
};
SCENARIO_REGISTER(oom_race)

static const struct scenario compaction_churn = {
	.name = "compaction_churn",
	.summary = "compaction depletion (not built: " NEEDS_LONG ")",
	.unavailable = NEEDS_LONG,
};
SCENARIO_REGISTER(compaction_churn)

const char *const oom_algo_names[OOM_NR_ALGOS] = OOM_ALGO_NAMES;

enum oom_impl oom_impl_of(enum oom_algo algo)
{
	return OOM_IMPL_MODEL;
}

const char *oom_impl_describe(enum oom_impl impl)
{
	return "not built (" NEEDS_LONG ")";
}

const char *defer_impl_describe(void)
{
	return "not built (" NEEDS_LONG ")";
}

int stress_describe(const struct stress_config *cfg)
{
	fprintf(stderr, "stress: --describe %s\n", NEEDS_LONG);
	return STRESS_EXIT_USAGE;
}
