# The option reference in docs/stress.md, generated from the option tables.
.PHONY: docs-options
docs-options: $(BUILD)/stress
	scripts/docs-options $(BUILD)/stress
