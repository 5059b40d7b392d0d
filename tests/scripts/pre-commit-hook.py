#!/usr/bin/env python3
"""Runs the repository's pre-commit hook definition as pre-commit would.

usage: pre-commit-hook.py HOOKS_YAML BIN_DIR LIBRARY WORK

It reads the `commscope` hook of HOOKS_YAML, lists the library's files as
`pre-commit run --all-files` would (every file, filtered by the hook's `types`, `files`
and `exclude`), runs `entry args... files...` in the library with BIN_DIR first on PATH
(language: system), and expects a pass; then it adds a model with an error to a copy
of the library and expects the hook to fail on it, naming the file.
"""
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

import yaml


def fail(message: str) -> None:
    print(f"FAIL: {message}")
    sys.exit(1)


def is_python(path: pathlib.Path) -> bool:
    """pre-commit's `types: [python]`: a .py/.pyi file, or a python shebang."""
    if path.suffix in (".py", ".pyi"):
        return True
    try:
        with path.open("rb") as f:
            first = f.readline()
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first


def run_hook(hook: dict, bin_dir: str, library: pathlib.Path) -> subprocess.CompletedProcess:
    files = sorted(str(p.relative_to(library)) for p in library.rglob("*") if p.is_file())
    include = re.compile(hook.get("files", ""))
    exclude = re.compile(hook["exclude"]) if "exclude" in hook else None
    chosen = [f for f in files
              if include.search(f) and not (exclude and exclude.search(f))
              and ("python" not in hook.get("types", []) or is_python(library / f))]
    command = [*shlex.split(hook["entry"]), *hook.get("args", [])]
    if hook.get("pass_filenames", True):
        command += chosen
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
    print("$", " ".join(command))
    return subprocess.run(command, cwd=library, env=env, capture_output=True, text=True,
                          timeout=120)


def main() -> None:
    hooks_yaml, bin_dir, library, work = sys.argv[1:5]
    hooks = yaml.safe_load(pathlib.Path(hooks_yaml).read_text())
    hook = next((h for h in hooks if h.get("id") == "commscope"), None)
    if hook is None:
        fail(f"{hooks_yaml} has no hook with id 'commscope'")
    for key in ("name", "entry", "language"):
        if key not in hook:
            fail(f"the hook has no '{key}'")
    if hook["language"] != "system" or "python" not in hook.get("types", []):
        fail("the hook is not `language: system` with `types: [python]`")

    copy = pathlib.Path(work) / "library"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(library, copy)
    passed = run_hook(hook, bin_dir, copy)
    print(passed.stdout, passed.stderr, sep="")
    if passed.returncode != 0:
        fail(f"the hook fails on the library (exit {passed.returncode})")
    if "All checks passed" not in passed.stdout:
        fail("the hook does not say that the checks passed")

    (copy / "models" / "broken.py").write_text(
        "import pypto.language as pl\n"
        "import pypto.language.distributed as pld\n\n\n"
        "@pl.jit.host\n"
        "def host():\n"
        "    buf = pld.alloc_window_buffer(64)\n"
        "    v = pld.window(buf, [16], dtype=pl.FP32)\n"
        "    return v\n")
    failed = run_hook(hook, bin_dir, copy)
    print(failed.stdout, failed.stderr, sep="")
    if failed.returncode != 1:
        fail(f"the hook does not fail on a model with an error (exit {failed.returncode})")
    if "models/broken.py:7:5: error:" not in failed.stdout:
        fail("the hook's output does not name the error")
    print("PASS")


if __name__ == "__main__":
    main()
