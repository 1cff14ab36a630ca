# Regression checks and race hunting: see docs/regress.md.
#
#   make regress           the matrix (every scenario x CPUs 1..4096 x batch
#                          2/32/256) within REGRESS_BUDGET, compared with
#                          tests/regress/regress-baseline.json; KTAP on stdout
#   make regress-baseline  the same, then store it as the baseline (only
#                          when every cell passed; groups are merged)
#   make replay-demo       the done-when check on a seeded mutant (MUTANT):
#                          --until-fail, --replay 10 times, --shrink, in a
#                          temporary copy of the tree
#   REGRESS_ARGS=...       more scripts/regress options (--seeds, --cpus,
#                          --sshloginfile HOSTS, --jobs, --tolerance, ...)

REGRESS_BUDGET	?= 10m
REGRESS_ARGS	?=
MUTANT		?= hpcc-drop-level-carry

.PHONY: regress regress-baseline replay-demo
regress: deps $(BUILD)/stress
	@scripts/regress --stress $(BUILD)/stress --budget $(REGRESS_BUDGET) $(REGRESS_ARGS)

regress-baseline: deps $(BUILD)/stress
	@scripts/regress --stress $(BUILD)/stress --budget $(REGRESS_BUDGET) \
		--update-baseline $(REGRESS_ARGS)

replay-demo: deps
	@CC='$(CC)' scripts/shrink --demo $(MUTANT)
