# shellcheck shell=bash
# accumulate_tree DIR: lib/hpcc laid out as a kernel tree in DIR, with
# tests/seam/fixtures/ktrees/accumulate.patch (its subsystem init adds to static
# state on every call), for the one-process-per-point tests of the bench
# and the report. Run from the repository's top; fails as patch does.
accumulate_tree() {
	rm -rf "$1"
	mkdir -p "$1/lib" "$1/include/linux" &&
	cp lib/hpcc/percpu_counter_tree.c "$1/lib/" &&
	cp lib/hpcc/include/linux/percpu_counter_tree.h "$1/include/linux/" &&
	patch -s -d "$1" -p1 <tests/seam/fixtures/ktrees/accumulate.patch
}
