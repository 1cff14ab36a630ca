#!/usr/bin/env python3
"""Seal an explorer schedule file: its last line is "end %016x", the 64-bit
FNV-1a sum of every byte before it (docs/explore.md), so a crafted file a
test means to be refused for its content gets past the sum.

Usage: sched_seal.py FILE
         rewrite FILE's end line (a file not starting "hpcc" is sealed whole)
       sched_seal.py --v2 HARNESS FIBER...
         print a version 2 schedule of HARNESS that starts each FIBER in turn
Exit status: 0 done; 2 usage or an unreadable FILE."""
import sys


def seal(body):
    h = 0xcbf29ce484222325
    for c in body:
        h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
    return body + b"end %016x\n" % h


def v2(harness, fibers):
    body = ("hpcc-stress-schedule 2\nharness %s\ncpus 2\nadds 3\nreaders 1\nreads 1\nbatch 2\n"
            "plant 0\nsizes default\ntasks 2\nforks 0\nalgo bounded\nchosen %d\npreemptions 0\n"
            "expect no_such_failure\nsteps %d\n" % (harness, len(fibers), len(fibers)))
    body += "".join("step %s 0 start -\n" % f for f in fibers)
    return seal(body.encode())


def main(argv):
    if len(argv) >= 3 and argv[0] == "--v2":
        sys.stdout.buffer.write(v2(argv[1], argv[2:]))
        return 0
    if len(argv) != 1 or argv[0].startswith("-"):
        print("sched_seal: usage: sched_seal.py FILE | --v2 HARNESS FIBER...", file=sys.stderr)
        return 2
    try:
        with open(argv[0], "rb") as f:
            b = f.read()
        body = b[:b.rstrip(b"\n").rfind(b"\n") + 1] if b.startswith(b"hpcc") else b
        with open(argv[0], "wb") as f:
            f.write(seal(body))
    except OSError as e:
        print("sched_seal: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
