# SPDX-License-Identifier: GPL-2.0
"""KTAP version 1 as lib/util/ktap.c writes it (top level): results numbered
here, a name's '#' and line breaks as '_', a reason's line breaks as spaces,
"# SKIP reason" for a skip, "# " before each line of a diagnostic (a line
that starts with '#' kept as it is, an empty diagnostic "#"), the totals
line "# Totals: pass:P fail:F skip:S total:T"; flushed after each result."""
import re
import sys

PASS, FAIL, SKIP = "ok", "not ok", "skip"


class Ktap:
	def __init__(self, plan=0, out=None):
		"""Writes "KTAP version 1" and, unless @plan is 0 (not known), "1..plan"."""
		self.out = out
		self.nr = 0
		self.counts = {PASS: 0, FAIL: 0, SKIP: 0}
		self.line("KTAP version 1")
		if plan:
			self.line(f"1..{plan}")

	def line(self, text, flush=False):
		print(text, file=self.out or sys.stdout, flush=flush)

	def diag(self, text):
		text = str(text)
		if not text:
			self.line("#")
			return
		lines = text.split("\n")
		if lines[-1] == "":
			lines.pop()
		for ln in lines:
			self.line(("" if ln.startswith("#") else "# ") + ln)

	def result(self, status, name, reason=None):
		"""ok N name, not ok N name, or ok N name # SKIP reason; @reason for a
		pass or a failure is diagnostic data after " # "."""
		self.nr += 1
		self.counts[status] += 1
		name = re.sub(r"[#\n\r]", "_", str(name))
		reason = re.sub(r"[\n\r]", " ", str(reason)) if reason else ""
		if status == SKIP:
			tail = " # SKIP" + (" " + reason if reason else "")
		else:
			tail = " # " + reason if reason else ""
		self.line(f"{'not ok' if status == FAIL else 'ok'} {self.nr} {name}{tail}", flush=True)

	def totals(self, extra=""):
		c = self.counts
		self.line(f"# Totals: pass:{c[PASS]} fail:{c[FAIL]} skip:{c[SKIP]} "
			  f"total:{sum(c.values())}{extra}", flush=True)
