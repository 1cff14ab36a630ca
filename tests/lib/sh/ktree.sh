# shellcheck shell=bash
# Build slots for kernel-shaped fixture trees (sourced from the
# repository's top). Fixture trees that differ from one another only in
# some of their two hpcc files are laid in turn into one directory and
# built in one build directory (a slot), so that make rebuilds only what
# depends on the files that differ, not the whole suite once per tree.
# Each tree is still built unchanged through make KERNEL_SRC=.

# slot_place NEW SRC BUILD: make the tree SRC hold NEW's
# lib/percpu_counter_tree.c and include/linux/percpu_counter_tree.h. A file
# with the same content keeps its time stamp; one that differs is copied
# and what BUILD made from it is removed (make would miss a change made
# within the time stamp's resolution of the build that read the old one).
slot_place() {
	local new=$1 src=$2 b=$3 f
	mkdir -p "$src/lib" "$src/include/linux" || return 1
	f=lib/percpu_counter_tree.c
	if ! cmp -s "$new/$f" "$src/$f"; then
		cp "$new/$f" "$src/$f" || return 1
		rm -f "$b/hpcc/percpu_counter_tree.o" "$b/adapt/percpu_counter_tree.o"
	fi
	f=include/linux/percpu_counter_tree.h
	if ! cmp -s "$new/$f" "$src/$f"; then
		cp "$new/$f" "$src/$f" || return 1
		rm -f "$b/kinc/linux/percpu_counter_tree.h"
	fi
}
