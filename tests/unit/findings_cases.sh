#!/usr/bin/env bash
# scripts/findings' KUnit cases as the catalogue gives them (nothing
# built, docs/kernel-trees.md#findings-a-maintainer-can-act-on):
#   1 a row's CASE@N is the CPU count its case is verified at (the
#     _extremes cases: 16, where their state exists), a row without one
#     the --kunit-cpus default; by_cpus() puts each count in a run of its own
#   2 a KUnit file of both _extremes cases holds their shared helper once,
#     before the cases, and no template's "// needs:" line
#   3 a tree of the int-valued API (adapter shape int-items) has rows of
#     its own: its approximate_compare_value() findings (the adapter's
#     wrong-answer, counter_storm's compare contract) get the edge case
#     and the swap-tolerances fix
#   4 that case is the int-items template, in the int API (an unsigned
#     int range, int values), not the long API's of the same name
#   5 a KUnit run on a tree of an adapter shape asks make for
#     KUNIT_ANY_API=1 (the full suite's API probes refuse such a tree),
#     one on a long-API tree does not (make is not run: its command is)
#   6 the first RFC's API (adapter shape rfc1) is its own shape, not rfc:
#     its init() finding gets the items_alloc case and the
#     items-size-precedence fix
#   7 that case is written against the first RFC's init() (no gfp)
#   8 the fix, by spatch on our rfc1 fixture with the same slip seeded,
#     parenthesises the item count, the call's line breaks kept, every
#     line within 100 columns (no spatch: SKIP)
#   9 and keeps at least one level: at one CPU the fixed size is no item,
#     while approx_sum() and the slow path use one; the report's diff
#     writes spatch's GNU conditional "? : 1" as kernel style does,
#     "?: 1", and leaves the tree's own lines as they are (no spatch: SKIP)
#  10 a fixed copy's finding the tree did not show is explained (not new)
#     when its catalogue row's fix is another fix of the tree (the RFC's
#     counter_storm naming the other wrong function); new when no other
#     fix covers it, when it is the fix's own row, or uncovered; a finding
#     the fix should clear and still shows is left
#  11 a fix cleared only by such an explanation stands only if every fix
#     applied together is judged clean; other fixes' results unchanged
#  12 a ./stress a signal stopped before its JSON report (a crash record
#     of scripts/stress-verdicts) is a crash finding named by the signal,
#     its message the failure line the run printed first; a FAIL whose
#     report is missing otherwise gives none (nothing to name)
#  13 the first RFC's counter_storm, whichever way its short items array
#     ends it (approx_window with its report, or killed by a signal), gets
#     the init() row: the items_alloc case and items-size-precedence
#  14 the sanitizer columns' records, when named, are findings: a report is
#     class crash with its kind and the tree's function (its program's
#     other crashed cases are the same report's), a crash without a report
#     the program's, a case failed otherwise the unit column's
#  15 the first RFC's ASan and TSan reports in add_slowpath get its init()
#     row (the items_alloc case, items-size-precedence)
#  16 a data race's report names the first frame, the sanitizer's first
#     lines (copied beside it: NAME.tsan.log), kernel-check --only tsan, and
#     says it has no deterministic KUnit case
#  17 a fix of a sanitizer's finding is judged by that sanitizer again on
#     the fixed copy: still reported, not cleared; clean, cleared; no
#     verdict there (SKIP), not cleared
#  18 UBSan's reports in the asan column are findings signed by the
#     kernel's name for the kind and the tree's function (a helper's
#     leading underscores dropped), with their unit program; a null
#     pointer to glibc's nonnull memset() is none; the shift gets
#     carry_batch_4g's row
#  19 its report names UBSan and the kind, the function as the tree
#     spells it, kernel-check --only asan --unit PROG; the fix's asan re-run is narrowed
#     to the findings' programs (kernel-san --unit)
#  20 on a tree whose path is over 100 characters and holds a space, each
#     report's commands, pasted as they are, are the exact argv to bash
#     (the KUnit block's cp and make too): kernel-check on the tree only,
#     --only the column that saw it, its program, a stress finding's
#     scenario, seed, CPUs and duration; every line is within 72
#     columns but a Fixes: tag and a line of one word too long for any;
#     the tree's path is whole; a tsan report names a static helper as
#     the tree spells it (F set to where NAME.kunit.c is)
#  21 an asan crash with no report of its own says what is known: its
#     reason and its lines of output in its program's report's finding
#     (the first program's, when two programs give the same report), or
#     a finding named by what ended it (signal-11), never a bare "-"
#  22 by the memset() rule, a crash whose only report is UBSan's null
#     pointer to glibc's nonnull memset() is no crash of the tree: neither
#     a finding nor quoted among a report's other crashed cases; a log the
#     report no longer quotes (that program's output) is not written
#  23 a use after free in the tsan column is named by the use, not by the
#     free (the tree's destroy() or libc's): the first RFC's in the slow
#     path gets its init() row, however its free is named
#  24 findings of one KUnit case and one fix are one defect (linux-mm's
#     seven findings five defects, the first RFC's seven one), named after
#     the catalogue row's fix and case, listing every check that saw it,
#     each check's command, and the KUnit case once
#  25 defects whose fix is the same are one report, named after the fix
#     (linux-mm's five defects two reports: swap-tolerances, four cases,
#     five findings, one subject, each case's function and KUNIT_CASE()
#     line once, a KUnit run per CPU count); a defect with no fix stays
#     apart; a name taken already gets -2
#  26 a wrapped Finding:/Findings: field continues indented past its label
#  27 a quoted line (a sanitizer's, the failing assertion) longer than 72
#     columns is whole on a line of its own; only our prose wraps
#  28 the fixed copy's series, as kernel-check prints it, is quoted: a
#     line past 72 columns (a long tree name) is whole, never cut
#     inside a word with a backslash
#  29 precise-compare-sign rewrites the .c's wrong test only, not the
#     header's right !CONFIG_SMP one, which spatch's gtr_lss
#     isomorphism would match (no spatch: SKIP)
#  30 the fix's diff is made as diff -up makes a kernel patch: each
#     hunk names its function (no spatch: SKIP)
#  31 a long Subject: folds as a mail header: continuation lines start
#     with a space, and unfolded it is the subject again
#  32 no path of the machine that ran it: the logs a report quotes are
#     copied beside it (NAME.asan.log, NAME.asan-2.log) and named so; the
#     KUnit block copies "$F"/NAME.kunit.c and says where F points; a
#     sanitizer's command names no build directory
#  33 a sanitizer's frame in the build's copy of the tree's header (kinc,
#     or the header store's khdr/SUM) names the header's path in the tree
#  34 the failing line a report quotes is NAME.kunit.c's, the file it
#     prints, not the verification file's (another head, other cases)
#  35 a fix whose diff adds a line over checkpatch's 100 columns is
#     refused, saying its width; one of 100 is kept
#  36 the sparse column's FAIL is a finding: a report per warning kind
#     and symbol (else the function the line is in), sparse's lines quoted
#     whole with the tree's paths, kernel-check --only sparse on the tree,
#     no KUnit case, no small fix; a stdout line each
#  37 the KUnit case a report prints is NAME.kunit.c's byte for byte, tabs
#     kept (pasted from the mail it is the file's), every line within 72
#     columns with a tab to the next multiple of 8
# KTAP on stdout.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
echo "KTAP version 1"
echo "1..37"
python3 -B "$root/tests/lib/findings_cases.py" "$root"
