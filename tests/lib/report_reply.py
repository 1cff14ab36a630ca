#!/usr/bin/env python3
"""tests/regress/report_reply.sh's renders, in one process: a Python start
costs more CPU than rendering, so scripts/report and json_set.py are
loaded as modules and run here, not started once per step.

Usage: report_reply.py FIXTURE TMP
Renders FIXTURE (a report.json) into TMP/r as `scripts/report --render`
does, into TMP/kcopy as a tree whose counter files are lib/hpcc's, and
copies TMP/r to TMP/gnuplotfail with a failed gnuplot noted. Writes
TMP/sweep-want (the sweep's loss and cut over every point and seed, as
REPLY.txt must state them) and prints one line per check: NAME, 0 (pass)
or 1, and what went wrong."""
import importlib.machinery
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import traceback
from contextlib import redirect_stderr, redirect_stdout

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def load(name, path):
    ld = importlib.machinery.SourceFileLoader(name, os.path.join(TOP, path))
    mod = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, ld))
    ld.exec_module(mod)
    return mod


rep = load("report", "scripts/report")
json_set = load("json_set", "tests/lib/json_set.py")


def say(name, ok, why=None):
    print(name, 0 if ok else 1, " ".join(str(why or "").split())[:400])


def render(d):
    """scripts/report --render D, its exit status and its output."""
    out, argv = io.StringIO(), sys.argv
    sys.argv = ["scripts/report", "--render", d]
    try:
        with redirect_stdout(out), redirect_stderr(out):
            rep.main()
        rc = 0
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 1
    except Exception:	# a crash is a failed render, reported
        rc, _ = 1, out.write(traceback.format_exc())
    sys.argv = argv
    return rc, out.getvalue()


def sweep_want(doc):
    sw = doc["compaction"]["data"]["section6"]["sweep"]

    def r(v, f):
        lo, hi = f % (round(min(v), 1) + 0.0), f % (round(max(v), 1) + 0.0)
        return lo if lo == hi else lo + " to " + hi
    return "loss %s points, cut %s;" % (r([x for p in sw for x in p["loss_points"]], "%.1f"),
                                        r([x for p in sw for x in p["cut"]], "%.1fx"))


def tree_own_and_lib_hpcc(kt, doc):
    """counter_code() names a tree's own files; meta()'s blob test tells
    lib/hpcc's files laid out in a tree from a changed one."""
    doc["meta"]["kernel_src"]["counter_is_lib_hpcc"] = False
    own = "the tree's own lib/percpu_counter_tree.c and include/linux/percpu_counter_tree.h"
    if rep.counter_code(doc) != own:
        return rep.counter_code(doc)
    if own not in rep.counter_lines(doc, "latency")[0]:
        return rep.counter_lines(doc, "latency")

    def blobs():
        h = subprocess.run(["git", "hash-object"] + [os.path.join(kt, f) for f in rep.JUDGED[:2]],
                           capture_output=True, text=True).stdout.split()
        return dict(zip(rep.JUDGED[:2], h))
    os.makedirs(os.path.join(kt, "lib"))
    os.makedirs(os.path.join(kt, "include/linux"))
    for f, src in zip(rep.JUDGED[:2], rep.LIB_HPCC):
        shutil.copy(os.path.join(TOP, "lib/hpcc", src), os.path.join(kt, f))
    if not rep.counter_is_lib_hpcc(blobs()):
        return "lib/hpcc's files not recognised"
    with open(os.path.join(kt, rep.JUDGED[0]), "a") as f:
        f.write("/* a tree's own */\n")
    if rep.counter_is_lib_hpcc(blobs()):
        return "a changed counter file taken for lib/hpcc's"
    return None


def pcpu_named(doc):
    """pcpu_code() names the tree's own percpu_counter only when the
    producer says it was built from the tree's file."""
    want = {None: "bench/kpcc.c, our model",
            "/k/lib/percpu_counter.c": "the tree's own lib/percpu_counter.c and",
            "/x/lib/percpu_counter.c": "/x/lib/percpu_counter.c, not this tree's"}
    for src, w in want.items():
        doc["oom"]["latency"].pop("pcpu_source", None)
        if src:
            doc["oom"]["latency"]["pcpu_source"] = src
        got = rep.counter_lines(doc, "exact")[0]
        if "percpu_counter column ran " + w not in got:
            return "pcpu_source %s: %s" % (src, got)
    return None


def main(fixture, tmp):
    r, kcopy = os.path.join(tmp, "r"), os.path.join(tmp, "kcopy")
    for d in (r, kcopy):
        os.makedirs(d)
    shutil.copy(fixture, r)
    rc, out = render(r)
    say("reply_rendered", rc == 0, out)
    with open(os.path.join(r, "report.json")) as f:
        doc = json.load(f)
    with open(os.path.join(tmp, "sweep-want"), "w") as f:
        f.write(sweep_want(doc) + "\n")
    # A tree laid out from lib/hpcc's files, rendered once.
    rj, kj = os.path.join(r, "report.json"), os.path.join(kcopy, "report.json")
    json_set.main([rj, kj, 'meta.kernel_src={"path": "/k", "commit": null, "files": {},'
                   ' "counter_is_lib_hpcc": true}', 'oom.latency.hpcc_source="/k"'])
    render(kcopy)	# judged by what it wrote
    with open(kj) as f:
        err = tree_own_and_lib_hpcc(os.path.join(tmp, "kt"), json.load(f))
    say("report_counter_code_tree_own_and_lib_hpcc_detected", err is None, err)
    with open(kj) as f:
        err = pcpu_named(json.load(f))
    say("report_pcpu_code_names_the_trees_file", err is None, err)
    g = os.path.join(tmp, "gnuplotfail")
    shutil.copytree(r, g)
    json_set.main([os.path.join(g, "report.json"), os.path.join(g, "report.json"),
                   'plots_note="gnuplot failed: line 0"'])
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: report_reply.py FIXTURE TMP")
    sys.exit(main(sys.argv[1], sys.argv[2]))
