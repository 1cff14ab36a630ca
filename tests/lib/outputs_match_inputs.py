#!/usr/bin/env python3
"""Outputs checked against their inputs: ITERS random valid configurations
(seeded, so a failure names its command line), each run briefly (--steps,
never wall time) twice, with --report text and --report ktap, both with
--json. Every configuration field of the JSON, of the text header and of the
KTAP header equals what the command line gave; ops equals the tally (cpus x
steps), the summary's counts equal the runs, the verdict matches the exit
status. One KTAP line per configuration.
  outputs_match_inputs.py STRESS SEED ITERS
"""
import json
import random
import subprocess
import sys

EXIT = {"PASS": 0, "SKIP": 0, "FAIL": 1}


def config(rng):
    c = {
        "cpus": rng.randint(1, 6),
        "batch": 2 ** rng.randint(1, 10),
        "selectors": rng.randint(0, 3),
        "seed": rng.randint(0, 2 ** 64 - 1),
        "steps": rng.randint(20, 120),
        "rcu": rng.choice(["memb", "qsbr", "bp"]),
        "pcpu_ops": rng.choice(["owned", "atomic"]),
        "no_check": rng.random() < 0.2,
        "hop": rng.choice([0, 0.01, 0.2]),
        "delay": rng.choice([0, 0.0002]),
        "yield": rng.choice([0, 0.0003]),
        "stutter": rng.choice(["off", "200ms", "256ms-1s"]),
        "hotplug": rng.choice(["off", "0.5", "1"]),
    }
    if c["no_check"]:
        c["stutter"] = "off"
    return c


def argv(stress, c, report, json_path):
    a = [stress, "--scenario", "counter_storm", "--cpus", str(c["cpus"]),
         "--batch", str(c["batch"]), "--selectors", str(c["selectors"]),
         "--seed", str(c["seed"]), "--steps", str(c["steps"]), "--duration", "0",
         "--stat-interval", "0", "--rcu", c["rcu"], "--pcpu-ops", c["pcpu_ops"],
         "--inject", "hop=%g,delay=%g,yield=%g" % (c["hop"], c["delay"], c["yield"]),
         "--stutter", c["stutter"], "--hotplug", c["hotplug"],
         "--replay-search", "0", "--report", report, "--json", json_path]
    return a + (["--no-check"] if c["no_check"] else [])


def header_fields(line):
    return dict(w.split("=", 1) for w in line.split() if "=" in w)


def check(c, rc, out, doc, report):
    bad = []
    cfg, run = doc["config"], doc["runs"][0]
    # --no-check runs no checker thread: the parsed selectors are then 0.
    sel = 0 if c["no_check"] else c["selectors"]
    want = {"cpus": c["cpus"], "batch": c["batch"], "selectors": sel,
            "seed": str(c["seed"]), "rcu": c["rcu"], "pcpu_ops": c["pcpu_ops"],
            "stutter": c["stutter"], "hotplug": c["hotplug"], "until_fail": False,
            "checking": not c["no_check"], "scenarios": ["counter_storm"],
            "duration_s": 0}
    bad += ["config.%s=%r, given %r" % (k, cfg.get(k), v) for k, v in want.items()
            if cfg.get(k) != v]
    for k in ("hop", "delay", "yield"):
        if abs(cfg["inject"][k] - c[k]) > 1e-12:
            bad.append("config.inject.%s=%r, given %r" % (k, cfg["inject"][k], c[k]))
    for k in ("cpus", "batch"):
        if run[k] != c[k]:
            bad.append("run.%s=%r, given %r" % (k, run[k], c[k]))
    if run["seed"] != str(c["seed"]):
        bad.append("run.seed=%r" % run["seed"])
    if run["ops"] != c["cpus"] * c["steps"]:
        bad.append("ops=%r, tally %d" % (run["ops"], c["cpus"] * c["steps"]))
    if (run["verdict"] == "SKIP") != c["no_check"]:
        bad.append("verdict %s with checking %s" % (run["verdict"], not c["no_check"]))
    if EXIT.get(run["verdict"]) != rc or doc["exit_status"] != rc:
        bad.append("verdict %s, exit_status %r, exit %d" % (run["verdict"], doc["exit_status"], rc))
    if len(run["failures"]) != (run["verdict"] == "FAIL"):
        bad.append("%d failures, verdict %s" % (len(run["failures"]), run["verdict"]))
    lines = out.splitlines()
    prefix = "# stress: hpcc-stress" if report == "ktap" else "stress: hpcc-stress"
    head = [ln for ln in lines if ln.startswith(prefix)]
    if len(head) != 1:
        return bad + ["%d header lines" % len(head)]
    h = header_fields(head[0])
    text_want = {"cpus": str(c["cpus"]), "batch": str(c["batch"]), "seed": str(c["seed"]),
                 "selectors": str(sel) + ("(no-check)" if c["no_check"] else ""), "rcu": c["rcu"], "pcpu-ops": c["pcpu_ops"],
                 "stutter": c["stutter"], "hotplug": c["hotplug"],
                 "scenarios": "counter_storm"}
    bad += ["header %s=%r, given %r" % (k, h.get(k), v) for k, v in text_want.items()
            if h.get(k) != v]
    verdict = [ln for ln in lines if (" %s counter_storm " % run["verdict"]) in ln]
    if len(verdict) != 1 or "ops=%d " % run["ops"] not in verdict[0]:
        bad.append("verdict line: %r" % verdict)
    if report == "ktap":
        ok = "ok 1 counter_storm" + (" # SKIP" if run["verdict"] == "SKIP" else "")
        if not any(ln.startswith(ok) for ln in lines) or (rc == 1) != ("not ok 1 counter_storm" in out):
            bad.append("KTAP result line for %s" % run["verdict"])
    return bad


def main():
    stress, seed, iters = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    failed = 0
    print("KTAP version 1")
    print("1..%d" % iters)
    for i in range(1, iters + 1):
        c = config(rng)
        bad = []
        for report in ("text", "ktap"):
            a = argv(stress, c, report, "out-%s.json" % report)
            p = subprocess.run(a, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True)
            try:
                with open("out-%s.json" % report) as f:
                    doc = json.load(f)
            except (OSError, ValueError) as e:
                bad.append("%s: no JSON (%s), exit %d: %s" % (report, e, p.returncode,
                                                             p.stderr[:200]))
                continue
            bad += ["%s: %s" % (report, b) for b in check(c, p.returncode, p.stdout, doc, report)]
        if bad:
            failed += 1
            print("# " + " ".join(a[1:]))
            for b in bad:
                print("# " + b)
        print("%sok %d outputs_match_inputs_%d" % ("not " if bad else "", i, i))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
