# SPDX-License-Identifier: GPL-2.0
"""Files the programs write: whole or not at all (a temporary file beside
the target, then rename), JSON as lib/util/json.c writes it."""
import json
import math
import os
import tempfile


def write_text(path, text):
	"""@path replaced whole by @text, or left as it was: OSError on failure
	(the temporary file removed)."""
	d = os.path.dirname(os.path.abspath(path))
	fd, tmp = tempfile.mkstemp(dir=d, prefix="." + os.path.basename(path) + ".")
	try:
		# mkstemp's file is the owner's alone: the mode open() would give
		# (0666 less the umask), or the replaced file's own.
		try:
			mode = os.stat(path).st_mode & 0o7777
		except FileNotFoundError:
			mask = os.umask(0o22)
			os.umask(mask)
			mode = 0o666 & ~mask
		os.fchmod(fd, mode)
		with os.fdopen(fd, "w") as f:
			f.write(text)
			f.flush()
			os.fsync(f.fileno())
		os.replace(tmp, path)
	except BaseException:
		try:
			os.unlink(tmp)
		except OSError:
			pass
		raise


def update_text(path, text):
	"""write_text unless @path already holds @text (its time then stays, and
	make rebuilds nothing); True when written."""
	try:
		with open(path) as f:
			if f.read() == text:
				return False
	except FileNotFoundError:
		pass
	write_text(path, text)
	return True


def finite(v):
	"""@v with every NaN or infinity as None: lib/util/json.c writes them as
	null, where json.dumps would write NaN (which is not JSON)."""
	if isinstance(v, float) and not math.isfinite(v):
		return None
	if isinstance(v, dict):
		return {k: finite(x) for k, x in v.items()}
	if isinstance(v, (list, tuple)):
		return [finite(x) for x in v]
	return v


def dumps(doc, **kw):
	"""@doc as JSON text, one value a line at indent 1 unless told, ending
	in a newline (lib/util's json_finish)."""
	kw.setdefault("indent", 1)
	return json.dumps(finite(doc), allow_nan=False, **kw) + "\n"


def write_json(path, doc, **kw):
	write_text(path, dumps(doc, **kw))
