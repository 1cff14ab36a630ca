#!/usr/bin/env python3
"""A strict KTAP version 1 validator, written from the specification
(Documentation/dev-tools/ktap.rst) plus what the kernel's kunit_parser.py
needs to count a stream exactly. It reads the stream, not our writer's code.

  ktap_validate.py [--quiet] [--no-plan] [--totals] [--expect P,F,S] FILE...
  ('-': stdin; --quiet: one summary line on success, every line as "# ...")

Errors (each "FILE:LINE: reason", exit 1):
  - the first line is not "KTAP version 1"; a line is none of version, plan,
    result, diagnostic ("# ..."); an empty line; a tab or an indentation that
    is not two spaces per nesting level;
  - a nested test that does not start with its version line, "# Subtest: NAME"
    and its plan "1..N" (the top level may omit its plan with --no-plan: the
    spec allows it when the number of tests is not known in advance);
  - result numbers that do not start at 1 and go up by 1; fewer or more
    results than the plan; a result without a description; a '#' in a name;
  - a subtest whose result line does not carry its "# Subtest:" name; a case
    named like its enclosing subtest (kunit_parser would end the subtest there);
  - a parent reported "ok" while one of its subtests failed;
  - an unknown or discouraged directive: SKIP, XFAIL, TIMEOUT and ERROR are
    recognised; TODO is "not recognized" in KTAP; TIMEOUT and ERROR need "not ok";
  - a statistics line "# NAME: pass:P fail:F skip:S total:T" (before a
    subtest's result) or "# Totals: ..." whose numbers differ from the results,
    or whose failures per class (contract:C wrong-answer:W crash:X, when
    present) do not add up to F; with --totals the top level must end with a
    "# Totals:" line.
Counts are leaves, as kunit_parser counts: ok = pass, "# SKIP" = skip, other
"not ok" = fail; a subtest reported "not ok" whose leaves passed (none failed)
counts one more failure. --expect P,F,S: the totals must be these.
On success: "FILE: valid KTAP: pass:P fail:F skip:S total:T".
"""
import re
import sys

VERSION = re.compile(r"^KTAP version 1$")
ANY_VERSION = re.compile(r"^K?TAP version \d+$")
PLAN = re.compile(r"^1\.\.(\d+)$")
RESULT = re.compile(r"^(ok|not ok) (\d+)(?: ([^#]*?))?(?: #(?: (.*))?)?$")
SUBTEST = re.compile(r"^# Subtest: (.+)$")
STATS = re.compile(r"^# (.+): pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)((?: .*)?)$")
CLASSES = ("contract", "wrong-answer", "crash")
DIRECTIVES = {"SKIP", "XFAIL", "TIMEOUT", "ERROR"}


class Level:
    def __init__(self, name, depth, line):
        self.name = name
        self.depth = depth
        self.line = line
        self.plan = None
        self.nr = 0
        self.passed = self.failed = self.skipped = 0
        self.child_failed = False
        self.stats = None	# (line, name, p, f, s, t) seen just before a result


class Validator:
    def __init__(self, path, no_plan, totals):
        self.path = path
        self.no_plan = no_plan
        self.want_totals = totals
        self.errors = []
        self.totals_line = None

    def err(self, ln, msg):
        self.errors.append(f"{self.path}:{ln}: {msg}")

    def run(self, lines):
        if not lines:
            self.err(0, "empty stream")
            return None
        stack = self.stack = []		# open levels, [0] = the top
        pending = None		# a nested level just opened: (level, expect)
        top_done = False
        for ln, raw in enumerate(lines, 1):
            line = raw.rstrip("\n")
            if line.endswith("\r"):
                line = line[:-1]
            if "\t" in line[:len(line) - len(line.lstrip())]:
                self.err(ln, "a tab in the indentation")
                continue
            if not line.strip():
                self.err(ln, "an empty line")
                continue
            ind = len(line) - len(line.lstrip(" "))
            text = line.lstrip(" ")
            if ind % 2:
                self.err(ln, f"indentation of {ind} spaces (two per level)")
                continue
            depth = ind // 2
            if not stack:
                if ln != 1 or depth or not VERSION.match(text):
                    self.err(ln, "the stream must start with 'KTAP version 1'")
                    return None
                stack.append(Level(None, 0, ln))
                pending = (stack[0], "plan")
                continue
            cur = stack[-1]
            if pending:
                lvl, expect = pending
                if expect == "subtest":
                    m = SUBTEST.match(text)
                    if depth != lvl.depth or not m:
                        self.err(ln, "a nested test must name itself: '# Subtest: NAME' "
                                 "after its version line")
                    else:
                        lvl.name = m.group(1)
                        pending = (lvl, "plan")
                        continue
                    pending = (lvl, "plan")
                if pending and pending[1] == "plan":
                    m = PLAN.match(text)
                    pending = None
                    if depth == lvl.depth and m:
                        lvl.plan = int(m.group(1))
                        if lvl.depth and lvl.plan == 0:
                            self.err(ln, "a nested test with an empty plan '1..0'")
                        continue
                    if lvl.depth or not self.no_plan:
                        self.err(ln, f"no plan '1..N' after the version line of "
                                 f"{lvl.name or 'the top level'} (line {lvl.line})")
            if top_done:
                if depth == 0 and text.startswith("#"):
                    self.check_totals_line(ln, text, stack[0])
                    continue
                self.err(ln, "a line after the last top-level result that is not a "
                         "diagnostic")
                continue
            if depth > cur.depth:
                if depth == cur.depth + 1 and VERSION.match(text):
                    lvl = Level(None, depth, ln)
                    stack.append(lvl)
                    pending = (lvl, "subtest")
                    continue
                if ANY_VERSION.match(text):
                    self.err(ln, f"'{text}': only KTAP version 1 nests here")
                else:
                    self.err(ln, f"indented {depth} levels inside level {cur.depth} "
                             "without a version line opening the nested test")
                continue
            if depth < cur.depth and text.startswith("#"):
                # A diagnostic of an enclosing test, e.g. KUnit's statistics
                # line right before the subtest's result.
                m = STATS.match(text)
                if m and m.group(1) != "Totals":
                    stack[depth].stats = (ln,) + m.groups()[:5]
                continue
            if depth < cur.depth:
                # The end of nested tests: only a result line closes them.
                m = RESULT.match(text)
                if not m:
                    self.err(ln, "a nested test ends without its result line")
                    continue
                while len(stack) > 1 and stack[-1].depth > depth:
                    done = stack.pop()
                    if stack[-1].depth != depth:
                        self.err(ln, f"nested test '{done.name}' (line {done.line}) "
                                 "is never closed")
                        continue
                    self.close(done, ln, m)
                    if depth == 0 and stack[0].plan is not None and \
                            stack[0].nr == stack[0].plan:
                        top_done = True
                    break
                continue
            # Same level as the current test.
            if text.startswith("#"):
                if SUBTEST.match(text):
                    self.err(ln, "'# Subtest:' without a version line before it")
                    continue
                m = STATS.match(text)
                if m and m.group(1) == "Totals":
                    if depth:
                        self.err(ln, "'# Totals:' inside a nested test")
                    else:
                        self.check_totals_line(ln, text, cur)
                    continue
                if m:
                    cur.stats = (ln,) + m.groups()[:5]
                continue
            m = RESULT.match(text)
            if m:
                self.leaf(cur, ln, m)
                if depth == 0 and cur.plan is not None and cur.nr == cur.plan:
                    top_done = True
                continue
            if PLAN.match(text):
                self.err(ln, "a plan that does not follow a version line")
            elif ANY_VERSION.match(text):
                self.err(ln, f"'{text}' not indented one level: a nested test starts "
                         "two spaces deeper")
            else:
                self.err(ln, f"not a KTAP line: {text[:60]!r} (diagnostics start with '#')")
        while len(stack) > 1:
            done = stack.pop()
            self.err(len(lines), f"the stream ends inside nested test '{done.name}' "
                     f"(line {done.line})")
        top = stack[0]
        if top.plan is not None and top.nr != top.plan:
            self.err(len(lines), f"the top level has {top.nr} results, its plan says "
                     f"{top.plan}")
        if top.nr == 0:
            self.err(len(lines), "no test result at all")
        if self.want_totals and not self.totals_line:
            self.err(len(lines), "no '# Totals: pass:P fail:F skip:S total:T' line")
        return top

    def result_fields(self, lvl, ln, m):
        ok = m.group(1) == "ok"
        num = int(m.group(2))
        name = (m.group(3) or "").strip()
        rest = m.group(4) or ""
        word = rest.split(" ", 1)[0] if rest else ""
        lvl.nr += 1
        if num != lvl.nr:
            self.err(ln, f"result number {num}, expected {lvl.nr}")
        if lvl.plan is not None and lvl.nr > lvl.plan:
            self.err(ln, f"result {num} is beyond the plan 1..{lvl.plan}")
        if not name:
            self.err(ln, "a result without a description (the test's name)")
        directive = None
        if word == "TODO":
            self.err(ln, "the TODO directive is not recognized in KTAP")
        elif word in DIRECTIVES:
            directive = word
        elif word.isupper() and word.isalpha() and len(word) > 2:
            self.err(ln, f"unknown directive {word!r} (SKIP, XFAIL, TIMEOUT, ERROR)")
        if directive in ("TIMEOUT", "ERROR") and ok:
            self.err(ln, f"'ok' with the {directive} directive (needs 'not ok')")
        return ok, name, directive

    def leaf(self, lvl, ln, m):
        ok, name, directive = self.result_fields(lvl, ln, m)
        if lvl.stats:
            self.err(lvl.stats[0], "a statistics line before a test case (it belongs "
                     "before a subtest's result)")
            lvl.stats = None
        if lvl.depth and name and name == lvl.name:
            self.err(ln, f"test case '{name}' has the name of its subtest (kunit_parser "
                     "ends the subtest there)")
        if directive == "SKIP":
            lvl.skipped += 1
        elif ok or directive == "XFAIL":
            lvl.passed += 1
        else:
            lvl.failed += 1
            lvl.child_failed = True

    def close(self, done, ln, m):
        """@done was popped; its result line @m is at the parent's level."""
        parent = self.stack[-1]
        ok, name, directive = self.result_fields(parent, ln, m)
        if done.plan is not None and done.nr != done.plan:
            self.err(ln, f"subtest '{done.name}' has {done.nr} results, its plan says "
                     f"{done.plan}")
        if done.name and name != done.name:
            self.err(ln, f"result '{name}' closes '# Subtest: {done.name}' "
                     f"(line {done.line}): the names must match")
        if done.child_failed and ok and directive != "SKIP":
            self.err(ln, f"'{name}' is ok but one of its subtests failed")
        p, f, s = done.passed, done.failed, done.skipped
        if directive != "SKIP" and not ok and f == 0 and p > 0:
            f += 1	# kunit_parser: a failed parent of passing leaves
        stats, parent.stats = parent.stats, None
        if stats:
            sln, sname, sp, sf, ss, st = stats
            if sname != done.name:
                self.err(sln, f"statistics of '{sname}' before the result of '{name}'")
            elif (int(sp), int(sf), int(ss), int(st)) != (p, f, s, p + f + s):
                self.err(sln, f"statistics pass:{sp} fail:{sf} skip:{ss} total:{st}, the "
                         f"results give pass:{p} fail:{f} skip:{s} total:{p + f + s}")
        parent.passed += p
        parent.failed += f
        parent.skipped += s
        if f:
            parent.child_failed = True

    def check_totals_line(self, ln, text, top):
        m = STATS.match(text)
        if not m or m.group(1) != "Totals":
            return
        if self.totals_line:
            self.err(ln, f"a second '# Totals:' line (first: line {self.totals_line[0]})")
        self.totals_line = (ln, tuple(int(x) for x in m.groups()[1:5]))
        # Failures per class (contract, wrong-answer, crash): they add up to fail.
        cls = dict(kv.split(":", 1) for kv in m.group(6).split() if ":" in kv)
        if any(c in cls for c in CLASSES):
            try:
                n = sum(int(cls[c]) for c in CLASSES)
            except (KeyError, ValueError):
                self.err(ln, f"failures per class need all of {', '.join(CLASSES)}")
                return
            if n != int(m.group(3)):
                self.err(ln, f"failures per class add up to {n}, fail:{m.group(3)}")


def validate(path, lines, no_plan, totals, expect):
    v = Validator(path, no_plan, totals)
    top = v.run(lines)
    if top is None:
        return v.errors, None
    counts = (top.passed, top.failed, top.skipped)
    if v.totals_line:
        ln, (p, f, s, t) = v.totals_line
        if (p, f, s, t) != counts + (sum(counts),):
            v.err(ln, f"'# Totals: pass:{p} fail:{f} skip:{s} total:{t}', the results give "
                  f"pass:{counts[0]} fail:{counts[1]} skip:{counts[2]} total:{sum(counts)}")
    if expect and tuple(expect) != counts:
        v.err(len(lines), f"expected pass:{expect[0]} fail:{expect[1]} skip:{expect[2]}, "
              f"the results give pass:{counts[0]} fail:{counts[1]} skip:{counts[2]}")
    return v.errors, counts


def main(argv):
    no_plan = totals = quiet = False
    expect = None
    files = []
    it = iter(argv)
    for a in it:
        if a == "--no-plan":
            no_plan = True
        elif a == "--totals":
            totals = True
        elif a == "--quiet":
            quiet = True
        elif a == "--expect":
            try:
                expect = [int(x) for x in next(it).split(",")]
                assert len(expect) == 3
            except (StopIteration, ValueError, AssertionError):
                print("ktap_validate: --expect P,F,S", file=sys.stderr)
                return 2
        elif a.startswith("-") and a != "-":
            print(f"ktap_validate: unknown option {a}", file=sys.stderr)
            return 2
        else:
            files.append(a)
    if not files:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    bad = 0
    pfx = "# ktap_validate: " if quiet else ""
    for path in files:
        try:
            f = sys.stdin if path == "-" else open(path, encoding="utf-8", errors="strict")
            lines = f.read().split("\n")
        except (OSError, UnicodeDecodeError) as e:
            print(f"{pfx}{path}: {e}")
            bad += 1
            continue
        if lines and lines[-1] == "":
            lines.pop()
        errors, counts = validate(path, lines, no_plan, totals, expect)
        for e in errors[:50]:
            print(pfx + e)
        if len(errors) > 50:
            print(f"{pfx}{path}: ... {len(errors) - 50} more")
        if errors:
            bad += 1
        elif not quiet:
            p, f_, s = counts
            print(f"{path}: valid KTAP: pass:{p} fail:{f_} skip:{s} total:{p + f_ + s}")
    if quiet:
        print(f"{pfx}{len(files) - bad} of {len(files)} KTAP streams valid"
              f"{' (the totals line agrees)' if totals and not bad else ''}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
