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
from collections.abc import Iterator
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
LEX_ERROR = "lex-error"
"""Not a token: `Lexer.scan`'s mark for text that does not lex."""

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
# Lone surrogates that stand for no byte (only U+DC80-U+DCFF are `surrogateescape`d bytes) are not text:
# they can reach the lexer from an editor (JSON's "\\ud800") but can never be written, so no string holds
# one.
BAD_SURROGATES = "\ud800-\udc7f\udd00-\udfff"
_STR = rf'"[^"\\\n\v\f{BAD_SURROGATES}]*+(?:\\(?:["\\nt]|[0-9A-Fa-f]{{2}})[^"\\\n\v\f{BAD_SURROGATES}]*+)*+"'
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
_STRING_BODY_RE = re.compile(rf'(?:[^"\\\n\v\f{BAD_SURROGATES}]++|\\(?:["\\nt]|[0-9A-Fa-f]{{2}}))*+')
BAD_SURROGATE_RE = re.compile(f"[{BAD_SURROGATES}]")
_ANY_STR_RE = re.compile(r'"[^"\\\n\v\f]*+(?:\\(?:["\\nt]|[0-9A-Fa-f]{2})[^"\\\n\v\f]*+)*+"')
MAX_DECIMAL_DIGITS = 20_000
"""Longer decimal literals are refused: converting them costs time quadratic in their length (write wide
values in hex, which converts in linear time)."""
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
        return _utf8(body)
    out = bytearray()
    pos = 0
    for m in _ESCAPE_RE.finditer(body):
        out += _utf8(body[pos : m.start()])
        esc = m.group(1)
        out += _SIMPLE_ESCAPES[esc] if len(esc) == 1 else bytes((int(esc, 16),))
        pos = m.end()
    out += _utf8(body[pos:])
    return bytes(out)


def _utf8(text: str) -> bytes:
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        # Only reachable for a token the lexer did not make (its strings hold no such surrogate):
        # keep the code points rather than fail.
        return text.encode("utf-8", "surrogatepass")


def int_literal(text: str) -> int:
    """The value of an INT token (`0x` hexadecimal or decimal); ValueError for a decimal literal of more
    than MAX_DECIMAL_DIGITS digits."""
    if text.startswith("0x"):
        return int(text, 16)
    digits = text.lstrip("0")
    if len(digits) > MAX_DECIMAL_DIGITS:
        raise ValueError(f"integer literal of {len(digits)} decimal digits is too long (at most "
                         f"{MAX_DECIMAL_DIGITS}; write wider values in hexadecimal)")
    if len(digits) <= 4000:
        return int(digits or "0")
    value = 0
    for i in range(0, len(digits), 4000):  # below Python's per-conversion digit limit
        chunk = digits[i:i + 4000]
        value = value * 10 ** len(chunk) + int(chunk)
    return value


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
        self._ascii: bool | None = None  # whether the text is ASCII (found out when first needed)
        self._failures: dict[int, tuple[str, TextSpan, int]] = {}
        """Lexical errors by offset: a parser that recovers may lex the same bad text again, and a
        50 MB unterminated string must not be scanned once per attempt."""

    # -- tokens -----------------------------------------------------------------------------------

    def next(self) -> Token:
        """Consume and return the next token."""
        if self._failures and self.pos in self._failures:
            self._fail(self.pos)
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
        else:
            self._fail(self.pos)  # (matching again at the same offset would fail the same way)
        self.pos = tok.end
        return tok

    def reset(self, offset: int) -> None:
        self.pos = offset

    def scan(self, offset: int) -> Iterator[tuple[str, int, int]]:
        """The tokens from `offset` as (kind, start, end), EOF last, without making `Token`s: for a
        parser skipping text while it recovers, where a token costs one regex match.  Comments are
        collected as `next` does; text that does not lex yields (LEX_ERROR, resume, resume) and lexing
        goes on at `resume_at`."""
        text, stop, kinds = self.text, self.end, _GROUP_KINDS
        pos = offset
        while True:
            m = _match(text, pos, stop)
            i: int = m.lastindex if m is not None else 0  # type: ignore[assignment]
            kind = kinds[i]
            if m is None or kind is None:  # a comment, or text that does not lex: the general path
                self.pos = pos
                try:
                    tok = self.next()
                except TextError:
                    pos = self.resume_at
                    yield LEX_ERROR, pos, pos
                    continue
                kind, start, end = tok.kind, tok.start, tok.end
            else:
                start, end = m.span(i)
                if kind == "punct":
                    kind = text[start:end]
            yield kind, start, end
            if kind == EOF:
                return
            pos = end

    def token_at(self, offset: int) -> Token:
        """The token starting at the first non-blank, non-comment character at or after `offset`."""
        text = self.text
        stop = self.end
        offset = min(offset, stop)
        while True:
            if self._failures and offset in self._failures:
                self._fail(offset)
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
        known = self._failures.get(offset)
        if known is not None:
            message, span, self.resume_at = known
            raise TextError(message, span)
        try:
            self._diagnose(offset)
        except TextError as exc:
            # (not the exception: its traceback would keep the frames alive)
            self._failures[offset] = (exc.message, exc.span, self.resume_at)
            raise

    def _diagnose(self, offset: int) -> NoReturn:
        text = self.text
        start = _WS_RE.match(text, offset, self.end).end()  # type: ignore[union-attr]
        ch = text[start]
        self.resume_at = start + 1
        if ch == '"' or (ch == "@" and text.startswith('"', start + 1)):
            quote = start if ch == '"' else start + 1
            # Where the well-formed part of the string ends: at a bad escape or a line break.  The
            # line break is found with `str.find` (fast); a regex runs only up to it, and only if
            # something before it needs one (a huge unterminated string costs no second regex scan).
            if self._ascii is None:
                self._ascii = text.isascii()
            i = -1
            if self._ascii:
                end = text.find("\n", quote + 1, self.end)
                if end < 0:
                    end = self.end
                for stop in "\v\f":
                    k = text.find(stop, quote + 1, end)
                    if k >= 0:
                        end = k
                if text.find("\\", quote + 1, end) < 0:
                    i = end  # (no quote can come before `end`, or the string would have lexed)
            if i < 0:
                i = _STRING_BODY_RE.match(text, quote + 1, self.end).end()  # type: ignore[union-attr]
            if text.startswith("\\", i):
                self.resume_at = i + 1
                # (the escape's second character, unless the text or the line ends after the backslash:
                # a span past the end would point nowhere)
                esc_end = i + 2 if i + 1 < self.end and text[i + 1] != "\n" else i + 1
                raise TextError("unknown escape in string literal", self.span(i, esc_end))
            if i < len(text) and BAD_SURROGATE_RE.match(text, i):
                # Go on after the whole literal (a string that is fine apart from the surrogate), so
                # the rest of the line is not lexed as if a new string started at its closing quote.
                whole = _ANY_STR_RE.match(text, quote)
                self.resume_at = whole.end() if whole is not None else i + 1
                raise TextError(f"a lone surrogate (U+{ord(text[i]):04X}) is not text and cannot be "
                                "in a string literal", self.span(i, i + 1))
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
