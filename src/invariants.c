// SPDX-License-Identifier: GPL-2.0
/*
 * Every invariant name a run can report (stress_fail*() callers, the
 * watchdog, and the replay search's "crash"/"timeout"/"?" outcomes): a replay
 * file's 'expect' and 'outcome fail' must name one of them, so a typo is
 * refused instead of never matching. tests/cli/cli_replay_input.sh checks
 * this table against the names the sources pass.
 */
#include <string.h>
#include "replay.h"

static const char *const names[] = {
	/* engine, watchdog, hotplug, replay search */
	"watchdog", "no_warn", "hotplug", "crash", "timeout", "?", "selftest",
	"inject", "stutter",
	/* storm scenarios */
	"approx_window", "precise_window", "compare", "conservation", "contract",
	"min_max", "positive", "quiescence", "set", "settled_bound", "set_race",
	"edge_state",
	/* oom scenarios */
	"abort_needs_victim", "abort_on_victim", "approx_badness_contract",
	"approx_badness_nonnegative", "bounded_window", "exact_in_window",
	"no_use_after_free", "oracle_precise", "oracle_victim", "oracle_coverage",
	"precise_badness", "precise_budget", "task_leak", "v16_max_shortfall",
	"victim_killable", "victim_not_adj_min", "victim_not_exited",
	"precise_candidate", "v16_candidate", "bounded_candidate",
	/* compaction */
	"after-reset", "deferral-range", "depth-writes", "desc-rcu", "exact-counts",
	"failed-order", "hpcc-decision", "hpcc-success-exact", "kernel-deferral",
	"limit-at-start", "limit-overshoot", "scanallfree-implies-depleted",
	"shift-range", "stable-average", "stable-limit", "threshold", "vmstat",
	"shadow-reset", "shadow-finish", "shadow-success", "shadow-fail",
	"shadow-failed-reset", "shadow-restarting", "shadow-depleted",
	/* the example scenario (docs/writing-a-scenario.md) */
	"example/precise", "example/accuracy",
};

bool stress_invariant_known(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}
