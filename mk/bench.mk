# Benchmarks (bench/README.md): make bench, make bench-quick.
#
#   make bench         full run (a few minutes): bench/results/*.json and plots
#   make bench-quick   smoke run (< 30 s) into $(BUILD)/bench-quick; no claims
#   BENCH_OUT=DIR      where make bench writes (default bench/results)
#   BENCH_ARGS=...     extra hpcc-bench options, e.g. BENCH_ARGS='--reps 15' 
#
# bench/*.c is the hpcc-bench program; bench/compaction/ has its own rules.

BENCH_SRCS	:= $(wildcard bench/*.c)
BENCH_OBJS	:= $(BENCH_SRCS:%.c=$(BUILD)/%.o)
BENCH_BIN	:= $(BUILD)/bench/hpcc-bench
BENCH_OUT	?= bench/results
BENCH_ARGS	?=

# Built by default so that it stays warning-free with both compilers.
all: $(BENCH_BIN)

$(BENCH_BIN): $(BENCH_OBJS) $(LIBSUITE)
	$(CC) $(CFLAGS_ALL) -o $@ $(BENCH_OBJS) $(LIBSUITE) $(LDLIBS_ALL)

.PHONY: bench bench-quick
bench: $(BENCH_BIN) $(BUILD)/stress
	@bench/run --bin $(BENCH_BIN) --stress $(BUILD)/stress --out $(BENCH_OUT) \
		--args '$(BENCH_ARGS)'

bench-quick: $(BENCH_BIN) $(BUILD)/stress
	@bench/run --quick --bin $(BENCH_BIN) --stress $(BUILD)/stress \
		--out $(BUILD)/bench-quick
