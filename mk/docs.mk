# The option references in docs/stress.md and docs/explore.md, generated
# from the option tables.
.PHONY: docs-options docs-invariants
docs-options: $(BUILD)/stress $(BUILD)/explore/explore
	scripts/docs-options $(BUILD)/stress
	scripts/docs-options $(BUILD)/explore/explore
docs-invariants: $(BUILD)/stress
	scripts/docs-invariants $(BUILD)/stress
