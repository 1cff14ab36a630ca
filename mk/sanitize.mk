# Sanitizer jobs (docs/sanitizers.md).
#
#   make tsan            everything built with clang -fsanitize=thread
#   make check-tsan      every unit test and every scenario (--cpus 8 and 256)
#                        under TSan; fails on any report
#   make tsan-selftest   known-racy programs must be reported by TSan and
#                        their correct forms must be clean: the TSan job is
#                        trusted only while this passes
#   make asan            everything built with -fsanitize=address,undefined
#   make check-asan      unit tests and short scenario runs under ASan+UBSan
#                        (LeakSanitizer on); fails on any report
#
# The sanitizer builds sit beside the normal one: build/clang-tsan and
# build/$(CC)-asan by default, DIR-tsan and DIR-asan with BUILD=DIR.
# KERNEL_SRC= applies to them as to the normal build.

TSAN_CC		?= clang
# Programs at once in tsan/run-sanitized: one per core (most of a script's
# time under a sanitizer is waiting for a watchdog, a signal or a child).
SAN_JOBS	?= $(NPROC)
ifeq ($(origin BUILD),file)
TSAN_BUILD	?= build/$(notdir $(TSAN_CC))-tsan$(KSRC_TAG)
ASAN_BUILD	?= build/$(CCNAME)-asan$(KSRC_TAG)
else
TSAN_BUILD	?= $(BUILD)-tsan
ASAN_BUILD	?= $(BUILD)-asan
endif

.PHONY: tsan check-tsan tsan-selftest asan check-asan

tsan:
	@$(MAKE) --no-print-directory CC='$(TSAN_CC)' SAN=tsan BUILD='$(TSAN_BUILD)' all

# The test scripts are make check's: the long tier builds its fixture trees
# without a sanitizer, so under one it would only repeat make check-long.
check-tsan: deps tsan
	@SAN_JOBS='$(SAN_JOBS)' SAN_SCRIPTS='$(CHECK_SH)' tsan/run-sanitized tsan '$(TSAN_BUILD)'

tsan-selftest: deps tsan
	@tsan/run-selftest '$(TSAN_BUILD)'

asan:
	@$(MAKE) --no-print-directory SAN=asan BUILD='$(ASAN_BUILD)' all

check-asan: deps asan
	@SAN_JOBS='$(SAN_JOBS)' SAN_SCRIPTS='$(CHECK_SH)' tsan/run-sanitized asan '$(ASAN_BUILD)'

# Inside the TSan build: the self-test programs (tsan/selftest/*.c), each
# in its correct form and its racy form (-DSELFTEST_RACY).
ifeq ($(SAN),tsan)
TSAN_ST		:= $(BUILD)/tsan-selftest
TSAN_ST_NAMES	:= $(notdir $(basename $(wildcard tsan/selftest/*.c)))
TSAN_ST_BINS	:= $(foreach n,$(TSAN_ST_NAMES),$(TSAN_ST)/$(n) $(TSAN_ST)/$(n)-racy) \
		   $(TSAN_ST)/rcu_free-call_rcu
TSAN_ST_DEPS	:= $(LIBSUITE) $(BUILD)/.flags tsan/selftest/selftest.h

all: $(TSAN_ST_BINS)

$(TSAN_ST)/%: tsan/selftest/%.c $(TSAN_ST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(CPPFLAGS_ALL) -o $@ $< $(LIBSUITE) $(LDLIBS_ALL)

$(TSAN_ST)/%-racy: tsan/selftest/%.c $(TSAN_ST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(CPPFLAGS_ALL) -DSELFTEST_RACY -o $@ $< \
		$(filter %.o,$^) $(LIBSUITE) $(LDLIBS_ALL)

$(TSAN_ST)/rcu_free-call_rcu: tsan/selftest/rcu_free.c $(TSAN_ST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(CPPFLAGS_ALL) -DSELFTEST_CALL_RCU -o $@ $< \
		$(LIBSUITE) $(LDLIBS_ALL)

# Self-test 1's racy form links the hpcc library recompiled with a plain
# (non-atomic) this_cpu_add_return(); its symbols take precedence over
# libsuite.a's copy, which the linker then leaves out.
$(TSAN_ST)/pcpu_sum-racy: $(TSAN_ST)/hpcc-plain-add.o

$(TSAN_ST)/hpcc-plain-add.o: $(HPCC_SRC) tsan/selftest/plain_pcpu_add.h $(BUILD)/.flags \
		$(if $(KERNEL_SRC),$(BUILD)/kinc/linux/percpu_counter_tree.h)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(HPCC_CFLAGS) $(CPPFLAGS_ALL) \
		-include tsan/selftest/plain_pcpu_add.h -c -o $@ $<
endif
