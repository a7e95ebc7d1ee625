"""The pygls server: each open document is checked on open and after its edits, and the features
answer from that check.  Run it with ``rulesdsl lsp`` (standard input and output).

What a client may make it do is bounded: only documents the client opened are read (a request naming
any other file answers null, and nothing is read from disk), a burst of edits is checked once, at its
newest version, and a request whose parameters are not of the protocol (a position at line -1) gets
an ``InvalidParams`` error reply instead of none."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any, Optional, Sequence

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
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


#: seconds the server waits after an edit for the next one before checking (a burst is checked once)
SETTLE = 0.05


class _Dropped:
    """A message already answered while it was read (its parameters were not of the protocol)."""

    jsonrpc = "answered"

    def __repr__(self) -> str:
        return "(a request answered with InvalidParams)"


def _not_unreadable(record: logging.LogRecord) -> bool:
    """pygls logs a request it cannot read with its traceback; ``_Protocol`` answers it instead."""
    return not str(record.msg).startswith("Unable to deserialize message")


logging.getLogger("pygls.protocol.json_rpc").addFilter(_not_unreadable)


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, answering a request it cannot read with ``InvalidParams`` (pygls itself only
    logs it, so the client would wait for a reply forever)."""

    def structure_message(self, data: dict) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcInvalidParams as exc:
            if isinstance(data, dict) and "id" in data and "method" in data:
                self._send_response(data["id"], error=exc.to_response_error())
            return _Dropped()


class RulesServer(LanguageServer):
    """Keeps the last check of every open document (its names serve completion while the text is
    half typed) and the ``--allow-path`` folders ``extends`` may reach."""

    def __init__(self, allow_paths: Sequence[str] = ()):
        from .. import __version__

        super().__init__("rulesdsl", __version__, protocol_cls=_Protocol)
        self.allow_paths = tuple(allow_paths)
        self.checked: dict[str, Analysis] = {}
        self.newest: dict[str, int] = {}          # uri -> the newest version an edit announced

    def is_open(self, uri: str) -> bool:
        """The client opened this document (the only ones the server reads: never a file on disk)."""
        from urllib.parse import unquote

        return unquote(uri) in self.workspace.text_documents

    def check(self, uri: str) -> Analysis:
        doc = self.workspace.get_text_document(uri)
        a = analyse(_path(uri, doc.language_id), doc.source, self.allow_paths, self.checked.get(uri))
        self.checked[uri] = a
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=to_lsp(a),
                                                                             version=doc.version))
        return a

    def current(self, uri: str) -> Optional[Analysis]:
        """The check of the document's current text (checked again if it changed since); None for a
        document the client has not opened."""
        if not self.is_open(uri):
            return None
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
    async def did_change(ls: RulesServer, params: types.DidChangeTextDocumentParams) -> None:
        uri, version = params.text_document.uri, params.text_document.version
        ls.newest[uri] = version
        await asyncio.sleep(SETTLE)                  # edits still on their way are applied meanwhile
        if ls.newest.get(uri) == version and ls.is_open(uri):
            ls.check(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulesServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.checked.pop(params.text_document.uri, None)
        ls.newest.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                            diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: RulesServer, params: types.HoverParams) -> Optional[types.Hover]:
        p = params.position
        a = ls.current(params.text_document.uri)
        found = hover_text(a, p.line, p.character) if a is not None else None
        if found is None:
            return None
        text, start, end = found
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text),
                           types.Range(types.Position(p.line, start), types.Position(p.line, end)))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=[".", ":", "=", " "]))
    def completion(ls: RulesServer, params: types.CompletionParams) -> Optional[types.CompletionList]:
        p = params.position
        a = ls.current(params.text_document.uri)
        if a is None:
            return None
        items = complete(a, p.line, p.character)
        return types.CompletionList(is_incomplete=False, items=[
            types.CompletionItem(i.label, kind=_KINDS.get(i.kind),
                                 documentation=types.MarkupContent(types.MarkupKind.Markdown, i.doc) if i.doc else None)
            for i in items])

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def goto(ls: RulesServer, params: types.DefinitionParams) -> Optional[types.Location]:
        p = params.position
        a = ls.current(params.text_document.uri)
        found = definition(a, p.line, p.character) if a is not None else None
        if found is None:
            return None
        path, line, char = found
        here = types.Position(line, char)
        return types.Location(from_fs_path(str(path.resolve())) or path.resolve().as_uri(), types.Range(here, here))

    return server


def serve(allow_paths: Sequence[str] = ()) -> None:
    build(allow_paths).start_io()
