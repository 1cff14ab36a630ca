#!/usr/bin/env python3
"""The catalogue's _extremes KUnit cases (compare_value_extremes,
compare_pair_extremes) at the CPU count their row gives, run in the KUnit
build a series' findings left (tests/seam/findings.sh): on the swapped
tolerances' copy of lib/hpcc laid in TMP/sw, then on lib/hpcc itself; only
the tree's .c (and a header that differs) changes between the two. One
line per tree: its name, the CPU count, each case's pass, the skips.

Usage: findings_extremes.py ROOT KDIR TMP   (KDIR holds tree/ and build/)"""
import filecmp
import os
import shutil
import sys

sys.dont_write_bytecode = True
root, kdir, tmp = sys.argv[1:]
sys.path.insert(0, root + "/scripts")
from hpccpy.load import load_script  # noqa: E402
fd = load_script("findings")
rows, cases = fd.catalogue(), []
for fn, case in (("approximate_compare_value", "compare_value_extremes"),
		 ("precise_compare", "compare_pair_extremes")):
	r = fd.match(rows, "long", {"class": "wrong-answer", "fn": fn, "case": case})
	cases.append({"shape": "long", "row": r, "kfn": "hpcc_test_" + case,
		      "kcpus": fd.case_cpus(r, "8")})
tree, bdir = kdir + "/tree", kdir + "/build"
fd.put_kunit(tree, fd.kunit_file(cases, ["x"]))
for name, c, h in (("swapped", f"{tmp}/sw/{fd.C_REL}", f"{tmp}/sw/{fd.H_REL}"),
		   ("hpcc", f"{root}/lib/hpcc/percpu_counter_tree.c",
		    f"{root}/lib/hpcc/{fd.H_REL}")):
	# A header with the same content keeps its time stamp (no probe re-runs).
	if not filecmp.cmp(h, f"{tree}/{fd.H_REL}", shallow=False):
		shutil.copyfile(h, f"{tree}/{fd.H_REL}")
	shutil.copyfile(c, f"{tree}/{fd.C_REL}")
	try:
		os.unlink(bdir + "/kunit/pu/hpcc/percpu_counter_tree.o")
	except FileNotFoundError:
		pass
	got = fd.run_kunit(tree, bdir, cases[0]["kcpus"], f"{tmp}/ext-{name}.log")
	res = {k: v[0] for k, v in got[0].items()} if got else None
	skip = sum("# SKIP" in l for l in got[1]) if got else "-"
	print(name, cases[0]["kcpus"], res, "skipped", skip)
