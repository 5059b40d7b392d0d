"""The stand-in for the DSL's packages that the scripts here run a DSL file against: a
package `pypto` made in a scratch folder, whose `pypto.language` holds the modules each
script writes (its decorators, `distributed`, ...)."""

import importlib.util
import os
import sys


def install(root, language_modules):
    """Writes `pypto` and `pypto.language` under `root`, the latter's modules from
    `language_modules` (file name -> text), and puts `root` first on the import path."""
    package = os.path.join(root, "pypto", "language")
    os.makedirs(package)
    with open(os.path.join(root, "pypto", "__init__.py"), "w") as f:
        f.write("from . import language  # noqa: F401\n")
    for name, text in language_modules.items():
        with open(os.path.join(package, name), "w") as f:
            f.write(text)
    sys.path.insert(0, root)


def import_file(path):
    """The DSL file at `path`, imported as module `model`."""
    spec = importlib.util.spec_from_file_location("model", path)
    model = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(model)
    return model
