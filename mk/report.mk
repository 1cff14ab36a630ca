# make report: the measured answers to the OOM and compaction review
# questions, in REPORT.md (docs/report.md).
#
#   make report [KERNEL_SRC=DIR] [REPORT_DIR=DIR] [REPORT_ARGS='--seeds 1,2,3']
#
# The OOM numbers come from hpcc-report (bench/report/), built in a build of
# its own with 16 MiB per-CPU areas so that 100,000 mms fit; sections 5 and 6
# from bench/compaction/report-section when that program is present.

# The percpu_counter column (bench/report/pcc.h): the tree's own
# lib/percpu_counter.c and include/linux/percpu_counter.h when KERNEL_SRC
# has both, compiled unchanged against kcompat as the kernel builds it
# (W=0), in x86-64's configuration (SMP, CPU hotplug, a local cmpxchg);
# else our model of it, bench/kpcc.c.
ifneq ($(KERNEL_SRC),)
KPCC_TREE	:= $(if $(wildcard $(KSRC)/lib/percpu_counter.c),$(if \
		   $(wildcard $(KSRC)/include/linux/percpu_counter.h),1))
endif
ifeq ($(KPCC_TREE),1)
KPCC_DEFS	:= -DCONFIG_HOTPLUG_CPU -DCONFIG_HAVE_CMPXCHG_LOCAL
KPCC_HDR	:= $(BUILD)/kinc/linux/percpu_counter.h
REPORT_PCC_OBJS	:= $(BUILD)/bench/report/pcc_tree.o $(BUILD)/kpcc/percpu_counter.o

$(KPCC_HDR): $(KSRC)/include/linux/percpu_counter.h
	@mkdir -p $(@D)
	cp $< $@

$(BUILD)/kpcc/percpu_counter.o: $(KSRC)/lib/percpu_counter.c $(KPCC_HDR) $(BUILD)/.flags \
		$(BUILD)/kinc/linux/percpu_counter_tree.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(HPCC_CFLAGS) $(KPCC_DEFS) $(CPPFLAGS_ALL) -c -o $@ $<

$(BUILD)/bench/report/pcc_tree.o: bench/report/pcc_tree.c bench/report/pcc.h $(KPCC_HDR) \
		$(BUILD)/.flags $(BUILD)/kinc/linux/percpu_counter_tree.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(KPCC_DEFS) $(CPPFLAGS_ALL) \
		-DKPCC_TREE_SOURCE='"$(KSRC)/lib/percpu_counter.c"' -c -o $@ $<
else
REPORT_PCC_OBJS	:= $(BUILD)/bench/report/pcc_model.o $(BUILD)/bench/kpcc.o
endif

REPORT_BIN	:= $(BUILD)/bench/hpcc-report
REPORT_OBJS	:= $(BUILD)/bench/report/oom_report.o $(BUILD)/bench/timing.o \
		   $(REPORT_PCC_OBJS)
REPORT_DIR	?= $(BUILD)/report
REPORT_BUILD	?= $(BUILD)-report
REPORT_ARGS	?=

# Built by default: make check runs its tiny mode (tests/regress/report.sh).
all: $(REPORT_BIN)

$(REPORT_BIN): $(REPORT_OBJS) $(LIBSUITE)
	$(CC) $(CFLAGS_ALL) -o $@ $(REPORT_OBJS) $(LIBSUITE) $(LDLIBS_ALL)

.PHONY: report report-full report-model
# A tree whose API the build refuses (an older one: int values) falls back to
# the model's producer, and the report says what the tree leaves unmeasured;
# any other failure of the require probe stops here as before.
report:
	@mkdir -p '$(BUILD)'
	@if [ -n '$(KERNEL_SRC)' ] && ! $(MAKE) --no-print-directory -s '$(HPCC_REQ_H)' \
			>'$(BUILD)/report-probe.log' 2>&1; then \
		why=$$(sed -n 's/^hpcc-stress: KERNEL_SRC=[^ ]* is not supported: //p' \
			'$(BUILD)/report-probe.log' | sed 's/; details in.*//' | head -n 1); \
		[ -n "$$why" ] || { cat '$(BUILD)/report-probe.log'; exit 2; }; \
		echo "report: KERNEL_SRC=$(KSRC) is not supported ($$why): the model's producer runs"; \
		REPORT_WHY="$$why" $(MAKE) --no-print-directory report-model; \
	else \
		$(MAKE) --no-print-directory report-full; \
	fi

# Sections 5 and 6 run this build's frag-bench and ./stress.
report-full: $(BUILD)/bench/compaction/frag-bench $(BUILD)/stress
	@$(MAKE) --no-print-directory BUILD='$(REPORT_BUILD)' \
		EXTRA_CFLAGS='$(EXTRA_CFLAGS) -DKC_PERCPU_UNIT=16777216' \
		'$(REPORT_BUILD)/bench/hpcc-report'
	@BUILD='$(BUILD)' scripts/report --bin '$(REPORT_BUILD)/bench/hpcc-report' --out '$(REPORT_DIR)' \
		$(if $(KERNEL_SRC),--kernel-src '$(KSRC)') $(REPORT_ARGS)

# The model's producer (no KERNEL_SRC) in a build of its own; neither
# ./stress nor frag-bench: both are refused for the tree. Section 3's window
# comes from the tree's own code through the adapter when that builds.
report-model:
	@$(MAKE) --no-print-directory KERNEL_SRC= BUILD='$(REPORT_BUILD)-model' \
		EXTRA_CFLAGS='$(EXTRA_CFLAGS) -DKC_PERCPU_UNIT=16777216' \
		'$(REPORT_BUILD)-model/bench/hpcc-report'
	@win=; if $(MAKE) --no-print-directory '$(REPORT_WIN_BIN)' >'$(BUILD)/report-window.log' 2>&1; \
	then win='$(REPORT_WIN_BIN)'; else echo "report: no adapter window ($(BUILD)/report-window.log)"; fi; \
	scripts/report --bin '$(REPORT_BUILD)-model/bench/hpcc-report' --out '$(REPORT_DIR)' \
		--kernel-src '$(KSRC)' --api-refused "$$REPORT_WHY" $${win:+--window-bin "$$win"} \
		$(REPORT_ARGS)

# Section 3's window from the tree's own counter, built as the adapter is
# (mk/adapt.mk), so a tree the full build refuses still builds it.
REPORT_WIN_BIN	:= $(ADAPT_DIR)/hpcc-report-window
REPORT_WIN_OBJS	:= $(ADAPT_DIR)/adapt_window.o $(ADAPT_DIR)/percpu_counter_tree.o \
		   $(ADAPT_DIR)/lib/shape/hpcc_shape.o $(ADAPT_KC_SRCS:%.c=$(ADAPT_DIR)/%.o)

$(ADAPT_DIR)/adapt_window.o: bench/report/adapt_window.c lib/hpcc_adapt/hpcc_adapt.h \
		$(ADAPT_API_H) $(BUILD)/.flags $(ADAPT_HDR_DEP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(ADAPT_CPPFLAGS) -c -o $@ $<

$(REPORT_WIN_BIN): $(REPORT_WIN_OBJS)
	$(CC) $(CFLAGS_ALL) -o $@ $(REPORT_WIN_OBJS) $(LDLIBS_ALL)
