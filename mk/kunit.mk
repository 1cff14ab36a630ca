# A kernel tree's own KUnit suite, unchanged, in userspace (docs/kunit.md).
#
#   make KERNEL_SRC=DIR kunit [KUNIT_CPUS=N] [KUNIT_SEED=S] [KUNIT_ANY_API=1]
#                        build DIR/lib/tests/percpu_counter_tree_kunit.c with
#                        the KUnit shim (lib/kcompat/include/kunit/test.h)
#                        and run it on N virtual CPUs (1..4096, default 256);
#                        KTAP in $(BUILD)/kunit.ktap
#   make KERNEL_SRC=DIR kunit-tsan / kunit-asan
#                        the same under TSan (clang) / ASan+UBSan
#   make kunit-selftest  our own fixture suite (tests/seam/kunit/), which
#                        tests/seam/kunit_shim.sh runs in make check
#
# The shim's kernel headers beyond the shared ones (linux/kthread.h,
# wait.h, random.h, err.h, cpuhplock.h) sit in lib/kcompat/kunit/include,
# searched after lib/kcompat/include (and before /usr/include, whose uapi
# linux/wait.h and random.h are not these): a shared header of the same name
# wins. Helpers that belong in shared headers (cpumask_any_distribute(),
# kvcalloc()) are probed (mk/probes/kunit) and defined only when missing.

KUNIT_CPUS	?= 256
KUNIT_SEED	?= 1
KUNIT_REL	:= lib/tests/percpu_counter_tree_kunit.c
KUNIT_API_H	:= $(BUILD)/kinc/kunit_api.h
KUNIT_PROBES	:= $(sort $(wildcard mk/probes/kunit/*.c))
KUNIT_RT_SRCS	:= $(wildcard lib/kcompat/kunit/*.c)
# The shim's objects (a waiting case runs kthreads on kcompat's fiber
# switch, lib/kcompat/ctx.c: lib/kcompat/kunit/kthread.c).
KUNIT_RT_OBJS	:= $(KUNIT_RT_SRCS:lib/kcompat/kunit/%.c=$(BUILD)/kunit/rt/%.o)
# The KUnit binaries' per-CPU areas are KUNIT_PCPU_UNIT bytes apart (not
# kcompat's 1 MiB): a test's precise sum over 4096 CPUs then reads words on
# consecutive pages, whose page-table entries share cache lines, where a
# MiB apart every read missed the TLB and walked a page-table page of its
# own (docs/bench.md). A page and a cache line: the words of successive
# CPUs fall in different cache sets. Everything a KUnit binary links
# (kcompat, hpcc, the shim) is compiled with it, apart from the suite's
# objects; kcompat and hpcc without the shim's include directory.
# Only where a kernel tree's file is built (KERNEL_SRC): the fixture of
# the default build links the suite's kcompat, which costs make check no
# second build of it.
KUNIT_PCPU_UNIT	:= 4160
KUNIT_PU	:= $(if $(KERNEL_SRC),-DKC_PERCPU_UNIT=$(KUNIT_PCPU_UNIT))
KUNIT_CPPFLAGS	 = $(CPPFLAGS_ALL) -Ilib/kcompat/kunit/include $(KUNIT_PU)
# Every KUnit object depends on these flags too: a change of the unit
# rebuilds them all, never a binary of two layouts.
KUNIT_FLAGS	:= $(BUILD)/kunit/.flags
KUNIT_PU_DIR	:= $(if $(KERNEL_SRC),$(BUILD)/kunit/pu,$(BUILD))
KUNIT_KC_OBJS	:= $(KC_OBJS:$(BUILD)/%=$(KUNIT_PU_DIR)/%)
KUNIT_KC_OLD_OBJS := $(HANDOFF_OLD_OBJS:$(BUILD)/%=$(KUNIT_PU_DIR)/%) \
		     $(filter-out %/turn.o %/cpu.o,$(KUNIT_KC_OBJS))
KUNIT_HPCC_OBJ	:= $(BUILD)/kunit/pu/hpcc/percpu_counter_tree.o
KUNIT_FIXTURE	:= $(BUILD)/kunit/kunit_fixture
KUNIT_KBIN	:= $(BUILD)/kunit/percpu_counter_tree_kunit
KUNIT_KTAP	:= $(BUILD)/kunit.ktap
# A kernel file is built as the kernel builds it (W=0: warnings, no
# -Werror), except that a call to an undeclared function stays an error.
KUNIT_KFLAGS	 = $(HPCC_CFLAGS) -Wno-error -Werror=implicit-function-declaration \
		   -ffile-prefix-map=$(KSRC)/=

.PHONY: kunit kunit-tsan kunit-asan kunit-selftest kunit-probe

all: $(KUNIT_FIXTURE)
kunit-selftest: $(KUNIT_FIXTURE)

$(KUNIT_API_H): %: %.stamp
	$(PROBED_H_RECIPE)

$(KUNIT_API_H).stamp: $(KUNIT_PROBES) $(PROBE_DEPS)
	@scripts/probe --cc '$(CC)' --cflags '$(PROBE_CFLAGS)' --guard _KUNIT_API_H \
		--what 'the KUnit shim' --out $(KUNIT_API_H) $(KUNIT_PROBES)

$(KUNIT_FLAGS): $(BUILD)/.flags FORCE
	@mkdir -p $(@D)
	@echo '$(call flags_text,$(KUNIT_CPPFLAGS) $(KUNIT_PU))' > $@.new
	@cmp -s $@.new $@ && rm $@.new || mv $@.new $@

$(BUILD)/kunit/pu/lib/kcompat/%.o: lib/kcompat/%.c $(KUNIT_FLAGS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(CPPFLAGS_ALL) $(KUNIT_PU) -c -o $@ $<

$(BUILD)/kunit/pu/handoff-old/lib/kcompat/%.o: lib/kcompat/%.c $(KUNIT_FLAGS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -DKC_HANDOFF_OLD $(CPPFLAGS_ALL) $(KUNIT_PU) -c -o $@ $<

# KUNIT_ANY_API=1 builds a tree of an older API too (scripts/findings'
# cases for the adapter's shapes, written against that API): no refusal in
# one line by the full suite's API probes; what the file lacks is a
# compile error.
$(KUNIT_HPCC_OBJ): $(HPCC_SRC) $(KUNIT_FLAGS) $(if $(KUNIT_ANY_API),,$(HPCC_REQ_H)) \
		$(if $(KERNEL_SRC),$(BUILD)/kinc/linux/percpu_counter_tree.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(HPCC_CFLAGS) $(CPPFLAGS_ALL) $(KUNIT_PU) -c -o $@ $<

$(BUILD)/kunit/rt/%.o: lib/kcompat/kunit/%.c $(KUNIT_FLAGS) | $(KUNIT_API_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(KUNIT_CPPFLAGS) -c -o $@ $<

$(BUILD)/kunit/fixture/%.o: tests/seam/kunit/%.c $(KUNIT_FLAGS) | $(KUNIT_API_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(KUNIT_CPPFLAGS) -c -o $@ $<

$(KUNIT_FIXTURE): $(BUILD)/kunit/fixture/kunit_fixture.o $(KUNIT_RT_OBJS) $(KUNIT_KC_OBJS)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

ifneq ($(KERNEL_SRC),)
KUNIT_SRC	:= $(KSRC)/$(KUNIT_REL)

$(BUILD)/kunit/percpu_counter_tree_kunit.o: $(KUNIT_SRC) $(KUNIT_FLAGS) \
		$(BUILD)/kinc/linux/percpu_counter_tree.h | $(KUNIT_API_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(KUNIT_KFLAGS) $(KUNIT_CPPFLAGS) -c -o $@ $<

$(KUNIT_KBIN): $(BUILD)/kunit/percpu_counter_tree_kunit.o $(KUNIT_RT_OBJS) $(KUNIT_KC_OBJS) \
		$(KUNIT_HPCC_OBJ)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)
endif

# SKIP without a KUnit file; a KERNEL_SRC that is no directory (bad input)
# and a file that needs what the shim lacks are refused in one line naming
# it (scripts/kunit-probe), exit 2.
kunit-probe:
	@case '$(KUNIT_CPUS)' in ''|*[!0-9]*|0*) ok=0 ;; *) ok=$$([ '$(KUNIT_CPUS)' -le 4096 ] && echo 1 || echo 0) ;; esac; \
	if [ $$ok = 0 ]; then echo "kunit: KUNIT_CPUS='$(KUNIT_CPUS)' is not a number in 1..4096" >&2; exit 2; fi
	@case '$(KUNIT_SEED)' in ''|*[!0-9]*) echo "kunit: KUNIT_SEED='$(KUNIT_SEED)' is not an unsigned number" >&2; exit 2 ;; esac
ifeq ($(KERNEL_SRC),)
	@echo "kunit: SKIP lib/hpcc has no KUnit suite; give KERNEL_SRC=DIR"
else
	@if [ ! -d '$(KSRC)' ]; then echo "kunit: KERNEL_SRC=$(KERNEL_SRC): no such directory" >&2; exit 2; fi; \
	if [ ! -f '$(KUNIT_SRC)' ]; then echo "kunit: SKIP $(KSRC) has no $(KUNIT_REL)"; exit 0; fi; \
	mkdir -p $(BUILD) && $(MAKE) --no-print-directory -s $(KUNIT_HPCC_OBJ) $(KUNIT_API_H) $(KUNIT_RT_OBJS) \
		>$(BUILD)/kunit-probe.log 2>&1 || { cat $(BUILD)/kunit-probe.log; exit 2; }; \
	scripts/kunit-probe --cc '$(CC)' --log $(BUILD)/kunit-probe.log \
		--cflags '$(CFLAGS_ALL) $(KUNIT_KFLAGS) $(KUNIT_CPPFLAGS)' '$(KUNIT_SRC)'
endif

# scripts/kunit has the driver's exit status (0, 1 a failure, 2 bad input,
# 4 no verdict); make reports any failure of it as 2.
kunit:
ifeq ($(KERNEL_SRC),)
	@$(MAKE) --no-print-directory kunit-probe
else
	@scripts/kunit --cpus '$(KUNIT_CPUS)' --seed '$(KUNIT_SEED)' --build '$(BUILD)' \
		$(if $(KUNIT_TIMEOUT),--timeout '$(KUNIT_TIMEOUT)') '$(KERNEL_SRC)'
endif

kunit-tsan:
	@$(MAKE) --no-print-directory CC='$(TSAN_CC)' SAN=tsan BUILD='$(TSAN_BUILD)' kunit

kunit-asan:
	@$(MAKE) --no-print-directory SAN=asan BUILD='$(ASAN_BUILD)' kunit

# The fixture against the shim's -DKC_HANDOFF_OLD kthreads (kthread_old.c: a
# POSIX thread each, not the run queue of kthread.c) and turn (mk/handoff.mk,
# bench/handoff/run).
KUNIT_FIXTURE_OLD := $(BUILD)/kunit/kunit_fixture-old
KUNIT_RT_OLD_OBJS := $(KUNIT_RT_SRCS:lib/kcompat/kunit/%.c=$(BUILD)/handoff-old/kunit/rt/%.o)

$(BUILD)/handoff-old/kunit/rt/%.o: lib/kcompat/kunit/%.c $(KUNIT_FLAGS) | $(KUNIT_API_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -DKC_HANDOFF_OLD $(KUNIT_CPPFLAGS) -c -o $@ $<

$(KUNIT_FIXTURE_OLD): $(BUILD)/kunit/fixture/kunit_fixture.o $(KUNIT_RT_OLD_OBJS) \
		$(KUNIT_KC_OLD_OBJS)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

# The kernel tree's KUnit binary against the same old objects: make bench
# runs both (bench/handoff/run --kunit-tree).
ifneq ($(KERNEL_SRC),)
$(KUNIT_KBIN)-old: $(BUILD)/kunit/percpu_counter_tree_kunit.o $(KUNIT_RT_OLD_OBJS) \
		$(KUNIT_KC_OLD_OBJS) $(KUNIT_HPCC_OBJ)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)
ifneq ($(wildcard $(KUNIT_SRC)),)
bench bench-quick: $(KUNIT_KBIN) $(KUNIT_KBIN)-old
endif
endif
