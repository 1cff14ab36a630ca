#!/usr/bin/env python3
"""What the kernel-source extractors write (scripts/kextract,
scripts/kcompact-probe), checked against the files they read, and the
defective copies of a fixture file the extractor tests feed them.

Usage: extract_check.py NAME ARG...
  oom SRC          scripts/kextract's output (stdin) on SRC for
                   select_bad_process oom_badness max_precise_badness_sums:
                   every piece verbatim at its #line, in source order
  kcompact FILE    kcompact-probe's kcompact_defer.c: every piece verbatim
                   in the file its #line names, in the probe's order
  brace SRC OUT    SRC with an unbalanced closing brace in oom_badness
  scan-first FILE  FILE with select_bad_process_iter moved above
                   oom_evaluate_task (behind a declaration of it)
Exit status: 0 the check holds (or OUT written), 1 it does not (the
assertion on stderr), 2 usage."""
import os
import re
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from hpccpy import cli  # noqa: E402


def read(path):
    with open(path) as f:
        return f.read()


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def pieces(out, groups):
    """The #line directives' groups and the text after each."""
    parts = re.split(r'^#line ' + groups + r'\n', out, flags=re.M)
    assert parts[0] == '', 'text before the first #line'
    return parts


def oom(src):
    text = read(src)
    parts = pieces(sys.stdin.read(), r'(\d+) "[^"]*"')
    names = []
    for ln, body in zip(parts[1::2], parts[2::2]):
        body = body[:-1] if body.endswith('\n\n') else body
        start = sum(len(l) + 1 for l in text.split('\n')[:int(ln) - 1])
        assert text[start:start + len(body)] == body, 'not verbatim at line ' + ln
        names.append(re.search(r'(\w+)\s*(\(|=)', body).group(1))
    assert names == ['max_precise_badness_sums', 'oom_badness', 'select_bad_process'], names


def kcompact(path):
    parts = pieces(read(path), r'(\d+) "([^"]*)"')
    names = []
    for ln, src, body in zip(parts[1::3], parts[2::3], parts[3::3]):
        body = body.rstrip('\n')
        lines = read(src).split('\n')
        got = body.split('\n')
        assert lines[int(ln) - 1:int(ln) - 1 + len(got)] == got, \
            'not verbatim at %s:%s' % (src, ln)
        m = re.match(r'#define (\w+)', body) or re.search(r'(\w+)\(', body)
        names.append(m.group(1))
    assert names == ['COMPACT_MAX_DEFER_SHIFT', 'defer_compaction', 'compaction_deferred',
                     'compaction_defer_reset', 'compaction_restarting'], names


def brace(src, out):
    s = read(src)
    i = s.index('long oom_badness(')
    j = s.index('\n}\n', i)
    write(out, s[:j] + '\n\t}\n' + s[j + 3:])


def scan_first(path):
    s = read(path)
    i = s.index('static void select_bad_process_iter(')
    j = s.index('\n}\n', i) + 3
    scan = s[i:j]
    s = s[:i] + s[j:]
    k = s.index('static int oom_evaluate_task(')
    s = s[:k] + 'static int oom_evaluate_task(struct task_struct *task, void *arg);\n\n' + \
        scan + '\n' + s[k:]
    write(path, s)


CHECKS = {
    "oom": (oom, 1),
    "kcompact": (kcompact, 1),
    "brace": (brace, 2),
    "scan-first": (scan_first, 1),
}


if __name__ == "__main__":
    sys.exit(cli.named(CHECKS, sys.argv))
