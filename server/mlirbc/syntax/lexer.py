"""Tokenizer for MLIR text: tokens with source offsets, comments kept on the side, spans as (line,
col).

One compiled regular expression recognises every token kind, so lexing costs one `match` call per
token. The lexer is lazy and restartable (`token_at` is pure apart from collecting comments), which
lets a parser re-lex from any offset: MLIR's own grammar needs that for dimension lists such as
`4x?xf32`, where the characters are split differently from the normal token rules.

Token kinds are the constants below; punctuation tokens have their spelling as kind (`"("`, `"->"`,
...). Comments (`// ...`) never become tokens; they are collected in `Lexer.comments` (in source
order, each once) so that an op-level parser can read the `// mlirbc:` lines.  Columns are 0-based
character offsets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NoReturn

from ..errors import TextError, TextSpan
from .textlines import TextLines

BARE = "bare"
"""A bare identifier: `[A-Za-z_][A-Za-z0-9_$.]*` (keywords such as `loc`, `i32` included)."""
VALUE = "value"
"""An SSA value `%name` or `%3`, with an optional result number suffix `#N` (`%0#1`)."""
BLOCK = "block"
"""A block label `^bb0`."""
SYMBOL = "symbol"
"""A symbol reference `@name` or `@"quoted name"`."""
HASH = "hash"
"""`#name`: an attribute alias or a dialect attribute prefix (`#arith.fastmath`)."""
BANG = "bang"
"""`!name`: a type alias or a dialect type prefix (`!llvm.ptr`)."""
INT = "int"
"""A decimal or `0x` hexadecimal integer literal (a leading `-` is a separate token)."""
FLOAT = "float"
"""A decimal float literal; MLIR requires the `.` (`1.`, `1.5`, `2.0e-3`)."""
STRING = "string"
"""A string literal including its quotes; `string_value` decodes it to bytes."""
EOF = "eof"
"""End of input."""

PUNCTUATION = frozenset(
    [
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "<",
        ">",
        ",",
        "=",
        ":",
        "::",
        "->",
        "...",
        "?",
        "*",
        "+",
        "-",
        "|",
        "{-#",
        "#-}",
    ]
)

# Possessive quantifiers: the character classes are disjoint, so backtracking could never match
# differently, and without it an unterminated string fails in one linear scan.
_STR = r'"[^"\\\n\v\f]*+(?:\\(?:["\\nt]|[0-9A-Fa-f]{2})[^"\\\n\v\f]*+)*+"'
_SUFFIX = r"(?:[0-9]+|[A-Za-z$._\-][A-Za-z0-9$._\-]*)"

# Order matters only where alternatives share a first character: `{-#`/`#-}` before `{`/`#name`,
# floats before integers.  The leading whitespace run is part of the match so skipping it is free.
_TOKEN_RE = re.compile(
    r"[ \t\r\n]*(?:"
    r"(?P<comment>//[^\n]*)"
    r"|(?P<bare>[A-Za-z_][A-Za-z0-9_$.]*)"
    rf"|(?P<value>%{_SUFFIX}(?:\#[0-9]+)?)"
    rf"|(?P<string>{_STR})"
    r"|(?P<float>[0-9]+\.[0-9]*(?:[eE][-+]?[0-9]+)?)"
    r"|(?P<int>0x[0-9A-Fa-f]+|[0-9]+)"
    r"|(?P<punct>\{-\#|\#-\}|->|::|\.\.\.|[()\[\]{}<>,=:?*+\-|])"
    rf"|(?P<symbol>@(?:{_STR}|[A-Za-z_][A-Za-z0-9_$.]*))"
    rf"|(?P<hash>\#{_SUFFIX})"
    rf"|(?P<bang>!{_SUFFIX})"
    rf"|(?P<block>\^{_SUFFIX})"
    r"|(?P<eof>\Z)"
    r")"
)
_match = _TOKEN_RE.match
# Token kind per regex group number (None for comments), so the hot path avoids group-name lookups.
_GROUP_KINDS: list[str | None] = [None] * (_TOKEN_RE.groups + 1)
for _name, _index in _TOKEN_RE.groupindex.items():
    _GROUP_KINDS[_index] = None if _name == "comment" else _name
_WS_RE = re.compile(r"[ \t\r\n]*")
_STRING_BODY_RE = re.compile(r'(?:[^"\\\n\v\f]++|\\(?:["\\nt]|[0-9A-Fa-f]{2}))*+')
STRING_RE = re.compile(_STR)
"""A complete string literal (quotes included), for scanners that walk raw text."""
_ESCAPE_RE = re.compile(r'\\(["\\nt]|[0-9A-Fa-f]{2})')
_SIMPLE_ESCAPES = {'"': b'"', "\\": b"\\", "n": b"\n", "t": b"\t"}


class Token:
    """One token: `kind`, its exact source `text`, and its `start`/`end` character offsets."""

    __slots__ = ("kind", "text", "start", "end")

    def __init__(self, kind: str, text: str, start: int, end: int) -> None:
        self.kind = kind
        self.text = text
        self.start = start
        self.end = end

    def is_keyword(self, word: str) -> bool:
        return self.kind == BARE and self.text == word

    def __repr__(self) -> str:
        return f"Token({self.kind!r}, {self.text!r}, {self.start}, {self.end})"


@dataclass(frozen=True)
class Comment:
    """A `//` comment: `text` starts with `//` and excludes the newline."""

    text: str
    start: int
    end: int


def decode_string(body: str) -> bytes:
    """The bytes of a string literal's body (no quotes); escapes `\\"` `\\\\` `\\n` `\\t` `\\XX`.

    Characters outside ASCII are taken as UTF-8; lone surrogates (text decoded with
    `surrogateescape`) turn back into the raw bytes they stood for.
    """
    if "\\" not in body:
        return body.encode("utf-8", "surrogateescape")
    out = bytearray()
    pos = 0
    for m in _ESCAPE_RE.finditer(body):
        out += body[pos : m.start()].encode("utf-8", "surrogateescape")
        esc = m.group(1)
        out += _SIMPLE_ESCAPES[esc] if len(esc) == 1 else bytes((int(esc, 16),))
        pos = m.end()
    out += body[pos:].encode("utf-8", "surrogateescape")
    return bytes(out)


def string_value(token: Token) -> bytes:
    """Decoded bytes of a STRING token, or of the quoted part of a SYMBOL token (`@"..."`)."""
    text = token.text
    if token.kind == SYMBOL:
        text = text[1:]
        if not text.startswith('"'):
            return text.encode("utf-8", "surrogateescape")
    return decode_string(text[1:-1])


class Lexer:
    """Lazily tokenizes `text`: `next()` advances, `token_at(offset)` lexes anywhere, not moving."""

    def __init__(self, text: str, start: int = 0, end: int | None = None,
                 lines: TextLines | None = None) -> None:
        self.text = text
        self.pos = start
        self.end = len(text) if end is None else end
        """Lexing stops here (EOF): a parser can read one op out of a larger text in place, with the
        offsets of the whole text."""
        self.comments: list[Comment] = []
        self._comment_mark = start  # comments before this offset were already collected
        self._lines = lines
        self.resume_at = start
        """After a lexical error: the offset just past the offending text, where a parser that
        recovers can go on lexing (`reset(resume_at)`)."""

    # -- tokens -----------------------------------------------------------------------------------

    def next(self) -> Token:
        """Consume and return the next token."""
        m = _match(self.text, self.pos, self.end)
        if m is not None:
            i: int = m.lastindex  # type: ignore[assignment]  # always set: every branch is a group
            kind = _GROUP_KINDS[i]
            if kind is not None:  # not a comment: the hot path
                start, end = m.span(i)
                self.pos = end
                tok_text = self.text[start:end]
                return Token(tok_text if kind == "punct" else kind, tok_text, start, end)
        tok = self.token_at(self.pos)
        self.pos = tok.end
        return tok

    def reset(self, offset: int) -> None:
        self.pos = offset

    def token_at(self, offset: int) -> Token:
        """The token starting at the first non-blank, non-comment character at or after `offset`."""
        text = self.text
        stop = self.end
        offset = min(offset, stop)
        while True:
            m = _match(text, offset, stop)
            if m is None:
                self._fail(offset)
            i = m.lastindex
            assert i is not None
            start, end = m.span(i)
            kind = _GROUP_KINDS[i]
            if kind is None:
                if start >= self._comment_mark:
                    self.comments.append(Comment(text[start:end], start, end))
                    self._comment_mark = end
                offset = end
                continue
            tok_text = text[start:end]
            return Token(tok_text if kind == "punct" else kind, tok_text, start, end)

    def tokenize(self) -> list[Token]:
        """All remaining tokens, the final EOF token included."""
        out: list[Token] = []
        while True:
            tok = self.next()
            out.append(tok)
            if tok.kind == EOF:
                return out

    def _fail(self, offset: int) -> NoReturn:
        text = self.text
        start = _WS_RE.match(text, offset, self.end).end()  # type: ignore[union-attr]
        ch = text[start]
        self.resume_at = start + 1
        if ch == '"' or (ch == "@" and text.startswith('"', start + 1)):
            quote = start if ch == '"' else start + 1
            # Where the well-formed part of the string ends (one regex scan: a huge unterminated
            # string must not cost a Python loop per character): at a bad escape or a line break.
            i = _STRING_BODY_RE.match(text, quote + 1, self.end).end()  # type: ignore[union-attr]
            if text.startswith("\\", i):
                self.resume_at = i + 1
                raise TextError("unknown escape in string literal", self.span(i, i + 2))
            self.resume_at = i
            raise TextError("expected '\"' in string literal", self.span(quote, i))
        what = {
            "#": "invalid attribute name",
            "!": "invalid type identifier",
            "%": "invalid SSA name",
            "^": "invalid block name",
            "@": "invalid symbol name",
        }.get(ch, f"unexpected character {ch!r}")
        raise TextError(what, self.span(start, start + 1))

    # -- positions --------------------------------------------------------------------------------

    @property
    def lines(self) -> TextLines:
        """The line table of the whole text (built on first use unless given)."""
        if self._lines is None:
            self._lines = TextLines(self.text)
        return self._lines

    def position(self, offset: int) -> tuple[int, int]:
        """0-based (line, column) of a character offset."""
        return self.lines.position(offset)

    def span(self, start: int, end: int) -> TextSpan:
        return self.lines.span(start, end)

    def token_span(self, tok: Token) -> TextSpan:
        return self.span(tok.start, tok.end)


def tokenize(text: str) -> tuple[list[Token], list[Comment]]:
    """Tokens of a whole text (EOF last) and its comments."""
    lexer = Lexer(text)
    return lexer.tokenize(), lexer.comments
