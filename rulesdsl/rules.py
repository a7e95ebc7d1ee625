"""The loaded ruleset users hold: ``rulesdsl.load(...)`` returns a ``Rules``.

Loading runs the whole front of the pipeline once (source -> model -> check -> compile) and raises one
``RulesetError`` listing every problem.  A program is compiled for every allowed player count at load,
so a mistake that shows only with some player count is still reported when the file is loaded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Mapping, Optional, Sequence, Union

from .check.semantic import check_model
from .compile.program import Program, compile_program
from .engine.game import Game
from .engine.record import RecordError, check_record, replay_with
from .errors import BASE_QUOTE_LIMIT, Diagnostic, Diagnostics, RulesetError, Sources, excerpt
from .model.game import RULESET, Ruleset, build_ruleset
from .model.schema import without_docs
from .source.resolve import digest, display_path, is_bundled, load_tree
from .source.tree import Node, Pos


@dataclass(frozen=True)
class Arrangement:
    """A best split of cards into melds: ``melds`` (lists of card texts), ``deadwood``, ``points``."""

    melds: list
    deadwood: list
    points: int


class Rules:
    """A checked, compiled ruleset: start games from it, or ask it questions (``arrange``)."""

    def __init__(self, model: Ruleset, tree: Node, path: Optional[Path] = None):
        self.model = model
        self.tree = tree
        self.path = path
        self.digest = digest(without_docs(tree.plain(), RULESET))   # doc: texts are not rules
        self.params = model.param_values()
        self._programs: dict[int, Program] = {}
        #: how ``load`` was asked for it (a record names its ruleset this way): name and overrides
        self.source: Optional[str] = None
        self.overrides: dict = {}

    @property
    def name(self) -> str:
        return self.model.name

    def program(self, players: Optional[int] = None) -> Program:
        p = self.model.players
        n = p.default if players is None else players
        if not isinstance(n, int) or not p.min <= n <= p.max:
            allowed = str(p.min) if p.min == p.max else f"{p.min} to {p.max}"
            raise ValueError(f"{self.model.name} is for {allowed} players, not {players}")
        prog = self._programs.get(n)
        if prog is None:
            diags = Diagnostics()
            prog = compile_program(self.model, n, self.params, diags)
            if prog is None:
                raise RulesetError(diags.items)
            self._programs[n] = prog
        return prog

    def new_game(self, seed: Optional[int] = None, dealer: Optional[int] = None,
                 deck: Optional[Sequence[Union[str, int]]] = None, players: Optional[int] = None,
                 decks: Optional[Sequence[Sequence[Union[str, int]]]] = None) -> Game:
        """A new match.  ``deck`` (top card first) stacks the first deal, ``decks`` the deals after it
        (or, without ``deck``, the first deals in order; ``Game.stack_next`` adds more while playing);
        ``players`` where a range is allowed."""
        game = Game(self.program(players), seed=seed, dealer=dealer, deck=deck, digest=self.digest, decks=decks)
        game.source = (self.source, dict(self.overrides))
        return game

    def replay(self, record: Mapping[str, Any]) -> Game:
        """The game a record (``Game.record()``) describes, played under these rules; a record made
        under other rules (another digest) is refused with ``RecordError``."""
        return replay_with(self, record)

    def arrange(self, cards: Sequence[str], players: Optional[int] = None) -> Arrangement:
        """The best split of ``cards`` (texts like "10H") into this ruleset's melds, minimising deadwood."""
        prog = self.program(players)
        table = prog.cards
        ids = []
        used: dict[int, int] = {}
        for t in cards:
            k = table.parse_kind(str(t))
            if k is None:
                raise ValueError(f"`{t}` is not a card of this deck")
            copies = [c for c in table.ids if table.kind[c] == k]
            i = used.get(k, 0)
            if i >= len(copies):
                raise ValueError(f"`{t}` appears more often than the deck holds it")
            used[k] = i + 1
            ids.append(copies[i])
        a = prog.melds.arrange(ids)
        return Arrangement([table.texts(m) for m in a.melds], table.texts(a.deadwood), a.points)

    def __repr__(self) -> str:
        return f"<Rules {self.model.name!r} {self.digest}>"


def load(name: Union[str, Path], overrides: Optional[Mapping[str, Any]] = None,
         override_pos: Optional[Mapping[str, Pos]] = None,
         allow_paths: Sequence[Union[str, Path]] = (), text: Optional[str] = None) -> Rules:
    """Load a bundled game by name, or a ``.yaml`` / ``.rules`` file, with optional overrides.  A
    ``pathlib.Path`` always names a file (a text without an extension names a bundled ruleset).

    ``extends`` in the file reaches only bundled rulesets and files inside the file's own folder;
    ``allow_paths`` names further folders (or files) it may reach.  Diagnostics quote files reached
    through ``extends`` only in short excerpts.  A ``RulesetError`` carries the text of the files read
    (``.sources``, for ``Diagnostic.render``).

    ``text`` is the file's content when the caller holds it (an editor checking an unsaved buffer):
    ``name`` is then the file's path, which need not exist, and ``extends`` resolves (and is
    confined) from its folder exactly as if the file were read."""
    diags = Diagnostics()
    files: list[Path] = []
    sources = Sources()
    if isinstance(name, Path):                  # a Path is always a file, never a bundled name
        name = str(name) if name.is_absolute() or str(name).startswith(".") else f"./{name}"
    try:
        tree, path = load_tree(str(name), overrides, override_pos, diags, files, allow_paths, text=text,
                               sources=sources)
        model = build_ruleset(tree, diags)
        if model is None:
            raise RulesetError(diags.items)
        check_model(model, diags)
        diags.raise_if_any()
        # compile for every allowed player count now, so expression errors surface at load time
        rules = Rules(model, tree, path)
        for n in range(model.players.min, model.players.max + 1):
            prog = compile_program(model, n, rules.params, diags)
            if prog is None:
                break
            rules._programs[n] = prog
        diags.raise_if_any()
        rules.source, rules.overrides = str(name), dict(overrides or {})
    except RulesetError as exc:
        bases = {display_path(f) for f in files[1:] if not is_bundled(f)}
        if bases and any(d.pos.path in bases for d in exc.diagnostics):
            raise RulesetError([_shortened(d) if d.pos.path in bases else d for d in exc.diagnostics],
                               sources) from None
        if exc.sources is None:
            exc.sources = sources
        raise
    return rules


# BASE_QUOTE_LIMIT (in errors, imported here): how much of a quoted piece (between backticks) a
# diagnostic in a base file may show, and of a line its excerpt under the diagnostic


def _shortened(d: Diagnostic) -> Diagnostic:
    """A diagnostic located in a base file (reached through ``extends``, not named by the user), its
    quotes cut to short excerpts."""
    cut = lambda m: "`" + excerpt(m.group(1), BASE_QUOTE_LIMIT) + "`"    # noqa: E731
    return replace(d, message=re.sub(r"`([^`]*)`", cut, d.message), hint=re.sub(r"`([^`]*)`", cut, d.hint))


def bundled_listing() -> list[tuple[str, str]]:
    """The bundled games and variants as ``(name, title)``: the title is the ruleset's ``name`` and,
    for a variant, what it extends.  ``rulesdsl list`` prints it and the web table's start page offers
    it, so the two never disagree about what is bundled."""
    from .errors import RulesdslError, printable
    from .source.resolve import bundled_names, read_file

    out = []
    for name, path in bundled_names():
        title = ""
        try:
            tree = read_file(path)
            ext = tree.get("extends") if hasattr(tree, "get") else None
            nm = tree.get("name") if hasattr(tree, "get") else None
            if nm is not None:
                title = str(nm.value)
            if ext is not None:
                title = (title + " " if title else "") + f"(extends {ext.value})"
        except RulesdslError:
            title = "(unreadable)"
        out.append((name, printable(title)))
    return out


def replay(record: Mapping[str, Any], rules=None, allow_paths: Sequence[Union[str, Any]] = (),
           apply: Optional[Callable[[Any, str], None]] = None):
    """The game ``record`` describes.  Without ``rules``, the ruleset is loaded as the record names
    it (``load(name, overrides=...)``); either way its digest must match the record's.  ``apply(game,
    text)``, when given, carries out each action instead of ``game.apply(text)`` (a table logs them)."""
    check_record(record)
    return replay_with(rules_for(record, rules, allow_paths), record, apply)


def rules_for(record: Mapping[str, Any], rules=None, allow_paths: Sequence = ()):
    """``rules``, or else the ruleset the record names, loaded by ``load``'s own rules."""
    if rules is not None:
        return rules
    if record["ruleset"] is None:
        raise RecordError("the record names no ruleset (the game was not made by Rules.new_game): "
                          "pass the rules, rulesdsl.replay(record, rules)")
    return load(record["ruleset"], overrides=record["overrides"], allow_paths=allow_paths)
