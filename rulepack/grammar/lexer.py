"""A contextual lexer that reads exactly as Lark's, without its start-up cost.

Lark's :class:`~lark.lexer.ContextualLexer` makes one
:class:`~lark.lexer.BasicLexer` per set of terminals a parser state accepts
(about 150 for ``rulepack.lark``) when the parser is loaded, and compiles one
large regular expression for each the first time the state is met: about 80
compilations, a third of the time a fresh process takes to parse the bundled
rulesets. :class:`FastContextualLexer` gives the same tokens from one regular
expression of all terminals and one small expression per terminal, compiled
once:

* in a parser state, Lark's lexer takes the *first* of the state's terminals (in
  Lark's order: priority, then width) that matches at the position, keywords
  that ``NAME`` also matches being left out of the list when ``NAME`` is in it
  and given back by ``NAME``'s callback instead (``_create_unless``);
* the state's list is a sub-list, in the same order, of the list of all terminals,
  so when the first match of the whole list is one of the state's terminals and
  no left-out keyword of the state comes before it, it is the state's match too;
* otherwise the state's terminals are tried one by one, in order, each with its
  own expression (a keyword: does the text go on with it), which is the
  definition of the first match.

Anything that is not a match (a character no terminal of the state reads) is left
to Lark's own lexer of that state, made only then, so errors are Lark's own. The
lexer is used through Lark's ``_plugins`` option (see
:func:`rulepack.grammar.tables.load_parser`); :func:`supported` says whether a
grammar fits its assumptions (keywords are plain, case-sensitive strings), and
Lark's lexer is used when it does not.
"""

from __future__ import annotations

import re
from copy import copy
from collections.abc import Collection, Iterator
from typing import Any, Callable

from lark.exceptions import UnexpectedCharacters, UnexpectedToken
from lark.lexer import (
    BasicLexer,
    ContextualLexer,
    LexerState,
    PatternStr,
    TerminalDef,
    Token,
    _regexp_has_newline,
)

_Callback = Callable[[Token], Token]


def _order(t: TerminalDef) -> tuple[int, int, int, str]:
    """Lark's order of a lexer's terminals (``BasicLexer.__init__``)."""
    return (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name)


def supported(conf: Any) -> bool:
    """Whether :class:`FastContextualLexer` reads ``conf``'s terminals exactly as
    Lark does: plain ``str`` text, the standard ``re`` module, and every string
    terminal without flags and with its own text."""
    strings = [t.pattern.value for t in conf.terminals if isinstance(t.pattern, PatternStr)]
    return (not conf.use_bytes and conf.re_module is re and not conf.g_regex_flags
            and len(set(strings)) == len(strings)
            and all(not t.pattern.flags for t in conf.terminals
                    if isinstance(t.pattern, PatternStr)))


class _State:
    """What one parser state's lexer needs: its terminals in order, its callbacks."""

    __slots__ = ("order", "allowed", "strings_at", "callback", "conf", "_basic")

    def __init__(self, lexer: FastContextualLexer, accepts: set[str], conf: Any) -> None:
        names = accepts | lexer.ignore_types
        mine = [t for t in lexer.terminals if t.name in names]
        regexes = [t for t in mine if not isinstance(t.pattern, PatternStr)]
        unless: dict[str, dict[str, str]] = {}
        embedded: set[str] = set()
        for r in regexes:  # as lark.lexer._create_unless, from the matches found once
            words = {text: name for name, text in lexer.embeds.get(r.name, ()) if name in names}
            if words:
                unless[r.name] = words
                embedded.update(words.values())  # string terminals have no flags
        #: (terminal name, its expression or None for a string, its text) in order
        self.order = [(t.name, lexer.patterns.get(t.name), t.pattern.value)
                      for t in mine if t.name not in embedded]
        self.allowed = {name for name, _, _ in self.order}
        #: the state's strings the whole-grammar expression leaves out: first character
        #: → (rank, text) in order
        self.strings_at: dict[str, list[tuple[int, str]]] = {}
        for name, pattern, text in self.order:
            if pattern is None and name not in lexer.main_names:
                self.strings_at.setdefault(text[0], []).append((lexer.rank[name], text))
        self.callback: dict[str, _Callback] = {}
        for name, words in unless.items():
            self.callback[name] = _retype(words)
        for name, f in lexer.user_callbacks.items():
            if name in self.callback:
                self.callback[name] = _chain(self.callback[name], f, name)
            else:
                self.callback[name] = f
        self.conf = conf
        self._basic: BasicLexer | None = None

    def basic(self) -> BasicLexer:
        """Lark's own lexer of this state (only to raise its errors)."""
        if self._basic is None:
            self._basic = BasicLexer(self.conf)
        return self._basic


def _retype(words: dict[str, str]) -> _Callback:
    """``NAME``'s callback in a state: a keyword of the state is that keyword."""
    def retype(t: Token) -> Token:
        found = words.get(t.value)
        if found is not None:
            t.type = found
        return t
    return retype


def _chain(first: _Callback, then: _Callback, name: str) -> _Callback:
    """Lark's ``CallChain``: ``then`` only if ``first`` left the type ``name``."""
    def chained(t: Token) -> Token:
        t2 = first(t)
        return then(t) if t2.type == name else t2
    return chained


class FastContextualLexer(ContextualLexer):
    """Lark's contextual lexer, the same tokens and errors, with its expressions
    compiled once for all parser states (see the module's description).

    :param conf: Lark's ``LexerConf``; ``states``: parser state → the names of the
        terminals it accepts; ``always_accept``: terminals every state accepts.
    """

    def __init__(self, conf: Any, states: dict[int, Collection[str]],
                 always_accept: Collection[str] = ()) -> None:
        self.conf = conf
        self.states = states
        self.always_accept = set(always_accept)
        self.terminals = sorted(conf.terminals, key=_order)
        self.ignore_types = frozenset(conf.ignore)
        self.newline_types = frozenset(t.name for t in self.terminals
                                       if _regexp_has_newline(t.pattern.to_regexp()))
        self.user_callbacks = conf.callbacks
        flags = conf.g_regex_flags
        self.rank = {t.name: i for i, t in enumerate(self.terminals)}
        self.patterns = {t.name: re.compile(t.pattern.to_regexp(), flags) for t in self.terminals
                         if not isinstance(t.pattern, PatternStr)}
        strings = [t for t in self.terminals if isinstance(t.pattern, PatternStr)]
        #: regex terminal → the string terminals it reads whole: (name, text)
        self.embeds: dict[str, list[tuple[str, str]]] = {}
        for t in self.terminals:
            if t.name in self.patterns:
                for s in strings:
                    if s.priority == t.priority:
                        m = self.patterns[t.name].match(s.pattern.value)
                        if m is not None and m.group(0) == s.pattern.value:
                            self.embeds.setdefault(t.name, []).append((s.name, s.pattern.value))
        words = {name for pairs in self.embeds.values() for name, _ in pairs}
        main = [t for t in self.terminals if t.name not in words]
        self.main_names = {t.name for t in main}
        # one expression, as lark.lexer.Scanner makes it (Python's re no longer limits
        # the number of groups, so it is never split in parts)
        self.main_re = re.compile("|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})"
                                           for t in main), flags)
        self._by_accepts: dict[frozenset[str], _State] = {}
        self._by_state: dict[int, _State] = {}
        self._root: BasicLexer | None = None

    def _root_lexer(self) -> BasicLexer:
        """Lark's lexer of all terminals, for the error of a token no state expects."""
        if self._root is None:
            conf = copy(self.conf)
            conf.skip_validation = True
            self._root = BasicLexer(conf)
        return self._root

    def _state(self, position: int) -> _State:
        found = self._by_state.get(position)
        if found is None:
            key = frozenset(self.states[position])
            found = self._by_accepts.get(key)
            if found is None:
                accepts = set(key) | self.always_accept
                conf = copy(self.conf)
                by_name = self.conf.terminals_by_name
                conf.terminals = [by_name[n] for n in accepts | self.ignore_types
                                  if n in by_name]
                conf.skip_validation = True
                found = self._by_accepts[key] = _State(self, accepts, conf)
            self._by_state[position] = found
        return found

    def _match(self, state: _State, source: Any, pos: int) -> tuple[str, str] | None:
        """The first of ``state``'s terminals matching at ``pos`` of ``source`` (Lark's
        ``TextSlice``): (text, type)."""
        text, end = source.text, source.end
        m = self.main_re.match(text, pos, end)
        if m is not None:
            type_ = m.lastgroup
            if type_ is not None and type_ in state.allowed:
                before = state.strings_at.get(text[pos])
                if before is None:
                    return m.group(0), type_
                rank = self.rank[type_]
                for r, string in before:
                    if r > rank:
                        return m.group(0), type_
                    if text.startswith(string, pos, end):
                        break
                else:
                    return m.group(0), type_
        for name, pattern, value in state.order:
            if pattern is None:
                if text.startswith(value, pos, end):
                    return value, name
            else:
                m = pattern.match(text, pos, end)
                if m is not None:
                    return m.group(0), name
        return None

    def _next_token(self, lex_state: LexerState, parser_state: Any) -> Token:
        """``BasicLexer.next_token`` of the parser's current state."""
        state = self._by_state.get(parser_state.position) or self._state(parser_state.position)
        line_ctr = lex_state.line_ctr
        source = lex_state.text
        callback = state.callback
        while line_ctr.char_pos < source.end:
            res = self._match(state, source, line_ctr.char_pos)
            if res is None:  # Lark's lexer of the state raises its own error
                return state.basic().next_token(lex_state, parser_state)
            value, type_ = res
            ignored = type_ in self.ignore_types
            t = None
            if not ignored or type_ in callback:
                t = Token(type_, value, line_ctr.char_pos, line_ctr.line, line_ctr.column)
            line_ctr.feed(value, type_ in self.newline_types)
            if t is not None:
                t.end_line = line_ctr.line
                t.end_column = line_ctr.column
                t.end_pos = line_ctr.char_pos
                if t.type in callback:
                    t = callback[t.type](t)
                if not ignored:
                    lex_state.last_token = t
                    return t
        raise EOFError(self)

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        """Tokens for the parser, each read in the parser's state when it is needed."""
        try:
            while True:
                yield self._next_token(lexer_state, parser_state)
        except EOFError:
            pass
        except UnexpectedCharacters as e:  # as ContextualLexer.lex
            try:
                last_token = lexer_state.last_token
                root = self._root_lexer()
                token = root.next_token(lexer_state, parser_state)
                raise UnexpectedToken(  # type: ignore[no-untyped-call]
                    token, e.allowed, state=parser_state,
                    token_history=[last_token], terminals_by_name=root.terminals_by_name)
            except UnexpectedCharacters:
                raise e


def contextual_lexer(conf: Any, states: dict[int, Collection[str]],
                     always_accept: Collection[str] = ()) -> ContextualLexer:
    """The lexer Lark's ``_plugins`` option makes for an LALR parser: a
    :class:`FastContextualLexer` when :func:`supported`, else Lark's own."""
    if supported(conf):
        return FastContextualLexer(conf, states, always_accept)
    return ContextualLexer(conf, states, always_accept)
