# The compaction fragmentation model (docs/compaction.md).
#
#   make bench-compaction   run the 2015 hogger-frag-movable experiment on the
#                           model (Base, Limit, Nonmovable, Redesign, Threshold,
#                           and Stable: the self-stabilising scan limit)
#                           and print it beside the published columns and the
#                           direction goals. FRAG_BENCH_ARGS= passes options;
#                           --check makes an unmet goal an error.

FRAG_BENCH	:= $(BUILD)/bench/compaction/frag-bench

# Built by default so that it stays warning-free with both compilers.
all: $(FRAG_BENCH)

$(FRAG_BENCH): $(BUILD)/bench/compaction/frag_bench.o $(LIBSUITE)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(LIBSUITE) $(LDLIBS_ALL)

.PHONY: bench-compaction
bench-compaction: $(FRAG_BENCH)
	@$(FRAG_BENCH) $(FRAG_BENCH_ARGS)
