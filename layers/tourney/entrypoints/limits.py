"""Bounds on what a caller may send (docs/architecture.md, 'Hardening'; docs/operations.md, 'Input limits').

A request body (HTTP) or a client message (WebSocket) is at most
``MAX_BODY_BYTES``; its JSON nests at most ``MAX_JSON_DEPTH`` deep, has no
integer of more than ``MAX_INT_DIGITS`` digits and no text that is not valid
Unicode (a lone surrogate, which no table could store). :func:`parse_json`
checks all of it and raises :class:`InvalidJson` (a ``ValueError``) with a
stable ``kind``; the HTTP resolver answers it 422 ``invalid_request``, the
WebSocket function an ``error`` frame with the same code. A body over the size
is :class:`~tourney.entrypoints.errors.PayloadTooLarge` (413).

The amounts inside a body have their own maximums in ``entrypoints/models.py``.

>>> parse_json('{"amount": 5}')
{'amount': 5}
>>> parse_json("[" * 40 + "]" * 40)
Traceback (most recent call last):
...
tourney.entrypoints.limits.InvalidJson: json_too_deep: JSON nests at most 8 deep
>>> parse_json('{"amount": ' + "9" * 5000 + "}")
Traceback (most recent call last):
...
tourney.entrypoints.limits.InvalidJson: json_invalid: integers have at most 30 digits
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from tourney.entrypoints.errors import PayloadTooLarge

__all__ = ["MAX_BODY_BYTES", "MAX_INT_DIGITS", "MAX_JSON_DEPTH", "InvalidJson", "body_size", "check_size", "parse_json"]

MAX_BODY_BYTES: Final = 16 * 1024
"""The largest request body or client message, in bytes (the largest valid one is well under 4 KiB)."""
MAX_JSON_DEPTH: Final = 8
"""How deep a body's JSON may nest (the deepest valid one nests 2 deep: ``payout_percent``)."""
MAX_INT_DIGITS: Final = 30
"""The longest integer a body may carry, in digits (every maximum of models.py has at most 13)."""


class InvalidJson(ValueError):
    """A body that is not JSON, or not within the limits: ``kind`` is the pydantic-style error type."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


def body_size(event: Mapping[str, Any]) -> int:
    """The size in bytes of an API Gateway event's body (decoded when it came base64-encoded)."""
    body = event.get("body")
    if not body:
        return 0
    if not isinstance(body, str | bytes):
        return len(json.dumps(body))
    if event.get("isBase64Encoded"):
        return len(body) * 3 // 4
    return len(body.encode("utf-8", "surrogatepass")) if isinstance(body, str) else len(body)


def check_size(size: int) -> None:
    """``PayloadTooLarge`` when ``size`` bytes are more than ``MAX_BODY_BYTES``."""
    if size > MAX_BODY_BYTES:
        raise PayloadTooLarge(f"bodies are at most {MAX_BODY_BYTES} bytes")


def parse_json(text: str | bytes) -> Any:
    """The JSON value of ``text`` within the limits above; ``InvalidJson`` otherwise."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidJson("json_invalid", "bodies are UTF-8") from None
    check_size(len(text.encode("utf-8", "surrogatepass")))
    try:
        value = json.loads(text, parse_int=_integer, parse_constant=_constant)
    except InvalidJson:
        raise
    except RecursionError:
        raise InvalidJson("json_too_deep", f"JSON nests at most {MAX_JSON_DEPTH} deep") from None
    except ValueError as error:
        raise InvalidJson("json_invalid", f"not JSON: {type(error).__name__}") from None
    _check_value(value)
    return value


def _integer(digits: str) -> int:
    # Checked before converting: a long integer is quadratic to convert, and none is valid anywhere.
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise InvalidJson("json_invalid", f"integers have at most {MAX_INT_DIGITS} digits")
    return int(digits)


def _constant(name: str) -> Any:
    raise InvalidJson("json_invalid", f"{name} is not JSON")


def _check_value(value: Any) -> None:
    """Depth and text of a parsed value, without recursion (a deep value must not exhaust the stack)."""
    pending: list[tuple[Any, int]] = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            _check_text(item)
            continue
        if not isinstance(item, dict | list):
            continue
        if depth >= MAX_JSON_DEPTH:
            raise InvalidJson("json_too_deep", f"JSON nests at most {MAX_JSON_DEPTH} deep")
        if isinstance(item, dict):
            for key, inner in item.items():
                _check_text(key)
                pending.append((inner, depth + 1))
        else:
            pending.extend((inner, depth + 1) for inner in item)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidJson("json_invalid", "text must be valid Unicode (no lone surrogate)") from None
