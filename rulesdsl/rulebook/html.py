"""The rulebook as one self-contained HTML page: inline CSS, no scripts, no external resources.

Why XHTML-style output (``<meta ... />``, every element closed): the page parses as XML too, so a test
can check that it is well formed, and every piece of text goes through ``html.escape`` in one place.
"""

from __future__ import annotations

import html
import re

from .document import Bullets, Code, Document, Para, Section, Table

STYLE = """
body { font: 16px/1.5 Georgia, 'Times New Roman', serif; max-width: 46em; margin: 2em auto; padding: 0 1em;
       color: #222; background: #fdfcf8; }
h1 { font-size: 2em; border-bottom: 2px solid #8a6d3b; padding-bottom: .2em; }
h2 { font-size: 1.4em; margin-top: 1.6em; color: #5a4520; }
h3, h4 { font-size: 1.1em; margin-top: 1.2em; }
code { font: .9em/1.2 Menlo, Consolas, monospace; background: #f1ece0; padding: 0 .2em; border-radius: 3px; }
table { border-collapse: collapse; margin: .6em 0; }
th, td { border: 1px solid #d8cfbd; padding: .2em .6em; text-align: left; vertical-align: top; }
th { background: #f1ece0; }
li { margin: .2em 0; }
nav ol { columns: 2; }
"""


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def inline(pieces: tuple) -> str:
    return "".join(f"<code>{esc(p.text)}</code>" if isinstance(p, Code) else esc(p) for p in pieces)


def anchor(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "section"


def render(doc: Document) -> str:
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8" />',
             f"<title>{esc(doc.title)}</title>", f"<style>{STYLE}</style>", "</head>", "<body>",
             f"<h1>{esc(doc.title)}</h1>"]
    for b in doc.intro:
        parts += _block(b, 2)
    parts.append("<nav><ol>" + "".join(f'<li><a href="#{anchor(s.title)}">{esc(s.title)}</a></li>'
                                       for s in doc.sections) + "</ol></nav>")
    for s in doc.sections:
        parts += _block(s, 2)
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _block(b, level: int) -> list:
    if isinstance(b, Section):
        h = min(level, 6)
        ident = f' id="{anchor(b.title)}"' if level == 2 else ""
        out = [f"<section{ident}>", f"<h{h}>{esc(b.title)}</h{h}>"]
        for x in b.blocks:
            out += _block(x, level + 1)
        return out + ["</section>"]
    if isinstance(b, Para):
        return [f"<p>{inline(b.text)}</p>"] if b.text else []
    if isinstance(b, Bullets):
        return [_list(b)]
    if isinstance(b, Table):
        return [_table(b)]
    raise TypeError(type(b).__name__)


def _list(b: Bullets) -> str:
    tag = "ol" if b.ordered else "ul"
    items = "".join(f"<li>{inline(i.text)}{_list(Bullets(i.sub)) if i.sub else ''}</li>" for i in b.items)
    return f"<{tag}>{items}</{tag}>"


def _table(t: Table) -> str:
    head = "".join(f"<th>{esc(h)}</th>" for h in t.header)
    rows = "".join("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in row) + "</tr>" for row in t.rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
