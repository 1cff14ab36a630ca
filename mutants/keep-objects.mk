# Added with -f by scripts/mutants only: keep the test objects that make
# would delete as intermediates, so that a mutant's build (a copy of the
# baseline build) recompiles only what its patch touched.
.SECONDARY:
