#!/usr/bin/env python3
"""Mutation testing: how many plausible mistakes in the code does the test suite catch?

Why
    Line coverage says a line ran, not that a test would notice if it were wrong.  This script makes
    one small, plausible mistake at a time (a flipped comparison, an off-by-one, a dropped statement,
    ...), runs the tests that execute the mutated line, and counts the mistakes the suite catches.
    The catch rate is (killed + timed out) / (killed + timed out + survived).  The survivors are the
    useful output: each is a mistake no test notices, i.e. a test worth writing.

How
    The checkout is never touched.  Each run copies the tree (``rsync -a --exclude .git --exclude
    .mutation``) into a temporary directory, applies one mutant there as a text edit of the exact
    source segment (``ast`` node positions), and runs ``python -m pytest`` from inside the copy, so
    the copy's ``rulesdsl`` is the one imported (checked once per run).  Tests are selected by
    coverage: ``--baseline`` runs the whole suite once under coverage with per-test contexts and
    stores a map line -> tests in ``.mutation/`` of the checkout (keep it out of git); the tests of the
    module's own test files (``test_<module>.py``, ``test_<package>.py``) are always added, for code
    coverage cannot see (a subprocess, a cache an earlier test filled).  The map follows later edits: a
    source file changed since it was measured has its lines renumbered against the measured version
    (found in git by its digest), so an unchanged line keeps its tests; new lines have none until
    ``--refresh`` measures the tests that run them (the new tests, say).

Usage (from the checkout, in the venv, with ``pip install '.[test,mutation]'`` for the map)
    python tools/mutation.py --baseline                   # once; the whole suite under coverage (long)
    python tools/mutation.py --refresh tests/test_x.py    # re-measure some test files, merge into the map
    python tools/mutation.py --sample 40 --seed 1         # a round of 40 automatic mutants
    python tools/mutation.py --sample 40 --seed 1 --paths rulesdsl/encoding --json out.json
    python tools/mutation.py --list --paths rulesdsl/expr # the candidate mutants, nothing run
    python tools/mutation.py --mutants named.yaml         # hand-written mutants (JSON or YAML list of
                                                          #   {file, find, replace, note}; ``find`` is
                                                          #   exact text occurring once in ``file``)

Mutation operators (automatic): comparison flips (< <=, > >=, == !=, in / not in, is / is not),
and <-> or, + <-> - (also += -=), integer constant n -> n+1, True <-> False, ``if t`` -> ``if not (t)``,
a statement in a body of two or more replaced by ``pass``, ``return x`` -> ``return None``,
min <-> max, ``[0]`` <-> ``[-1]``.  Skipped: docstrings, annotations, decorators, ``__repr__`` /
``__str__``, f-strings, ``raise``/``assert`` messages, logging/print/warnings calls, ``if TYPE_CHECKING``,
and lines no test executes (needs the baseline).  ``--sample N --seed S`` picks N candidates uniformly
(reproducible for the same sources and coverage map).

Verdicts: killed (a selected test failed), timeout (one test over 10x its baseline time + 15 s, at
least 30 s; or the whole run over ``--timeout``, by default 10x the selected tests' baseline time
clamped to 60..300 s and never under 3x+60 s; counted as killed, shown apart), survived (includes "not covered": no test executes the line), equivalent
(listed in ``tools/mutation-equivalent.yaml`` with the reason no input can tell it from the original: not
run, and left out of the catch rate like invalid ones; the list matches a mutant by its file and changed
line, before and after, so it survives edits elsewhere), invalid (the mutant does
not compile or its module does not import; skipped), error (pytest stopped without any test failing,
e.g. a collection error; not counted).  Tests run with ``-x -q -p no:cacheprovider``, ``CI=true
HYPOTHESIS_PROFILE=ci``, and Hypothesis deadlines and health checks off (a slow, shared machine must
not fail tests).  Tests that fail in the baseline are never selected.
"""

from __future__ import annotations

import argparse
import ast
import bisect
import concurrent.futures
import datetime
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PATHS = ["rulesdsl/engine", "rulesdsl/mechanics", "rulesdsl/compile", "rulesdsl/encoding", "rulesdsl/table",
                 "rulesdsl/web", "rulesdsl/expr", "rulesdsl/check"]
MAP_NAME = "coverage-map.json"
# Mutants judged equivalent (no input can tell them from the original), each with the reason: drawn in a
# sample like any other, never run, and left out of the catch rate (shown apart).
EQUIVALENT_FILE = Path(__file__).with_name("mutation-equivalent.yaml")

# A pytest plugin dropped into the copy (never into the checkout): it records every test's outcome and
# duration, keeps only the selected tests (ordered so the quickest files run first), and turns off
# Hypothesis deadlines and health checks after tests/conftest.py has loaded its profile.
PLUGIN = r'''
import json, os, threading, pytest

_record = os.environ.get("MUTATION_RECORD")

@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    try:
        from hypothesis import HealthCheck, settings
    except ImportError:
        return
    settings.register_profile("mutation", parent=settings.default, deadline=None,
                              suppress_health_check=list(HealthCheck))
    settings.load_profile("mutation")

_wanted = None
if os.environ.get("MUTATION_SELECT"):
    with open(os.environ["MUTATION_SELECT"]) as f:
        _wanted = json.load(f)         # {nodeid: baseline seconds}

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    # a hang is found at the hanging test, not at the end of the whole selection
    timer = None
    if _wanted is not None and item.nodeid in _wanted:
        limit = max(10 * _wanted[item.nodeid] + 15, 30)
        def fire():
            with open(_record, "a") as f:
                f.write(json.dumps({"timeout": item.nodeid, "limit": limit}) + "\n")
            os._exit(124)
        timer = threading.Timer(limit, fire)
        timer.daemon = True
        timer.start()
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()

def pytest_collection_modifyitems(session, config, items):
    if _wanted is None:
        return
    wanted = _wanted
    keep = [i for i in items if i.nodeid in wanted]
    drop = [i for i in items if i.nodeid not in wanted]
    per_file = {}
    for i in keep:
        per_file[i.nodeid.split("::")[0]] = per_file.get(i.nodeid.split("::")[0], 0.0) + wanted[i.nodeid]
    keep.sort(key=lambda i: per_file[i.nodeid.split("::")[0]])     # stable: order within a file kept
    if drop:
        config.hook.pytest_deselected(items=drop)
    items[:] = keep
    if _record:
        with open(_record, "a") as f:
            f.write(json.dumps({"selected": len(keep)}) + "\n")

def pytest_collectreport(report):
    # the selected files collected cleanly in the baseline, so a collection error now is the mutant's
    if _record and report.failed:
        with open(_record, "a") as f:
            f.write(json.dumps({"id": report.nodeid or "(collection)", "when": "collect", "outcome": "failed",
                                "dur": 0.0}) + "\n")

def pytest_runtest_logreport(report):
    if _record and (report.failed or report.when == "call" or report.when == "teardown"):
        with open(_record, "a") as f:
            f.write(json.dumps({"id": report.nodeid, "when": report.when, "outcome": report.outcome,
                                "dur": report.duration}) + "\n")
'''


# ----------------------------------------------------------------------------------------------------
# mutants

@dataclass
class Mutant:
    file: str                   # relative to the root
    start: int                  # byte offsets of the replaced segment in the original source
    end: int
    original: str
    replacement: str
    op: str
    line: int                   # first line of the segment
    lines: list[int]            # lines whose coverage selects the tests
    module_level: bool = False  # outside any function: select every test that touches the file
    note: str = ""

    def label(self) -> str:
        return f"{self.file}:{self.line}"

    def context(self, data: bytes) -> tuple[str, str]:
        """The first line of the change, before and after (whitespace collapsed)."""
        a = data.rfind(b"\n", 0, self.start) + 1
        b = data.find(b"\n", self.end)
        b = len(data) if b < 0 else b
        before = data[a:b].decode("utf-8")
        after = (data[a:self.start] + self.replacement.encode() + data[self.end:b]).decode("utf-8")
        return before.split("\n")[0] + (" ..." if "\n" in before else ""), after.split("\n")[0]


def _short(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


class _Source:
    def __init__(self, data: bytes):
        self.data = data
        self.starts = [0]
        for i, b in enumerate(data):
            if b == 10:
                self.starts.append(i + 1)

    def off(self, lineno: int, col: int) -> int:        # ast columns are UTF-8 byte offsets
        return self.starts[lineno - 1] + col

    def text(self, a: int, b: int) -> str:
        return self.data[a:b].decode("utf-8")

    def line_of(self, off: int) -> int:
        return bisect.bisect_right(self.starts, off)


_CMP_FLIP = {ast.Lt: ("<", "<="), ast.LtE: ("<=", "<"), ast.Gt: (">", ">="), ast.GtE: (">=", ">"),
             ast.Eq: ("==", "!="), ast.NotEq: ("!=", "=="), ast.In: ("in", "not in"),
             ast.NotIn: ("not in", "in"), ast.Is: ("is", "is not"), ast.IsNot: ("is not", "is")}
_QUIET_CALLS = {"print", "warn", "debug", "info", "warning", "error", "exception", "critical", "log"}
_BODY_FIELDS = ("body", "orelse", "finalbody")


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def _quiet_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    if name == "print" or (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)
                           and f.value.id in {"log", "logger", "logging", "_log", "LOG", "warnings"}
                           and name in _QUIET_CALLS):
        return True
    return False


def _find_token(gap: str, token: str) -> int:
    """Offset (in characters) of operator ``token`` in the text between two operands, or -1."""
    if "#" in gap:
        return -1
    words = token[0].isalpha()
    i = 0
    while True:
        i = gap.find(token, i)
        if i < 0:
            return -1
        after = gap[i + len(token): i + len(token) + 1]
        before = gap[i - 1: i] if i else ""
        if words:
            if (not before or not (before.isalnum() or before == "_")) and (not after or not (after.isalnum() or after == "_")):
                return i
        elif after not in "=<>" or not after:
            if not (before and before in "=<>!"):
                return i
        i += 1


def generate(path: Path, rel: str) -> list[Mutant]:
    data = path.read_bytes()
    src = _Source(data)
    tree = ast.parse(data, filename=rel)
    out: list[Mutant] = []

    def seg(node: ast.AST) -> tuple[int, int]:
        return src.off(node.lineno, node.col_offset), src.off(node.end_lineno, node.end_col_offset)

    def add(a: int, b: int, repl: str, op: str, lines_from: ast.AST, module_level: bool, header_only=False):
        orig = src.text(a, b)
        if orig == repl:
            return
        first = lines_from.lineno
        last = first if header_only else lines_from.end_lineno
        out.append(Mutant(rel, a, b, orig, repl, op, src.line_of(a), list(range(first, last + 1)), module_level))

    def gap_op(left: ast.AST, right: ast.AST, tokens: dict[str, str], op: str, node: ast.AST, ml: bool):
        a = src.off(left.end_lineno, left.end_col_offset)
        b = src.off(right.lineno, right.col_offset)
        gap = src.text(a, b)
        for tok, new in tokens.items():
            i = _find_token(gap, tok)
            if i >= 0:
                start = a + len(gap[:i].encode())
                add(start, start + len(tok.encode()), new, op, node, ml)
                return

    def visit(node: ast.AST, ml: bool, skip_ids: set[int]):
        if id(node) in skip_ids:
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name in {"__repr__", "__str__"}:
                return
            for d in node.decorator_list:
                skip_ids.add(id(d))
            if node.returns is not None:
                skip_ids.add(id(node.returns))
            for a in ast.walk(node.args):
                if isinstance(a, ast.arg) and a.annotation is not None:
                    skip_ids.add(id(a.annotation))
            for child in ast.iter_child_nodes(node):
                if child not in node.body:
                    visit(child, ml, skip_ids)          # defaults run where the def runs
            body(node.body, False, skip_ids)
            return
        if isinstance(node, ast.Lambda):
            visit(node.body, False, skip_ids)
            return
        if isinstance(node, ast.ClassDef):
            for d in node.decorator_list:
                skip_ids.add(id(d))
            body(node.body, ml, skip_ids)
            return
        if isinstance(node, ast.JoinedStr):
            return
        if isinstance(node, ast.AnnAssign):
            if node.value is not None:
                visit(node.value, ml, skip_ids)
            return
        if isinstance(node, ast.Raise):
            return                                     # the message is not the logic; deleting it is
        if isinstance(node, ast.Assert):
            visit(node.test, ml, skip_ids)
            return
        if _quiet_call(node):
            return
        if isinstance(node, ast.If):
            t = node.test
            if isinstance(t, ast.Name) and t.id == "TYPE_CHECKING":
                return
            if isinstance(t, ast.Compare) and isinstance(t.left, ast.Name) and t.left.id == "__name__":
                return
            a, b = seg(t)
            add(a, b, f"not ({src.text(a, b)})", "negate if", t, ml)
        # --- expression operators
        if isinstance(node, ast.Compare):
            left = node.left
            for op, right in zip(node.ops, node.comparators):
                old, new = _CMP_FLIP[type(op)]
                if old in ("not in", "is not"):                   # two words, maybe spaced oddly
                    first_word, second_word = old.split()
                    a = src.off(left.end_lineno, left.end_col_offset)
                    gap = src.text(a, src.off(right.lineno, right.col_offset))
                    i = _find_token(gap, first_word)
                    j = _find_token(gap[i + len(first_word):], second_word) if i >= 0 else -1
                    if j >= 0:
                        j += i + len(first_word) + len(second_word)
                        add(a + len(gap[:i].encode()), a + len(gap[:j].encode()), new, f"{old} -> {new}", node, ml)
                else:
                    gap_op(left, right, {old: new}, f"{old} -> {new}", node, ml)
                left = right
        elif isinstance(node, ast.BoolOp):
            new = "or" if isinstance(node.op, ast.And) else "and"
            old = "and" if new == "or" else "or"
            for l, r in zip(node.values, node.values[1:]):
                gap_op(l, r, {old: new}, f"{old} -> {new}", node, ml)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            textual = (ast.JoinedStr, ast.List, ast.Tuple, ast.ListComp, ast.Dict)
            seqs = {"list", "tuple", "str", "sorted", "repr", "bytes"}
            if not any(isinstance(x, textual) or (isinstance(x, ast.Constant) and isinstance(x.value, (str, bytes)))
                       or (isinstance(x, ast.Call) and isinstance(x.func, ast.Name) and x.func.id in seqs)
                       for x in (node.left, node.right)):   # not sequences: - is a TypeError there
                old, new = ("+", "-") if isinstance(node.op, ast.Add) else ("-", "+")
                gap_op(node.left, node.right, {old: new}, f"{old} -> {new}", node, ml)
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, (ast.Add, ast.Sub)):
            if not (isinstance(node.value, ast.Constant) and isinstance(node.value.value, (str, bytes))):
                old, new = ("+=", "-=") if isinstance(node.op, ast.Add) else ("-=", "+=")
                gap_op(node.target, node.value, {old: new}, f"{old} -> {new}", node, ml)
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, bool):
                a, b = seg(node)
                add(a, b, str(not node.value), f"{node.value} -> {not node.value}", node, ml)
            elif isinstance(node.value, int):
                a, b = seg(node)
                add(a, b, str(node.value + 1), "n -> n+1", node, ml)
        elif isinstance(node, ast.Subscript):
            s = node.slice
            if isinstance(s, ast.Constant) and s.value == 0 and not isinstance(s.value, bool):
                a, b = seg(s)
                add(a, b, "-1", "[0] -> [-1]", node, ml)
            elif (isinstance(s, ast.UnaryOp) and isinstance(s.op, ast.USub) and isinstance(s.operand, ast.Constant)
                  and s.operand.value == 1):
                a, b = seg(s)
                add(a, b, "0", "[-1] -> [0]", node, ml)
                skip_ids.add(id(s.operand))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
            a, b = seg(node.func)
            new = "max" if node.func.id == "min" else "min"
            add(a, b, new, f"{node.func.id} -> {new}", node, ml)
        elif isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and not node.value.value):   # None for False: a no-op
            a, b = seg(node.value)
            add(a, b, "None", "return x -> return None", node, ml)
        # --- children (statement lists handled by body())
        for fname, value in ast.iter_fields(node):
            if fname in _BODY_FIELDS and isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                body(value, ml, skip_ids)
            elif fname == "handlers":
                for h in value:
                    if h.type is not None:
                        visit(h.type, ml, skip_ids)
                    body(h.body, ml, skip_ids)
            elif fname == "annotation":
                continue
            elif isinstance(value, list):
                for v in value:
                    if isinstance(v, ast.AST):
                        visit(v, ml, skip_ids)
            elif isinstance(value, ast.AST):
                visit(value, ml, skip_ids)

    def body(stmts: list[ast.stmt], ml: bool, skip_ids: set[int]):
        real = [s for s in stmts if not _is_docstring(s)]
        if len(real) >= 2:
            for s in real:
                if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Pass, ast.Import,
                                  ast.ImportFrom, ast.Global, ast.Nonlocal, ast.AnnAssign)):
                    continue
                if isinstance(s, ast.Expr) and (_quiet_call(s.value) or isinstance(s.value, ast.Constant)):
                    continue
                if isinstance(s, ast.Assign) and any(isinstance(t, (ast.Name, ast.Tuple, ast.List)) for t in s.targets):
                    continue        # dropping a name's binding is a NameError, not a plausible slip
                if isinstance(s, ast.Return):
                    continue        # covered by return x -> return None
                a, b = seg(s)
                add(a, b, "pass", "delete statement", s, ml, header_only=True)
        for s in stmts:
            if not _is_docstring(s):
                visit(s, ml, skip_ids)

    body(tree.body, True, set())
    out.sort(key=lambda m: (m.start, m.end, m.op))
    return out


def apply(data: bytes, m: Mutant) -> bytes:
    return data[: m.start] + m.replacement.encode() + data[m.end:]


def _collapse(text: str) -> str:
    return " ".join(text.split())


def equivalence_key(m: Mutant, data: bytes) -> tuple[str, str, str]:
    """What identifies a mutant across edits elsewhere in its file: the file and its changed line,
    before and after (whitespace collapsed), not its line number."""
    before, after = m.context(data)
    return m.file, _collapse(before), _collapse(after)


def load_equivalents(path: Path = EQUIVALENT_FILE) -> dict[tuple[str, str, str], str]:
    """The judged-equivalent mutants: a YAML list of {file, before, after, why} (``before`` and ``after``
    are the changed line as the survivors list prints it); an entry without a reason is refused."""
    if not path.exists():
        return {}
    import yaml
    out = {}
    for n, e in enumerate(yaml.safe_load(path.read_text()) or []):
        if not str(e.get("why", "")).strip():
            raise SystemExit(f"{path.name}: entry {n} ({e.get('file')}) gives no reason why it is equivalent")
        out[(e["file"], _collapse(e["before"]), _collapse(e["after"]))] = e["why"]
    return out


def hand_written(spec_file: Path, root: Path) -> list[Mutant]:
    text = spec_file.read_text()
    if spec_file.suffix in (".yaml", ".yml"):
        import yaml
        specs = yaml.safe_load(text)
    else:
        specs = json.loads(text)
    out = []
    for n, s in enumerate(specs):
        data = (root / s["file"]).read_bytes()
        find = s["find"].encode()
        count = data.count(find)
        if count != 1:
            raise SystemExit(f"mutant {n} ({s.get('note', '')}): {s['find']!r} occurs {count} times in {s['file']}, not once")
        a = data.index(find)
        src = _Source(data)
        first, last = src.line_of(a), src.line_of(a + max(len(find) - 1, 0))
        tree = ast.parse(data)
        in_func = any(isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                      and f.lineno <= first <= f.end_lineno and f.lineno < first
                      for f in ast.walk(tree))
        out.append(Mutant(s["file"], a, a + len(find), s["find"], s["replace"], "hand-written", first,
                          list(range(first, last + 1)), not in_func, s.get("note", "")))
    return out


# ----------------------------------------------------------------------------------------------------
# the copy, the coverage map

def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make_copy(root: Path) -> Path:
    tmp = Path(tempfile.mkdtemp(prefix="rulesdsl-mutation-"))
    if shutil.which("rsync"):
        subprocess.run(["rsync", "-a", "--exclude", ".git", "--exclude", ".mutation", f"{root}/", f"{tmp}/"],
                       check=True)
    else:                                          # the same, without rsync
        shutil.copytree(root, tmp, symlinks=True, dirs_exist_ok=True,
                        ignore=lambda d, names: [n for n in names if n in (".git", ".mutation") and Path(d) == root])
    for p in list(tmp.rglob("__pycache__")):
        shutil.rmtree(p, ignore_errors=True)
    (tmp / "_mutation_plugin.py").write_text(PLUGIN)
    env = test_env(tmp)
    got = subprocess.run([sys.executable, "-c", "import rulesdsl; print(rulesdsl.__file__)"], cwd=tmp, env=env,
                         capture_output=True, text=True).stdout.strip()
    if not got or Path(got).resolve() != (tmp / "rulesdsl" / "__init__.py").resolve():
        raise SystemExit(f"the copy in {tmp} imports rulesdsl from {got!r}, not from the copy")
    return tmp


def test_env(copy: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(CI="true", HYPOTHESIS_PROFILE="ci", PYTHONDONTWRITEBYTECODE="1",
               PYTHONPATH=str(copy) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else ""))
    env.pop("MUTATION_SELECT", None)
    return env


def read_record(path: Path) -> tuple[dict[str, dict], int | None]:
    tests: dict[str, dict] = {}
    selected = None
    if not path.exists():
        return tests, selected
    for line in path.read_text().splitlines():
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if "selected" in r:
            selected = r["selected"]
            continue
        if "timeout" in r:
            tests.setdefault(r["timeout"], {"dur": 0.0, "ok": False})["timeout"] = r["limit"]
            continue
        t = tests.setdefault(r["id"], {"dur": 0.0, "ok": True})
        t["dur"] += r["dur"]
        if r["outcome"] == "failed":
            t["ok"] = False
    return tests, selected


def measure(root: Path, testpaths: list[str]) -> dict:
    """Run ``testpaths`` under coverage with per-test contexts in a fresh copy; return a map fragment."""
    import importlib.util
    missing = [name for name in ("coverage", "pytest_cov") if importlib.util.find_spec(name) is None]
    if missing:     # pytest would refuse --cov and the map would come out empty, hiding every test
        raise SystemExit(f"the coverage map needs {' and '.join(missing)}: pip install '.[test,mutation]'")
    copy = make_copy(root)
    try:
        env = test_env(copy)
        env["COVERAGE_FILE"] = str(copy / ".coverage.mutation")
        env["MUTATION_RECORD"] = str(copy / "record.jsonl")
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "_mutation_plugin",
               "--continue-on-collection-errors", "--cov=rulesdsl", "--cov-context=test", "--cov-report=",
               *testpaths]
        print("measuring:", " ".join(cmd), f"(in {copy})", flush=True)
        t0 = time.time()
        with open(copy / "pytest.log", "w") as log:
            rc = subprocess.run(cmd, cwd=copy, env=env, stdout=log, stderr=subprocess.STDOUT).returncode
        print(f"pytest exit {rc} after {time.time() - t0:.0f}s; tail of its output:", flush=True)
        print("\n".join((copy / "pytest.log").read_text().splitlines()[-8:]), flush=True)
        tests, _ = read_record(copy / "record.jsonl")
        from coverage import CoverageData
        data = CoverageData(basename=str(copy / ".coverage.mutation"))
        data.read()
        files: dict[str, dict] = {}
        for f in data.measured_files():
            try:
                rel = str(Path(f).resolve().relative_to(copy.resolve()))
            except ValueError:
                continue
            lines: dict[str, list[str]] = {}
            imported: list[int] = []
            for lineno, ctxs in (data.contexts_by_lineno(f) or {}).items():
                ids = sorted({c.rsplit("|", 1)[0] for c in ctxs if c})
                if any(not c for c in ctxs):
                    imported.append(lineno)
                if ids:
                    lines[str(lineno)] = ids
            files[rel] = {"sha": sha(copy / rel), "import": sorted(imported), "lines": lines}
        return {"tests": tests, "files": files, "seconds": time.time() - t0}
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def save_map(root: Path, frag: dict, merge: bool) -> None:
    state = root / ".mutation"
    state.mkdir(exist_ok=True)
    path = state / MAP_NAME
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    if merge and path.exists():
        old = load_map(root)
        new_tests = set(frag["tests"])
        tests = {k: v for k, v in old["tests"].items() if k not in new_tests}
        tests.update(frag["tests"])
        files = {}
        for rel in set(old["files"]) | set(frag["files"]):
            o = old["files"].get(rel, {"sha": None, "import": [], "lines": {}})
            n = frag["files"].get(rel, {"sha": o["sha"], "import": [], "lines": {}})
            lines = {}
            for ln in set(o["lines"]) | set(n["lines"]):
                ids = sorted({t for t in o["lines"].get(ln, []) if t not in new_tests} | set(n["lines"].get(ln, [])))
                if ids:
                    lines[ln] = ids
            files[rel] = {"sha": n["sha"], "import": sorted(set(o["import"]) | set(n["import"])), "lines": lines}
        doc = {"created": old.get("created"), "refreshed": now, "tests": tests, "files": files}
    else:
        doc = {"created": now, "tests": frag["tests"], "files": frag["files"]}
    # compact form: tests by index
    names = sorted(doc["tests"])
    index = {t: i for i, t in enumerate(names)}
    out = {"created": doc["created"], "refreshed": doc.get("refreshed"), "test_names": names,
           "tests": [doc["tests"][t] for t in names],
           "files": {rel: {"sha": f["sha"], "import": f["import"],
                           "lines": {ln: [index[t] for t in ids if t in index] for ln, ids in f["lines"].items()}}
                     for rel, f in sorted(doc["files"].items())}}
    path.write_text(json.dumps(out, separators=(",", ":")))
    bad = [t for t in names if not doc["tests"][t]["ok"]]
    print(f"coverage map: {path} — {len(names)} tests ({len(bad)} failing, never selected), "
          f"{len(out['files'])} files", flush=True)
    for t in bad[:20]:
        print("  failing in the baseline:", t)


def load_map(root: Path) -> dict | None:
    """The coverage map, its line numbers carried over the edits made since (``follow_edits``)."""
    path = root / ".mutation" / MAP_NAME
    if not path.exists():
        return None
    raw = json.loads(path.read_text())
    names = raw["test_names"]
    files = {rel: {"sha": f["sha"], "import": f["import"],
                   "lines": {ln: [names[i] for i in ids] for ln, ids in f["lines"].items()}}
             for rel, f in raw["files"].items()}
    for rel, f in files.items():
        if (root / rel).is_file() and f["sha"] != sha(root / rel):
            follow_edits(root, rel, f)
    return {"created": raw["created"], "refreshed": raw.get("refreshed"),
            "tests": dict(zip(names, raw["tests"])), "files": files}


def _measured_text(root: Path, rel: str, digest: str, depth: int = 40) -> str | None:
    """The text of ``rel`` as the map measured it: the version among the last ``depth`` commits whose
    digest is the map's (None when the map was made from uncommitted edits)."""
    revs = subprocess.run(["git", "-C", str(root), "log", f"-{depth}", "--format=%H", "--", rel],
                          capture_output=True, text=True).stdout.split()
    for rev in revs:
        blob = subprocess.run(["git", "-C", str(root), "show", f"{rev}:{rel}"], capture_output=True).stdout
        if hashlib.sha256(blob).hexdigest() == digest:
            return blob.decode("utf-8", "replace")
    return None


def follow_edits(root: Path, rel: str, f: dict) -> None:
    """Renumber a changed file's lines in the map to the file as it is now, where the measured version
    is in git: a line that is still there keeps its tests, a new or changed line has none until a
    ``--refresh`` measures the tests that run it.  Otherwise the file stays stale (and is warned of)."""
    import difflib
    old = _measured_text(root, rel, f["sha"])
    if old is None:
        return
    now_text = (root / rel).read_text()
    moved: dict[int, int] = {}
    matcher = difflib.SequenceMatcher(None, old.splitlines(), now_text.splitlines(), autojunk=False)
    for a, b, size in matcher.get_matching_blocks():
        for i in range(size):
            moved[a + i + 1] = b + i + 1
    f["lines"] = {str(moved[int(ln)]): ids for ln, ids in f["lines"].items() if int(ln) in moved}
    f["import"] = sorted(moved[ln] for ln in f["import"] if ln in moved)
    f["sha"] = sha(root / rel)


def executed(cmap: dict | None, m: Mutant) -> bool:
    if cmap is None:
        return True
    f = cmap["files"].get(m.file)
    if f is None:
        return False
    imp = set(f["import"])
    return any(str(ln) in f["lines"] or ln in imp for ln in m.lines)


def own_tests(cmap: dict, rel: str) -> list[str]:
    """The tests of the module's own test files (``tests/**/test_<module>.py`` and ``test_<package>.py``),
    always selected: they may reach a line where coverage cannot see it (a subprocess, a cache filled by
    an earlier test)."""
    p = Path(rel)
    suffixes = tuple(f"/test_{n}.py" for n in {p.stem, p.parent.name} - {"__init__", "rulesdsl"})
    return [t for t in cmap["tests"] if t.split("::", 1)[0].endswith(suffixes)]


def select(cmap: dict, m: Mutant) -> dict[str, float]:
    f = cmap["files"].get(m.file)
    if f is None:
        return {}
    chosen: set[str] = set()
    for ln in m.lines:
        chosen.update(f["lines"].get(str(ln), []))
    if m.module_level or (not chosen and any(ln in set(f["import"]) for ln in m.lines)):
        for ids in f["lines"].values():        # runs at import: every test that uses the module
            chosen.update(ids)
    chosen.update(own_tests(cmap, m.file))
    return {t: cmap["tests"][t]["dur"] for t in chosen if cmap["tests"].get(t, {}).get("ok")}


# ----------------------------------------------------------------------------------------------------
# running a mutant

@dataclass
class Result:
    mutant: Mutant
    verdict: str                     # killed timeout survived equivalent invalid error
    detail: str = ""
    seconds: float = 0.0
    tests: int = 0
    killer: str = ""
    extra: dict = field(default_factory=dict)


def module_name(rel: str) -> str:
    p = Path(rel).with_suffix("")
    parts = list(p.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class Runner:
    def __init__(self, root: Path, cmap: dict | None, timeout: float | None):
        self.root, self.cmap, self.timeout = root, cmap, timeout
        self.copy = make_copy(root)
        self.env = test_env(self.copy)
        self._imports: dict[str, bool] = {}
        self.proc: subprocess.Popen | None = None

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(self.copy, ignore_errors=True)

    def _imports_ok(self, rel: str) -> tuple[bool, str]:
        p = subprocess.run([sys.executable, "-c", "import importlib,sys; importlib.import_module(sys.argv[1])",
                            module_name(rel)], cwd=self.copy, env=self.env, capture_output=True, text=True,
                           timeout=120)
        return p.returncode == 0, (p.stderr.strip().splitlines() or [""])[-1]

    def _clear_pyc(self, rel: str):
        cache = (self.copy / rel).parent / "__pycache__"
        for pyc in cache.glob(Path(rel).stem + ".*.pyc"):
            pyc.unlink(missing_ok=True)

    def run(self, m: Mutant) -> Result:
        target = self.copy / m.file
        original = target.read_bytes()                 # the copy's snapshot, not the live checkout
        if original[m.start:m.end] != m.original.encode():
            return Result(m, "error", "the file changed since the mutants were generated")
        mutated = apply(original, m)
        try:
            compile(mutated, m.file, "exec")
        except SyntaxError as e:
            return Result(m, "invalid", f"does not compile: {e.msg}")
        if self.cmap is None:
            return Result(m, "error", "no coverage map: run --baseline first")
        tests = select(self.cmap, m)
        if not tests:
            return Result(m, "survived", "not covered: no (passing) test executes the line")
        if m.file not in self._imports:
            self._imports[m.file] = self._imports_ok(m.file)[0]
        t0 = time.time()
        try:
            target.write_bytes(mutated)
            self._clear_pyc(m.file)
            if self._imports[m.file]:
                ok, why = self._imports_ok(m.file)
                if not ok:
                    return Result(m, "invalid", f"does not import: {why}")
            base = sum(tests.values())
            limit = self.timeout or max(min(max(10 * base + 30, 60), 300), 3 * base + 60)
            sel = self.copy / "select.json"
            rec = self.copy / "record.jsonl"
            sel.write_text(json.dumps(tests))
            rec.unlink(missing_ok=True)
            env = dict(self.env, MUTATION_SELECT=str(sel), MUTATION_RECORD=str(rec))
            files = sorted({t.split("::")[0] for t in tests})
            cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "_mutation_plugin",
                   *files]
            with open(self.copy / "mutant.log", "w") as log:
                p = subprocess.Popen(cmd, cwd=self.copy, env=env, stdout=log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
                self.proc = p
                try:
                    rc = p.wait(timeout=limit)
                except subprocess.TimeoutExpired:
                    rc = None
                finally:
                    try:
                        os.killpg(p.pid, signal.SIGKILL)    # and whatever the tests started
                    except ProcessLookupError:
                        pass
                    p.wait()
            seen, selected = read_record(rec)
            hung = [t for t, r in seen.items() if "timeout" in r]
            if rc is None or hung:
                what = (f"{hung[0]} over {seen[hung[0]]['timeout']:.0f}s" if hung
                        else f"over {limit:.0f}s (baseline {base:.1f}s)")
                return Result(m, "timeout", what, time.time() - t0, len(tests))
            failed = [t for t, r in seen.items() if not r["ok"]]
            secs = time.time() - t0
            if failed:
                return Result(m, "killed", "", secs, len(tests), failed[0])
            if rc == 0 or rc == 5 and selected == 0:
                detail = "" if selected == len(tests) else f"{selected} of {len(tests)} selected tests collected"
                return Result(m, "survived", detail, secs, len(tests))
            tail = (self.copy / "mutant.log").read_text().strip().splitlines()[-3:]
            return Result(m, "error", f"pytest exit {rc} with no test failing: {' | '.join(tail)}", secs, len(tests))
        finally:
            target.write_bytes(original)
            self._clear_pyc(m.file)


# ----------------------------------------------------------------------------------------------------

def candidates(root: Path, paths: list[str], cmap: dict | None) -> tuple[list[Mutant], int]:
    files = []
    for p in paths:
        full = root / p
        files.extend([full] if full.is_file() else sorted(full.rglob("*.py")))
    out, total = [], 0
    stale = []
    for f in sorted(set(files)):
        rel = str(f.relative_to(root))
        if cmap is not None and rel in cmap["files"] and cmap["files"][rel]["sha"] != sha(f):
            stale.append(rel)
        ms = generate(f, rel)
        total += len(ms)
        out.extend(m for m in ms if executed(cmap, m))
    if stale:
        print(f"warning: {len(stale)} file(s) changed since the coverage map was made, from a version not in git (lines may be off; "
              f"rerun --baseline): {', '.join(stale)}", file=sys.stderr)
    return out, total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="See the module docstring (tools/mutation.py) for the details.")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout (default: this script's repository)")
    ap.add_argument("--baseline", action="store_true", help="run the whole suite under coverage; store the map")
    ap.add_argument("--refresh", nargs="+", metavar="TESTPATH", help="re-measure these tests; merge into the map")
    ap.add_argument("--paths", nargs="+", default=DEFAULT_PATHS, help="modules or folders to mutate")
    ap.add_argument("--sample", type=int, help="run N mutants picked uniformly (default: all)")
    ap.add_argument("--seed", type=int, default=0, help="seed for --sample (default 0)")
    ap.add_argument("--mutants", type=Path, help="JSON or YAML list of {file, find, replace, note}")
    ap.add_argument("--list", action="store_true", help="list the chosen mutants; run nothing")
    ap.add_argument("--timeout", type=float, help="seconds per mutant (default: from the baseline times)")
    ap.add_argument("--jobs", type=int, default=1, help="mutants run at once, each in its own copy (default 1)")
    ap.add_argument("--json", type=Path, help="write every result here")
    args = ap.parse_args(argv)
    root = args.root.resolve()

    if args.baseline or args.refresh:
        frag = measure(root, args.refresh or ["tests"])
        save_map(root, frag, merge=bool(args.refresh))
        if not (args.sample or args.mutants or args.list):
            return 0

    cmap = load_map(root)
    if cmap is None:
        print("no coverage map yet (python tools/mutation.py --baseline): mutants are not filtered by coverage "
              "and cannot be run", file=sys.stderr)
    if args.mutants:
        chosen, total = hand_written(args.mutants, root), None
    else:
        pool, total = candidates(root, args.paths, cmap)
        chosen = random.Random(args.seed).sample(pool, min(args.sample, len(pool))) if args.sample else pool
        print(f"{total} candidate mutants in {', '.join(args.paths)}; {len(pool)} on executed lines; "
              f"chose {len(chosen)}", flush=True)
    if args.list:
        for m in chosen:
            cost = ""
            if cmap is not None:
                sel = select(cmap, m)
                cost = f"{len(sel):5} tests {sum(sel.values()):6.0f}s  "
            print(f"{m.label():45} {m.op:24} {cost}{_short(m.original, 40)!s} -> {_short(m.replacement, 40)}")
        return 0

    snapshot = {m.file: (root / m.file).read_bytes() for m in chosen}   # the sources the mutants were made of
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))    # kill <pid>: clean up the copies
    runners = [Runner(root, cmap, args.timeout) for _ in range(max(args.jobs, 1))]
    free = list(runners)
    results: list[Result | None] = [None] * len(chosen)
    t_start = time.time()

    judged = load_equivalents()
    why_equivalent = {i: judged[k] for i, m in enumerate(chosen)
                      if (k := equivalence_key(m, snapshot[m.file])) in judged}

    def work(i: int) -> Result:
        if i in why_equivalent:
            return Result(chosen[i], "equivalent", f"judged equivalent: {why_equivalent[i]}")
        r = free.pop()
        try:
            return r.run(chosen[i])
        finally:
            free.append(r)

    pool_ = concurrent.futures.ThreadPoolExecutor(max_workers=len(runners))
    try:
        futs = {pool_.submit(work, i): i for i in range(len(chosen))}
        for n, fut in enumerate(concurrent.futures.as_completed(futs), 1):
            i = futs[fut]
            res = fut.result()
            results[i] = res
            m = res.mutant
            print(f"[{n}/{len(chosen)} {time.time() - t_start:5.0f}s] {res.verdict:8} {m.label():40} "
                  f"{m.op:24} {res.tests:4} tests {res.seconds:5.0f}s {res.detail or res.killer}", flush=True)
    finally:
        # stopped (kill <pid>, Ctrl-C) or done: no mutant not yet started is started, and the running
        # ones' tests are killed with their copies (a `with` block would wait for every mutant left)
        pool_.shutdown(wait=False, cancel_futures=True)
        for r in runners:
            r.close()

    done = [r for r in results if r is not None]
    count = {v: sum(r.verdict == v for r in done)
             for v in ("killed", "timeout", "survived", "equivalent", "invalid", "error")}
    survivors = [r for r in done if r.verdict == "survived"]
    if survivors:
        print("\nSurvivors:")
        for r in sorted(survivors, key=lambda r: (r.mutant.file, r.mutant.line)):
            m = r.mutant
            before, after = m.context(snapshot[m.file])       # not the live file: it may have changed since
            print(f"  {m.label()}  [{m.op}]{'  ' + r.detail if r.detail else ''}{'  (' + m.note + ')' if m.note else ''}\n"
                  f"      - {_short(before, 100)}\n      + {_short(after, 100)}")
    denom = count["killed"] + count["timeout"] + count["survived"]
    rate = (count["killed"] + count["timeout"]) / denom if denom else None
    print(f"\nkilled {count['killed']}, timed out {count['timeout']}, survived {count['survived']} "
          f"(not covered {sum('not covered' in r.detail for r in survivors)}), equivalent {count['equivalent']} "
          f"(judged, {EQUIVALENT_FILE.name}), invalid {count['invalid']}, "
          f"error {count['error']}; catch rate "
          f"{'n/a' if rate is None else f'{100 * rate:.1f}%'}; {time.time() - t_start:.0f}s")
    if args.json:
        args.json.write_text(json.dumps({
            "paths": args.paths, "sample": args.sample, "seed": args.seed,
            "mutants_file": str(args.mutants) if args.mutants else None, "candidates": total,
            "counts": count, "catch_rate": rate,
            "results": [dict(asdict(r), mutant=asdict(r.mutant),
                             change=dict(zip(("before", "after"), r.mutant.context(snapshot[r.mutant.file]))))
                        for r in done]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
