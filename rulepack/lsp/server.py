"""``rulepack lsp``: the language server of ``.rules`` files, over stdio (pygls).

Every change of a document is read again (:func:`rulepack.lsp.analysis.analyse`)
and its diagnostics published; the answers to completion, hover, definition,
references, document symbols and rename come from that analysis. While a text
does not parse, completion and the outline use the last analysis that found
declarations, so names stay offered as a line is being typed.
"""

from __future__ import annotations

import json
import sys
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from rulepack import __version__
from rulepack.lsp import analysis as an
from rulepack.printable import printable

_KINDS = {"game": types.SymbolKind.Module, "component": types.SymbolKind.Class,
          "zone": types.SymbolKind.Array, "pattern": types.SymbolKind.Struct,
          "const": types.SymbolKind.Constant, "define": types.SymbolKind.Function,
          "var": types.SymbolKind.Variable, "option": types.SymbolKind.Property,
          "phase": types.SymbolKind.Method, "attribute": types.SymbolKind.Field,
          "action": types.SymbolKind.Event, "setup": types.SymbolKind.Constructor,
          "play": types.SymbolKind.Method, "score": types.SymbolKind.Function,
          "heuristic": types.SymbolKind.Function, "winner": types.SymbolKind.Boolean,
          "require": types.SymbolKind.Boolean, "use": types.SymbolKind.Package}
_COMPLETION_KINDS = {"keyword": types.CompletionItemKind.Keyword,
                     "function": types.CompletionItemKind.Function,
                     "name": types.CompletionItemKind.Constant,
                     "attribute": types.CompletionItemKind.Field,
                     "value": types.CompletionItemKind.EnumMember,
                     "zone": types.CompletionItemKind.Folder,
                     "component": types.CompletionItemKind.Class,
                     "pattern": types.CompletionItemKind.Struct,
                     "const": types.CompletionItemKind.Constant,
                     "var": types.CompletionItemKind.Variable,
                     "define": types.CompletionItemKind.Function,
                     "option": types.CompletionItemKind.Property,
                     "phase": types.CompletionItemKind.Method}


#: The longest message body the server reads, in bytes (a ruleset is at most 1 MB;
#: its text in a message, escaped as JSON, a few times that).
MAX_MESSAGE_BYTES = 64_000_000
#: The longest header line read at once, in bytes (a longer line is read in pieces).
MAX_HEADER_BYTES = 65_536
#: The notification that stands for a message the server did not read (see
#: :class:`BoundedInput`); its handler tells the client.
SKIPPED = "rulepack/skippedMessage"


class BoundedInput:
    """The server's standard input, as pygls reads it (``readline()``, ``read(n)``),
    within bounds: a header line is read at most :data:`MAX_HEADER_BYTES` at a time,
    and a body announced longer than :data:`MAX_MESSAGE_BYTES` is not read at all
    (``Content-Length: 99999999999`` made the server allocate it and die of a
    ``MemoryError``): pygls gets the notification :data:`SKIPPED` in its place, whose
    handler shows the client an error, and reads on.

    :param raw: the binary stream (``sys.stdin.buffer``).
    """

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw

    def readline(self) -> bytes:
        return self.raw.readline(MAX_HEADER_BYTES)

    def read(self, n: int) -> bytes:
        if n > MAX_MESSAGE_BYTES:
            return json.dumps({"jsonrpc": "2.0", "method": SKIPPED,
                               "params": {"bytes": n}}).encode("ascii")
        return self.raw.read(n)


class RulesServer(LanguageServer):
    """The server, with the latest analysis of each open document by URI."""

    def __init__(self) -> None:
        super().__init__("rulepack", __version__,
                         text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.analyses: dict[str, an.Analysis] = {}

    def refresh(self, uri: str) -> None:
        """Read the document again and publish its diagnostics."""
        document = self.workspace.get_text_document(uri)
        path = to_fs_path(uri) or uri
        found = an.analyse(document.source, path)
        old = self.analyses.get(uri)
        if not found.symbols and old is not None:  # keep the names while nothing parses
            found.symbols, found.outline, found.attributes = \
                old.symbols, old.outline, old.attributes
        self.analyses[uri] = found
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=document.version,
            diagnostics=[_diagnostic(found.text, d) for d in found.diagnostics]))

    def analysis(self, uri: str) -> an.Analysis:
        if uri not in self.analyses:
            self.refresh(uri)
        return self.analyses[uri]


def _range(start: tuple[int, int], end: tuple[int, int]) -> types.Range:
    return types.Range(start=types.Position(line=start[0], character=start[1]),
                       end=types.Position(line=end[0], character=end[1]))


def _diagnostic(text: str, d: Any) -> types.Diagnostic:
    start, end = an.diagnostic_range(text, d)
    # the message quotes the file's text: shown with its control characters escaped
    message = printable(d.message) + (f"\nhint: {printable(d.hint)}" if d.hint else "")
    severity = (types.DiagnosticSeverity.Warning if d.severity == "warning"
                else types.DiagnosticSeverity.Error)
    return types.Diagnostic(range=_range(start, end), message=message, severity=severity,
                            code=d.code, source="rulepack")


def _document_symbol(symbol: an.Symbol) -> types.DocumentSymbol:
    return types.DocumentSymbol(
        name=symbol.name or symbol.kind, detail=symbol.kind,
        kind=_KINDS.get(symbol.kind, types.SymbolKind.Object),
        range=_range(symbol.span_start, symbol.span_end),
        selection_range=_range(symbol.start, symbol.end),
        children=[_document_symbol(c) for c in symbol.children])


def make_server() -> RulesServer:
    """The server with every feature registered."""
    server = RulesServer()

    @server.feature(SKIPPED)
    def skipped(ls: RulesServer, params: Any) -> None:
        ls.window_show_message(types.ShowMessageParams(
            message=f"rulepack lsp: a message of {params.bytes} bytes was announced, more "
                    f"than the server reads ({MAX_MESSAGE_BYTES} bytes); it was skipped",
            type=types.MessageType.Error))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulesServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RulesServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulesServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.analyses.pop(params.text_document.uri, None)

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=[".", " ", "("]))
    def completion(ls: RulesServer, params: types.CompletionParams) -> types.CompletionList:
        found = ls.analysis(params.text_document.uri)
        # the text as it is now, with the names of the last analysis that found some
        text = ls.workspace.get_text_document(params.text_document.uri).source
        current = an.Analysis(text, [], found.tokens if found.text == text else [],
                              found.outline, found.symbols, found.attributes)
        items = []
        for i, c in enumerate(an.complete(current, params.position.line,
                                          params.position.character)):
            items.append(types.CompletionItem(
                label=c.label, kind=_COMPLETION_KINDS.get(c.kind, types.CompletionItemKind.Text),
                detail=c.detail or c.kind,
                documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=c.doc)
                if c.doc else None,
                insert_text=c.insert, sort_text=f"{c.rank}{i:04d}"))
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: RulesServer, params: types.HoverParams) -> types.Hover | None:
        text = an.hover(ls.analysis(params.text_document.uri), params.position.line,
                        params.position.character)
        if text is None:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                        value=printable(text, newlines=True)))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: RulesServer, params: types.DefinitionParams) -> types.Location | None:
        symbol = an.definition(ls.analysis(params.text_document.uri), params.position.line,
                               params.position.character)
        if symbol is None:
            return None
        return types.Location(uri=params.text_document.uri,
                              range=_range(symbol.start, symbol.end))

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def references(ls: RulesServer, params: types.ReferenceParams) -> list[types.Location]:
        found = ls.analysis(params.text_document.uri)
        symbol = an.definition(found, params.position.line, params.position.character)
        if symbol is None:
            return []
        uri = params.text_document.uri
        return [types.Location(uri=uri, range=_range(s, e))
                for s, e in an.references(found, symbol.name)
                if params.context.include_declaration or (s, e) != (symbol.start, symbol.end)]

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbols(ls: RulesServer,
                         params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        return [_document_symbol(s) for s in an.outline(ls.analysis(params.text_document.uri))]

    @server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    def prepare_rename(ls: RulesServer,
                       params: types.PrepareRenameParams) -> types.Range | None:
        found = ls.analysis(params.text_document.uri)
        symbol = an.definition(found, params.position.line, params.position.character)
        if symbol is None:
            return None
        for s, e in an.references(found, symbol.name):
            if s[0] == params.position.line and s[1] <= params.position.character <= e[1]:
                return _range(s, e)
        return None

    @server.feature(types.TEXT_DOCUMENT_RENAME)
    def rename(ls: RulesServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
        found = ls.analysis(params.text_document.uri)
        try:
            places = an.rename(found, params.position.line, params.position.character,
                               params.new_name)
        except ValueError as exc:
            from pygls.exceptions import JsonRpcInvalidParams
            raise JsonRpcInvalidParams(str(exc)) from None
        return types.WorkspaceEdit(changes={params.text_document.uri: [
            types.TextEdit(range=_range(s, e), new_text=params.new_name) for s, e in places]})

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: RulesServer,
                   params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        from rulepack.errors import RulepackError
        from rulepack.fmt import format_rules
        text = ls.workspace.get_text_document(params.text_document.uri).source
        try:
            formatted = format_rules(text)
        except RulepackError:
            return None
        lines = text.split("\n")
        return [types.TextEdit(range=_range((0, 0), (len(lines), 0)), new_text=formatted)]

    return server


def serve() -> None:
    """Run the server on standard input and output until the client ends it (its
    input read within bounds: :class:`BoundedInput`)."""
    make_server().start_io(BoundedInput(sys.stdin.buffer))  # type: ignore[arg-type]
