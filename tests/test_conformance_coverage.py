"""The conformance suite keeps step with the language: every key of the model has a test of its own.

Keys are read from the JSON Schema the model generates (``rulesdsl schema``), so a key added to the model
fails here until a test ``@documents`` it (see ``tests/conformance/keys.py``), and a test that names a key
the model no longer has fails too.  The docs are held to the same list: every key is written in
``docs/language.md``.  ``doc`` fields (text for readers) are one feature wherever they sit, documented once
as ``doc``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rulesdsl.model.json_schema import ruleset_schema
from tests.conformance.keys import API_PROMISES

TESTS = Path(__file__).parent
DOCS = TESTS.parent / "docs"


def schema_keys() -> set[str]:
    """Every key path of the complete (not partial) ruleset schema."""
    schema = ruleset_schema()
    defs = schema["$defs"]
    paths: set[str] = set()

    def walk(node: dict, prefix: str, seen: frozenset) -> None:
        if "$ref" in node:
            name = node["$ref"].split("/")[-1]
            if name not in seen:
                walk(defs[name], prefix, seen | {name})
            return
        for key in ("anyOf", "oneOf", "allOf"):
            for sub in node.get(key, []):
                walk(sub, prefix, seen)
        for key, sub in node.get("properties", {}).items():
            path = f"{prefix}.{key}" if prefix else key
            paths.add(path)
            walk(sub, path, seen)
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            walk(extra, prefix + ".*", seen)
        if isinstance(node.get("items"), dict):
            walk(node["items"], prefix + "[]", seen)

    walk(defs["ruleset"], "", frozenset())
    return paths


def required_keys() -> set[str]:
    keys = {k for k in schema_keys() if k.rsplit(".", 1)[-1] != "doc"}
    return keys | {"doc"}


def _expected_to_fail(node) -> bool:
    """Whether a test is marked ``xfail``: it documents a defect, not a behaviour that holds."""
    for deco in node.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        if isinstance(target, ast.Attribute) and target.attr == "xfail":
            return True
    return False


def documented_by_tests(passing_only: bool = False) -> dict[str, list[str]]:
    """Key -> the tests (``file::function``) that carry ``@documents(key, ...)``; with
    ``passing_only``, leaving out tests marked ``xfail`` (a known defect checks no behaviour)."""
    found: dict[str, list[str]] = {}
    for path in sorted(TESTS.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if passing_only and _expected_to_fail(node):
                continue
            for deco in node.decorator_list:
                if isinstance(deco, ast.Call) and getattr(deco.func, "id", None) == "documents":
                    for arg in deco.args:
                        assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), (
                            f"{path.name}:{deco.lineno}: documents() takes key names as plain strings")
                        found.setdefault(arg.value, []).append(f"{path.relative_to(TESTS)}::{node.name}")
    return found


def test_every_key_of_the_model_has_a_conformance_test():
    missing = sorted(required_keys() - set(documented_by_tests(passing_only=True)))
    assert not missing, (f"{len(missing)} documented keys have no passing test that @documents them "
                         "(a test marked xfail does not count): " + ", ".join(missing))


def test_every_documented_name_is_a_key_of_the_model_or_an_api_promise():
    known = required_keys() | set(API_PROMISES)
    unknown = {k: v for k, v in documented_by_tests().items() if k not in known}
    assert not unknown, f"@documents names what the model does not have: {unknown}"


def test_every_api_promise_has_a_test():
    missing = sorted(set(API_PROMISES) - set(documented_by_tests(passing_only=True)))
    assert not missing, f"API promises with no test: {missing}"


def test_every_key_of_the_model_is_written_in_the_language_reference():
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.S | re.M)
    inline = re.findall(r"`([^`\n]+)`", re.sub(r"^```.*?^```", "", text, flags=re.S | re.M))
    written = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", " ".join(blocks + inline)))
    absent = sorted(k for k in required_keys() if k.rsplit(".", 1)[-1].rstrip("[]") not in written)
    assert not absent, f"keys the reference never names: {absent}"
