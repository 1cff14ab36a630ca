#!/usr/bin/env python3
"""Make scripts/report's report.json say what a build against a kernel
tree's own OOM selection says: v16 is the tree's (two-pass) code and is
timed beside its model twin. How tests/regress/report.sh renders a tree's
columns without the KERNEL_SRC build that would produce them.

Usage: report_tree_twin.py FILE (rewritten in place). Exit status: 0
written, 2 usage."""
import json
import sys


def twin(r):
    for s in ("latency", "order", "imprecision"):
        r["oom"][s]["implementation"]["v16"] = "kernel T/mm/oom_kill.c (two-pass)"
    lat = r["oom"]["latency"]
    lat["model_twin"] = "v16"
    for p in lat["points"] + lat.get("conditions", []):
        if "latency_us" in p:
            p["latency_us"]["model_twin"] = p["latency_us"]["v16"]
            p["ratios"]["kernel_vs_model"] = {"median": 1.0, "min": 0.9, "max": 1.1}


def main(argv):
    if len(argv) != 2:
        print("usage: report_tree_twin.py FILE", file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        r = json.load(f)
    twin(r)
    with open(argv[1], "w") as f:
        json.dump(r, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
