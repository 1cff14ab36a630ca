// SPDX-License-Identifier: GPL-2.0
/*
 * The explorer on an older hpcc API (XP_ADAPT, docs/explore.md#older-apis):
 * the oom, compaction and zone_desc harnesses build on the mm model, which needs the
 * long API, so they are not built; asking for one is refused in one line.
 */
#include <stdio.h>
#include "../xp.h"
#include "hpcc_adapt_api.h"

static int no_mm_init(const struct xp_cfg *cfg)
{
	fprintf(stderr, "explore: harness %s needs the long hpcc API; this tree's is %s "
		"(counter_storm only)\n", cfg->harness, HPCC_ADAPT_API_DESC);
	return -1;
}

static const struct xp_harness xp_oom_harness = {
	.name = "oom",
	.alias = "oom_race",
	.init = no_mm_init,
};
XP_HARNESS_REGISTER(xp_oom_harness);

static const struct xp_harness xp_compaction_harness = {
	.name = "compaction",
	.init = no_mm_init,
};
XP_HARNESS_REGISTER(xp_compaction_harness);

static const struct xp_harness xp_zone_desc_harness = {
	.name = "zone_desc",
	.init = no_mm_init,
};
XP_HARNESS_REGISTER(xp_zone_desc_harness);
