# Systematic schedule exploration (docs/explore.md): a separate build of
# kcompat with a scheduling point at every shared access (-DKC_EXPLORE),
# in $(BUILD)/explore; the stress build is untouched.
#
#   make explore          build $(BUILD)/explore/explore and run two
#                         counter_storm configurations, batch 2, preemption
#                         bound 2, every schedule (--reduction none):
#                         2 vCPUs x 3 adds + 1 reader (EXPLORE_ARGS), then
#                         3 vCPUs x 3 adds + 1 reader (EXPLORE_LEVEL_ARGS:
#                         a tree with a level between the CPUs and the root)
#   EXPLORE_ARGS=...      other arguments: that run only
#   XP_ADAPT=1            a tree with an older hpcc API (one mk/kernel.mk
#                         refuses): counter_storm through lib/hpcc_adapt,
#                         its shape probed as mk/adapt.mk does; no oom or
#                         compaction harness (docs/explore.md#older-apis)

ifeq ($(XP_INNER),1)
# The inner build (BUILD is already $(outer BUILD)/explore). The engine's
# option rows and lib/util's KTAP and JSON writers, as ./stress has them;
# built in a folder of their own, free of the probed API, so that a tree
# the probes refuse (XP_ADAPT) builds them too.
XP_SHARED_OBJS	:= $(patsubst %.c,$(BUILD)/xp-shared/%.o,src/opts.c src/parse.c \
		   lib/util/json.c lib/util/ktap.c)
$(BUILD)/xp-shared/%.o: %.c $(BUILD)/.flags
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(CPPFLAGS_ALL) -c -o $@ $<
ifeq ($(XP_ADAPT),1)
# Nothing here reads the "require" probes: the tree's file is built as
# mk/adapt.mk builds it, kcompat and lib/shape free of the probed API.
XP_OBJS		:= $(patsubst %.c,$(BUILD)/%.o,$(filter-out src/explore/oom.c \
		   src/explore/compaction.c src/explore/zone_desc.c,$(wildcard src/explore/*.c)) src/explore/adapt/no_mm.c)
XP_LIB_OBJS	:= $(patsubst %.c,$(ADAPT_DIR)/%.o,$(wildcard lib/kcompat/*.c lib/shape/*.c)) \
		   $(ADAPT_DIR)/percpu_counter_tree.o
$(BUILD)/src/explore/storm.o $(BUILD)/src/explore/adapt/no_mm.o: CPPFLAGS_ALL += \
		   -I$(BUILD)/kinc -Ilib/hpcc_adapt
$(BUILD)/src/explore/storm.o $(BUILD)/src/explore/adapt/no_mm.o: $(ADAPT_API_H)
else
XP_OBJS		:= $(patsubst %.c,$(BUILD)/%.o,$(wildcard src/explore/*.c))
XP_LIB_OBJS	:= $(patsubst %.c,$(BUILD)/%.o,$(wildcard lib/kcompat/*.c lib/shape/*.c) \
		   lib/mm/compaction.c lib/mm/oom_task.c lib/mm/oom_select.c) \
		   $(BUILD)/hpcc/percpu_counter_tree.o
# A tree's own OOM selection and deferral, as mk/koom.mk and mk/kcompact.mk
# decide (they are read after this file).
XP_LIB_OBJS	+= $(if $(KERNEL_SRC),$(if $(wildcard $(KSRC)/mm/oom_kill.c),\
		   $(BUILD)/lib/mm/oom_kernel.o) $(if $(wildcard $(KSRC)/mm/compaction.c),\
		   $(BUILD)/lib/mm/kcompact_kernel.o))
endif
$(BUILD)/explore: $(XP_OBJS) $(XP_SHARED_OBJS) $(XP_LIB_OBJS)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)
else
XP_BUILD	:= $(BUILD)/explore
XP_BIN		:= $(XP_BUILD)/explore
# Every schedule (a "complete" verdict); docs/explore.md's make explore lines
# say so, and tests/cli/explore_target.sh holds them together. 2 vCPUs give
# the tree no level between the CPUs and the root; 3 do (lib/shape).
EXPLORE_ARGS	?= --cpus 2 --adds 3 --readers 1 --batch 2 --bound 2 --reduction none
EXPLORE_LEVEL_ARGS ?= --cpus 3 --adds 3 --readers 1 --batch 2 --bound 2 --reduction none
# EXPLORE_ARGS given on the command line or in the environment: that run only.
ifneq ($(origin EXPLORE_ARGS),file)
EXPLORE_LEVEL_ARGS :=
endif
# A kernel tree reads other CPUs' words with plain loads through
# per_cpu_ptr() (lib/hpcc with READ_ONCE): each is a point there.
XP_TREE_FLAGS	:= $(if $(KERNEL_SRC),-DKC_XP_PCPU_READ) $(if $(filter 1,$(XP_ADAPT)),-DXP_ADAPT)
# Built by default only for lib/hpcc without a sanitizer: the harness uses
# lib/hpcc's API (a kernel tree's may differ), and the fibers are not
# annotated for the sanitizers.
ifeq ($(KERNEL_SRC)$(SAN),)
all: $(XP_BIN)
endif

.PHONY: explore
$(XP_BIN): FORCE
	@$(MAKE) --no-print-directory XP_INNER=1 BUILD='$(XP_BUILD)' \
		EXTRA_CFLAGS='$(EXTRA_CFLAGS) -DKC_EXPLORE $(XP_TREE_FLAGS)' '$(XP_BIN)'

explore: $(XP_BIN)
	$(XP_BIN) $(EXPLORE_ARGS)
	$(if $(strip $(EXPLORE_LEVEL_ARGS)),$(XP_BIN) $(EXPLORE_LEVEL_ARGS))
endif

# ./stress --replay SCHEDULE runs this build's explorer, also from the
# root's copy of ./stress (src/replay_explore.c). The path is compiled in
# and .flags leaves $(BUILD) out: a build directory copied under another
# name (scripts/mutants' baseline) rebuilds the object from this stamp.
$(BUILD)/src/replay_explore.o: CPPFLAGS_ALL += -DSTRESS_XP_BIN='"$(BUILD)/explore/explore"'
$(BUILD)/src/replay_explore.o: $(BUILD)/.xp-bin
$(BUILD)/.xp-bin: FORCE
	@mkdir -p $(@D)
	@echo '$(BUILD)/explore/explore' | cmp -s - $@ || echo '$(BUILD)/explore/explore' > $@
