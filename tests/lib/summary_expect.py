#!/usr/bin/env python3
"""Check a scripts/regress summary (OUT/summary.json, docs/regress.md)
against one named expectation of the regress tests.

Usage: summary_expect.py NAME FILE [ARG...]
  cells FILE            the two-slot run of counter_storm at cpus 1,3 and
                        batch 2,256, two seeds: eight passing cells, each with
                        its throughput, four groups of two samples
  verdict FILE VERDICT [KEY=N | KEY>=N]...
                        the summary's verdict, and those counts
  skipped FILE SCENARIO not PASS, a cell or more skipped, all of SCENARIO
  groups FILE N         N groups (the baseline file has no verdict)
Exit status: 0 met; 1 not met (a FILE not JSON or without a field, and
some expectations, say why on a "# " line); 2 usage."""
import re
import sys

sys.dont_write_bytecode = True	# no __pycache__ beside the tests
from report_expect import run  # noqa: E402


def cells(d):
    c = d["cells"]
    return (len(c) == 8 and d["verdict"] == "PASS" and d["slots"] == 2 and
            sorted((x["cpus"], x["batch"]) for x in c) ==
            sorted([(1, 2), (1, 256), (3, 2), (3, 256)] * 2) and
            all(x["verdict"] == "PASS" and x["ops_per_s"] > 0 for x in c) and
            all(x["cpu_s"] > 0 and x["ops_per_cpu_s"] > 0 for x in c) and
            all(x["calib_ops_per_cpu_s"] > 0 and x["rel_throughput"] > 0 for x in c) and
            len(d["groups"]) == 4 and
            all(len(g["rel_samples"]) == 2 for g in d["groups"].values()))


def verdict(d, want, *counts):
    if d["verdict"] != want:
        return False
    for c in counts:
        m = re.fullmatch(r"(\w+)(>?=)(\d+)", c)
        if not m:
            raise ValueError("bad count '%s' (KEY=N or KEY>=N)" % c)
        v, n = d[m[1]], int(m[3])
        if not (v >= n if m[2] == ">=" else v == n):
            return False
    return True


def skipped(d, scenario):
    return (d["verdict"] != "PASS" and d["skipped_cells"] >= 1 and
            d["skipped_by_scenario"][scenario] == d["skipped_cells"])


def groups(d, n):
    return len(d["groups"]) == int(n)


CHECKS = {"cells": (cells, 0, 0), "verdict": (verdict, 1, None),
          "skipped": (skipped, 1, 1), "groups": (groups, 1, 1)}


if __name__ == "__main__":
    sys.exit(run("summary_expect", CHECKS, sys.argv))
