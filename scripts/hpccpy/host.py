# SPDX-License-Identifier: GPL-2.0
"""The host the programs run on."""


def loadavg():
	"""The 1-minute load average; None when /proc/loadavg cannot be read."""
	try:
		with open("/proc/loadavg") as f:
			return float(f.read().split()[0])
	except (OSError, ValueError, IndexError):
		return None
