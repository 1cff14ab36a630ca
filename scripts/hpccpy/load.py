# SPDX-License-Identifier: GPL-2.0
"""Another program of scripts/ (a file without .py) loaded as a module, for
its functions: its main() does not run, no bytecode is written."""
import importlib.machinery
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def load_script(name, path=None):
	"""scripts/NAME (or @path) as the module @name."""
	sys.dont_write_bytecode = True
	path = path or os.path.join(HERE, name)
	loader = importlib.machinery.SourceFileLoader(name.replace("-", "_"), path)
	spec = importlib.util.spec_from_loader(loader.name, loader)
	mod = importlib.util.module_from_spec(spec)
	loader.exec_module(mod)
	return mod
