# The kernel tree's own OOM victim selection (docs/oom.md).
#
# With KERNEL_SRC=DIR and DIR/mm/oom_kill.c present, scripts/koom-probe
# decides the variant (two-pass or one precise pass, accuracy type,
# oom_badness() signature) into $(BUILD)/kinc/oom_api.h and extracts the
# selection and the RSS accessors it calls (scripts/kextract) into
# $(BUILD)/koom/; lib/mm/oom_kernel.c compiles them unchanged against the
# kcompat task model. The algorithm the tree implements then runs the
# tree's code behind lib/mm/oom_select.h; the model serves the others.
# A tree without mm/oom_kill.c builds the model only.

ifneq ($(KERNEL_SRC),)
KOOM		:= $(if $(wildcard $(KSRC)/mm/oom_kill.c),1)
endif

ifeq ($(KOOM),1)
KOOM_DIR	:= $(BUILD)/koom
KOOM_STAMP	:= $(KOOM_DIR)/.probed
CPPFLAGS_ALL	+= -DCONFIG_KOOM

$(KOOM_STAMP): $(KSRC)/mm/oom_kill.c $(wildcard $(KSRC)/include/linux/mm.h) \
		scripts/koom-probe scripts/kextract
	@mkdir -p $(@D)
	scripts/koom-probe $(KSRC) $(KOOM_DIR) $(BUILD)/kinc
	@touch $@

# Kernel files are built as the kernel builds them (W=0).
$(BUILD)/lib/mm/oom_kernel.o: lib/mm/oom_kernel.c $(KOOM_STAMP) $(BUILD)/.flags \
		$(BUILD)/kinc/linux/percpu_counter_tree.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(HPCC_CFLAGS) $(CPPFLAGS_ALL) -I$(KOOM_DIR) -c -o $@ $<

$(BUILD)/lib/mm/oom_select.o: $(KOOM_STAMP)
$(LIBSUITE): $(BUILD)/lib/mm/oom_kernel.o
endif

# make bench-oom: the OOM selection latency table (40, 1000, 10000, 100000
# tasks at 256 CPUs) for every algorithm, each named with its
# implementation; with KERNEL_SRC, the tree's code beside the model's
# version of the same algorithm, ratios taken within one repetition.
# 100000 mms need 4.8 MB of per-CPU space per CPU: a build of its own
# with an 8 MiB unit. BENCH_OOM_ARGS passes hpcc-bench options
# (e.g. --reps 15, --oom-tasks 10000).
BENCH_OOM_BUILD	?= $(BUILD)-bench-oom
BENCH_OOM_ARGS	?=

.PHONY: bench-oom
bench-oom:
	@$(MAKE) --no-print-directory BUILD='$(BENCH_OOM_BUILD)' \
		EXTRA_CFLAGS='$(EXTRA_CFLAGS) -DKC_PERCPU_UNIT=8388608' \
		$(BENCH_OOM_BUILD)/bench/hpcc-bench
	@$(BENCH_OOM_BUILD)/bench/hpcc-bench --sections oom --oom-table --oom-tasks 100000 \
		--out $(BENCH_OOM_BUILD)/bench-oom.json $(BENCH_OOM_ARGS)
