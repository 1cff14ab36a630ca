#!/usr/bin/env python3
"""The explorer's outputs checked against its inputs: ITERS random valid
configurations (seeded, so a failure names its command line), each a brief
search (a budget, a few PCT runs or a small bound: never wall time), with
--json. Every configuration field of the JSON and of the KTAP header equals
what the command line gave (defaults filled); every count of the JSON
equals the KTAP line that tallies it, and the per-bound executions add up
to the total; the verdict (the JSON's failed, the KTAP result) matches the
exit status, and a failure's schedule its KTAP lines. One KTAP line per
configuration.
  explore_outputs.py EXPLORE SEED ITERS
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile

# The harnesses whose header says a planted barrier (the others' own words).
PLANT_SAID = ("sb", "mp", "publish", "zone_desc")
# Canonical names of the harnesses an alias names (docs/explore.md).
CANON = {"storm": "counter_storm", "oom_race": "oom"}
DEFAULTS = {"cpus": 2, "adds": 3, "readers": 1, "reads": 1, "batch": 2, "bound": 2,
            "reduction": "none", "memory_model": "sc", "budget": 0, "depth": 3,
            "runs": 1000, "seed": 1, "tasks": 2, "forks": 1, "algo": "bounded",
            "plant": False, "pct": False}


def config(rng):
    """A random valid configuration: the options given, with their values."""
    h = rng.choice(["counter_storm", "storm", "oom", "oom_race", "sb", "mp", "publish",
                    "compaction", "zone_desc"])
    given = {}
    canon = CANON.get(h, h)
    if canon == "counter_storm":
        given.update(cpus=rng.randint(2, 3), adds=rng.randint(1, 3),
                     readers=rng.randint(0, 2), reads=rng.randint(0, 2),
                     batch=2 ** rng.randint(1, 5))
    if canon == "oom":
        given.update(tasks=rng.randint(2, 4), forks=rng.randint(0, 1),
                     algo=rng.choice(["precise", "v16", "bounded"]))
    if canon in ("sb", "mp", "publish"):
        given["memory_model"] = rng.choice(["sc", "tso", "pso"])
    if rng.random() < 0.4:
        given["plant"] = True
    if rng.random() < 0.3:
        given.update(pct=True, runs=rng.randint(3, 30), depth=rng.randint(1, 3),
                     seed=rng.randint(0, 2 ** 62))
    else:
        given["bound"] = rng.choice([-1, 0, 1, 2])
        red = ["none", "sleep"] + (["dpor"] if given.get("memory_model", "sc") == "sc" else [])
        given["reduction"] = rng.choice(red)
        # Brief either way: a budget, or none where the search is small.
        small = canon in ("sb", "mp", "publish") and given["bound"] in (0, 1)
        if not small or rng.random() < 0.5:
            given["budget"] = rng.randint(1, 40)
    return h, given


def argv(xp, h, given, json_path):
    a = [xp, "--harness", h]
    for k, v in sorted(given.items()):
        if k == "pct" or k == "plant":
            a.append("--" + k)
        else:
            a += ["--" + k.replace("_", "-"), str(v)]
    return a + ["--json", json_path]


def diag(out, pattern):
    m = re.search(r"^# " + pattern + "$", out, re.M)
    return m.groups() if m else None


def check(h, given, rc, out, doc):
    bad = []
    want = dict(DEFAULTS, **given)
    pct = want["pct"]
    expect = {"harness": CANON.get(h, h), "mode": "pct" if pct else "dfs",
              "seed": str(want["seed"])}
    for k in ("cpus", "adds", "readers", "reads", "batch", "bound", "reduction", "budget",
              "depth", "runs", "tasks", "forks", "algo", "memory_model", "plant"):
        expect[k] = want[k]
    bad += ["json %s=%r, given %r" % (k, doc.get(k), v) for k, v in expect.items()
            if doc.get(k) != v]
    # The KTAP header says the same.
    head = diag(out, r"explore: harness (\S+)(.*)")
    if not head or head[0] != expect["harness"]:
        bad.append("header harness %r" % (head,))
    elif expect["harness"] == "counter_storm":
        words = " cpus %(cpus)d adds %(adds)d readers %(readers)d reads %(reads)d batch %(batch)d" \
            % want
        if not head[1].startswith(words):
            bad.append("header%r, given%r" % (head[1], words))
    elif expect["harness"] == "oom" and not head[1].startswith(
            " cpus 2 tasks %(tasks)d forks %(forks)d algo %(algo)s" % want):
        bad.append("header%r, given tasks %d forks %d algo %s"
                   % (head[1], want["tasks"], want["forks"], want["algo"]))
    if (" (barrier planted out)" in head[1] if head else False) != (
            want["plant"] and expect["harness"] in PLANT_SAID):
        bad.append("header%r with plant %r" % (head and head[1], want["plant"]))
    if diag(out, r"memory model (\S+)") != (want["memory_model"],):
        bad.append("header memory model %r" % (diag(out, r"memory model (\S+)"),))
    mode = ("pct depth %(depth)d runs %(runs)d seed %(seed)d" if pct else
            "dfs bound %(bound)d reduction %(reduction)s" +
            (" budget" if want["budget"] else "")) % want
    if diag(out, r"mode (.*)") != (mode,):
        bad.append("mode line %r, given %r" % (diag(out, r"mode (.*)"), mode))
    # Every count: the JSON's against the KTAP line that tallies it.
    counts = diag(out, r"executions (\d+) steps (\d+) sleep_pruned (\d+) sleep_blocked (\d+)"
                  r" bound_cut (\d+) time \S+ s")
    names = ("executions", "steps", "sleep_pruned", "sleep_blocked", "bound_cut")
    if not counts or [doc.get(k) for k in names] != [int(c) for c in counts]:
        bad.append("counts %r, ktap %r" % ([doc.get(k) for k in names], counts))
    n = doc.get("executions", -1)
    failed = doc.get("failed")
    if not pct:
        traces = diag(out, r"traces (\d+)")
        if not traces or doc.get("traces") != int(traces[0]):
            bad.append("traces %r, ktap %r" % (doc.get("traces"), traces))
        per = [int(x) for x in re.findall(r"^# bound \d+: (\d+) executions$", out, re.M)]
        # Bounded searches count per bound (none when unbounded), the
        # bound a failure or the budget cut included.
        if per != [] if want["bound"] < 0 else sum(per) != n:
            bad.append("per-bound executions %r, total %r" % (per, n))
    elif not failed and n != want["runs"]:
        bad.append("%r PCT executions, given --runs %d" % (n, want["runs"]))
    cut = diag(out, r"cut by budget at (\d+) executions .*")
    if doc.get("budget_cut") != bool(cut) or (cut and not int(cut[0]) == n == want["budget"]):
        bad.append("budget_cut %r, ktap %r, executions %r, budget %d"
                   % (doc.get("budget_cut"), cut, n, want["budget"]))
    if want["budget"] and n > want["budget"]:
        bad.append("%r executions past a budget of %d" % (n, want["budget"]))
    # The verdict: the exit status, the KTAP result, the JSON's failed; a
    # search its budget cut before a failure has none (exit 4, SKIP).
    res = re.search(r"^(not ok|ok) 1 explore (\S+)(.*)$", out, re.M)
    cut_only = not failed and bool(doc.get("budget_cut"))
    if rc != (1 if failed else 4 if cut_only else 0) or not res or \
            (res.group(1) == "not ok") != failed or res.group(2) != expect["harness"] or \
            (res.group(3).endswith(" # SKIP no verdict: cut by budget") != cut_only):
        bad.append("exit %d, failed %r, result %r" % (rc, failed, res and res.group(0)))
    if failed:
        inv = diag(out, r"FAIL (\S+) after (\d+) executions: .*")
        sched = diag(out, r"schedule \((\d+) steps, (\d+) preemptions, the first (\d+) chosen\):")
        if not inv or inv != (doc.get("invariant"), str(n)) or \
                not res.group(3).endswith(" " + inv[0]):
            bad.append("invariant %r, ktap %r" % (doc.get("invariant"), inv))
        if not sched or doc.get("preemptions") != int(sched[1]) or \
                len(doc.get("schedule", ())) != int(sched[2]):
            bad.append("schedule of %r chosen, %r preemptions; ktap %r"
                       % (len(doc.get("schedule", ())), doc.get("preemptions"), sched))
    elif "invariant" in doc or "schedule" in doc:
        bad.append("a passing run's JSON names a failure")
    return bad


def main():
    xp, seed, iters = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    print("KTAP version 1")
    print("1..%d" % iters)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        jpath = os.path.join(tmp, "x.json")
        for i in range(1, iters + 1):
            h, given = config(rng)
            cmd = argv(xp, h, given, jpath)
            if os.path.exists(jpath):
                os.unlink(jpath)
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=tmp)
            try:
                with open(jpath, encoding="utf-8") as f:
                    doc = json.load(f)
                bad = check(h, given, p.returncode, p.stdout, doc)
            except (OSError, ValueError) as e:
                bad = ["no JSON read back (exit %d): %s %s"
                       % (p.returncode, e, p.stderr.strip()[:200])]
            if bad:
                failed += 1
                print("# " + " ".join(cmd[:-2]))
                for b in bad:
                    print("#   " + b)
            print("%s %d explore_outputs_%d_%s" % ("not ok" if bad else "ok", i, seed, h))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
