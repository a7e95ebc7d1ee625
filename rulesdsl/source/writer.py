"""Write a raw tree back out as YAML or as the ``.rules`` DSL (pretty, deterministic, exact).

Why hand-written emitters: a ruleset converted between the two syntaxes must read back as the *same*
tree (``read_yaml(to_yaml(t)) == t``, ``read_dsl(to_dsl(t)) == t``), under our own YAML schema and our
own grammar.  ``yaml.dump`` follows YAML 1.1 (``1e+20`` floats, folded lines) and knows nothing of the
DSL, so each emitter here quotes exactly when the bare form would be read back differently.

* Floats are written in positional notation with a dot (``1e20`` -> ``100000000000000000000.0``), since
  neither syntax reads exponents as numbers; NaN and infinities cannot be written (ValueError).
* In the DSL a string is written bare when it is a name or an expression text that reads back as the
  same text; otherwise it is a quoted string.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal

from .grammar import (CARDKEY_RE, SIGNED_NUMBER_RE, UnexpectedInput, is_literal, is_name,
                      parse_expr_exact, quote_string, span)
from .tree import Map, Node, Scalar, Seq

INDENT = "  "


def float_text(value: float) -> str:
    """Shortest exact positional text of a finite float, always with a dot (``-0.0``, ``1.5``)."""
    if not math.isfinite(value):
        raise ValueError(f"cannot write {value!r}: rulesets hold finite numbers only")
    text = format(Decimal(repr(value)), "f")
    return text if "." in text else text + ".0"


# ------------------------------------------------------------------------------------------ YAML
_YAML_PLAIN = re.compile(r"(?:[A-Za-z0-9_(]|[-+.][A-Za-z0-9_(])[ -~]*\Z")


def _yaml_plain_syntax_ok(text: str) -> bool:
    """True if ``text`` can be a single-line plain scalar in block context (ASCII, no indicators)."""
    return (bool(_YAML_PLAIN.match(text)) and ": " not in text and " #" not in text
            and not text.endswith((":", " ")))


def _yaml_reads_as_str(text: str) -> bool:
    """True if a plain ``text`` is a string for our reader *and* for YAML 1.1 tools (no `yes`, `0x10`)."""
    from yaml.nodes import ScalarNode
    from yaml.resolver import Resolver

    from .yaml_reader import resolve_plain

    try:
        if not isinstance(resolve_plain(text), str):
            return False
    except ValueError:
        return False
    return Resolver().resolve(ScalarNode, text, (True, False)) == "tag:yaml.org,2002:str"


def _yaml_quote(text: str) -> str:
    """A double-quoted YAML scalar; escapes everything that is not plainly printable on one line."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif code < 0x20 or 0x7F <= code <= 0xA0 or code in (0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF) \
                or 0xD800 <= code <= 0xDFFF \
                or 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069 or code in (0x061C, 0x200E, 0x200F):  # bidi
            out.append(f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _yaml_scalar(value) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return float_text(value)
    if isinstance(value, str):
        plain = _yaml_plain_syntax_ok(value) and _yaml_reads_as_str(value)
        return value if plain else _yaml_quote(value)
    raise TypeError(f"cannot write {type(value).__name__} in a ruleset")


def _yaml_key(key: str) -> str:
    # Keys are read as the text written, so only the syntax matters (and `<<` would be a merge key).
    return key if _yaml_plain_syntax_ok(key) else _yaml_quote(key)


def _yaml_inline(node: Node) -> str | None:
    """The one-line form of a scalar or an empty collection, else None."""
    if isinstance(node, Scalar):
        return _yaml_scalar(node.value)
    if isinstance(node, Map) and not node.entries:
        return "{}"
    if isinstance(node, Seq) and not node.items:
        return "[]"
    return None


def _yaml_lines(node: Node) -> list[str]:
    inline = _yaml_inline(node)
    if inline is not None:
        return [inline]
    lines: list[str] = []
    if isinstance(node, Map):
        for key, value in node.entries.items():
            key_text = _yaml_key(key)
            if len(key_text) > 1000:          # YAML limits implicit keys to 1024 characters
                lines.append(f"? {key_text}")
                key_text = ""
            inline = _yaml_inline(value)
            if inline is not None:
                lines.append(f"{key_text}: {inline}")
            else:
                lines.append(f"{key_text}:")
                lines.extend(INDENT + line for line in _yaml_lines(value))
        return lines
    if isinstance(node, Seq):
        for item in node.items:
            sub = _yaml_lines(item)
            lines.append("- " + sub[0])
            lines.extend(INDENT + line for line in sub[1:])
        return lines
    raise TypeError(f"not a ruleset tree node: {node!r}")


def to_yaml(node: Node) -> str:
    """The YAML text of ``node`` (block style, two-space indent, one trailing newline)."""
    return "\n".join(_yaml_lines(node)) + "\n"


# ------------------------------------------------------------------------------------------ DSL
def _dsl_expression_ok(text: str) -> bool:
    """True if ``text`` written bare as a DSL value reads back as the same expression text."""
    try:
        tree = parse_expr_exact(text)
    except UnexpectedInput:   # includes NestingTooDeep: any parse failure means "quote it"
        return False
    if is_literal(tree) or tree.data in ("name", "list"):
        return False
    return span(tree) == (0, len(text))


def _dsl_str(text: str) -> str:
    return text if is_name(text) or _dsl_expression_ok(text) else quote_string(text)


def _dsl_scalar(value) -> str:
    if value is None:
        return "none"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return float_text(value)
    if isinstance(value, str):
        return _dsl_str(value)
    raise TypeError(f"cannot write {type(value).__name__} in a ruleset")


_HEADING_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\(([A-Za-z_][A-Za-z0-9_]*(?:, [A-Za-z_][A-Za-z0-9_]*)*)?\)\Z")


def _is_heading(key: str) -> bool:
    """True if ``key`` is a derived function's heading as the DSL reader writes it: ``name(a, b)``."""
    m = _HEADING_RE.match(key)
    return m is not None and all(is_name(w) for w in [m.group(1)] + (m.group(2) or "").split(", ") if w)


def _dsl_key(key: str) -> str:
    bare = is_name(key) or CARDKEY_RE.match(key) or SIGNED_NUMBER_RE.match(key) or _is_heading(key)
    return key if bare else quote_string(key)


def _dsl_inline(node: Node) -> str | None:
    """The one-line form of a scalar, an empty block, or a short list of such, else None."""
    if isinstance(node, Scalar):
        return _dsl_scalar(node.value)
    if isinstance(node, Map):
        return None if node.entries else "{}"
    if isinstance(node, Seq):
        texts = [_dsl_inline(i) for i in node.items]
        if any(t is None or "\n" in t for t in texts):
            return None
        text = "[" + ", ".join(texts) + "]"   # type: ignore[arg-type]
        return text if len(text) <= 80 else None
    raise TypeError(f"not a ruleset tree node: {node!r}")


def _dsl_value(node: Node, indent: str) -> str:
    """The text of a value starting mid-line; continuation lines carry ``indent``."""
    inline = _dsl_inline(node)
    if inline is not None:
        return inline
    inner = indent + INDENT
    if isinstance(node, Map):
        return "{\n" + "\n".join(_dsl_entries(node, inner)) + "\n" + indent + "}"
    assert isinstance(node, Seq)
    items = [inner + _dsl_value(i, inner) + "," for i in node.items]
    return "[\n" + "\n".join(items) + "\n" + indent + "]"


def _dsl_entries(node: Map, indent: str) -> list[str]:
    lines = []
    for key, value in node.entries.items():
        if isinstance(value, Map):
            lines.append(f"{indent}{_dsl_key(key)} {_dsl_value(value, indent)}")
        else:
            lines.append(f"{indent}{_dsl_key(key)} = {_dsl_value(value, indent)}")
    return lines


def to_dsl(node: Node) -> str:
    """The ``.rules`` text of ``node``, which must be a ``Map`` (a DSL file is a mapping)."""
    if not isinstance(node, Map):
        raise TypeError("a .rules document is a mapping at the top level")
    lines = _dsl_entries(node, "")
    return "\n".join(lines) + "\n" if lines else ""
