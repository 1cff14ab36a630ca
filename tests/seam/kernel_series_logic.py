#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The cases of tests/seam/kernel_series_logic.sh (see there), on
scripts/kernel-series' functions; KTAP results on stdout."""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "scripts"))
from hpccpy.load import load_script  # noqa: E402

ks = load_script("kernel-series")


def adapter(*fails):
	return {"builds": "adapter", "why": "... (it is the early RFC API: ...)",
		"ufail": [{"prog": "test_hpcc_adapt", "case": c, "class": "wrong-answer",
			   "fn": "-"} for c in fails],
		"stress": {}, "kunit": None, "kfail": []}


def full(*fails, stress="PASS", kunit=None, kfail=()):
	return {"builds": "yes",
		"ufail": [{"prog": "test_hpcc_carry", "case": c, "class": "wrong-answer",
			   "fn": "init"} for c in fails],
		"stress": {"counter_storm": {"verdict": stress, "detail": "-"}},
		"kunit": kunit, "kfail": list(kfail)}


def rows_of(verdicts):
	return [{"short": f"c{i}", "subject": f"s{i}", "v": v} for i, v in enumerate(verdicts)]


def run(verdicts):
	ev = ks.compare(rows_of(verdicts))
	return [f"{k}: {r['short']}: {c}" for k, r, c, _ in ev] + [f"exit {ks.exit_status(ev)}"]


def stress(v, sc, verdict):
	v["stress"][sc] = {"verdict": verdict, "detail": "-"}
	return v


NONE = {"builds": "none", "why": "no result", "none": "no result from the judge (see d)",
	"ufail": [], "stress": {}, "kunit": None, "kfail": []}


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
	 ["first bad: c1: unit test_hpcc_adapt adapt_set", "fixed by: c2: builds", "exit 1"]),
	("full_to_adapter", [full(), adapter()], ["first bad: c1: builds", "exit 1"]),
	("kunit_cases", [full(kunit=KU1, kfail=["old_case"]), full(kunit=KU1, kfail=["new_case"]),
			 full(kunit=KU, kfail=[])],
	 ["first bad: c1: kunit new_case", "fixed by: c1: kunit old_case",
	  "fixed by: c2: kunit new_case", "exit 1"]),
	("kunit_not_at_base", [full(kunit=NO), full(kunit=KU1, kfail=["new_case"])], ["exit 0"]),
	("base_failure_fixed", [full("carry_batch_4g"), full("carry_batch_4g"), full(), full()],
	 ["fixed by: c2: unit test_hpcc_carry carry_batch_4g", "exit 0"]),
	("adapter_stress", [adapter_stress("PASS"), adapter_stress("FAIL"), full_oom_fails()],
	 ["first bad: c1: stress counter_storm", "fixed by: c2: builds",
	  "fixed by: c2: stress counter_storm", "exit 1"]),
	("incomplete", [full(), stress(full(), "counter_storm", "INCOMPLETE"), full(),
			stress(full(), "counter_storm", "ERROR")],
	 ["no verdict: c1: stress counter_storm", "no verdict: c3: stress counter_storm", "exit 4"]),
	("judge_none", [NONE, full(), NONE, full("carry_batch_4g")],
	 ["no verdict: c0: judge", "no verdict: c2: judge",
	  "first bad: c3: unit test_hpcc_carry carry_batch_4g", "exit 1"]),
	("adapter_base_regression", [adapter_stress("PASS"), stress(full(), "oom_race", "PASS"),
				     stress(full("carry_batch_4g"), "oom_race", "FAIL")],
	 ["fixed by: c1: builds", "first bad: c2: stress oom_race",
	  "first bad: c2: unit test_hpcc_carry carry_batch_4g", "exit 1"]),
	("broken_again", [full(), full("carry_batch_4g"), full(), full("carry_batch_4g")],
	 ["first bad: c1: unit test_hpcc_carry carry_batch_4g",
	  "fixed by: c2: unit test_hpcc_carry carry_batch_4g",
	  "broken again by: c3: unit test_hpcc_carry carry_batch_4g", "exit 1"]),
]
rc = 0
for i, (name, verdicts, want) in enumerate(cases, 1):
	got = run(verdicts)
	if name == "adapter_stress":
		got.append(ks.stress_text(verdicts[0]))
		want = want + ["counter_storm PASS, compaction_churn/oom_race SKIP "
			       "(needs the long hpcc API)"]
	if name == "incomplete":
		got.append(ks.stress_text(verdicts[1]))
		want = want + ["counter_storm no verdict (INCOMPLETE)"]
	if name == "judge_none":
		got.append(ks.builds_text(verdicts[0]))
		want = want + ["no verdict: no result from the judge (see d)"]
	if got == want:
		print(f"ok {i} {name}")
	else:
		print(f"# got {got}\n# want {want}")
		print(f"not ok {i} {name}")
		rc = 1

# 11: 30 cases break at one commit: one summary line, five lines, one fold.
rows = rows_of([full(), full(*[f"case_{i:02d}" for i in range(30)]), full()])
ev = ks.compare(rows)
lines = [ks.summary(rows, ev)] + ks.event_lines(ev)
want = ["3 commits judged, 1 regress, 1 fixed, 0 without verdict"] + \
	[f"first bad: c1 s1: unit test_hpcc_carry case_{i:02d} (wrong-answer, init)"
	 for i in range(5)]
ok = (lines[:6] == want and lines[6].startswith("first bad: c1 s1: 25 more checks (unit ") and
      sum(1 for l in lines if l.startswith("fixed by: c2 s2: ")) == 6 and len(lines) == 13)
print(f"{'' if ok else 'not '}ok 11 summary_and_fold")
if not ok:
	print("# " + "\n# ".join(lines))
	rc = 1

# 12: a subject's escape sequence and a mailbox's control bytes never reach
# the terminal raw.
t = ks.esc("evil \x1b[2J\x07 subject\x9b")
ok = t == "evil \\x1b[2J\\x07 subject\\x9b" and not any(ord(ch) < 32 for ch in t)
print(f"{'' if ok else 'not '}ok 12 subject_escaped")
if not ok:
	print(f"# {t!r}")
	rc = 1
# 13: the content keys, on a repository of five commits made here.
import os
import subprocess
import tempfile

with tempfile.TemporaryDirectory(prefix="kseries-keys-") as repo:
	env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
		   GIT_COMMITTER_EMAIL="t@t", GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)

	def commit(files, subject):
		for path, text in files.items():
			os.makedirs(os.path.join(repo, os.path.dirname(path)), exist_ok=True)
			with open(os.path.join(repo, path), "w") as fh:
				fh.write(text)
		subprocess.run(["git", "-C", repo, "add", "-A"], check=True, env=env)
		subprocess.run(["git", "-C", repo, "commit", "-q", "-m", subject], check=True, env=env)
		return subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], check=True, env=env,
				      capture_output=True, text=True).stdout.strip()

	subprocess.run(["git", "init", "-q", repo], check=True, env=env)
	c, h = "lib/percpu_counter_tree.c", "include/linux/percpu_counter_tree.h"
	revs = [commit({c: "int a;\n", h: "/* h */\n"}, "base"),
		commit({"README": "docs\n"}, "docs only"),
		commit({c: "int b;\n"}, "same names, other content"),
		commit({c: "int a;\n"}, "base's content again"),
		commit({"mm/oom_kill.c": "int o;\n"}, "a judged file added")]
	rows = ks.describe(repo, revs)
	k = [r["key"] for r in rows]
	got = [(k[i] == k[0], r["cached_from"], r["touches"]) for i, r in enumerate(rows)]
	s0 = rows[0]["short"]
	want = [(True, None, []), (True, s0, []), (False, None, [c]), (True, s0, [c]),
		(False, None, ["mm/oom_kill.c"])]
	ok = got == want and len(set(k)) == 3 and rows[4]["files"] == [h, c, "mm/oom_kill.c"]
	print(f"{'' if ok else 'not '}ok 13 cache_keys_by_content")
	if not ok:
		print(f"# got {got} keys {k}\n# want {want}")
		rc = 1

# 14: verdict files as scripts/kernel-judge writes them, read back.
with tempfile.TemporaryDirectory(prefix="kseries-verdict-") as d:
	def read(name, *lines):
		os.makedirs(os.path.join(d, name))
		with open(os.path.join(d, name, "verdict"), "w") as fh:
			fh.write("".join(line + "\n" for line in lines))
		return ks.read_verdict(os.path.join(d, name))

	got = [read("full", "builds\tyes", "api\tlong", "files\tc 1234", "unit\t7\t2\t3",
		    "ufail\ttest_hpcc_carry\tcarry_batch_4g\twrong-answer\tinit",
		    "ufail\ttest_oom\toom_ties\tcrash\t-",
		    "stress\tcounter_storm\tFAIL\tx, wrong-answer", "stress\toom_race\tPASS\t-",
		    "kunit\t11\t1\t4", "kfail\tcase_a", "kwarn\t1709"),
	       read("nokunit", "builds\tyes", "kunit\t-\tnone\tno KUnit file"),
	       read("refused", "builds\tnone", "why\trefused: a symlink"),
	       ks.read_verdict(os.path.join(d, "absent"))]
	want = [{"builds": "yes", "api": "long", "files": "c 1234",
		 "unit": {"pass": 7, "fail": 2, "skip": 3},
		 "ufail": [{"prog": "test_hpcc_carry", "case": "carry_batch_4g",
			    "class": "wrong-answer", "fn": "init"},
			   {"prog": "test_oom", "case": "oom_ties", "class": "crash", "fn": "-"}],
		 "stress": {"counter_storm": {"verdict": "FAIL", "detail": "x, wrong-answer"},
			    "oom_race": {"verdict": "PASS", "detail": "-"}},
		 "kunit": {"pass": 11, "fail": 1, "skip": 4}, "kfail": ["case_a"], "kwarn": 1709},
		{"builds": "yes", "api": "-", "files": "-", "unit": None, "ufail": [], "stress": {},
		 "kunit": {"none": "no KUnit file"}, "kfail": []},
		{"builds": "none", "why": "refused: a symlink", "none": "refused: a symlink",
		 "api": "-", "files": "-", "unit": None, "ufail": [], "stress": {}, "kunit": None,
		 "kfail": []}]
	ok = got[:3] == want and got[3]["builds"] == "none" and got[3]["none"].startswith(
		"no result from the judge")
	print(f"{'' if ok else 'not '}ok 14 verdict_read_back")
	if not ok:
		print(f"# got {got}")
		rc = 1

	# 15: a verdict file cut short or garbled: that commit's no verdict,
	# naming the file and the line, never a traceback.
	bad = [("count", "unit\t7\tx\t3"), ("short", "ufail\ttest_hpcc_carry\tcarry"),
	       ("stress", "stress\tcounter_storm\tFAIL"), ("kunit", "kunit\t-"),
	       ("bytes", "api\tlong\xff")]
	got = []
	for name, line in bad:
		os.makedirs(os.path.join(d, name))
		with open(os.path.join(d, name, "verdict"), "wb") as fh:
			fh.write(f"builds\tyes\nunit\t1\t0\t0\n{line}\n".encode("latin-1"))
		try:
			v = ks.read_verdict(os.path.join(d, name))
		except Exception as e:	# the defect this case is here for
			v = {"builds": f"raised {e!r}"}
		got.append((name, v["builds"], v.get("none", ""), v.get("unit"), v.get("ufail")))
	want = [(name, "none", f"a malformed verdict from the judge ({d}/{name}/verdict, line 3:"
		 f" {ks.esc(line)})", None, []) for name, line in bad[:4]]
	ok = got[:4] == want and got[4][1] == "yes" and got[4][3] == {"pass": 1, "fail": 0,
								      "skip": 0}
	print(f"{'' if ok else 'not '}ok 15 verdict_malformed_no_verdict")
	if not ok:
		print(f"# got {got}")
		rc = 1
# 16: a KUnit run whose cases pass but which WARNs: a finding of its own.
warned = full(kunit=KU)
warned["kwarn"] = 1709
got = run([full(kunit=KU), warned, full(kunit=KU)]) + [ks.kunit_text(warned)]
want = ["first bad: c1: kunit (WARN)", "fixed by: c2: kunit (WARN)", "exit 1", "5/0/0, 1709 WARN"]
print(f"{'' if got == want else 'not '}ok 16 kunit_warn")
if got != want:
	print(f"# got {got}\n# want {want}")
	rc = 1
sys.exit(rc)
