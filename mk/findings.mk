# A kernel tree's findings as a maintainer can act on them
# (docs/kernel-trees.md#findings-a-maintainer-can-act-on):
#
#   make KERNEL_SRC=DIR findings [FINDINGS=OUTDIR] [FINDINGS_DURATION=D]
#
# scripts/kernel-check --findings OUTDIR DIR: the tree judged, then per
# finding a verified KUnit case, a report and a fix where a small one exists.
FINDINGS		?= $(BUILD)/findings-out
FINDINGS_DURATION	?= 2s

.PHONY: findings
findings:
ifeq ($(KERNEL_SRC),)
	@echo "findings: give KERNEL_SRC=DIR (lib/hpcc is the reference, not a tree to judge)" >&2; exit 2
else
	@scripts/kernel-check --duration '$(FINDINGS_DURATION)' --findings '$(FINDINGS)' '$(KSRC)'
endif
