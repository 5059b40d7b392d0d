#!/usr/bin/env python3
"""Check one corpus file against its expected plan, then round-trip it.

Usage: check.py COMMSCOPE_OPT CORPUS_FILE WORKDIR

CORPUS_FILE is a Python module of the corpus; next to it, CORPUS_FILE minus `.py`
plus `.expected.json` holds

    {"args": [...], "exit": N, "plan": {"programs": [...], "diagnostics": [...]}}

and optionally `"check_column": false` (syntax errors whose column is approximate).

1. `COMMSCOPE_OPT ARGS... CORPUS_FILE` must exit with `exit` and print a plan whose
   `programs` equal the expected ones exactly and whose diagnostics match in number
   and, one by one, in code, line and column.
2. For an expected exit 0, the round trip: `--emit=ir` is written to
   WORKDIR/<same file name>; it may differ from the input only inside the bodies of
   host orchestrators (every other line is kept byte for byte); the plan of that
   output is the same plan (program lines shifted by the rewritten bodies above them);
   `--emit=ir` of the output reproduces it byte for byte; `--verify` accepts it.

Standard library only. Exit 0 and `PASS NAME` on success; exit 1 with a readable
report of every difference otherwise.
"""

from __future__ import annotations

import ast
import difflib
import io
import json
import os
import re
import subprocess
import sys
import tokenize

TIMEOUT = 120  # seconds per command


class Failure(Exception):
    pass


def run(binary: str, args: list[str], path: str) -> tuple[int, bytes, bytes]:
    cmd = [binary, *args, path]
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise Failure(f"timed out after {TIMEOUT} s: {' '.join(cmd)}")
    if proc.returncode < 0:
        raise Failure(f"killed by signal {-proc.returncode}: {' '.join(cmd)}\n"
                      f"{proc.stderr.decode('utf-8', 'replace')}")
    return proc.returncode, proc.stdout, proc.stderr


def parse_plan(out: bytes, what: str) -> dict:
    try:
        plan = json.loads(out.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        head = out[:2000].decode("utf-8", "replace")
        raise Failure(f"{what}: the output is not JSON ({e}):\n{head}")
    if not isinstance(plan, dict):
        raise Failure(f"{what}: the plan is not a JSON object")
    return plan


def dumps(value) -> list[str]:
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False).splitlines()


def compare_plans(expected: dict, actual: dict, check_column: bool, what: str) -> list[str]:
    """Every difference between two plans, as readable lines."""
    problems: list[str] = []
    exp_programs = expected.get("programs", [])
    act_programs = actual.get("programs")
    if act_programs != exp_programs:
        problems.append(f"{what}: `programs` differ (--- expected, +++ actual):")
        problems.extend(
            "    " + line
            for line in difflib.unified_diff(
                dumps(exp_programs), dumps(act_programs), "expected", "actual", lineterm="", n=4
            )
        )

    def key(d: dict) -> str:
        col = d.get("column") if check_column else "*"
        return f"{d.get('code')} at {d.get('line')}:{col}"

    exp_diags = expected.get("diagnostics", [])
    act_diags = actual.get("diagnostics")
    if not isinstance(act_diags, list):
        problems.append(f"{what}: `diagnostics` is missing or not a list")
        return problems
    exp_keys = [key(d) for d in exp_diags]
    act_keys = [key(d) for d in act_diags]
    if exp_keys != act_keys:
        problems.append(
            f"{what}: diagnostics differ (expected {len(exp_keys)}, got {len(act_keys)}):"
        )
        for line in difflib.unified_diff(exp_keys, act_keys, "expected", "actual", lineterm="", n=9):
            problems.append("    " + line)
        for d in act_diags:
            problems.append(
                f"    actual: {d.get('code')} {d.get('line')}:{d.get('column')}: {d.get('message')}"
            )
    return problems


# ---------------------------------------------------------------- host bodies


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def _pl_aliases(tree: ast.Module) -> set[str]:
    aliases: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "pypto.language" and a.asname:
                    aliases.add(a.asname)
        elif isinstance(node, ast.ImportFrom) and node.module == "pypto":
            for a in node.names:
                if a.name == "language":
                    aliases.add(a.asname or "language")
    return aliases or {"pl"}


def _decorator_name(dec: ast.expr) -> str | None:
    return _dotted(dec.func if isinstance(dec, ast.Call) else dec)


def _is_host_function_decorator(dec: ast.expr, pl: set[str]) -> bool:
    if not isinstance(dec, ast.Call) or _decorator_name(dec) not in {f"{a}.function" for a in pl}:
        return False
    kw = {k.arg: _dotted(k.value) for k in dec.keywords if k.arg}
    level = kw.get("level") or ""
    role = kw.get("role") or ""
    kind = kw.get("type") or ""
    return (
        level.endswith(".Level.HOST")
        and (role.endswith(".Role.Orchestrator") or kind.endswith(".FunctionType.Orchestration"))
    )


def host_functions(tree: ast.Module) -> list[ast.FunctionDef]:
    pl = _pl_aliases(tree)
    hosts: list[ast.FunctionDef] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(
            _decorator_name(d) in {f"{a}.program" for a in pl} for d in node.decorator_list
        ):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and any(
                    _is_host_function_decorator(d, pl) for d in item.decorator_list
                ):
                    hosts.append(item)
        elif isinstance(node, ast.FunctionDef) and any(
            _decorator_name(d) in {f"{a}.jit.host" for a in pl} for d in node.decorator_list
        ):
            hosts.append(node)
    return hosts


def source_lines(text: str) -> list[str]:
    """The lines of a source text as Python counts them (LF, CRLF or CR ends)."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)


def _header_end(lines: list[str], fn: ast.FunctionDef) -> int:
    """1-based line of the NEWLINE that ends the `def ...:` header."""
    segment = io.StringIO("".join(lines[fn.lineno - 1 :]))
    try:
        for tok in tokenize.generate_tokens(segment.readline):
            if tok.type == tokenize.NEWLINE:
                return fn.lineno + tok.start[0] - 1
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return fn.body[0].lineno - 1


def body_ranges(text: str) -> list[tuple[int, int]]:
    """Inclusive 1-based line ranges of every host orchestrator body (with the blank
    and comment-only lines that follow it)."""
    tree = ast.parse(text)
    lines = source_lines(text)
    ranges = []
    for fn in host_functions(tree):
        start = _header_end(lines, fn) + 1
        end = fn.end_lineno or start
        while end < len(lines) and (lines[end].strip() == "" or lines[end].lstrip().startswith("#")):
            end += 1
        ranges.append((start, end))
    return sorted(ranges)


# ---------------------------------------------------------------- round trip


def split_lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def check_rewrite(src: bytes, out: bytes, text: str) -> tuple[list[str], dict[int, int]]:
    """Problems of the --emit=ir output, and the map input line -> output line of the
    lines kept unchanged."""
    problems: list[str] = []
    a, b = split_lines(src), split_lines(out)
    ranges = body_ranges(text)

    def inside(lo: int, hi: int) -> bool:  # 1-based inclusive input lines lo..hi
        return any(s <= lo and hi <= e for s, e in ranges)

    def near(at: int) -> bool:  # an insertion before 1-based input line `at`
        return any(s <= at <= e + 1 for s, e in ranges)

    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    mapping: dict[int, int] = {}
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                mapping[i1 + k + 1] = j1 + k + 1
            continue
        ok = inside(i1 + 1, i2) if i2 > i1 else near(i1 + 1)
        if not ok:
            problems.append(
                f"--emit=ir changed input lines {i1 + 1}-{i2} (output {j1 + 1}-{j2}) "
                f"outside every host orchestrator body {ranges}:"
            )
            for line in a[i1:i2][:8]:
                problems.append("    - " + line.decode("utf-8", "replace").rstrip("\r\n"))
            for line in b[j1:j2][:8]:
                problems.append("    + " + line.decode("utf-8", "replace").rstrip("\r\n"))
    # The explicit minimum: first and last lines and every import line kept.
    if a and (not b or a[0] != b[0]):
        problems.append("--emit=ir changed the first line of the file")
    if a and (not b or a[-1] != b[-1]):
        problems.append("--emit=ir changed the last line of the file")
    for n, line in enumerate(a, 1):
        stripped = line.lstrip()
        if (stripped.startswith(b"import ") or stripped.startswith(b"from ")) and n not in mapping:
            problems.append(f"--emit=ir changed the import on input line {n}")
    return problems, mapping


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    binary, corpus_file, workdir = argv[1], argv[2], argv[3]
    name = os.path.basename(corpus_file)
    stem = name[:-3] if name.endswith(".py") else name
    expected_path = (corpus_file[:-3] if corpus_file.endswith(".py") else corpus_file) + ".expected.json"
    with open(expected_path, encoding="utf-8") as fp:
        expected = json.load(fp)
    args = ["--format=json", *expected.get("args", [])]
    exp_exit = expected["exit"]
    exp_plan = expected["plan"]
    check_column = expected.get("check_column", True)

    problems: list[str] = []
    try:
        code, out, err = run(binary, args, corpus_file)
        if code != exp_exit:
            problems.append(f"exit status {code}, expected {exp_exit}")
            if err:
                problems.append("stderr:\n" + err.decode("utf-8", "replace")[:4000])
        plan = parse_plan(out, "plan")
        problems += compare_plans(exp_plan, plan, check_column, "plan")

        if exp_exit == 0 and not problems:
            src = open(corpus_file, "rb").read()
            text = src.decode("utf-8-sig")
            code, ir, err = run(binary, [*args, "--emit=ir"], corpus_file)
            if code != 0:
                raise Failure(f"--emit=ir exited {code}:\n{err.decode('utf-8', 'replace')}")
            os.makedirs(workdir, exist_ok=True)
            out_path = os.path.join(workdir, name)
            with open(out_path, "wb") as fp:
                fp.write(ir)
            rewrite_problems, mapping = check_rewrite(src, ir, text)
            problems += rewrite_problems

            # The plan of the output: the same, with program lines moved by the
            # rewritten bodies above them.
            moved = json.loads(json.dumps(exp_plan))
            for p in moved.get("programs", []):
                if p.get("line") in mapping:
                    p["line"] = mapping[p["line"]]
                else:
                    problems.append(f"the decorator line {p.get('line')} of program "
                                    f"{p.get('name')!r} was not kept by --emit=ir")
            code, out2, err = run(binary, args, out_path)
            if code != 0:
                problems.append(f"plan of the --emit=ir output exited {code}:\n"
                                + err.decode("utf-8", "replace")[:4000])
            problems += compare_plans(moved, parse_plan(out2, "round-trip plan"), True,
                                      "round-trip plan")

            code, ir2, err = run(binary, [*args, "--emit=ir"], out_path)
            if code != 0:
                problems.append(f"--emit=ir of the output exited {code}:\n"
                                + err.decode("utf-8", "replace")[:4000])
            elif ir2 != ir:
                problems.append("--emit=ir is not a fixed point (--- first output, +++ second):")
                problems.extend(
                    "    " + line
                    for line in difflib.unified_diff(
                        ir.decode("utf-8", "replace").splitlines(),
                        ir2.decode("utf-8", "replace").splitlines(),
                        "ir1", "ir2", lineterm="",
                    )
                )

            code, _, err = run(binary, [*args, "--verify"], out_path)
            if code != 0:
                problems.append(f"--verify of the output exited {code}:\n"
                                + err.decode("utf-8", "replace")[:4000])
    except Failure as e:
        problems.append(str(e))

    if problems:
        print(f"FAIL {stem}")
        for p in problems:
            print("  " + p)
        return 1
    print(f"PASS {stem}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
