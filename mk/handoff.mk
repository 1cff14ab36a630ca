# The hand-off before and after (bench/handoff/README.md, docs/bench.md).
#
#   make handoff-bench   $(BUILD)/bench/handoff/handoff-bench and -old,
#                        frag-bench-old, kunit/kunit_fixture-old: the same
#                        programs linked against -DKC_HANDOFF_OLD objects
#                        (the turn's mutex and broadcast, the vCPU give
#                        that wakes every sleeper, a POSIX thread per kthread
#                        that never holds its vCPU), so that make bench
#                        measures old and new in one run

HANDOFF_OLD_SRCS := lib/kcompat/turn.c lib/kcompat/cpu.c
HANDOFF_OLD_OBJS := $(HANDOFF_OLD_SRCS:%.c=$(BUILD)/handoff-old/%.o)
HANDOFF_BENCH	:= $(BUILD)/bench/handoff/handoff-bench
FRAG_BENCH_OLD	:= $(BUILD)/bench/compaction/frag-bench-old

.PHONY: handoff-bench
handoff-bench: $(HANDOFF_BENCH) $(HANDOFF_BENCH)-old $(FRAG_BENCH) $(FRAG_BENCH_OLD) \
		$(BUILD)/kunit/kunit_fixture $(BUILD)/kunit/kunit_fixture-old
# Built by default so that they stay warning-free with both compilers.
all: handoff-bench

$(BUILD)/handoff-old/%.o: %.c $(BUILD)/.flags
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -DKC_HANDOFF_OLD $(CPPFLAGS_ALL) -c -o $@ $<

$(HANDOFF_BENCH): $(BUILD)/bench/handoff/handoff_bench.o $(LIBSUITE)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(LIBSUITE) $(LDLIBS_ALL)

# The old objects come first: the archive's members of the same names stay out.
$(HANDOFF_BENCH)-old: $(BUILD)/bench/handoff/handoff_bench.o $(HANDOFF_OLD_OBJS) $(LIBSUITE)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(HANDOFF_OLD_OBJS) $(LIBSUITE) $(LDLIBS_ALL)

$(FRAG_BENCH_OLD): $(BUILD)/bench/compaction/frag_bench.o $(HANDOFF_OLD_OBJS) $(LIBSUITE)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(HANDOFF_OLD_OBJS) $(LIBSUITE) $(LDLIBS_ALL)

# kunit_fixture-old: mk/kunit.mk, which has the shim's objects.

# make bench runs bench/handoff/run beside the other sections (bench/run),
# with a kernel tree's own KUnit file, old and new, when it has one
# (mk/kunit.mk).
bench bench-quick: handoff-bench
