# The option references in docs/stress.md and docs/explore.md, generated
# from the option tables.
.PHONY: docs-options docs-invariants
docs-options: $(BUILD)/stress $(BUILD)/explore/explore
	scripts/docs-options $(BUILD)/stress
	scripts/docs-options $(BUILD)/explore/explore
docs-invariants: $(BUILD)/stress
	scripts/docs-invariants $(BUILD)/stress
# The litmus table over our own tests (docs/litmus.md); tests/cli/litmus.sh
# checks its rows.
LITMUS_NOTE	:= Our own tests (`tests/litmus/`), written for this repository: one for each pattern, verdict and primitive family (locks, RCU, atomics, dependencies) the table of the kernel tests ([litmus-kernel.md](litmus-kernel.md)) reports, with and without ordering. The `Result:` line of each file is the verdict the rules of LKMM give (coherence, strong fences, release-acquire chains), its `Shown-under:` line the models that must observe the outcome. `tests/cli/litmus.sh` (make check) makes the table again, fails on any difference in its rows, and checks that every pattern, verdict and family of the kernel table has a row here. Regenerate: `make docs-litmus`.
.PHONY: docs-litmus
docs-litmus: $(BUILD)/explore/explore
	scripts/litmus --explore $(BUILD)/explore/explore --check --markdown docs/litmus.md \
		--source '$(LITMUS_NOTE)' tests/litmus/*.litmus
