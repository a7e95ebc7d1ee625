"""The pygls server: each open document is checked on open and on every change, and the features
answer from that check.  Run it with ``rulesdsl lsp`` (standard input and output)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional, Sequence

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .completion import complete
from .definition import definition
from .diagnostics import to_lsp
from .document import Analysis, analyse
from .hover import hover_text

_KINDS = {"key": types.CompletionItemKind.Property, "param": types.CompletionItemKind.Variable,
          "word": types.CompletionItemKind.EnumMember, "zone": types.CompletionItemKind.Field,
          "function": types.CompletionItemKind.Function, "name": types.CompletionItemKind.Variable,
          "file": types.CompletionItemKind.File}


class RulesServer(LanguageServer):
    """Keeps the last check of every open document (its names serve completion while the text is
    half typed) and the ``--allow-path`` folders ``extends`` may reach."""

    def __init__(self, allow_paths: Sequence[str] = ()):
        from .. import __version__

        super().__init__("rulesdsl", __version__)
        self.allow_paths = tuple(allow_paths)
        self.checked: dict[str, Analysis] = {}

    def check(self, uri: str) -> Analysis:
        doc = self.workspace.get_text_document(uri)
        a = analyse(_path(uri, doc.language_id), doc.source, self.allow_paths, self.checked.get(uri))
        self.checked[uri] = a
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=to_lsp(a),
                                                                             version=doc.version))
        return a

    def current(self, uri: str) -> Analysis:
        """The check of the document's current text (checked again if it changed since)."""
        a = self.checked.get(uri)
        doc = self.workspace.get_text_document(uri)
        return a if a is not None and a.text == doc.source else self.check(uri)


def _path(uri: str, language_id: Optional[str]) -> Path:
    """The file a document is (an unsaved, untitled one: a file of its language in the working folder)."""
    fs = to_fs_path(uri)
    if fs and uri.startswith("file:"):
        return Path(fs)
    return Path.cwd() / ("untitled.rules" if language_id == "rules" else "untitled.yaml")


def build(allow_paths: Sequence[str] = ()) -> RulesServer:
    server = RulesServer(allow_paths)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulesServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.check(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RulesServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.check(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulesServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.checked.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                            diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: RulesServer, params: types.HoverParams) -> Optional[types.Hover]:
        p = params.position
        found = hover_text(ls.current(params.text_document.uri), p.line, p.character)
        if found is None:
            return None
        text, start, end = found
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text),
                           types.Range(types.Position(p.line, start), types.Position(p.line, end)))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=[".", ":", "=", " "]))
    def completion(ls: RulesServer, params: types.CompletionParams) -> types.CompletionList:
        p = params.position
        items = complete(ls.current(params.text_document.uri), p.line, p.character)
        return types.CompletionList(is_incomplete=False, items=[
            types.CompletionItem(i.label, kind=_KINDS.get(i.kind),
                                 documentation=types.MarkupContent(types.MarkupKind.Markdown, i.doc) if i.doc else None)
            for i in items])

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def goto(ls: RulesServer, params: types.DefinitionParams) -> Optional[types.Location]:
        p = params.position
        found = definition(ls.current(params.text_document.uri), p.line, p.character)
        if found is None:
            return None
        path, line, char = found
        here = types.Position(line, char)
        return types.Location(from_fs_path(str(path.resolve())) or path.resolve().as_uri(), types.Range(here, here))

    return server


def serve(allow_paths: Sequence[str] = ()) -> None:
    build(allow_paths).start_io()
