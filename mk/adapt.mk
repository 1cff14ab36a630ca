# The adapter (lib/hpcc_adapt, docs/kernel-trees.md#older-apis): one test
# program, $(BUILD)/adapt/test_hpcc_adapt, written against the suite's
# hpcc_a_*() operations, built for any API shape mk/probes/adapt/ knows,
# including the older ones the full suite refuses (the early RFC).
#
#   make adapt          build it (and its probed shape header)
#   make adapt-stress   $(BUILD)/adapt/stress: ./stress on that shape, its
#                       counter_storm through the adapter
#                       (src/scenarios/adapt/); oom_race and
#                       compaction_churn SKIP (they need the long API)
#
# It is built apart from the full suite: nothing here depends on the
# "require" probes of mk/kernel.mk, so a refused tree still builds it.

ADAPT_DIR	:= $(BUILD)/adapt
ADAPT_API_H	:= $(BUILD)/kinc/hpcc_adapt_api.h
ADAPT_BIN	:= $(ADAPT_DIR)/test_hpcc_adapt
ADAPT_PROBES	:= $(sort $(wildcard mk/probes/adapt/*.c))
ADAPT_CPPFLAGS	 = $(CPPFLAGS_ALL) -I$(BUILD)/kinc -Ilib/hpcc_adapt
ADAPT_KC_SRCS	:= $(wildcard lib/kcompat/*.c) lib/util/ktap.c
ADAPT_OBJS	:= $(ADAPT_DIR)/tests/test_hpcc_adapt.o $(ADAPT_DIR)/tests/ktap.o \
		   $(ADAPT_DIR)/percpu_counter_tree.o \
		   $(ADAPT_KC_SRCS:%.c=$(ADAPT_DIR)/%.o)
ADAPT_HDR_DEP	:= $(if $(KERNEL_SRC),$(BUILD)/kinc/linux/percpu_counter_tree.h)

.PHONY: adapt
adapt: $(ADAPT_BIN)

$(ADAPT_API_H): %: %.stamp
	$(PROBED_H_RECIPE)

$(ADAPT_API_H).stamp: $(ADAPT_PROBES) scripts/probe $(BUILD)/.flags $(ADAPT_HDR_DEP) $(HPCC_HDR)
	@scripts/probe --cc '$(CC)' --cflags '$(PROBE_CFLAGS)' --guard _HPCC_ADAPT_API_H \
		--what '$(if $(KERNEL_SRC),KERNEL_SRC=$(KSRC),lib/hpcc)' --out $(ADAPT_API_H) $(ADAPT_PROBES)

# The tree's own files, unchanged, as the full suite builds them.
$(ADAPT_DIR)/percpu_counter_tree.o: $(HPCC_SRC) $(BUILD)/.flags $(ADAPT_HDR_DEP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(HPCC_CFLAGS) $(CPPFLAGS_ALL) -c -o $@ $<

# kcompat and the KTAP writer: built here again, free of the probed API.
$(ADAPT_DIR)/lib/%.o: lib/%.c $(BUILD)/.flags
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(CPPFLAGS_ALL) -c -o $@ $<

# The test harness boots through the adapter (the RFC has no subsystem_init()).
$(ADAPT_DIR)/tests/ktap.o: tests/lib/ktap.c $(ADAPT_API_H) $(BUILD)/.flags $(ADAPT_HDR_DEP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(ADAPT_CPPFLAGS) -include hpcc_adapt.h -c -o $@ $<

$(ADAPT_DIR)/tests/test_hpcc_adapt.o: tests/seam/adapt/test_hpcc_adapt.c lib/hpcc_adapt/hpcc_adapt.h \
		$(ADAPT_API_H) $(BUILD)/.flags $(ADAPT_HDR_DEP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(ADAPT_CPPFLAGS) -c -o $@ $<

$(ADAPT_BIN): $(ADAPT_OBJS)
	$(CC) $(CFLAGS_ALL) -o $@ $(ADAPT_OBJS) $(LDLIBS_ALL)

# ./stress through the adapter: the engine (src/*.c but --describe, which
# cross-checks lib/hpcc's layout) and src/scenarios/adapt/ instead of the
# scenarios of the long API; hpcc_api.h there names the adapter's shape.
# Only the files that name the counter or the adapter themselves
# (ADAPT_ST_READS: src/main.c, src/replay.c, src/report.c and
# src/scenarios/adapt/*.c) are compiled with -include hpcc_adapt.h and
# rebuilt whenever the probed shape or the tree's header changes; the
# others are compiled without it (the same objects: nothing of theirs
# reads it), rebuilt when a file their dependency files name changes, so
# a commit of a series that changes the API under the adapter compiles
# five engine objects, not 29. They are not the full suite's objects
# (those wait for its probes, mk/kernel.mk, which refuse the trees the
# adapter is for).
ADAPT_STRESS	:= $(ADAPT_DIR)/stress
ADAPT_ST_SRCS	:= $(filter-out src/describe.c,$(wildcard src/*.c)) \
		   $(wildcard src/scenarios/adapt/*.c)
ADAPT_ST_READS	:= $(shell grep -lE 'percpu_counter_tree|hpcc_a_|HPCC_A|hpcc_adapt' \
		   $(ADAPT_ST_SRCS) /dev/null 2>/dev/null)
ADAPT_ST_OBJS	:= $(ADAPT_ST_SRCS:%.c=$(ADAPT_DIR)/%.o) $(ADAPT_DIR)/percpu_counter_tree.o \
		   $(patsubst %.c,$(ADAPT_DIR)/%.o,$(wildcard lib/kcompat/*.c lib/shape/*.c \
		   lib/util/*.c))
ADAPT_ST_CPPFLAGS = -Isrc/scenarios/adapt/include $(ADAPT_CPPFLAGS)

.PHONY: adapt-stress
adapt-stress: $(ADAPT_STRESS)

$(ADAPT_ST_READS:%.c=$(ADAPT_DIR)/%.o): $(ADAPT_DIR)/%.o: %.c lib/hpcc_adapt/hpcc_adapt.h \
		$(ADAPT_API_H) $(BUILD)/.flags $(ADAPT_HDR_DEP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(ADAPT_ST_CPPFLAGS) -include hpcc_adapt.h -c -o $@ $<

# The header a file includes is there before it is compiled (order-only);
# a change of it rebuilds what its dependency file names (the tree's
# header by the build's copy, as the full suite's objects do).
$(filter-out $(ADAPT_ST_READS:%.c=$(ADAPT_DIR)/%.o),$(ADAPT_ST_SRCS:%.c=$(ADAPT_DIR)/%.o)): \
		$(ADAPT_DIR)/%.o: %.c $(BUILD)/.flags | $(ADAPT_API_H) $(ADAPT_HDR_DEP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(ADAPT_ST_CPPFLAGS) -c -o $@ $<
	$(khdr_dep_fix)

$(ADAPT_STRESS): $(ADAPT_ST_OBJS)
	$(CC) $(CFLAGS_ALL) -o $@ $(ADAPT_ST_OBJS) $(LDLIBS_ALL)

# The adapter's range plumbing, in make check: tests/unit/test_hpcc_adapt_range_*.c
# compile it against a fixture header of each shape (tests/lib/adapt_fixture),
# found before any tree's header; nothing of a tree is built ("private": the
# build's .flags and probes, its prerequisites, keep the flags of the build).
$(BUILD)/tests/unit/test_hpcc_adapt_range_%.o: private CPPFLAGS_ALL := -Itests/lib/adapt_fixture \
		-Ilib/hpcc_adapt $(CPPFLAGS_ALL)
