# The option reference in docs/stress.md, generated from the option tables.
.PHONY: docs-options docs-invariants
docs-options: $(BUILD)/stress
	scripts/docs-options $(BUILD)/stress
docs-invariants: $(BUILD)/stress
	scripts/docs-invariants $(BUILD)/stress
