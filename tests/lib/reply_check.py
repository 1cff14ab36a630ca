#!/usr/bin/env python3
"""Check make report's REPLY.txt against its report.json (docs/report.md).

  reply_check.py DIR...

A list reply: every line at most 72 columns; the six questions quoted
('> 1.' to '> 6.') in order, each answer at most 25 lines and saying whose
code it measured ('[model]' or '[kernel]') or 'Not measured'; a
'Reproduce:' block at the end. Every number of an answer is traceable: some
number of DIR/report.json equals it at the precision shown (thousands
commas dropped). Quoted lines and the Reproduce block (option values) are
not answers, nor are citations ([...] and <...>). The plots' data beside it (DIR/*.dat, one block per series,
'# title' first): at least one file, and no series without a point; the
limit over time (limit.dat) has every trace of report.json with all its
finite points; the sweep (sweep.dat) has every point with the spread of
its seeds; and
gnuplot did not fail (report.json's plots_note). Prints 'DIR: ok' or DIR's first problem for each DIR and
exits 1 when any has one."""
import bisect
import json
import os
import re
import sys

WIDTH = 72
MAX_LINES = 25
# A number standing alone (not part of a word such as a commit hash or
# 'w3.9'), with thousands commas; an 'x' or '%' may follow it.
NUM = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?=x\b|%|[^\w]|$)")


# A citation: a tag or patch subject in [...], a Message-Id in <...>.
CITE = re.compile(r"\[[^]]*\]|<[^>]*>")


def leaves(x, out):
    if isinstance(x, bool):
        return
    if isinstance(x, (int, float)):
        out.append(float(x))
    elif isinstance(x, dict):
        for v in x.values():
            leaves(v, out)
    elif isinstance(x, list):
        for v in x:
            leaves(v, out)
    return out


def traceable(tok_int, tok_frac, vals):
    """Some value of VALS (sorted) equals the token at its precision."""
    s = tok_int.replace(",", "") + (tok_frac or "")
    v = float(s)
    dec = len(tok_frac) - 1 if tok_frac else 0
    half = 0.5 * 10 ** -dec + 1e-9
    # Only the values near v can match: bisect to them (a linear scan per
    # number costs most of a check), then the same test on each.
    i = bisect.bisect_left(vals, v - 2 * half)
    while i < len(vals) and vals[i] <= v + 2 * half:
        if abs(vals[i] - v) <= half:
            return True
        i += 1
    return False


def series(path):
    """{title: [data rows]} of a plot data file."""
    out = {}
    for b in open(path).read().strip("\n").split("\n\n\n"):
        rows = b.strip("\n").split("\n")
        out[rows[0].lstrip("# ")] = [r for r in rows if r.strip() and not r.startswith("#")]
    return out


def check_limit_plot(d, rep):
    """Q6's limit over time: one series per trace of report.json (and the
    sweep's two corners), each with every finite limit the trace holds."""
    f6 = (((rep.get("compaction") or {}).get("data") or {}).get("section6") or {})
    trace = f6.get("trace") or {}
    if not trace:
        return None
    path = os.path.join(d, "limit.dat")
    if not os.path.exists(path):
        return "limit.dat missing: report.json has the limit over time"
    ser = series(path)
    for k, word in (("frozen", "placed once"), ("regenerating", "regenerate")):
        if k not in trace:
            continue
        want = sum(1 for x in trace[k]["limit_trace"] if x > 0)
        got = [len(v) for t, v in ser.items() if t.startswith("2x, 1/8") and word in t]
        if got != [want]:
            return "limit.dat: series '%s' has %s points, the trace %d" % (k, got, want)
    if len(f6.get("sweep") or []) > 1 and len(ser) != len(trace) + 2:
        return "limit.dat: %d series, want %d" % (len(ser), len(trace) + 2)
    return None


def check_sweep_plot(d, rep):
    """Q6's sweep: one series per point of report.json, its row the
    point's median cut and loss with their min-max over the seeds."""
    sw = (((rep.get("compaction") or {}).get("data") or {}).get("section6") or {}).get("sweep")
    if not sw:
        return None
    path = os.path.join(d, "sweep.dat")
    if not os.path.exists(path):
        return "sweep.dat missing: report.json has the sweep"
    ser = series(path)
    if len(ser) != len(sw):
        return "sweep.dat: %d series, the sweep %d points" % (len(ser), len(sw))
    for p in sw:
        t = "%dx, 1/%d" % (p["mult"], p["weight"])
        rows = ser.get(t) or [""]
        got = [float(x) for x in rows[0].split()]
        want = [min(p["cut"]), max(p["cut"]), min(p["loss_points"]), max(p["loss_points"])]
        if len(got) != 6 or any(abs(a - b) > 1e-3 * max(1, abs(b))
                                for a, b in zip(got[2:], want)):
            return "sweep.dat: series '%s' is %s, the seeds' spread %s" % (t, got, want)
    return None


def check_plots(d, rep):
    dats = sorted(f for f in os.listdir(d) if f.endswith(".dat"))
    if not dats:
        return "no plot data (*.dat)"
    for f in dats:
        for t, rows in series(os.path.join(d, f)).items():
            if not rows:
                return "%s: series '%s' has no point" % (f, t)
    return check_limit_plot(d, rep) or check_sweep_plot(d, rep)


def check(d):
    try:
        text = open(os.path.join(d, "REPLY.txt")).read()
        rep = json.load(open(os.path.join(d, "report.json")))
    except (OSError, ValueError) as e:
        return "cannot read: %s" % e
    vals = sorted(x for x in leaves(rep, []) if x == x)	# NaN matches nothing
    lines = text.split("\n")
    for i, ln in enumerate(lines, 1):
        if len(ln) > WIDTH:
            return "line %d is %d columns (> %d)" % (i, len(ln), WIDTH)
    qs = [i for i, ln in enumerate(lines) if ln.startswith("> ")]
    nums = [re.match(r"> (\d)\.", lines[i]) for i in qs]
    if [m.group(1) if m else "?" for m in nums] != [str(k) for k in range(1, 7)]:
        return "questions not quoted as '> 1.' to '> 6.' in order"
    try:
        end = lines.index("Reproduce:")
    except ValueError:
        return "no 'Reproduce:' line"
    if end < qs[-1] or not lines[end + 1].strip().startswith("make report"):
        return "'Reproduce:' is not the last block or names no command"
    for k, q in enumerate(qs):
        stop = qs[k + 1] if k + 1 < len(qs) else end
        ans = [ln for ln in lines[q + 1:stop] if ln.strip()]
        if not ans:
            return "question %d has no answer" % (k + 1)
        if len(ans) > MAX_LINES:
            return "answer %d is %d lines (> %d)" % (k + 1, len(ans), MAX_LINES)
        body = " ".join(ans)
        if not re.search(r"\[(model|kernel)\]|Not measured", body):
            return "answer %d says neither [model], [kernel] nor Not measured" % (k + 1)
        for ln in ans:
            ln = CITE.sub("", ln)
            for m in NUM.finditer(ln):
                if not traceable(m.group(1), m.group(2), vals):
                    return ("answer %d: '%s%s' is in no number of report.json: %s"
                            % (k + 1, m.group(1), m.group(2) or "", ln.strip()))
    if str(rep.get("plots_note", "")).startswith("gnuplot failed"):
        return "plots: %s" % rep["plots_note"]
    return check_plots(d, rep)


def main():
    dirs = sys.argv[1:]
    if not dirs or not all(os.path.isdir(d) for d in dirs):
        print("usage: reply_check.py DIR...", file=sys.stderr)
        return 2
    bad = 0
    for d in dirs:
        err = check(d)
        print("%s: %s" % (d, err or "ok"))
        bad += err is not None
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
