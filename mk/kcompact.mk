# The kernel tree's own compaction deferral (docs/compaction.md).
#
# With KERNEL_SRC=DIR and DIR/mm/compaction.c present, scripts/kcompact-probe
# extracts COMPACT_MAX_DEFER_SHIFT and defer_compaction(),
# compaction_deferred(), compaction_defer_reset(), compaction_restarting()
# (scripts/kextract) into $(BUILD)/kcompact/ and describes the tree in
# $(BUILD)/kinc/kcompact_api.h; lib/mm/kcompact_kernel.c compiles them
# unchanged against the kcompat zone. The Base policy's deferral then runs
# the tree's code, judged by the model on every call. A tree without
# mm/compaction.c builds the model only.

ifneq ($(KERNEL_SRC),)
KCOMPACT	:= $(if $(wildcard $(KSRC)/mm/compaction.c),1)
endif

ifeq ($(KCOMPACT),1)
KCOMPACT_DIR	:= $(BUILD)/kcompact
KCOMPACT_STAMP	:= $(KCOMPACT_DIR)/.probed
CPPFLAGS_ALL	+= -DCONFIG_KCOMPACT

$(KCOMPACT_STAMP): $(KSRC)/mm/compaction.c $(wildcard $(KSRC)/include/linux/compaction.h) \
		scripts/kcompact-probe scripts/kextract
	@mkdir -p $(@D)
	scripts/kcompact-probe $(KSRC) $(KCOMPACT_DIR) $(BUILD)/kinc
	@touch $@

# Kernel files are built as the kernel builds them (W=0).
$(BUILD)/lib/mm/kcompact_kernel.o: lib/mm/kcompact_kernel.c $(KCOMPACT_STAMP) $(BUILD)/.flags
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(HPCC_CFLAGS) $(CPPFLAGS_ALL) -I$(BUILD)/kinc -I$(KCOMPACT_DIR) \
		-c -o $@ $<

$(BUILD)/lib/mm/compaction.o: $(KCOMPACT_STAMP)
$(LIBSUITE): $(BUILD)/lib/mm/kcompact_kernel.o
endif
