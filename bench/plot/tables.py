#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""scripts/plot-bench's data: DIR/hpcc.json checked against the parts it
plots, written as whitespace tables (one per plot) into TMP.

  bench/plot/tables.py DIR/hpcc.json TMP
"""
import json, sys
src, tmp = sys.argv[1], sys.argv[2]
def bad(msg):
    print("plot-bench: %s: %s" % (src, msg), file=sys.stderr)
    sys.exit(2)
try:
    d = json.load(open(src))
except ValueError as e:
    bad("not JSON (%s)" % e)
if not isinstance(d, dict) or d.get("schema_version") != 1 or d.get("generator") != "hpcc-bench":
    bad("not an hpcc-bench schema 1 file")
V = ["atomic", "percpu_counter", "split", "hpcc"]
def med(x):
    return "nan" if x is None or x["median"] is None else "%g" % x["median"]
def mmm(x):
    """median, min, max: a point and its error bar (min-max over the repetitions)."""
    if x is None or x.get("median") is None:
        return ["nan"] * 3
    return ["%g" % x[k] if x.get(k) is not None else "nan" for k in ("median", "min", "max")]
def cols(p, key, names):
    return sum((mmm(p[key].get(v)) for v in names), [])
def write(name, header, rows):
    with open("%s/%s.dat" % (tmp, name), "w") as f:
        f.write("# " + " ".join(header) + "\n")
        for r in rows:
            f.write(" ".join(str(x) for x in r) + "\n")
try:
    if d.get("accuracy"):
        write("accuracy", ["cpus", "hpcc_under", "hpcc_settled", "pcc", "pcc_default", "binary"],
              [[p["nr_cpus"], p["hpcc"]["under"], p["hpcc"]["settled_max"],
                p["percpu_counter"], p["percpu_counter_default_batch"], p["binary_tree"]]
               for p in d["accuracy"] if p["nr_cpus"] > 1])
    if d.get("memory"):
        write("memory", ["cpus"] + V + ["hpcc_s390"],
              [[p["nr_cpus"]] + [p["bytes"][v] for v in V] + [p["bytes"]["hpcc_s390"]]
               for p in d["memory"]])
    # Timings: per series three columns, median min max (the error bar).
    MMM = lambda names: [n + s for n in names for s in ("", "_min", "_max")]
    ranges = []
    def span(name, points, key, names, x):
        v = [p[key][n][k] for p in points for n in names if p[key].get(n)
             for k in ("min", "max") if p[key][n].get(k) is not None and p[key][n][k] > 0]
        if v:
            ranges.append((name, min(v), max(v)))
            ranges.append((name + "_x", min(p[x] for p in points),
                           max(p[x] for p in points)))
    if d.get("add"):
        write("add1", ["cpus"] + MMM(V), [[p["nr_cpus"]] + cols(p, "ns_per_op", V)
                                          for p in d["add"] if p["threads"] == 1])
        # Two threads: the cost while both ran side by side (contended).
        write("add2", ["cpus"] + MMM(V), [[p["nr_cpus"]] + cols(p, "overlap_ns_per_op", V)
                                          for p in d["add"] if p["threads"] == 2])
    if d.get("add_oversub"):
        write("oversub", ["threads"] + MMM(V),
              [[p["threads"]] + cols(p, "ns_per_op", V) for p in d["add_oversub"]])
    if d.get("read"):
        A = ("atomic", "percpu_counter", "hpcc")
        write("read", ["cpus"] + MMM(["p_" + v for v in V]) + MMM(["a_" + v for v in A]),
              [[p["nr_cpus"]] + cols(p, "precise_ns", V) + cols(p, "approx_ns", A)
               for p in d["read"]])
        span("read", d["read"], "precise_ns", V, "nr_cpus")
        span("read_a", d["read"], "approx_ns", A, "nr_cpus")
    if d.get("oom"):
        A = ("precise", "v16", "bounded")
        for w in ("one_hog", "crowded"):
            write("oom_" + w, ["tasks"] + MMM(A),
                  [[p["tasks"]] + cols(p, "latency_us", A)
                   for p in d["oom"]["points"] if p["workload"] == w])
        span("oom", d["oom"]["points"], "latency_us", A, "tasks")
    # The caption: where and when this was measured.
    m = d["meta"]
    load = "load average %s at the start, %s at the end" % (
        m.get("loadavg_start", "?"), d.get("loadavg_end", "?"))
    cap = "%s, %s cores; commit %s; hpcc %s; %s\\n%s" % (
        m.get("cpu_model", "CPU model not recorded"), m.get("host_cpus", "?"),
        m.get("commit", "not recorded"), m.get("hpcc_source", "?"), m.get("date", "?"), load)
    with open("%s/caption" % tmp, "w") as f:
        f.write(cap.replace('"', "") + "\n")
    with open("%s/caption_timing" % tmp, "w") as f:
        f.write(cap.replace('"', "") + "; points: medians of %s repetitions, bars: min to max\n"
                % m.get("reps", "?"))
    # Log axes from the data: a margin on both sides, never a point on the frame.
    for name, lo, hi in ranges:
        with open("%s/%s.range" % (tmp, name), "w") as f:
            f.write("%g %g\n" % (lo / 1.6, hi * 1.6))
except (KeyError, TypeError) as e:
    bad("missing or malformed member %s" % e)
