#!/usr/bin/env python3
"""scripts/kernel-series' --json checked against its inputs
(tests/seam/kernel_series_json.sh, which says what is checked): RUNS
seeded configurations over a repository made here, the judge and
checkpatch stood in for. KTAP results on stdout, after the plan.

Usage: kernel_series_json.py KERNEL_SERIES SEED RUNS
Exit status: 0 every run's JSON matched, 1 otherwise."""
import contextlib
import copy
import importlib.machinery
import importlib.util
import io
import json
import os
import random
import subprocess
import sys
import tempfile

loader = importlib.machinery.SourceFileLoader("kseries", sys.argv[1])
spec = importlib.util.spec_from_loader("kseries", loader)
ks = importlib.util.module_from_spec(spec)
loader.exec_module(ks)
rng = random.Random(int(sys.argv[2]))
runs = int(sys.argv[3])
print(f"1..{runs}")

C, H, K = ("lib/percpu_counter_tree.c", "include/linux/percpu_counter_tree.h",
	   "lib/tests/percpu_counter_tree_kunit.c")
# Each commit: (subject, files written); the judged content after it is
# what the test compares content keys by.
HISTORY = [("base", {C: "int a;\n", H: "/* h */\n"}),
	   ("docs only", {"README": "docs\n"}),
	   ("counter: b", {C: "int b;\n"}),
	   ("header and kunit", {H: "/* h2 */\n", K: "/* k */\n"}),
	   ("counter: a again", {C: "int a;\n"}),
	   ("header back", {H: "/* h */\n"})]

UNITS = ["test_hpcc_set", "test_hpcc_carry,test_oom", "test_hpcc_compare"]
OPTS = {"duration": ["1s", "250ms", "2m"], "cpus": ["1", "4", "64"], "jobs": ["1", "3"],
	"unit": UNITS, "kunit": ["1", "8"], "report": ["table", "ktap"]}


def verdict():
	"""A judge's verdict, as read_verdict() gives it."""
	kind = rng.choice(["pass", "pass", "unit", "stress", "adapter", "none", "incomplete"])
	v = {"builds": "yes", "ufail": [], "stress": {"counter_storm": {"verdict": "PASS",
								       "detail": "-"}},
	     "api": "long", "unit": {"pass": 5, "fail": 0, "skip": 0}, "kunit": None, "kfail": []}
	if kind == "unit":
		v["ufail"] = [{"prog": "test_hpcc_carry", "case": "carry_batch_4g",
			       "class": "wrong-answer", "fn": "init"}]
	elif kind == "stress":
		v["stress"]["counter_storm"] = {"verdict": "FAIL", "detail": "x, wrong-answer"}
	elif kind == "incomplete":
		v["stress"]["counter_storm"] = {"verdict": "INCOMPLETE", "detail": "-"}
	elif kind == "adapter":
		v.update(builds="adapter", why="older API", stress={})
	elif kind == "none":
		v = {"builds": "none", "why": "no result", "none": "no result", "ufail": [],
		     "stress": {}, "kunit": None, "kfail": []}
	return v


with tempfile.TemporaryDirectory(prefix="kseries-json-") as tmp:
	repo = os.path.join(tmp, "repo")
	env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
		   GIT_COMMITTER_EMAIL="t@t", GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)

	def git(*args):
		return subprocess.run(["git", "-C", repo, *args], check=True, env=env,
				      capture_output=True, text=True).stdout.strip()

	os.makedirs(repo)
	git("init", "-q")
	revs, content, touched, snap = [], [], [], {}
	for subject, files in HISTORY:
		for path, text in files.items():
			os.makedirs(os.path.join(repo, os.path.dirname(path)), exist_ok=True)
			with open(os.path.join(repo, path), "w") as fh:
				fh.write(text)
		git("add", "-A")
		git("commit", "-q", "-m", subject)
		revs.append(git("rev-parse", "HEAD"))
		changed = sorted(p for p, t in files.items() if p in ks.JUDGED and snap.get(p) != t)
		snap.update(files)
		content.append(tuple(sorted((p, t) for p, t in snap.items() if p in ks.JUDGED)))
		touched.append(changed)

	# The options' own checks (scripts/kernel-options, tested by
	# kernel_check_inputs.sh) stand aside: a Python start per run.
	ks.HERE = os.path.join(tmp, "bin")
	os.makedirs(ks.HERE)
	with open(os.path.join(ks.HERE, "kernel-options"), "w") as fh:
		fh.write("#!/bin/sh\nexit 0\n")
	os.chmod(os.path.join(ks.HERE, "kernel-options"), 0o755)
	# The repository does not change: each git question is asked once.
	answers, ks_git = {}, ks.git
	ks.git = lambda repo, *args, check=True: answers.setdefault(
		(repo, args, check), ks_git(repo, *args, check=check))
	plan, rc_all = {}, 0
	ks.checkpatch = lambda repo, rows: [r.__setitem__("checkpatch", plan["cp"][r["hash"]])
					    for r in rows[1:]]
	ks.series_lock = lambda rows: None
	for n in range(1, runs + 1):
		b = rng.randrange(0, len(revs) - 1)
		h = rng.randrange(b + 1, len(revs))
		given = {k: rng.choice(vals) for k, vals in OPTS.items() if rng.random() < 0.5}
		out = os.path.join(tmp, f"run{n}.json")
		argv = ["--git", repo, f"{revs[b]}..{revs[h]}", "--json", out]
		for k, val in given.items():
			argv += ["--" + k, val]
		plan["v"] = {}
		plan["cp"] = {r: {"verdict": rng.choice(["PASS", "PASS", "SKIP", "FAIL", "none"]),
				  "detail": "-"} for r in revs}

		def judge(a, repo, rows):
			for r in rows:
				r["v"] = copy.deepcopy(plan["v"].setdefault(r["key"], verdict()))

		ks.judge = judge
		sys.argv = ["kernel-series"] + argv
		shown = io.StringIO()
		with contextlib.redirect_stdout(shown):
			rc = ks.main()
		bad = []
		try:
			with open(out) as fh:
				doc = json.load(fh)
		except (OSError, ValueError) as e:
			doc, bad = {}, [f"no JSON: {e}"]
		want = {"mode": "git", "repo": os.path.abspath(repo), "range": f"{revs[b]}..{revs[h]}",
			"mbox": None, "base_rev": None, "base": revs[b], "exit": rc,
			"options": {k: given.get(k) for k in ks.OPTIONS}}
		if doc and given.get("report", "table") == "table":
			want["options"]["report"] = "table"	# the default, as parsed
		if doc and given.get("jobs") is None:
			want["options"]["jobs"] = "2"
		if doc and given.get("duration") is None:
			want["options"]["duration"] = "10s"
		for k, w in want.items():
			if doc and doc.get(k) != w:
				bad.append(f"{k}: {doc.get(k)!r}, want {w!r}")
		cs = doc.get("commits", [])
		idx = list(range(b, h + 1))
		if [c["hash"] for c in cs] != [revs[i] for i in idx]:
			bad.append("commits: not the range's, in order")
		else:
			first = {}
			for j, (c, i) in enumerate(zip(cs, idx)):
				first.setdefault(content[i], j)
				ck = {"subject": HISTORY[i][0], "touches": touched[i] if j else [],
				      "cached_from": cs[first[content[i]]]["short"]
				      if first[content[i]] != j else None,
				      "content_key": cs[first[content[i]]]["content_key"],
				      "builds": plan["v"][c["content_key"]]["builds"] == "yes"
				      if c["content_key"] in plan["v"] else None,
				      "checkpatch": plan["cp"][revs[i]] if j else None}
				for k, w in ck.items():
					if c.get(k) != w:
						bad.append(f"commit {j} {k}: {c.get(k)!r}, want {w!r}")
			keys = {c["content_key"] for c in cs}
			if len(keys) != len({content[i] for i in idx}):
				bad.append(f"{len(keys)} content keys for "
					   f"{len({content[i] for i in idx})} contents")

		def commits(*lists):
			return len({e["hash"] for k in lists for e in doc.get(k, [])})

		summ = (f"{len(cs)} commits judged, {commits('first_bad', 'broken_again_by')} regress, "
			f"{commits('fixed_by')} fixed, {commits('no_verdict')} without verdict")
		if doc and doc.get("summary") != summ:
			bad.append(f"summary {doc.get('summary')!r}, counted {summ!r}")
		cpv = [c.get("checkpatch") and c["checkpatch"]["verdict"] for c in cs]
		rule = 1 if commits("first_bad", "broken_again_by") or "FAIL" in cpv else \
			4 if commits("no_verdict") or "none" in cpv else 0
		if rc != rule:
			bad.append(f"exit {rc}, but the events and checkpatch give {rule}")
		lines = shown.getvalue().splitlines()
		if given.get("report") == "ktap" and (len(lines) < 2 or lines[1] != f"1..{len(cs)}"):
			bad.append("KTAP plan is not the commits")
		name = f"series_json_{n} {revs[b][:7]}..{revs[h][:7]} {' '.join(argv[5:])} exit {rc}"
		for line in bad:
			print(f"# {line}")
		print(f"{'not ' if bad else ''}ok {n} {name}")
		rc_all |= bool(bad)
sys.exit(rc_all)
