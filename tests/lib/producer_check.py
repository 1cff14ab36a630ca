#!/usr/bin/env python3
"""Named checks on what the bench and report producers write (bench/,
scripts/report, bench/compaction, bench/handoff): each reads a JSON file
(or a report directory), and an assertion that fails names what differs.

Usage: producer_check.py NAME ARG...
  bench-rows FILE           hpcc-bench's small sweeps (BENCH_SMALL in
                            tests/lib/sh/producers.sh): a row per CPU count
                            of every sweep, the library's accuracy range
                            equal to lib/shape's
  bench-source FILE SRC     hpcc-bench's meta names SRC as the counter built
  report-window DIR SRC     hpcc-report's imprecision and order sections in
                            DIR (acc-imprecision.json, acc-order.json): built
                            on SRC, windows equal to lib/shape's
  report-pcpu DIR SRC       hpcc-report's latency and exact sections in DIR
                            (acc-latency.json, acc-exact.json): their
                            percpu_counter column built on SRC's
                            lib/percpu_counter.c, timed at every point
  report-int-window FILE    a report on an int-valued tree: the tree's own
                            window per CPU count and batch
  report-concurrent DIR     scripts/report's section 3 concurrent half:
                            oom_race's shortfall distribution at 8 and 16 CPUs,
                            one v16 selection per point without a kill in
                            progress; exit 4 (no verdict) when a CPU count had
                            no such point (their number follows the host's speed)
  compaction FILE           bench/compaction/report's --quick JSON
  handoff FILE              bench/handoff/run's --quick JSON
  handoff-goals RUN         bench/handoff/run's goal verdicts (RUN: that
                            script), timed-out runs included
Exit status: 0 the check holds, 1 it does not (the assertion on stderr),
2 usage, 4 no verdict (the run did not do what the check needs)."""
import json
import os
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from hpccpy import cli  # noqa: E402


def load(path):
    with open(path) as f:
        return json.load(f)


def bench_rows(path):
    d = load(path)

    def rows(k, *f):
        return [tuple(p[x] for x in f) for p in d[k]]

    want = {
        "accuracy": [(c,) for c in (1, 2, 4, 8, 16, 32, 64)],
        "memory": [(c,) for c in (1, 2, 4, 8, 16, 32, 64)],
        "read": [(1,), (8,), (64,)],
    }
    for k, w in want.items():
        assert rows(k, "nr_cpus") == w, "%s rows %s" % (k, rows(k, "nr_cpus"))
    got = rows("add", "nr_cpus", "threads")
    assert got == [(2, 1), (2, 2), (8, 1), (8, 2)], "add rows %s" % got
    got = rows("add_oversub", "nr_cpus", "threads")
    assert got == [(2, 2), (8, 8)], "add_oversub rows %s" % got
    assert set(d["precise_fit"]) >= {"hpcc", "split"} and \
        "hpcc_vs_atomic" in d["approx_flatness"]
    if d["oom"] is not None:
        got = [(p["workload"], p["tasks"]) for p in d["oom"]["points"]]
        assert [t for _, t in got] == [40, 400, 40, 400], "oom rows %s" % got
    bad = [(a["nr_cpus"], a["hpcc"]["lib_under"], a["hpcc"]["lib_over"],
            a["hpcc"]["under"], a["hpcc"]["over"]) for a in d["accuracy"]
           if (a["hpcc"]["lib_under"], a["hpcc"]["lib_over"]) !=
           (a["hpcc"]["under"], a["hpcc"]["over"])]
    assert not bad, "library accuracy != lib/shape's (cpus, lib, shape): %s" % bad


def bench_source(path, src):
    d = load(path)
    assert d["meta"]["hpcc_source"] == src, d["meta"]["hpcc_source"]


def report_window(d, src):
    w = load(os.path.join(d, "acc-imprecision.json"))
    assert w["window_code"]["counter"] == src, w["window_code"]
    pts = [(p["nr_cpus"], p["window_pages"], p["shape_window_pages"]) for p in w["points"]]
    assert [p[0] for p in pts] == [8, 16], pts
    assert all(w == s for _, w, s in pts), "window differs from lib/shape's: %s" % pts
    a = load(os.path.join(d, "acc-order.json"))["accuracy"]
    assert a["window_pages"] == a["shape_window_pages"], a


def report_pcpu(d, src):
    want = os.path.join(src, "lib/percpu_counter.c")
    for s in ("latency", "exact"):
        x = load(os.path.join(d, "acc-%s.json" % s))
        assert x["pcpu_source"] == want, (s, x["pcpu_source"])
        key = "percpu_counter" if s == "latency" else "percpu_counter_sum"
        miss = [(p["nr_cpus"], p["tasks"]) for p in x["points"]
                if key not in p.get("latency_us", {})]
        assert x["points"] and not miss, "%s: no percpu_counter time at %s" % (s, miss)


def report_int_window(path):
    w = load(path)["oom"]["imprecision"]["tree_window"]
    assert w["rc"] == 0 and w["api"].startswith("shape=int-items"), w
    assert [(p["nr_cpus"], p["batch"]) for p in w["points"]] == \
        [(8, 32), (8, 128), (16, 32), (16, 128)], w
    assert all(p["window_pages"] == p["under_pages"] + p["over_pages"] > 0
               for p in w["points"]), w


def report_concurrent(d):
    pts = load(os.path.join(d, "report.json"))["oom"]["imprecision"]["concurrent"]["points"]
    with open(os.path.join(d, "REPORT.md")) as f:
        text = f.read()
    assert [p["nr_cpus"] for p in pts] == [8, 16], pts
    assert "Under the stress's concurrent churn" in text, "no concurrent half"
    unjudged = []
    for p in pts:
        assert p["rc"] == 0 and p["quiescent_points"] >= max(p["judged_points"], 1), p
        # Every point without a kill in progress judged v16 once (as many
        # as the scenario records); a point with one judged nothing.
        sel = {a: q["selections"] for a, q in p["shortfall"].items() if a != "recorded_max"}
        want = min(p["judged_points"], p["shortfall"]["recorded_max"])
        assert sel.get("v16", 0) == want, ("v16 selections", sel, "judged points", want)
        if not want:
            # The host's speed gave it no point to judge: said, no verdict.
            assert "Not measured: %d CPUs: a kill was in progress at each" % p["nr_cpus"] \
                in text.replace("\n", " "), "no judged point, not said"
            unjudged.append(p["nr_cpus"])
            continue
        q = p["shortfall"]["v16"]
        assert 0 <= q["shortfall_pages_median"] <= q["shortfall_pages_p99"] \
            <= q["shortfall_pages_max"], q
    if unjudged:
        print("no verdict: a kill in progress at every quiescent point at %s CPUs" %
              ", ".join(map(str, unjudged)))
        return 4
    assert "  >W\n" in text, "no table"


def compaction(path):
    d = load(path)
    assert d["seeds"] == [1, 2] and d["quick"] is True and d["invariants_hold"] is True
    main = [r["kernel"] for r in d["frag_bench"][0]["runs"] if r["table"] == "main"]
    assert main == ["Base", "Limit", "Nonmovable", "Redesign", "Threshold", "Stable"], main
    r = d["frag_bench"][0]["runs"][0]
    assert r["alloc_fast"] + r["alloc_async"] + r["alloc_reclaim"] + r["alloc_sync"] == \
        r["alloc_success"]
    assert sum(r["mode_stall"]) == r["compact_stall"]
    assert isinstance(d["section6"]["answer"]["keeps_10x_cut"], bool)
    assert d["churn"][0]["exit"] == 0 and d["churn"][0]["checks"] > 0
    # Section 5's calibration and section 6's sweep and limit over time.
    cal = d["frag_bench_calibrated"][0]
    assert cal["pin_churn"] > 0 and "calibrated" in d["section5"], cal["pin_churn"]
    sw = d["section6"]["sweep"]
    assert sorted({(p["mult"], p["weight"]) for p in sw}) == \
        [(m, w) for m in (1, 2, 4) for w in (2, 8, 32)], sw
    for p in sw + list(d["section6"]["trace"].values()):
        assert len(p["limit_trace"]) == 100 and p["trace_step"] == 3, p
    # Every sweep point on every seed, its loss and cut against Redesign on
    # the same seed.
    for p in sw:
        assert p["seeds"] == [1, 2], p["seeds"]
        for i, c in enumerate(d["frag_bench_calibrated"]):
            red = [r for r in c["runs"] if r["table"] == "main" and r["kernel"] == "Redesign"][0]
            assert abs(p["success_n"][i] + p["loss_points"][i] -
                       100.0 * red["alloc_success"] / c["requests"]) < 1e-9, (p, i)
            assert abs(p["cut"][i] - red["compact_migrate_scanned"] /
                       max(p["migrate_scanned"][i], 1)) < 1e-9, (p, i)


def handoff(path):
    d = load(path)
    cases = [p["case"] for p in d["points"]]
    assert cases == ["frag_model", "turn", "turn_threads", "vcpu", "migrate", "kunit"], cases
    for p in d["points"]:
        for side in ("new", "old"):
            for k in ("user_s", "sys_s", "cpu_s", "vcs", "ivcs"):
                assert p[side][k]["median"] >= 0, (p["case"], side, k)
    goals = {p["case"]: p["goal"] for p in d["points"]}
    assert goals["kunit"] is None and goals["vcpu"] is None, goals
    assert goals["turn_threads"] is None, goals
    for c in ("frag_model", "turn"):
        g = goals[c]
        assert g["metric"] == "sys_per_cpu" and g["limit"] == 0.2, (c, g)
        assert g["met"] == (g["median"] <= g["limit"]), (c, g)
    # The turn's goal comes from its longer run of the new build alone.
    turn = next(p for p in d["points"] if p["case"] == "turn")
    assert turn["goal_run"]["args"][0] == "turn", turn["goal_run"]
    assert goals["turn"]["median"] == turn["goal_run"]["new"]["sys_per_cpu"]["median"], turn
    assert goals["turn"]["cpu_s"] == turn["goal_run"]["new"]["cpu_s"]["median"], turn


def handoff_goals(run):
    # The script, loaded as a module: its main() runs only as a program.
    from importlib.machinery import SourceFileLoader
    from importlib.util import module_from_spec, spec_from_loader
    loader = SourceFileLoader("handoff_run", run)
    mod = module_from_spec(spec_from_loader("handoff_run", loader))
    loader.exec_module(mod)

    def verdict(case, metric, median, timed_out):
        g = mod.goal_of(case, {metric: {"median": median}}, timed_out)
        return g and g["met"]
    # (case, metric, median, new runs timed out) -> met
    want = [
        ("kunit_tree_256", "cpu_s", 4.9, 0, True),
        ("kunit_tree_256", "cpu_s", 5.0, 0, True),
        ("kunit_tree_256", "cpu_s", 5.1, 0, False),
        # Killed runs: their CPU times are lower bounds.
        ("kunit_tree_256", "cpu_s", 5.3, 3, False),
        ("kunit_tree_4096", "cpu_s", 60.5, 1, False),
        ("kunit_tree_256", "cpu_s", 5.0, 5, None),
        ("kunit_tree_256", "cpu_s", 4.0, 1, None),
        # A share of the CPU time is bounded neither way by a killed run.
        ("turn", "sys_per_cpu", 0.5, 1, None),
        ("turn", "sys_per_cpu", 0.1, 1, None),
        ("turn", "sys_per_cpu", 0.21, 0, False),
        ("vcpu", "cpu_s", 9.0, 1, None),
    ]
    for case, metric, m, to, met in want:
        got = verdict(case, metric, m, to)
        assert got is met, (case, metric, m, to, "met", got, "want", met)
    g = mod.goal_of("kunit_tree_256", {"cpu_s": {"median": 5.3}}, 3)
    line = mod.goal_verdict(g, 3)
    assert line.startswith("not met") and "3 runs timed out" in line, line


CHECKS = {
    "bench-rows": (bench_rows, 1),
    "bench-source": (bench_source, 2),
    "report-window": (report_window, 2),
    "report-pcpu": (report_pcpu, 2),
    "report-int-window": (report_int_window, 1),
    "report-concurrent": (report_concurrent, 1),
    "compaction": (compaction, 1),
    "handoff": (handoff, 1),
    "handoff-goals": (handoff_goals, 1),
}


if __name__ == "__main__":
    sys.exit(cli.named(CHECKS, sys.argv))
