# Detection power: build each seeded bug of mutants/ and show
# that the suite catches it; see docs/mutants.md.
#
#   make mutants          every mutant, plus 20 clean seeds per stress
#                         configuration of mutants/fp.conf (false positives)
#   make mutants-quick    the CI subset (Quick: yes) and 3 clean seeds
#   MUTANTS_ARGS=...      extra arguments, e.g. mutant names or --keep
#
# Work trees and builds go to $(BUILD)-mutants[-quick], never into $(BUILD).

MUTANTS_ARGS	?=

.PHONY: mutants mutants-quick
mutants:
	@BUILD=$(BUILD) CC='$(CC)' scripts/mutants $(MUTANTS_ARGS)

mutants-quick:
	@BUILD=$(BUILD) CC='$(CC)' scripts/mutants --quick $(MUTANTS_ARGS)

# A fixed sample of generated mutants (docs/mutants.md#generated-mutants),
# each run up to its first detection by its area's unit tests only: every
# one must be killed or reviewed in mutants/gen-verdicts. The names are
# stable under edits elsewhere in these files (scripts/mutgen).
MUTGEN_QUICK_FILES := lib/hpcc/percpu_counter_tree.c lib/shape/hpcc_window.c \
		      lib/shape/hpcc_residual.c
.PHONY: mutants-gen-quick
mutants-gen-quick:
	@BUILD=$(BUILD) CC='$(CC)' scripts/mutants --generate --quick --no-fp --tests-only \
		--seed 1 --sample 6 --files $(MUTGEN_QUICK_FILES) \
		--work '$(BUILD)-mutgen-quick' $(MUTANTS_ARGS)
