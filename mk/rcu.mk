# RCU flavors, the rcutorture way (lib/kcompat/rcu.c, docs/sanitizers.md):
# every RCU-using unit test and every scenario under each flavor.
#
#   make check-rcu       the matrix on the normal build: the unit tests that
#                        use RCU (KC_RCU_FLAVOR=F) and every scenario at
#                        --cpus 8 and 256 (--rcu F), for each F
#   make mutants-rcu     the mutants that free without a grace period, each
#                        caught under each flavor (KC_RCU_FLAVOR=F for the
#                        whole mutant run: unit tests and ./stress)
#
# make check-tsan and check-asan run the matrix too, at --cpus 8, for the
# flavors besides memb (SAN_RCU_FLAVORS); make tsan-selftest runs every RCU
# self-test under each flavor.

RCU_FLAVORS	?= memb qsbr bp ck-epoch
RCU_EMPTY	:=
RCU_LIST	= $(subst $(RCU_EMPTY) ,$(RCU_COMMA),$(strip $(1)))
RCU_COMMA	:= ,
RCU_MUTANTS	?= oom-task-free-no-gp cmp-desc-free-no-gp oom-pass2-outside-rcu

.PHONY: check-rcu mutants-rcu

check-rcu: deps
	@$(MAKE) --no-print-directory all
	@SAN_JOBS='$(SAN_JOBS)' SAN_MAIN=0 SAN_RCU_FLAVORS='$(RCU_FLAVORS)' SAN_RCU_CPUS='8 256' \
		tsan/run-sanitized plain '$(BUILD)'

# Plus each flavor's own way to free without a grace period (mutants/rcu-*,
# each with Env: KC_RCU_FLAVOR=its flavor). One baseline build for all;
# each mutant up to its first detection (--quick with named mutants).
mutants-rcu:
	@BUILD=$(BUILD) CC='$(CC)' scripts/mutants --quick --no-fp --work '$(BUILD)-mutants-rcu' \
		--env-each KC_RCU_FLAVOR=$(call RCU_LIST,$(RCU_FLAVORS)) \
		$(MUTANTS_ARGS) $(RCU_MUTANTS) $(notdir $(basename $(wildcard mutants/rcu-*.patch)))
