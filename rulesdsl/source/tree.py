"""The raw tree: what both surface syntaxes (YAML and the DSL) read into.

A ruleset source is a tree of three node kinds, each remembering where it was written:

* ``Map``    -- ordered key -> node mapping (keys are plain ``str``; ``key_pos[key]`` is where the
                key itself was written, for "unknown key" diagnostics);
* ``Seq``    -- ordered list of nodes;
* ``Scalar`` -- a leaf holding ``None``, ``bool``, ``int``, ``float`` or ``str``.

Expressions are *not* parsed here: an expression is a ``str`` scalar, and the model layer parses it
where the schema says a field holds an expression.  That keeps the two syntaxes honest: a YAML file
and a DSL file that mean the same thing give equal trees (``==`` ignores positions), and so the same
model.

``Pos`` records the file, 1-based line and column.  ``Scalar.text_offset`` is the column shift from the
node's position to the first character of the scalar's text (1 for a quoted YAML scalar), and
``Scalar.spans`` maps the text of a multi-line or escaped YAML scalar back to its lines and columns
(``Scalar.locate``), so errors inside an expression can point at the exact character.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Any, Iterator, Optional, Union


@dataclass(frozen=True)
class Pos:
    """A place in a source file (1-based line and column)."""

    path: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"

    def shifted(self, chars: int) -> "Pos":
        """The position ``chars`` characters further along the same line."""
        return Pos(self.path, self.line, self.col + chars)


UNKNOWN = Pos("<unknown>", 0, 0)


class Node:
    """Base of the raw tree nodes.  ``pos`` is where the node was written."""

    __slots__ = ("pos",)
    pos: Pos

    def plain(self) -> Any:
        """The node as plain Python data (dict / list / scalar), positions dropped."""
        raise NotImplementedError


class Scalar(Node):
    __slots__ = ("value", "text_offset", "spans")

    def __init__(self, value: Union[None, bool, int, float, str], pos: Pos = UNKNOWN, text_offset: int = 0,
                 spans: Optional[tuple[tuple[int, int, int], ...]] = None):
        self.value = value
        self.pos = pos
        self.text_offset = text_offset
        self.spans = spans

    def locate(self, offset: int) -> Pos:
        """Where the character at ``offset`` of this scalar's text was written.

        Without ``spans`` the text is taken as written verbatim from ``pos`` (plus ``text_offset`` on its
        first line), as a DSL expression or a one-line YAML scalar is.  A YAML scalar whose text differs
        from its source (folded or literal block, multi-line plain or quoted scalar, escapes) carries
        ``spans``: sorted ``(text offset, line, column)`` runs, each mapping characters one to one."""
        offset = max(0, offset)
        spans = self.spans
        if spans:
            i = bisect_right(spans, (offset, 1 << 62, 0)) - 1
            start, line, col = spans[max(i, 0)]
            return Pos(self.pos.path, line, col + max(0, offset - start))
        text = self.value if isinstance(self.value, str) else ""
        newline = text.rfind("\n", 0, offset)
        if newline < 0:
            return self.pos.shifted(self.text_offset + offset)
        return Pos(self.pos.path, self.pos.line + text.count("\n", 0, offset), offset - newline)

    def plain(self) -> Any:
        return self.value

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Scalar) and type(self.value) is type(other.value)
                and self.value == other.value)

    def __hash__(self) -> int:
        return hash((type(self.value).__name__, self.value))

    def __repr__(self) -> str:
        return f"Scalar({self.value!r})"


class Seq(Node):
    __slots__ = ("items",)

    def __init__(self, items: list[Node], pos: Pos = UNKNOWN):
        self.items = items
        self.pos = pos

    def __iter__(self) -> Iterator[Node]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def plain(self) -> Any:
        return [n.plain() for n in self.items]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Seq) and self.items == other.items

    def __repr__(self) -> str:
        return f"Seq({self.items!r})"


class Map(Node):
    __slots__ = ("entries", "key_pos")

    def __init__(self, entries: dict[str, Node] | None = None, pos: Pos = UNKNOWN,
                 key_pos: dict[str, Pos] | None = None):
        self.entries = dict(entries or {})
        self.pos = pos
        self.key_pos = dict(key_pos or {})

    def __contains__(self, key: str) -> bool:
        return key in self.entries

    def __getitem__(self, key: str) -> Node:
        return self.entries[key]

    def get(self, key: str, default: Node | None = None) -> Node | None:
        return self.entries.get(key, default)

    def items(self):
        return self.entries.items()

    def keys(self):
        return self.entries.keys()

    def __len__(self) -> int:
        return len(self.entries)

    def where(self, key: str) -> Pos:
        """Where ``key`` was written (falls back to the map's own position)."""
        return self.key_pos.get(key) or self.pos

    def plain(self) -> Any:
        return {k: v.plain() for k, v in self.entries.items()}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Map) and list(self.entries.items()) == list(other.entries.items())

    def __repr__(self) -> str:
        return f"Map({self.entries!r})"


def describe(node: Node) -> str:
    """What kind of value a node holds, in words for messages ("a number", "a list", ...)."""
    if isinstance(node, Map):
        return "a mapping"
    if isinstance(node, Seq):
        return "a list"
    v = node.value
    if v is None:
        return "nothing (null)"
    if isinstance(v, bool):
        return "true or false"
    if isinstance(v, (int, float)):
        return "a number"
    return f"the text `{v}`"


def from_plain(data: Any, pos: Pos = UNKNOWN) -> Node:
    """Build a tree from plain Python data (used for overrides given in code or on the CLI)."""
    if isinstance(data, Node):
        return data
    if isinstance(data, dict):
        return Map({str(k): from_plain(v, pos) for k, v in data.items()}, pos,
                   {str(k): pos for k in data})
    if isinstance(data, (list, tuple)):
        return Seq([from_plain(v, pos) for v in data], pos)
    if data is None or isinstance(data, (bool, int, float, str)):
        return Scalar(data, pos)
    raise TypeError(f"cannot put {type(data).__name__} into a ruleset tree")
