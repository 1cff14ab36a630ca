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
