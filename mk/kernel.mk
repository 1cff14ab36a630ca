# The hpcc under test and its API (AGREEMENTS C; docs/kernel-trees.md).
#
# scripts/probe compiles small programs (mk/probes/hpcc/*.c) against the
# hpcc header and writes $(BUILD)/kinc/hpcc_api.h: HPCC_API_* macros and
# HPCC_API_DESC. Make reruns it only when an input changes: the result is
# cached per build directory (one per KERNEL_SRC tree).
#
#   make hpcc-api        write (or refresh) the header
#   make hpcc-api-line   the one line naming the tree and its API
#
# Two steps: the "require" probes run before the hpcc object is compiled,
# so an unsupported tree is refused in one line instead of a page of
# compiler errors; the full set (with the run probes, linked against the
# hpcc object and kcompat) follows. Both keep each probe's result with its
# inputs in $(BUILD)/probe-cache (scripts/probe --cache): the full set
# compiles again only the probes the require set did not, and a build that
# changed only the hpcc object (a .c-only commit of a series) runs again
# only the probe that links it. The entries name neither the build
# directory nor the tree's (--build): a copy of both (a mutant's,
# scripts/mutants) probes again only what read a file the copy changed,
# e.g. the run probe linking a mutated hpcc object. Other generated API
# headers (e.g. the OOM one) use the same script with their own probe
# directory.

HPCC_API_H	:= $(BUILD)/kinc/hpcc_api.h
HPCC_REQ_H	:= $(BUILD)/kinc/hpcc_require.h
HPCC_PROBES	:= $(sort $(wildcard mk/probes/hpcc/*.c))
# The refusal names the RFC API when it sees it: its probe runs with these.
HPCC_REQ_PROBES	:= $(shell grep -l -e '^// mode: require' -e '^// yes: rfc-' \
		   $(HPCC_PROBES) /dev/null 2>/dev/null)
HPCC_OBJ	:= $(BUILD)/hpcc/percpu_counter_tree.o
KC_OBJS		:= $(filter $(BUILD)/lib/kcompat/%,$(LIB_OBJS))
PROBE_CFLAGS	 = $(CFLAGS_ALL) $(HPCC_CFLAGS) $(CPPFLAGS_ALL)
PROBE_DEPS	:= scripts/probe $(BUILD)/.flags \
		   $(if $(KERNEL_SRC),$(BUILD)/kinc/linux/percpu_counter_tree.h,$(HPCC_HDR))
PROBE_ARGS	 = --cc '$(CC)' --cflags '$(PROBE_CFLAGS)' --guard _HPCC_API_H \
		   --what '$(if $(KERNEL_SRC),KERNEL_SRC=$(KSRC),lib/hpcc)' \
		   --define HPCC_API_KERNEL=$(if $(KERNEL_SRC),1,0) --cache $(BUILD)/probe-cache \
		   --build $(BUILD)

.PHONY: hpcc-api hpcc-api-line
hpcc-api: $(HPCC_API_H)

# scripts/probe rewrites a header only when its text changes (its
# dependents are not rebuilt for nothing) and touches HEADER.stamp at every
# run: make runs the probes for the stamp, so that a header left at its
# older time (a tree's header laid again with the same text) does not run
# them again at every later make. A header removed behind its stamp is
# written again.
PROBED_H_RECIPE	 = @test -f $@ || { rm -f $<; $(MAKE) --no-print-directory $@; }

$(HPCC_REQ_H) $(HPCC_API_H): %: %.stamp
	$(PROBED_H_RECIPE)

$(HPCC_REQ_H).stamp: $(HPCC_REQ_PROBES) $(PROBE_DEPS)
	@scripts/probe $(PROBE_ARGS) --out $(HPCC_REQ_H) $(HPCC_REQ_PROBES)

$(HPCC_OBJ): $(HPCC_REQ_H)
# kcompat waits for them too: a tree they refuse compiles nothing (it is
# judged through the adapter, which builds its own kcompat).
$(KC_OBJS): | $(HPCC_REQ_H)

$(HPCC_API_H).stamp: $(HPCC_PROBES) $(PROBE_DEPS) $(HPCC_OBJ) $(KC_OBJS)
	@scripts/probe $(PROBE_ARGS) --out $(HPCC_API_H) --link '$(HPCC_OBJ) $(KC_OBJS) $(LDLIBS_ALL)' \
		$(HPCC_PROBES)

# Everything but kcompat and the hpcc object may include the probed API.
$(filter-out $(KC_OBJS) $(HPCC_OBJ),$(LIB_OBJS)) $(STRESS_OBJS) $(TEST_LIB_OBJS) \
$(TEST_SRCS:%.c=$(BUILD)/%.o): | $(HPCC_API_H)

hpcc-api-line:
	@mkdir -p $(BUILD)
	@$(MAKE) --no-print-directory -s $(HPCC_API_H) >$(BUILD)/probe-build.log 2>&1 || \
		{ cat $(BUILD)/probe-build.log; exit 2; }
	@echo "hpcc-stress: hpcc from $(HPCC_DESC); API: $$(sed -n \
		's/^#define HPCC_API_DESC "\(.*\)"/\1/p' $(HPCC_API_H))"
