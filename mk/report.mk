# make report: the measured answers to the OOM and compaction review
# questions, in REPORT.md (docs/report.md).
#
#   make report [KERNEL_SRC=DIR] [REPORT_DIR=DIR] [REPORT_ARGS='--seeds 1,2,3']
#
# The OOM numbers come from hpcc-report (bench/report/), built in a build of
# its own with 16 MiB per-CPU areas so that 100,000 mms fit; sections 5 and 6
# from bench/compaction/report-section when that program is present.

REPORT_BIN	:= $(BUILD)/bench/hpcc-report
REPORT_OBJS	:= $(BUILD)/bench/report/oom_report.o $(BUILD)/bench/timing.o \
		   $(BUILD)/bench/kpcc.o
REPORT_DIR	?= $(BUILD)/report
REPORT_BUILD	?= $(BUILD)-report
REPORT_ARGS	?=

# Built by default: make check runs its tiny mode (tests/report.sh).
all: $(REPORT_BIN)

$(REPORT_BIN): $(REPORT_OBJS) $(LIBSUITE)
	$(CC) $(CFLAGS_ALL) -o $@ $(REPORT_OBJS) $(LIBSUITE) $(LDLIBS_ALL)

.PHONY: report
# Sections 5 and 6 run this build's frag-bench and ./stress.
report: $(BUILD)/bench/compaction/frag-bench $(BUILD)/stress
	@$(MAKE) --no-print-directory BUILD='$(REPORT_BUILD)' \
		EXTRA_CFLAGS='$(EXTRA_CFLAGS) -DKC_PERCPU_UNIT=16777216' \
		'$(REPORT_BUILD)/bench/hpcc-report'
	@BUILD='$(BUILD)' scripts/report --bin '$(REPORT_BUILD)/bench/hpcc-report' --out '$(REPORT_DIR)' \
		$(if $(KERNEL_SRC),--kernel-src '$(KSRC)') $(REPORT_ARGS)
