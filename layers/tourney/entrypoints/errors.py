"""Errors raised by the edge itself (authentication, idempotency), beside the domain's (``tourney.domain.errors``).

Like the domain's, each has a stable ``code`` that becomes the ``error`` field
of the body; ``entrypoints/resolver.py`` maps them to HTTP by type.
"""

from __future__ import annotations

from typing import ClassVar


class EdgeError(Exception):
    code: ClassVar[str] = "edge_error"


class Unauthorized(EdgeError):
    """No caller identity (no or invalid token)."""

    code: ClassVar[str] = "unauthorized"


class Forbidden(EdgeError):
    """The caller is known but may not do this (an operator route)."""

    code: ClassVar[str] = "forbidden"


class RequestInProgress(EdgeError):
    """A request with the same Idempotency-Key is still being handled, or came with another body."""

    code: ClassVar[str] = "idempotency_conflict"
