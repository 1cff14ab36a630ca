# SPDX-License-Identifier: GPL-2.0
"""git in a repository: read only, never a lock taken in the user's."""
import os
import subprocess

ENV = dict(GIT_OPTIONAL_LOCKS="0", LC_ALL="C")


class GitError(Exception):
	pass


def git(repo, *args, check=True):
	"""`git -C REPO ARGS` (text); GitError with git's first line when it fails
	and @check."""
	p = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True,
			   env=dict(os.environ, **ENV))
	if check and p.returncode:
		raise GitError(f"git {' '.join(args[:2])}: "
			       f"{(p.stderr.strip() or 'failed').splitlines()[0]}")
	return p


def commit_of(repo, rev):
	"""The full hash of @rev's commit in @repo; None when there is none."""
	p = git(repo, "rev-parse", "--verify", "--quiet", rev + "^{commit}", check=False)
	return p.stdout.strip() if p.returncode == 0 else None


def head_of(path):
	"""HEAD of the repository whose top is @path ("+dirty" when a tracked file
	changed); None when @path is not the top of a repository of its own."""
	def out(*args):
		p = git(path, *args, check=False)
		return p.stdout.strip() if p.returncode == 0 else None
	top = out("rev-parse", "--show-toplevel")
	if top is None or os.path.realpath(top) != os.path.realpath(path):
		return None
	head = out("rev-parse", "HEAD")
	if head is None:
		return None
	return head + ("+dirty" if out("status", "--porcelain", "--untracked-files=no") else "")


def tracked_files(root):
	"""The files git tracks below @root and the untracked ones it does not
	ignore (names relative to @root, as git lists them); None when @root is
	not in a git checkout."""
	try:
		p = subprocess.run(["git", "-C", root, "ls-files", "-z", "-co", "--exclude-standard"],
				   capture_output=True, env=dict(os.environ, **ENV))
	except OSError:
		return None
	if p.returncode:
		return None
	return [n for n in p.stdout.decode(errors="surrogateescape").split("\0") if n]
