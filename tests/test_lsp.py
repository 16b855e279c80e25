"""``rulepack lsp``, driven over stdio by pygls' language client, as an editor would.

One server process serves every test of the module. Positions are found in the
texts here (never typed in by hand), and what the server answers is checked
against the ruleset itself: the range of a misspelt word, the zones it declares,
the line of a declaration, the reference's text of a built-in.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from rulepack.loader import bundled_dir  # noqa: E402

pytestmark = pytest.mark.lsp

ROOT = Path(__file__).resolve().parent.parent
MULTZO = (bundled_dir() / "multzo.rules").read_text(encoding="utf-8")
START = [sys.executable, "-c", "from rulepack.cli.main import main; main()", "lsp"]


def where(text: str, snippet: str, into: int = 0) -> tuple[int, int]:
    """(line, character), 0-based, of ``into`` characters into the first ``snippet``."""
    at = text.index(snippet) + into
    line = text.count("\n", 0, at)
    return line, at - (text.rfind("\n", 0, at) + 1)


class Session:
    """A client, its server process and a loop to run requests on."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.client = LanguageClient("rulepack-test", "1")
        self.diagnostics: dict[str, list[types.Diagnostic]] = {}
        self.published: dict[str, asyncio.Event] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            self.diagnostics[params.uri] = list(params.diagnostics)
            self.published.setdefault(params.uri, asyncio.Event()).set()

        self.run(self.client.start_io(*START))
        self.run(self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=ROOT.as_uri())))
        self.client.initialized(types.InitializedParams())

    def run(self, coroutine):
        return self.loop.run_until_complete(asyncio.wait_for(coroutine, 60))

    def open(self, name: str, text: str) -> str:
        """Open a document and wait for its diagnostics; its URI."""
        uri = (ROOT / "tests" / "lsp" / name).as_uri()
        self.published[uri] = asyncio.Event()
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="rules", version=1,
                                                 text=text)))
        self.run(self.published[uri].wait())
        return uri

    def change(self, uri: str, text: str, version: int) -> None:
        self.published[uri] = asyncio.Event()
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
        self.run(self.published[uri].wait())

    def close(self) -> None:
        self.run(self.client.shutdown_async(None))
        self.client.exit(None)
        self.run(self.client.stop())
        self.loop.close()


@pytest.fixture(scope="module")
def lsp():
    session = Session()
    yield session
    session.close()


def position(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def test_a_valid_ruleset_has_no_diagnostics(lsp):
    uri = lsp.open("multzo.rules", MULTZO)
    assert lsp.diagnostics[uri] == []


def test_a_misspelt_statement_gets_a_diagnostic_on_the_word(lsp):
    text = MULTZO.replace("  shuffle stack\n", "  shufle stack\n")
    uri = lsp.open("typo.rules", text)
    [diagnostic] = lsp.diagnostics[uri]
    line, character = where(text, "shufle stack")
    assert diagnostic.range.start == position(line, character)
    assert diagnostic.range.end == position(line, character + len("shufle"))
    assert "unknown word 'shufle'; did you mean 'shuffle'?" in diagnostic.message
    assert diagnostic.severity == types.DiagnosticSeverity.Error


def test_two_broken_declarations_give_two_diagnostics_and_an_unknown_zone_one(lsp):
    text = MULTZO.replace("zone stack: stack", "zone stack stack") \
        .replace("  shuffle stack\n", "  shufle stack\n")
    uri = lsp.open("two.rules", text)
    ranges = [(d.range.start.line, d.range.start.character) for d in lsp.diagnostics[uri]]
    assert ranges == [where(text, "stack stack", 6), where(text, "shufle")]
    # a mistake only compiling finds, as validate reports it
    text = MULTZO.replace("move tile to stack face down", "move tile to stak face down")
    uri = lsp.open("zone.rules", text)
    [diagnostic] = lsp.diagnostics[uri]
    line, character = where(text, "stak face")
    assert diagnostic.range == types.Range(start=position(line, character),
                                           end=position(line, character + 4))
    assert "stak" in diagnostic.message


def test_a_warning_is_published_as_a_warning(lsp):
    text = MULTZO.replace("var declarer = none", "var unused_thing = 0\nvar declarer = none")
    uri = lsp.open("warning.rules", text)
    [diagnostic] = lsp.diagnostics[uri]
    assert diagnostic.severity == types.DiagnosticSeverity.Warning
    assert "'unused_thing' is never used" in diagnostic.message
    assert diagnostic.range.start == position(*where(text, "var unused_thing"))


def test_completion_after_move_top_of_offers_the_zones_first(lsp):
    uri = lsp.open("complete.rules", MULTZO)
    typed = MULTZO.replace("  shuffle stack\n", "  shuffle stack\n  move top of \n")
    lsp.change(uri, typed, 2)
    line, character = where(typed, "move top of \n", len("move top of "))
    result = lsp.run(lsp.client.text_document_completion_async(types.CompletionParams(
        text_document=doc(uri), position=position(line, character))))
    items = sorted(result.items, key=lambda i: i.sort_text)
    zones = ["stack", "discards", "hand", "coins", "multiplier", "won"]
    assert [i.label for i in items[:len(zones)]] == zones
    assert all(i.kind == types.CompletionItemKind.Folder for i in items[:len(zones)])


def test_completion_after_where_offers_the_components_attributes_and_values(lsp):
    uri = lsp.open("where.rules", MULTZO)
    typed = MULTZO.replace("  shuffle stack\n", "  shuffle stack\n  let x = coin where \n")
    lsp.change(uri, typed, 2)
    line, character = where(typed, "coin where \n", len("coin where "))
    result = lsp.run(lsp.client.text_document_completion_async(types.CompletionParams(
        text_document=doc(uri), position=position(line, character))))
    attributes = {i.label for i in result.items if i.kind == types.CompletionItemKind.Field}
    assert {"suit", "rank", "value"} <= attributes
    typed = typed.replace("coin where \n", "coin where suit == \n")
    lsp.change(uri, typed, 3)
    line, character = where(typed, "suit == \n", len("suit == "))
    result = lsp.run(lsp.client.text_document_completion_async(types.CompletionParams(
        text_document=doc(uri), position=position(line, character))))
    values = [i.label for i in result.items if i.kind == types.CompletionItemKind.EnumMember]
    assert sorted(values) == ["arms", "crowns", "moons", "suns"]


def test_completion_offers_built_in_functions_with_their_signatures(lsp):
    uri = lsp.open("functions.rules", MULTZO)
    line, character = where(MULTZO, "count(stack) > 0")
    result = lsp.run(lsp.client.text_document_completion_async(types.CompletionParams(
        text_document=doc(uri), position=position(line, character))))
    count = next(i for i in result.items if i.label == "count")
    assert count.detail == "count(X)"
    assert count.kind == types.CompletionItemKind.Function


def test_hover_on_a_built_in_shows_the_reference(lsp):
    uri = lsp.open("hover.rules", MULTZO)
    line, character = where(MULTZO, "count(stack)", 2)
    result = lsp.run(lsp.client.text_document_hover_async(types.HoverParams(
        text_document=doc(uri), position=position(line, character))))
    language = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    row = next(r for r in language.splitlines() if r.startswith("| `count(X)` |"))
    assert row.split(" | ")[1].rstrip(" |") in result.contents.value
    # a statement: its section of the reference
    line, character = where(MULTZO, "shuffle stack", 1)
    result = lsp.run(lsp.client.text_document_hover_async(types.HoverParams(
        text_document=doc(uri), position=position(line, character))))
    assert "shuffle ZONE" in result.contents.value


def test_hover_on_a_name_shows_its_declaration_and_doc_comment(lsp):
    uri = lsp.open("hover-name.rules", MULTZO)
    line, character = where(MULTZO, "set declarer = current", 5)
    result = lsp.run(lsp.client.text_document_hover_async(types.HoverParams(
        text_document=doc(uri), position=position(line, character))))
    assert "var declarer = none" in result.contents.value
    assert "who discarded face down this round (ruling M5)" in result.contents.value


def test_go_to_definition_lands_on_the_declaration(lsp):
    uri = lsp.open("definition.rules", MULTZO)
    line, character = where(MULTZO, "move top 4 of stack", len("move top 4 of "))
    result = lsp.run(lsp.client.text_document_definition_async(types.DefinitionParams(
        text_document=doc(uri), position=position(line, character))))
    line, character = where(MULTZO, "zone stack: stack", len("zone "))
    assert result.uri == uri
    assert result.range == types.Range(start=position(line, character),
                                       end=position(line, character + len("stack")))


def test_references_and_rename_cover_every_use_of_a_name(lsp):
    uri = lsp.open("rename.rules", MULTZO)
    line, character = where(MULTZO, "var declarer", len("var "))
    found = lsp.run(lsp.client.text_document_references_async(types.ReferenceParams(
        text_document=doc(uri), position=position(line, character),
        context=types.ReferenceContext(include_declaration=True))))
    import re
    expected = [(i, m.start()) for i, text in enumerate(MULTZO.split("\n"))
                for m in re.finditer(r"\bdeclarer\b", text.split("#")[0])]
    assert sorted((r.range.start.line, r.range.start.character) for r in found) == expected
    edit = lsp.run(lsp.client.text_document_rename_async(types.RenameParams(
        text_document=doc(uri), position=position(line, character), new_name="closer")))
    assert len(edit.changes[uri]) == len(expected)


def test_document_symbols_outline_the_ruleset(lsp):
    uri = lsp.open("outline.rules", MULTZO)
    symbols = lsp.run(lsp.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(uri))))
    names = [s.name for s in symbols]
    assert names[:2] == ["language", "multzo"]      # 'language 1', then the game
    assert ["stack", "discards", "hand", "coins", "multiplier", "won"] == \
        [s.name for s in symbols if s.kind == types.SymbolKind.Array]
    assert ["deal", "turns", "showdown"] == \
        [s.name for s in symbols if s.kind == types.SymbolKind.Method and s.name != "play"]
    turns = next(s for s in symbols if s.name == "turns")
    assert "draw the top tile of the stack" in [c.name for c in turns.children]




def _framed(obj: dict) -> bytes:
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _messages(out: bytes) -> list[dict]:
    found = []
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
        found.append(json.loads(rest[:length]))
        out = rest[length:]
    return found


def test_a_message_too_long_to_read_is_skipped_and_the_server_stays_up():
    """``Content-Length: 99999999999`` made the server allocate 100 GB and die of a
    MemoryError; a header line without end was read whole. Now the client is told,
    and the next messages are answered."""
    process = subprocess.Popen(START, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    data = (b"Content-Length: 99999999999\r\n\r\n" + b"X" * 200_000 + b"\r\n"
            + _framed({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                       "params": {"capabilities": {}}})
            + _framed({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
            + _framed({"jsonrpc": "2.0", "method": "exit"}))
    out, err = process.communicate(data, timeout=60)
    assert process.returncode == 0 and b"Traceback" not in err, err
    messages = _messages(out)
    shown = [m["params"]["message"] for m in messages if m.get("method") == "window/showMessage"]
    assert shown == ["rulepack lsp: a message of 99999999999 bytes was announced, more than "
                     "the server reads (64000000 bytes); it was skipped"]
    answered = {m["id"]: m for m in messages if "id" in m}
    assert answered[1]["result"]["serverInfo"]["name"] == "rulepack" and 2 in answered


def test_a_value_of_the_wrong_kind_is_reported_as_you_type(lsp):
    """The type check runs on every change: a number added to a tile's suit (a
    word) is an error at the operator, gone again when the edit is undone."""
    good = "score(p) = sum(won[p].value) * (1 + count(won[p] where rank == null))"
    bad = "score(p) = sum(won[p].value) * (1 + count(won[p] where suit + 1 == null))"
    uri = lsp.open("kinds.rules", MULTZO)
    assert lsp.diagnostics[uri] == []
    text = MULTZO.replace(good, bad)
    lsp.change(uri, text, 2)
    [diagnostic] = lsp.diagnostics[uri]
    line, character = where(text, "suit + 1")
    assert diagnostic.range.start == position(line, character)
    assert diagnostic.message.startswith("cannot add a word") and "and a number" in \
        diagnostic.message
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    lsp.change(uri, MULTZO, 3)
    assert lsp.diagnostics[uri] == []


def test_hover_on_a_name_shows_the_kind_the_type_check_infers(lsp):
    """Issue 34: hovering a name bound by a let (or a declared variable) shows its
    kind, as ``rulepack explain --types`` does."""
    uri = lsp.open("hover-kind.rules", MULTZO)
    line, character = where(MULTZO, "let w = best_hands[0]", len("let w = "))
    result = lsp.run(lsp.client.text_document_hover_async(types.HoverParams(
        text_document=doc(uri), position=position(line, character))))
    assert "`best_hands`: a list of players" in result.contents.value
    assert "`best_hands[...]`: a player" in result.contents.value
    line, character = where(MULTZO, "set declarer = current", len("set declarer = "))
    result = lsp.run(lsp.client.text_document_hover_async(types.HoverParams(
        text_document=doc(uri), position=position(line, character))))
    assert "`current`: a player" in result.contents.value
