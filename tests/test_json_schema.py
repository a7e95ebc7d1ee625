"""The JSON Schema of the YAML syntax (``rulesdsl schema``) agrees with the loader, and is derived
from the model: every bundled ruleset and variant validates; mutants the model refuses for their
structure are refused by the schema too, and mutants that load are accepted; a field added to the
model appears in the schema by itself."""

from __future__ import annotations

import json
import os
import random

import pytest
from click.testing import CliRunner

import rulesdsl
from rulesdsl.errors import Diagnostics
from rulesdsl.model import game as model
from rulesdsl.model.game import RULESET, SOURCE_KEYS, build_ruleset
from rulesdsl.model.json_schema import ruleset_schema
from rulesdsl.model.schema import Field, Int, Struct, Type
from rulesdsl.source.resolve import bundled_names, read_file
from rulesdsl.source.writer import to_yaml

from common import mutate_tree, tree_paths


def _jsonschema():
    """The optional test dependency: a skip locally without it, a failure under CI."""
    if os.environ.get("CI"):
        import jsonschema
        return jsonschema
    return pytest.importorskip("jsonschema", reason="pip install '.[test]' (jsonschema)")


jsonschema = _jsonschema()
SCHEMA = ruleset_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
GAMES = [(n, p) for n, p in bundled_names() if not n.startswith("variants/")]


def _problems(data) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in VALIDATOR.iter_errors(data)]


SCHEMA_07 = ruleset_schema("07")
VALIDATOR_07 = jsonschema.Draft7Validator(SCHEMA_07)


def test_the_schema_is_a_valid_draft_2020_12_schema_and_07_on_request():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft7Validator.check_schema(SCHEMA_07)
    assert SCHEMA_07["$schema"] == "http://json-schema.org/draft-07/schema#" and "$defs" not in SCHEMA_07
    assert '"prefixItems"' not in json.dumps(SCHEMA_07) and '"prefixItems"' in json.dumps(SCHEMA)


@pytest.mark.parametrize("name, path", bundled_names(), ids=[n for n, _ in bundled_names()])
def test_every_bundled_ruleset_and_variant_validates(name, path):
    """Read with the project's reader (either syntax: a .rules file reads into the same tree)."""
    tree = read_file(path)
    assert _problems(tree.plain()) == []
    assert list(VALIDATOR_07.iter_errors(tree.plain())) == []


def test_a_pair_is_checked_item_by_item_in_either_draft():
    for validator in (VALIDATOR, VALIDATOR_07):
        assert validator.is_valid({"extends": "president", "roles": {"4": [["President", 2]]}})
        assert not validator.is_valid({"extends": "president", "roles": {"4": [["President", "two"]]}})
        assert not validator.is_valid({"extends": "president", "roles": {"four": []}})


def test_a_variant_needs_only_what_differs_but_lists_stay_whole(tmp_path):
    """With `extends`, no key is required at any depth reached through mappings (they merge); a list
    replaces its base's, so its items are checked whole, as the loader does."""
    variant = {"extends": "president", "params": {"revolution": True},
               "melds": {"set": {"min": 4}}, "players": {"max": 6}}
    assert _problems(variant) == []
    assert _problems({k: v for k, v in variant.items() if k != "extends"}) != []    # not a whole ruleset
    half_step = {"extends": "gin_rummy", "turn": [{"step": "draw"}]}
    assert any("actions" in p for p in _problems(half_step))
    f = tmp_path / "v.yaml"
    f.write_text("extends: gin_rummy\nturn: [{step: draw}]\n")
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(str(f))
    assert "E-MISSING" in {d.code for d in exc.value.diagnostics}
    assert _problems({"extends": "gin_rummy", "colour": 1}) != []                    # unknown key
    assert _problems({"extends": 5}) != []                                            # not a name


# ------------------------------------------------------------------------------------------ mutants

#: the model's structural diagnostics: what a JSON Schema can say too
STRUCTURAL = {"E-UNKNOWN-KEY", "E-MISSING", "E-CHOICE", "E-RANGE", "E-TYPE"}
#: structural codes for relations JSON Schema cannot state: one value against another (players'
#: min, max and default), and the bare word `none` (JSON does not keep whether a word was quoted)
BEYOND_SCHEMA = ("must lie between", "is above `players.max`", 'which here is the word "none"')
VALUES = [7, -1, 0, 500, True, None, "", "zz", "1 +", {}, [], {"kind": "run"}, [1, "x", None]]
MUTANTS_PER_GAME = 40


def _mutants(name, path):
    base = read_file(path)
    paths = [p for p, _ in tree_paths(base) if p]
    rng = random.Random(name)
    for _ in range(MUTANTS_PER_GAME):
        p, how, value = rng.choice(paths), rng.choice(["delete", "rename", "replace", "replace"]), rng.choice(VALUES)
        yield f"{how} {'.'.join(map(str, p))} {value!r}", mutate_tree(base, p, how, value)


def _structural(diags: Diagnostics) -> list[str]:
    return [d.format() for d in diags.items
            if d.code in STRUCTURAL and not any(s in d.message for s in BEYOND_SCHEMA)]


@pytest.mark.parametrize("name, path", GAMES, ids=[n for n, _ in GAMES])
def test_mutants_the_loader_refuses_for_structure_the_schema_refuses_and_loadable_ones_it_accepts(
        tmp_path, name, path):
    counts = {"refused": 0, "loaded": 0}
    for what, mutant in _mutants(name, path):
        diags = Diagnostics()
        build_ruleset(mutant, diags)
        valid = VALIDATOR.is_valid(mutant.plain())
        structural = _structural(diags)
        if structural:
            assert not valid, f"{what}: the model refuses it ({structural[0]}), the schema accepts it"
            counts["refused"] += 1
        elif not diags:
            f = tmp_path / "mutant.yaml"
            f.write_text(to_yaml(mutant))
            try:
                rulesdsl.load(str(f))
            except rulesdsl.RulesetError:
                continue
            assert valid, f"{what}: it loads, but the schema refuses it: {_problems(mutant.plain())[:2]}"
            counts["loaded"] += 1
    assert counts["refused"] >= 5 and counts["loaded"] >= 3, counts      # the sample tests both ways


# --------------------------------------------------------------------------------------- derivation


def _structs() -> list[Struct]:
    """Every section of the model: the module's Structs and every Struct reachable from them."""
    out: dict[int, Struct] = {}
    todo: list[Type] = [t for t in vars(model).values() if isinstance(t, Type)]
    while todo:
        t = todo.pop()
        if isinstance(t, Struct):
            if id(t) in out:
                continue
            out[id(t)] = t
            todo.extend(f.type for f in t.fields.values())
        todo.extend(v for v in (getattr(t, "item", None), getattr(t, "value", None)) if isinstance(v, Type))
    return list(out.values())


def _defs_by_title(schema: dict) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for body in schema["$defs"].values():
        for b in [body] + body.get("anyOf", []):
            if "title" in b:
                out.setdefault(b["title"], []).append(b)
    return out


def test_every_section_of_the_model_is_in_the_schema_with_its_fields_and_required_keys():
    defs = _defs_by_title(SCHEMA)
    structs = _structs()
    assert len(structs) >= 25
    for s in structs:
        fields = list(s.fields) + (list(SOURCE_KEYS) if s is RULESET else [])
        assert s.label in defs, s.label
        whole = [b for b in defs[s.label] if "required" in b or not any(f.required for f in s.fields.values())]
        assert whole and all(list(b["properties"]) == fields for b in defs[s.label]), s.label
        assert all(b["additionalProperties"] is False for b in defs[s.label])
        assert whole[0].get("required", []) == [k for k, f in s.fields.items() if f.required], s.label
    docs = [(s.label, k, f.doc) for s in structs for k, f in s.fields.items() if f.doc]
    for label, key, doc in docs:
        assert any(b["properties"][key].get("description") == doc for b in defs[label]), (label, key)


def test_a_field_added_to_the_model_appears_in_the_schema(monkeypatch):
    monkeypatch.setitem(model.DECK.fields, "shine", Field(Int(0, 3), True, doc="how shiny"))
    deck = _defs_by_title(ruleset_schema())["deck"]
    assert any(b["properties"]["shine"] == {"type": "integer", "minimum": 0, "maximum": 3,
                                           "description": "how shiny"} and "shine" in b["required"]
               for b in deck)
    assert "shine" not in json.dumps(SCHEMA)


def test_choices_and_ranges_come_from_the_model():
    text = json.dumps(SCHEMA)
    zone = _defs_by_title(SCHEMA)["zone"][0]["properties"]
    assert zone["visible"]["enum"] == list(model.ZONE.fields["visible"].type.choices)
    assert f'"maximum": {model.MAX_PLAYERS}' in text


# ------------------------------------------------------------------------------------------ command


def test_the_command_prints_the_schema_and_writes_it_with_output(tmp_path):
    from rulesdsl.cli.main import cli

    runner = CliRunner()
    out = runner.invoke(cli, ["schema"])
    assert out.exit_code == 0 and json.loads(out.output) == SCHEMA
    target = tmp_path / "rulesdsl.schema.json"
    out = runner.invoke(cli, ["schema", "--output", str(target)])
    assert out.exit_code == 0 and out.output == "" and json.loads(target.read_text()) == SCHEMA
    out = runner.invoke(cli, ["schema", "--draft", "07"])
    assert out.exit_code == 0 and json.loads(out.output) == SCHEMA_07
    out = runner.invoke(cli, ["schema", "--output", str(tmp_path / "no" / "such" / "dir.json")])
    assert out.exit_code == 2 and out.output.startswith("error: cannot write") and "Traceback" not in out.output


def test_the_docs_give_the_command_and_the_modeline():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    editors = (root / "docs" / "editors.md").read_text()
    assert "rulesdsl schema > rulesdsl.schema.json" in editors
    assert "# yaml-language-server: $schema=./rulesdsl.schema.json" in editors
    assert "rulesdsl schema" in (root / "README.md").read_text()
