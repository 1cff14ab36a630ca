# hpcc-stress: build, test and run. See README.md.
#
#   make                 build the library, the tests and ./stress
#   make check           install missing dependencies, build, run every test
#   make KERNEL_SRC=DIR  build against DIR/lib/percpu_counter_tree.c and
#                        DIR/include/linux/percpu_counter_tree.h instead of lib/hpcc
#   make BUILD=DIR       put every output in DIR (parallel builds, sanitizers)

CC		?= cc
NR_CPUS		?= 8192
KERNEL_SRC	?=
SAN		?=

CCNAME		:= $(notdir $(firstword $(CC)))
ifneq ($(KERNEL_SRC),)
KSRC		:= $(abspath $(KERNEL_SRC))
KSRC_TAG	:= -kernel-$(firstword $(shell echo '$(KSRC)' | cksum))
endif
DEFAULT_BUILD	:= build/$(CCNAME)$(if $(SAN),-$(SAN))$(KSRC_TAG)
BUILD		?= $(DEFAULT_BUILD)

WARN		:= -Wall -Wextra -Werror -Wno-unused-parameter
# Sanitizer builds use -O1 (the TSan/ASan recommendation). The TSan and
# ASan builds keep only the debug information a report's stacks read (the
# line tables: functions, files, lines and inlined frames), not the types
# and variables a debugger would, and link with lld when it is installed
# (each links the sanitizer's static runtime into some fifty programs):
# the same reports for less CPU (docs/sanitizers.md). DEBUG_INFO=0: no -g
# in the others (a series' lanes: nothing they run reads it).
SAN_DEBUG	:= $(if $(findstring clang,$(CCNAME)),-gline-tables-only,-g1)
SAN_LD		:= $(if $(shell command -v ld.lld 2>/dev/null),-fuse-ld=lld)
CFLAGS_OPT	?= $(if $(SAN),-O1 $(if $(filter tsan asan,$(SAN)),$(SAN_DEBUG),-g),-O2$(if $(filter 0,$(DEBUG_INFO)),, -g))
CFLAGS_ALL	:= -std=gnu11 $(CFLAGS_OPT) $(WARN) -pthread -fno-strict-overflow \
		   -fno-strict-aliasing -D_GNU_SOURCE -DCONFIG_SMP=1 \
		   -DNR_CPUS=$(NR_CPUS) -MMD -MP $(EXTRA_CFLAGS)
LDLIBS_ALL	:= -lurcu-memb -lurcu-qsbr -lurcu-bp -lck -lm -pthread $(EXTRA_LDLIBS)

ifeq ($(SAN),tsan)
CFLAGS_ALL	+= -fsanitize=thread -fno-omit-frame-pointer
LDLIBS_ALL	+= -fsanitize=thread $(SAN_LD)
else ifeq ($(SAN),asan)
CFLAGS_ALL	+= -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer
LDLIBS_ALL	+= -fsanitize=address,undefined $(SAN_LD)
endif

# The hpcc implementation under test: ours, or a kernel tree's, unchanged.
ifneq ($(KERNEL_SRC),)
HPCC_SRC	:= $(KSRC)/lib/percpu_counter_tree.c
HPCC_HDR	:= $(KSRC)/include/linux/percpu_counter_tree.h
HPCC_INC	:= -I$(BUILD)/kinc
# Kernel files are built as the kernel builds them (W=0).
HPCC_CFLAGS	:= -Wno-sign-compare -Wno-missing-field-initializers \
		   -Wno-pointer-arith -Wno-unused-function
# Under TSan with clang: the kernel's plain per-CPU sum loads are not a
# race by the kernel's rules (tsan/kernel-tree.ignorelist says why).
ifeq ($(SAN),tsan)
HPCC_CFLAGS	+= $(if $(findstring clang,$(CCNAME)),\
		   -fsanitize-ignorelist=$(CURDIR)/tsan/kernel-tree.ignorelist)
endif
HPCC_DESC	:= $(KSRC)
# The tree's header is read from a directory named by its content,
# KHDR_STORE/SUM/linux/percpu_counter_tree.h (KHDR_STORE: default the build's
# own khdr; scripts/kernel-check --git gives one to a whole series), first on
# the include path. Builds of trees with the same header, in build
# directories of their own, then compile the objects that include it from
# the same path: the preprocessor's line markers, which ccache hashes, are
# the same, so they share those objects. $(BUILD)/kinc/linux keeps a copy
# whose time moves only when the tree's header does: the prerequisite of
# the rules that name the header, what a dependency file names in place of
# the store's path (khdr_dep_fix), and what -I$(BUILD)/kinc finds (.flags).
KHDR_STORE	?= $(BUILD)/khdr
KHDR_SUM	:= $(shell sha256sum '$(HPCC_HDR)' 2>/dev/null | cut -c1-16)
KHDR_DIR	:= $(abspath $(KHDR_STORE))/$(or $(KHDR_SUM),none)
KHDR		:= $(KHDR_DIR)/linux/percpu_counter_tree.h
KHDR_INC	:= -I$(KHDR_DIR)
# An object's dependency file names the build's copy in place of the
# store's path: a store's header never changes (another header is another
# path), so an object compiled against one must follow the copy to see
# the next.
khdr_dep_fix	= @sed -i 's|$(KHDR)|$(BUILD)/kinc/linux/percpu_counter_tree.h|' $(@:.o=.d)
else
HPCC_SRC	:= lib/hpcc/percpu_counter_tree.c
HPCC_HDR	:= lib/hpcc/include/linux/percpu_counter_tree.h
HPCC_INC	:= -Ilib/hpcc/include
HPCC_DESC	:= lib/hpcc
endif

# $(BUILD)/kinc: generated headers (the probed API: hpcc_api.h, mk/kernel.mk).
CPPFLAGS_ALL	:= $(KHDR_INC) $(HPCC_INC) $(if $(KERNEL_SRC),,-I$(BUILD)/kinc) -Ilib/kcompat/include \
		   -Ilib -Isrc -Itests/lib -DHPCC_SOURCE='"$(HPCC_DESC)"'

# lib/mm/oom_kernel.c is the kernel tree's OOM selection: mk/koom.mk adds it;
# lib/mm/kcompact_kernel.c its compaction deferral: mk/kcompact.mk.
LIB_SRCS	:= $(filter-out lib/mm/oom_kernel.c lib/mm/kcompact_kernel.c,\
		   $(wildcard lib/kcompat/*.c lib/shape/*.c lib/mm/*.c lib/util/*.c))
LIB_OBJS	:= $(LIB_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/hpcc/percpu_counter_tree.o
LIBSUITE	:= $(BUILD)/libsuite.a

STRESS_SRCS	:= $(filter-out src/scenarios/adapt/%,$(wildcard src/*.c src/scenarios/*/*.c))
STRESS_OBJS	:= $(STRESS_SRCS:%.c=$(BUILD)/%.o)

TEST_LIB_SRCS	:= $(wildcard tests/lib/*.c)
TEST_LIB_OBJS	:= $(TEST_LIB_SRCS:%.c=$(BUILD)/%.o)
TEST_SRCS	:= $(wildcard tests/unit/test_*.c)
# The binaries keep one flat directory: $(BUILD)/tests/test_NAME.
TEST_BINS	:= $(TEST_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all check check-long check-unit deps clean FORCE
# Keep test objects (make would delete them as intermediates and rebuild).
.SECONDARY:
all: $(BUILD)/stress $(TEST_BINS) $(EXTRA_ALL)
ifeq ($(BUILD),$(DEFAULT_BUILD))
ifeq ($(SAN),)
all: stress
endif
endif

# ./stress is the last default build's binary (ours or KERNEL_SRC's).
stress: $(BUILD)/stress FORCE
	@cmp -s $< $@ || cp $< $@

# The flags every object depends on, without the build directory's own
# name: a copy of a build (scripts/mutants) stays up to date; nor the
# header's directory, which moves with the header's content (the objects
# that include it follow it through their dependency files).
flags_text	= $(subst $(BUILD)/,BUILD/,$(if $(KHDR_INC),$(subst $(KHDR_INC) ,,$(1)),$(1)))
$(BUILD)/.flags: FORCE
	@mkdir -p $(@D)
	@echo '$(call flags_text,$(CC) $(CFLAGS_ALL) $(CPPFLAGS_ALL) $(HPCC_SRC) $(HPCC_CFLAGS))' \
		> $@.new
	@cmp -s $@.new $@ && rm $@.new || mv $@.new $@

$(BUILD)/kinc/linux/percpu_counter_tree.h: $(HPCC_HDR) | $(KHDR)
	@mkdir -p $(@D)
	cp $< $@

ifneq ($(KERNEL_SRC),)
# Written once per content (never touched again: builds sharing the
# store would see it newer than their objects), through a rename.
$(KHDR): | $(HPCC_HDR)
	@mkdir -p $(@D)
	@cp $(HPCC_HDR) $@.$$$$ && mv -f $@.$$$$ $@
endif

$(BUILD)/hpcc/percpu_counter_tree.o: $(HPCC_SRC) $(BUILD)/.flags \
		$(if $(KERNEL_SRC),$(BUILD)/kinc/linux/percpu_counter_tree.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(HPCC_CFLAGS) $(CPPFLAGS_ALL) -c -o $@ $<

# The tree's header is there before any object is compiled; an object
# that includes it depends on it through its dependency file (-MMD), so
# that a commit of a series that changes the header rebuilds only those.
$(BUILD)/%.o: %.c $(BUILD)/.flags \
		| $(if $(KERNEL_SRC),$(BUILD)/kinc/linux/percpu_counter_tree.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(CPPFLAGS_ALL) -c -o $@ $<
	$(khdr_dep_fix)

$(LIBSUITE): $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/stress: $(STRESS_OBJS) $(LIBSUITE)
	$(CC) $(CFLAGS_ALL) -o $@ $(STRESS_OBJS) $(LIBSUITE) $(LDLIBS_ALL)

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(TEST_LIB_OBJS) $(LIBSUITE)
	$(CC) $(CFLAGS_ALL) $(TEST_WRAP) -o $@ $< $(TEST_LIB_OBJS) $(LIBSUITE) $(LDLIBS_ALL)
# The swap test checks the vCPU hand-off at its futex wake.
$(BUILD)/tests/test_kcompat_swap: TEST_WRAP := -Wl,--wrap=syscall
# The OOM audit is fed candidate reports the selection never made.
$(BUILD)/tests/test_oom: TEST_WRAP := -Wl,--wrap=oom_select_bad_process

# The test runner (scripts/run-tests): one KTAP document from every program.
KTAP_RUN	:= $(BUILD)/ktap-run
all: $(KTAP_RUN)
$(KTAP_RUN): $(BUILD)/tests/lib/runner/ktap-run.o $(BUILD)/tests/lib/runner/order.o $(LIBSUITE)
	$(CC) $(CFLAGS_ALL) -o $@ $(filter %.o,$^) $(LIBSUITE) $(LDLIBS_ALL)

# Tests of ./stress's own parts (tests/unit/test_stress_*.c) link all of it but main().
STRESS_LIB_OBJS	:= $(filter-out $(BUILD)/src/main.o,$(STRESS_OBJS))
$(BUILD)/tests/test_stress_%: $(BUILD)/tests/unit/test_stress_%.o $(TEST_LIB_OBJS) \
		$(STRESS_LIB_OBJS) $(LIBSUITE)
	$(CC) $(CFLAGS_ALL) $(TEST_WRAP) -o $@ $< $(TEST_LIB_OBJS) $(STRESS_LIB_OBJS) \
		$(LIBSUITE) $(LDLIBS_ALL)
# Its checkers' unit tests stand in for a wrong library at these calls.
$(BUILD)/tests/test_stress_checkers: TEST_WRAP := -Wl,--wrap=compaction_note_success \
	-Wl,--wrap=compaction_failed_reset -Wl,--wrap=percpu_counter_tree_precise_compare

deps:
	@scripts/install-deps --if-missing

# Every test: unit-test binaries and tests/*/*.sh, aggregated as one KTAP
# document; then every KTAP stream of the run goes through the strict
# validator, which also checks the "# Totals:" line against the results;
# the last line is those totals in words ("N passed, N failed, N skipped").
# The first line names the hpcc under test and its probed API (mk/kernel.mk).
# With KERNEL_SRC the unit tests judge the tree; tests/*/*.sh test the tool
# (options, reports, stops, replay) with a ./stress built from lib/hpcc in
# $(BUILD)-tool, so that a finding in the tree is reported once, by the
# unit tests that name it, and not again by every CLI case that expects a
# passing run. The tree's own ./stress is $(BUILD)/stress (scripts/kernel-check
# runs it).
TOOL_BUILD	:= $(BUILD)-tool
# A script's tier is a line of its own: "# tier: long" puts it in the long
# tier (make check-long, run in CI): the tests that build the suite again
# per fixture tree, or run scripts/regress over a matrix; a script without
# one runs in make check. tests/lib/sh/ holds sourced helpers, one level down.
ALL_SH		:= $(sort $(wildcard tests/*/*.sh))
CHECK_LONG_SH	:= $(shell grep -l -x '\# tier: long' $(ALL_SH))
# A tier line naming no tier: make check refuses to run.
BAD_TIER	:= $(shell grep -H '^\# tier:' $(ALL_SH) | grep -v ':\# tier: \(check\|long\)$$')
CHECK_ALL_SH	:= $(filter-out $(CHECK_LONG_SH),$(ALL_SH))
# The slowest scripts start first (most of their time is waiting for a
# watchdog, a signal or the other threads), so that two at a time none of
# them is left running alone at the end; the rest in name order.
CHECK_SLOW_SH	:= tests/cli/cli_stops.sh tests/cli/cli_stress.sh tests/regress/frag_model.sh \
		   tests/cli/cli_outputs.sh tests/cli/cli_json.sh tests/cli/cli_honesty.sh
CHECK_SH	:= $(filter $(CHECK_ALL_SH),$(CHECK_SLOW_SH)) \
		   $(filter-out $(CHECK_SLOW_SH),$(CHECK_ALL_SH))
# Programs at once (scripts/run-tests --jobs); the document keeps its order.
# Twice the cores: most of the slowest scripts' time is waiting (for a
# watchdog's limit, a signal, a child), and a program that waits holds its
# slot; on 2 cores 4 at a time took make check from 68-73 s to 47 s.
NPROC		:= $(shell nproc 2>/dev/null || echo 1)
CHECK_JOBS	?= $(shell echo $$((2 * $(NPROC))))
# The build before the tests runs one job per core, unless make -jN
# already shares its job slots with the sub-make.
CHECK_MAKE_J	= $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))

# TESTS='GLOB...': only the programs whose names match one of the globs (a
# unit binary's test_NAME, a script's name without .sh), e.g. TESTS='cli_*'.
TESTS		?=
select_tests	= $(if $(TESTS),$(shell set -f; for p in $(foreach p,$(1),$(p):$(basename $(notdir $(p)))); do \
		  for g in $(TESTS); do case $$p in (*:$$g) echo $${p%%:*}; break;; esac; done; done),$(1))
CHECK_PROGS	= $(call select_tests,$(TEST_BINS) $(CHECK_SH))
UNIT_PROGS	= $(call select_tests,$(TEST_BINS))

# run_tests DIR,LOG,PROGRAMS[,ARGS]: PROGRAMS through scripts/run-tests into one
# KTAP document LOG, each program's own output kept in DIR; then each
# stream through the strict validator (a unit binary's with its plan, a
# script's may omit it), and the last line is the totals in words.
define run_tests
	@if [ -n '$(BAD_TIER)' ]; then echo 'make: a tier line naming no tier (check or long): $(BAD_TIER)' >&2; exit 2; fi
	@if [ -z '$(strip $(3))' ]; then echo 'make: TESTS=$(TESTS) matches no test program' >&2; exit 2; fi
	@rm -rf $(1); \
	BUILD=$(BUILD) CC='$(CC)' $(if $(KERNEL_SRC),STRESS='$(abspath $(TOOL_BUILD))/stress') \
		scripts/run-tests --jobs $(CHECK_JOBS) --log $(2) --keep $(1) $(4) $(3); rc=$$?; \
	python3 tests/lib/ktap_validate.py --quiet --totals $(2) \
		$(patsubst $(BUILD)/tests/%,$(1)/%.ktap,$(filter $(BUILD)/tests/%,$(3))) || rc=1; \
	$(if $(filter %.sh,$(3)),python3 tests/lib/ktap_validate.py --quiet --no-plan \
		$(patsubst %.sh,$(1)/%.ktap,$(notdir $(filter %.sh,$(3)))) || rc=1;) \
	sed -n 's/^\# Totals: pass:\([0-9]*\) fail:\([0-9]*\) skip:\([0-9]*\).*/\1 passed, \2 failed, \3 skipped/p' \
		$(2) | tail -n 1; exit $$rc
endef

check: deps
	@$(MAKE) --no-print-directory $(CHECK_MAKE_J) hpcc-api-line
	@$(MAKE) --no-print-directory $(CHECK_MAKE_J) all
ifneq ($(KERNEL_SRC),)
	@$(MAKE) --no-print-directory $(CHECK_MAKE_J) KERNEL_SRC= BUILD='$(TOOL_BUILD)' '$(TOOL_BUILD)/stress' \
		$(FUZZ_TARGETS:%='$(TOOL_BUILD)/fuzz/%-standalone')
	@echo "hpcc-stress: unit tests judge $(KSRC); tests/*/*.sh test the tool with $(TOOL_BUILD)/stress (lib/hpcc); the tree's ./stress is $(BUILD)/stress"
endif
	$(call run_tests,$(BUILD)/ktap,$(BUILD)/check.ktap,$(CHECK_PROGS))

# The one-second loop: the unit-test programs only (no script, no
# dependency check), built first. The slowest programs start first, as
# the last run timed them ($(BUILD)/check-unit.times): the alphabet put
# test_hpcc_shape, the longest, sixteenth.
check-unit:
	@$(MAKE) --no-print-directory $(CHECK_MAKE_J) $(TEST_BINS) $(KTAP_RUN)
	$(call run_tests,$(BUILD)/ktap-unit,$(BUILD)/check-unit.ktap,$(UNIT_PROGS),--order $(BUILD)/check-unit.times)

# The long tier: same runner and validator, the tests make check leaves out.
check-long: deps
	@$(MAKE) --no-print-directory $(CHECK_MAKE_J) all
ifneq ($(KERNEL_SRC),)
	@$(MAKE) --no-print-directory $(CHECK_MAKE_J) KERNEL_SRC= BUILD='$(TOOL_BUILD)' '$(TOOL_BUILD)/stress'
endif
	$(call run_tests,$(BUILD)/ktap-long,$(BUILD)/check-long.ktap,$(call select_tests,$(CHECK_LONG_SH)))

clean:
	rm -rf build stress

# Further targets (sanitizers, benchmarks, mutants, regression) live in mk/.
-include $(sort $(wildcard mk/*.mk))

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
