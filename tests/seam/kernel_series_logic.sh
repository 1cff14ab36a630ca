#!/usr/bin/env bash
# scripts/kernel-series' comparison of commits, on verdicts written here
# (no build): which checks are compared with BASE, and the first bad /
# fixed by lines, for the cases tests/seam/kernel_series.sh does not build:
#   1 adapter-only BASE, then the full suite: nothing compared but the
#     adapter's cases and the build (fixed by where the full suite builds)
#   2 the full suite, then adapter only: first bad on the build
#   3 KUnit cases (--kunit): a case failing later is a first bad, passing
#     again a fixed by; a case failing at BASE is never a first bad
#   4 BASE without a KUnit file: the KUnit cases of later commits are not
#     compared
#   5 a check failing at BASE: fixed by where it first passes, no first bad
#   6 counter_storm through the adapter: compared from an adapter-only BASE
#     on; the scenarios it SKIPs there are not; the row groups the SKIPs
# KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
echo "KTAP version 1"
echo "1..6"
python3 -B - "$root/scripts/kernel-series" <<'EOF'
import importlib.machinery
import importlib.util
import sys

loader = importlib.machinery.SourceFileLoader("kseries", sys.argv[1])
spec = importlib.util.spec_from_loader("kseries", loader)
ks = importlib.util.module_from_spec(spec)
loader.exec_module(ks)


def adapter(*fails):
	return {"builds": "adapter", "why": "... (it is the early RFC API: ...)",
		"ufail": [{"prog": "test_hpcc_adapt", "case": c, "class": "wrong-answer",
			   "fn": "-"} for c in fails],
		"stress": {"-": {"verdict": "none", "detail": "x"}}, "kunit": None, "kfail": []}


def full(*fails, stress="PASS", kunit=None, kfail=()):
	return {"builds": "yes",
		"ufail": [{"prog": "test_hpcc_carry", "case": c, "class": "wrong-answer",
			   "fn": "init"} for c in fails],
		"stress": {"counter_storm": {"verdict": stress, "detail": "-"}},
		"kunit": kunit, "kfail": list(kfail)}


def run(verdicts):
	rows = [{"short": f"c{i}", "subject": f"s{i}", "v": v} for i, v in enumerate(verdicts)]
	return [f"{k}: {r['short']}: {c}" for k, r, c, _ in ks.compare(rows)]


KU = {"pass": 5, "fail": 0, "skip": 0}
KU1 = {"pass": 4, "fail": 1, "skip": 0}
NO = {"none": "no KUnit file"}
LONG = {"verdict": "SKIP", "detail": "needs the long hpcc API"}


def adapter_stress(storm):
	v = adapter()
	v["stress"] = {"compaction_churn": LONG, "counter_storm": {"verdict": storm, "detail": "-"},
		       "oom_race": LONG}
	return v


def full_oom_fails():
	v = full()
	v["stress"]["oom_race"] = {"verdict": "FAIL", "detail": "x, wrong-answer"}
	return v


cases = [
	("adapter_base", [adapter("adapt_compare_pair"), adapter("adapt_compare_pair", "adapt_set"),
			  full("carry_batch_4g", stress="FAIL")],
	 ["first bad: c1: unit test_hpcc_adapt adapt_set", "fixed by: c2: builds"]),
	("full_to_adapter", [full(), adapter()], ["first bad: c1: builds"]),
	("kunit_cases", [full(kunit=KU1, kfail=["old_case"]), full(kunit=KU1, kfail=["new_case"]),
			 full(kunit=KU, kfail=[])],
	 ["first bad: c1: kunit new_case", "fixed by: c1: kunit old_case",
	  "fixed by: c2: kunit new_case"]),
	("kunit_not_at_base", [full(kunit=NO), full(kunit=KU1, kfail=["new_case"])], []),
	("base_failure_fixed", [full("carry_batch_4g"), full("carry_batch_4g"), full(), full()],
	 ["fixed by: c2: unit test_hpcc_carry carry_batch_4g"]),
	("adapter_stress", [adapter_stress("PASS"), adapter_stress("FAIL"), full_oom_fails()],
	 ["first bad: c1: stress counter_storm", "fixed by: c2: builds",
	  "fixed by: c2: stress counter_storm"]),
]
rc = 0
for i, (name, verdicts, want) in enumerate(cases, 1):
	got = run(verdicts)
	if name == "adapter_stress":
		got.append(ks.stress_text(verdicts[0]))
		want = want + ["counter_storm PASS, compaction_churn/oom_race SKIP "
			       "(needs the long hpcc API)"]
	if got == want:
		print(f"ok {i} {name}")
	else:
		print(f"# got {got}\n# want {want}")
		print(f"not ok {i} {name}")
		rc = 1
sys.exit(rc)
EOF
