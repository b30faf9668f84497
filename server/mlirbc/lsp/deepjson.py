"""Reading a JSON message too deeply nested for `json.loads`: is it JSON at all, and what is its id.

A message the decoder gives up on (RecursionError) still deserves an answer to its id, but only if it is a
JSON message: a body both deep and damaged further on is a parse error, whose answer goes to id null, as
any decoder that reads that far says.  Where the decoder gives up depends on the stack depth of its caller,
so without this check the same body was answered with the id found by a scan or with null, depending on
who called (the server fuzz run found both answers for one body).

`scan` checks the whole grammar of JSON as Python's `json.loads` reads it (NaN and the infinities
included, control characters in strings refused) with an explicit stack: one pass, no recursion, a run
of brackets one step (100,000 nested arrays cost about as much as one).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

_TOKEN_RE = re.compile(r"""
    [ \t\n\r]*
    (?:
      (?P<open>\[+)
    | (?P<close>\]+)
    | (?P<punct>[{}:,])
    | (?P<string>"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*")
    | (?P<scalar>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null|NaN|-?Infinity)
    )""", re.VERBOSE)
_TRAILING_WS = re.compile(r"[ \t\n\r]*\Z")

# What may come next.
_VALUE, _VALUE_OR_CLOSE, _KEY, _KEY_OR_CLOSE, _COLON, _COMMA_OR_CLOSE, _END = range(7)
_WANTS = {_VALUE: "a value", _VALUE_OR_CLOSE: "a value or ']'", _KEY: "a key (a string)",
          _KEY_OR_CLOSE: "a key or '}'", _COLON: "':'", _COMMA_OR_CLOSE: "',' or a closing bracket",
          _END: "the end of the message"}


@dataclass(frozen=True)
class Scan:
    """`problem`: None for JSON, else what is wrong and at which character.  For JSON whose top level is an
    object, `msg_id` is its `id` when that is an integer or a string (the last, when the key repeats, as a
    decoder takes it), and `deepest_key` the top-level key whose value nests deepest."""

    problem: str | None
    msg_id: int | str | None = None
    deepest_key: str | None = None


def valid_id(v: Any) -> bool:
    """Whether `v` can be a JSON-RPC id: an integer (not a boolean) or a string."""
    return (isinstance(v, int) and not isinstance(v, bool)) or isinstance(v, str)


def scan(text: str) -> Scan:
    stack = bytearray()  # b"[" or b"{" per open container
    want = _VALUE
    pos = 0
    end = len(text)
    key: str | None = None  # the current top-level key
    msg_id: Any = None
    deepest = 0
    deepest_key: str | None = None
    match = _TOKEN_RE.match
    while True:
        m = match(text, pos)
        if m is None:
            if _TRAILING_WS.match(text, pos) is not None:
                break
            return Scan(f"expected {_WANTS[want]} at character {pos}")
        kind = m.lastgroup
        assert kind is not None  # (every alternative is a named group)
        tok_at = m.start(kind)
        pos = m.end()
        is_value = False
        if kind == "open":
            if want not in (_VALUE, _VALUE_OR_CLOSE):
                return Scan(f"expected {_WANTS[want]} at character {tok_at}")
            if len(stack) == 1 and stack[0] == 0x7B and key == "id":
                msg_id = None  # an array is no id (and replaces an earlier one)
            stack += b"[" * (pos - tok_at)
            if len(stack) > deepest:
                deepest, deepest_key = len(stack), (key if stack[0] == 0x7B else None)
            want = _VALUE_OR_CLOSE
            continue
        if kind == "close":
            n = pos - tok_at
            if want not in (_VALUE_OR_CLOSE, _COMMA_OR_CLOSE) or len(stack) < n or \
                    stack.count(b"{", len(stack) - n) != 0:
                return Scan(f"unexpected ']' at character {tok_at}")
            del stack[len(stack) - n:]
            is_value = True
        elif kind == "punct":
            c = text[tok_at]
            if c == "{":
                if want not in (_VALUE, _VALUE_OR_CLOSE):
                    return Scan(f"expected {_WANTS[want]} at character {tok_at}")
                if len(stack) == 1 and stack[0] == 0x7B and key == "id":
                    msg_id = None
                stack.append(0x7B)
                if len(stack) > deepest:
                    deepest, deepest_key = len(stack), (key if len(stack) > 1 and stack[0] == 0x7B else None)
                want = _KEY_OR_CLOSE
                continue
            if c == "}":
                if want not in (_KEY_OR_CLOSE, _COMMA_OR_CLOSE) or not stack or stack[-1] != 0x7B:
                    return Scan(f"unexpected '}}' at character {tok_at}")
                stack.pop()
                is_value = True
            elif c == ":":
                if want != _COLON:
                    return Scan(f"unexpected ':' at character {tok_at}")
                want = _VALUE
                continue
            else:  # ","
                if want != _COMMA_OR_CLOSE:
                    return Scan(f"unexpected ',' at character {tok_at}")
                want = _KEY if stack[-1] == 0x7B else _VALUE
                continue
        elif kind == "string":
            if want in (_KEY, _KEY_OR_CLOSE):
                if len(stack) == 1:
                    key = json.loads(m.group(kind))
                want = _COLON
                continue
            if want not in (_VALUE, _VALUE_OR_CLOSE):
                return Scan(f"expected {_WANTS[want]} at character {tok_at}")
            is_value = True
        else:  # scalar
            if want not in (_VALUE, _VALUE_OR_CLOSE):
                return Scan(f"expected {_WANTS[want]} at character {tok_at}")
            is_value = True
        if is_value:
            if len(stack) == 1 and stack[0] == 0x7B and key == "id" and kind in ("string", "scalar"):
                v = json.loads(m.group(kind))
                msg_id = v if valid_id(v) else None
            want = _END if not stack else _COMMA_OR_CLOSE
        if want == _END and _TRAILING_WS.match(text, pos) is None:
            return Scan(f"extra data at character {pos}")
    if want != _END:
        return Scan(f"the message ends where {_WANTS[want]} belongs (character {end})")
    return Scan(None, msg_id, deepest_key)
