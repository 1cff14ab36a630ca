# libFuzzer targets (docs/fuzz.md).
#
#   make fuzz [FUZZ_SECONDS=N]  build fuzz/*.c with clang
#                               -fsanitize=fuzzer,address,undefined and run each
#                               target for N seconds (default 60) from its seed
#                               corpus fuzz/corpus/TARGET; a crash, leak, timeout
#                               or sanitizer report fails (the input is kept in
#                               build/fuzz/artifacts/)
#   make fuzz-build             only build them (build/fuzz/TARGET)
#
# Every normal build also links each target with fuzz/standalone.c
# ($(BUILD)/fuzz/TARGET-standalone, any compiler): tests/cli/fuzz_corpus.sh runs
# the seed corpus through it in make check.

FUZZ_CC		?= clang
FUZZ_BUILD	?= build/fuzz
FUZZ_SECONDS	?= 60
FUZZ_TARGETS	:= $(notdir $(basename $(filter-out fuzz/standalone.c,$(wildcard fuzz/*.c))))
FUZZ_LINK_OBJS	:= $(STRESS_LIB_OBJS) $(LIBSUITE)

.PHONY: fuzz fuzz-build fuzz-bins

fuzz: fuzz-build
	@scripts/fuzz '$(FUZZ_BUILD)' '$(FUZZ_SECONDS)' $(FUZZ_TARGETS)

# One compile per core (as make check builds), unless make -jN shares its
# slots: `make fuzz` as CI runs it (no -j) would compile one at a time.
fuzz-build: deps
	@$(MAKE) --no-print-directory $(CHECK_MAKE_J) CC='$(FUZZ_CC)' SAN=fuzz \
		BUILD='$(FUZZ_BUILD)' fuzz-bins

ifeq ($(SAN),fuzz)
# Everything instrumented for coverage; only the targets get libFuzzer's main().
CFLAGS_ALL	+= -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer
FUZZ_BINS	:= $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%)
fuzz-bins: $(FUZZ_BINS)
$(FUZZ_BINS): $(BUILD)/fuzz/%: $(BUILD)/fuzz/%.o $(FUZZ_LINK_OBJS)
	$(CC) $(CFLAGS_ALL) -fsanitize=fuzzer -o $@ $< $(FUZZ_LINK_OBJS) $(LDLIBS_ALL) \
		-fsanitize=address,undefined
else
FUZZ_BINS	:= $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%-standalone)
all: $(FUZZ_BINS)
$(FUZZ_BINS): $(BUILD)/fuzz/%-standalone: $(BUILD)/fuzz/%.o $(BUILD)/fuzz/standalone.o \
		$(FUZZ_LINK_OBJS)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(BUILD)/fuzz/standalone.o $(FUZZ_LINK_OBJS) $(LDLIBS_ALL)
endif
