"""The language server, driven through the protocol: ``python -m rulesdsl.cli.main lsp`` over stdio,
talked to by pygls's own client.  Each test opens a copy of a bundled ruleset in a temporary folder
and waits for the server's answers (diagnostics are awaited by document version, never by sleeping).

Without pygls these tests skip, except under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.errors import RulesetError
from rulesdsl.source.resolve import bundled

if not os.environ.get("CI"):
    pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path, to_fs_path  # noqa: E402

ROOT = Path(rulesdsl.__file__).resolve().parents[1]
TIMEOUT = 60


class Session:
    """A server process and a client; ``diagnostics(uri, version)`` waits for that version's report."""

    def __init__(self) -> None:
        self.client = LanguageClient("rulesdsl-test", "1")
        self.reports: dict[str, types.PublishDiagnosticsParams] = {}
        self.published: list[tuple] = []           # (uri, version) of every report, in order
        self.changed = asyncio.Condition()
        self.versions: dict[str, int] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        async def published(params: types.PublishDiagnosticsParams) -> None:
            async with self.changed:
                self.published.append((params.uri, params.version))
                self.reports[params.uri] = params
                self.changed.notify_all()

    async def start(self, cwd: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
        await self.client.start_io(sys.executable, "-m", "rulesdsl.cli.main", "lsp", env=env, cwd=str(cwd))
        self.stderr = bytearray()
        self.drain = asyncio.ensure_future(self._drain(getattr(self.client, "_server", None)))
        await self.client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities(),
                                                                  root_uri=from_fs_path(str(cwd))))
        self.client.initialized(types.InitializedParams())

    async def _drain(self, process) -> None:
        """Keep reading the server's standard error (a full pipe would stall it); kept for failures."""
        while process is not None and process.stderr is not None:
            chunk = await process.stderr.read(65536)
            if not chunk:
                return
            self.stderr += chunk

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()
        await self.drain
        assert b"Traceback" not in self.stderr, self.stderr.decode(errors="replace")

    def open(self, path: Path, text: str) -> str:
        uri = from_fs_path(str(path))
        self.versions[uri] = 1
        language = "rules" if path.suffix == ".rules" else "yaml"
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)))
        return uri

    def change(self, uri: str, text: str) -> None:
        self.edit(uri, types.TextDocumentContentChangeWholeDocument(text=text))

    def insert(self, uri: str, line: int, char: int, text: str) -> None:
        """An incremental edit, as editors send them: ``text`` inserted at (``line``, ``char``)."""
        at = types.Position(line, char)
        self.edit(uri, types.TextDocumentContentChangePartial(range=types.Range(at, at), text=text))

    def edit(self, uri: str, change) -> None:
        self.versions[uri] += 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]), [change]))

    async def diagnostics(self, uri: str) -> list[types.Diagnostic]:
        """The diagnostics of the document's latest version, once the server has sent them."""
        want = self.versions[uri]

        def ready() -> bool:
            r = self.reports.get(uri)
            return r is not None and r.version == want

        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(ready), TIMEOUT)
        return list(self.reports[uri].diagnostics)

    async def hover(self, uri: str, line: int, char: int) -> str:
        h = await self.client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(uri), types.Position(line, char)))
        assert h is not None, f"no hover at {line}:{char}"
        return h.contents.value

    async def complete(self, uri: str, line: int, char: int) -> list[str]:
        r = await self.client.text_document_completion_async(types.CompletionParams(
            types.TextDocumentIdentifier(uri), types.Position(line, char)))
        items = r.items if isinstance(r, types.CompletionList) else (r or [])
        return [i.label for i in items]

    async def definition(self, uri: str, line: int, char: int) -> types.Location:
        r = await self.client.text_document_definition_async(types.DefinitionParams(
            types.TextDocumentIdentifier(uri), types.Position(line, char)))
        if isinstance(r, list):
            assert len(r) == 1
            r = r[0]
        assert isinstance(r, types.Location), r
        return r


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the module (it starts in seconds on a busy machine); each test works in its own
    folder, with its own documents."""
    loop = asyncio.new_event_loop()
    s = Session()
    loop.run_until_complete(asyncio.wait_for(s.start(tmp_path_factory.mktemp("lsp")), TIMEOUT))
    yield lambda scenario: loop.run_until_complete(asyncio.wait_for(scenario(s), TIMEOUT))
    loop.run_until_complete(asyncio.wait_for(s.stop(), TIMEOUT))
    loop.close()


def where(text: str, needle: str, offset: int = 0) -> tuple[int, int]:
    """The 0-based line and character of ``needle`` (its first occurrence) plus ``offset``."""
    at = text.index(needle) + offset
    return text.count("\n", 0, at), at - (text.rfind("\n", 0, at) + 1)


def gin_copy(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "my_gin.yaml"
    shutil.copy(bundled("gin_rummy"), path)
    return path, path.read_text(encoding="utf-8")


def test_load_checks_text_held_by_an_editor(tmp_path):
    """``load(path, text=...)``: the text is checked as that file's, unsaved, with ``extends`` resolved
    and confined from its folder."""
    (tmp_path / "sub").mkdir()
    rules = rulesdsl.load(str(tmp_path / "sub" / "new.yaml"), text="extends: gin_rummy\nparams: {knock_limit: 5}\n")
    assert rules.params["knock_limit"] == 5
    shutil.copy(bundled("gin_rummy"), tmp_path / "base.yaml")
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load(str(tmp_path / "sub" / "new.rules"), text='extends = "../base.yaml"\n')
    assert [d.code for d in exc.value.diagnostics] == ["E-EXTENDS-PATH"]
    rules = rulesdsl.load(str(tmp_path / "sub" / "new.rules"), text='extends = "../base.yaml"\n',
                          allow_paths=[tmp_path])
    assert rules.name == "Gin Rummy"


def test_diagnostics_as_you_type(server, tmp_path):
    path, text = gin_copy(tmp_path)

    async def scenario(s: Session) -> None:
        uri = s.open(path, text)
        assert await s.diagnostics(uri) == []
        broken = text.replace("  suits: [S, H, D, C]\n", "  suits: [S, H, D, C]\n  suitz: 4\n")
        s.insert(uri, where(text, "  suits: [S, H, D, C]\n")[0] + 1, 0, "  suitz: 4\n")
        [d] = await s.diagnostics(uri)
        line, char = where(broken, "suitz")
        assert (d.code, d.severity) == ("E-UNKNOWN-KEY", types.DiagnosticSeverity.Error)
        assert (d.range.start.line, d.range.start.character, d.range.end.character) == (line, char, char + 5)
        assert "did you mean `suits`" in d.message
        s.change(uri, text)
        assert await s.diagnostics(uri) == []

    server(scenario)


def test_diagnostics_of_a_rules_file_and_a_base_file(server, tmp_path):
    """A ``.rules`` variant: an unknown parameter is located in it; a broken base is reported at its
    ``extends`` line; a bundled name that a local file shadows is a warning there."""
    (tmp_path / "base.yaml").write_text("name: [\n", encoding="utf-8")

    async def scenario(s: Session) -> None:
        uri = s.open(tmp_path / "house.rules", "extends = gin_rummy\nparams { knock_limt = 5 }\n")
        [d] = await s.diagnostics(uri)
        assert (d.code, d.range.start.line, d.range.start.character) == ("E-UNKNOWN-PARAM", 1, 9)
        assert "knock_limit" in d.message
        uri2 = s.open(tmp_path / "other.yaml", "# a house rule\nextends: ./base.yaml\n")
        [d] = await s.diagnostics(uri2)
        assert (d.code, d.range.start.line) == ("E-EXTENDS-INVALID", 1)
        (tmp_path / "gin_rummy.yaml").write_text("name: mine\n", encoding="utf-8")
        uri3 = s.open(tmp_path / "shadow.yaml", "# a house rule\nextends: gin_rummy\n")
        [d] = await s.diagnostics(uri3)     # the bundled one is used; the local file is named
        assert (d.severity, d.range.start.line) == (types.DiagnosticSeverity.Warning, 1)
        assert "./gin_rummy.yaml" in d.message

    server(scenario)


def test_hover_on_a_key_a_builtin_and_a_parameter(server, tmp_path):
    path, text = gin_copy(tmp_path)

    async def scenario(s: Session) -> None:
        uri = s.open(path, text)
        await s.diagnostics(uri)
        assert "rank names from lowest to highest" in await s.hover(uri, *where(text, "ranks:", 1))
        assert "deck.ranks" in await s.hover(uri, *where(text, "ranks:", 1))
        assert "who sees the cards" in await s.hover(uri, *where(text, "discard: {visible", 11))
        line, char = where(text, "deadwood(hand)", 2)
        assert "minimum unmelded value" in await s.hover(uri, line, char)
        shown = await s.hover(uri, *where(text, "params.gin_bonus", 9))
        assert "params.gin_bonus" in shown and "`25`" in shown

    server(scenario)


def test_completion_of_keys_params_zones_and_builtins(server, tmp_path):
    path, text = gin_copy(tmp_path)

    async def scenario(s: Session) -> None:
        uri = s.open(path, text)
        await s.diagnostics(uri)
        typing = text.replace("  suits: [S, H, D, C]\n", "  suits: [S, H, D, C]\n  co\n")
        s.change(uri, typing)
        await s.diagnostics(uri)
        line, _ = where(typing, "\n  co\n", 1)
        keys = await s.complete(uri, line, 4)
        assert {"copies", "jokers", "values"} <= set(keys) and "zones" not in keys
        typing = text.replace("max_score >= params.target_score", "max_score >= params.")
        s.change(uri, typing)
        await s.diagnostics(uri)
        params = await s.complete(uri, *where(typing, "max_score >= params.", len("max_score >= params.")))
        assert {"target_score", "knock_limit", "gin_bonus"} <= set(params)
        line, char = where(text, "{deal: params.hand_size, to: hand}", len("{deal: params.hand_size, to: "))
        zones = await s.complete(uri, line, char)
        assert {"stock", "discard", "hand"} <= set(zones)
        line, char = where(text, "deadwood(hand) > 0")
        in_expr = await s.complete(uri, line, char)
        assert {"deadwood", "value", "next_seat", "stock", "hand", "knock_limit"} <= set(in_expr)
        assert {"none", "top", "all", "owner"} <= set(await s.complete(uri, *where(text, "{visible: top", 10)))

    server(scenario)


def test_definition_from_extends_and_from_a_parameter(server, tmp_path):
    path, text = gin_copy(tmp_path)
    variant = "extends: ./my_gin.yaml\nparams: {knock_limit: 5}\nmatch: {ends_when: max_score >= params.gin_bonus}\n"

    async def scenario(s: Session) -> None:
        uri = s.open(tmp_path / "house.yaml", variant)
        assert await s.diagnostics(uri) == []
        loc = await s.definition(uri, 0, 12)
        assert Path(to_fs_path(loc.uri)).resolve() == path.resolve() and loc.range.start.line == 0
        assert "my_gin.yaml" in await s.hover(uri, 0, 12)
        loc = await s.definition(uri, *where(variant, "params.gin_bonus", 8))
        assert Path(to_fs_path(loc.uri)).resolve() == path.resolve()
        assert loc.range.start.line == where(text, "  gin_bonus:")[0]
        loc = await s.definition(uri, *where(variant, "knock_limit", 2))      # a variant's own setting
        assert Path(to_fs_path(loc.uri)).resolve() == path.resolve()
        assert loc.range.start.line == where(text, "  knock_limit:")[0]
        uri2 = s.open(tmp_path / "bundled_base.yaml", "extends: gin_rummy\n")
        await s.diagnostics(uri2)
        loc = await s.definition(uri2, 0, 12)
        assert Path(to_fs_path(loc.uri)).resolve() == bundled("gin_rummy").resolve()

    server(scenario)


def test_missing_pygls_is_one_line(tmp_path):
    """``rulesdsl lsp`` without pygls: one error line naming the install command, exit 2."""
    import subprocess

    blocker = tmp_path / "block"
    blocker.mkdir()
    (blocker / "pygls").mkdir()
    (blocker / "pygls" / "__init__.py").write_text("raise ImportError('no', name='pygls')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(blocker), str(ROOT)]))
    done = subprocess.run([sys.executable, "-m", "rulesdsl.cli.main", "lsp"], env=env, capture_output=True,
                          text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert done.stderr.strip() == "error: the language server needs pygls: pip install 'rulesdsl[lsp]'"


def test_a_document_the_client_never_opened_is_never_read(server, tmp_path):
    """docs/editors.md: hover, completion and definition on a document the client has not opened answer
    null, and the server reads nothing (pygls would otherwise read it from disk and publish
    diagnostics quoting it)."""
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: hunter2\n")

    async def scenario(s: Session) -> None:
        uri = from_fs_path(str(secret))
        doc = types.TextDocumentIdentifier(uri)
        at = types.Position(0, 3)
        assert await s.client.text_document_hover_async(types.HoverParams(doc, at)) is None
        assert await s.client.text_document_completion_async(types.CompletionParams(doc, at)) is None
        assert await s.client.text_document_definition_async(types.DefinitionParams(doc, at)) is None
        opened = s.open(tmp_path / "open.yaml", "extends: gin_rummy\n")
        await s.diagnostics(opened)                              # later messages have been handled
        assert uri not in s.reports

    server(scenario)


def test_a_burst_of_edits_is_checked_once_at_its_newest_version(server, tmp_path):
    """docs/editors.md: edits that arrive together are checked once, at the newest version (500 edits
    each checked in turn took minutes)."""
    path, text = gin_copy(tmp_path)

    async def scenario(s: Session) -> None:
        uri = s.open(path, text)
        await s.diagnostics(uri)
        before = len(s.published)
        for k in range(60):
            s.change(uri, text + f"# edit {k}\n" + ("  suitz: 4\n" if k == 59 else ""))
        last = await s.diagnostics(uri)
        published = [v for u, v in s.published[before:] if u == uri]
        assert published[-1] == s.versions[uri] and len(published) < 10, published
        assert [d.code for d in last] != []                      # the newest text (a key too many)

    server(scenario)


def test_a_request_whose_parameters_are_not_of_the_protocol_gets_invalid_params(tmp_path):
    """A position such as line -1 or 2^31 is not of the protocol: the reply is InvalidParams, never
    silence (the client would wait forever); a position past the document is null.  Spoken as raw
    JSON-RPC over stdio (a well-behaved client cannot even send such a position)."""
    import json
    import subprocess

    def frame(obj) -> bytes:
        body = json.dumps(obj).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    uri = from_fs_path(str(tmp_path / "doc.yaml"))
    hover = lambda i, line, char: {"jsonrpc": "2.0", "id": i, "method": "textDocument/hover", "params": {  # noqa: E731
        "textDocument": {"uri": uri}, "position": {"line": line, "character": char}}}
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": "extends: gin_rummy\n"}}},
        hover(2, -1, 0), hover(3, 2 ** 31, 0), hover(4, 10 ** 6, 10 ** 6),
        {"jsonrpc": "2.0", "id": 5, "method": "shutdown"}, {"jsonrpc": "2.0", "method": "exit"},
    ]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "rulesdsl.cli.main", "lsp"], input=b"".join(map(frame, messages)),
                          capture_output=True, env=env, timeout=TIMEOUT, cwd=tmp_path)
    replies = {}
    out = done.stdout
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        n = int(next(h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")).split(b":")[1])
        msg = json.loads(rest[:n])
        out = rest[n:]
        if "id" in msg:
            replies[msg["id"]] = msg
    assert replies[2]["error"]["code"] == replies[3]["error"]["code"] == -32602      # InvalidParams
    assert replies[4]["result"] is None and "error" not in replies[4]
    assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")
