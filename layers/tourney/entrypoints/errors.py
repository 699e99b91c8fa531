"""Errors raised by the edge itself (authentication, idempotency), beside the domain's (``tourney.domain.errors``).

Like the domain's, each has a stable ``code`` that becomes the ``error`` field
of the body. ``STATUS_BY_ERROR`` is the one table of HTTP statuses by error
class, for domain and edge errors alike: ``entrypoints/resolver.py`` registers
it on the HTTP resolver, and the WebSocket function answers with the same
codes (it lives here so that the WebSocket function need not import the HTTP
event handler).

>>> int(status_of(errors.StaleAction("seq 3 is gone")))
409
>>> int(status_of(errors.NotRegistered("nobody")))
404
>>> int(status_of(errors.InsufficientFunds("short")))
422
>>> int(status_of(Forbidden("operators only")))
403
"""

from __future__ import annotations

from http import HTTPStatus
from typing import ClassVar

from tourney.domain import errors


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


class PayloadTooLarge(EdgeError):
    """A request body or client message over ``tourney.entrypoints.limits.MAX_BODY_BYTES``."""

    code: ClassVar[str] = "payload_too_large"


STATUS_BY_ERROR: dict[type[Exception], HTTPStatus] = {
    Unauthorized: HTTPStatus.UNAUTHORIZED,
    Forbidden: HTTPStatus.FORBIDDEN,
    RequestInProgress: HTTPStatus.CONFLICT,
    PayloadTooLarge: HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
    errors.NotFound: HTTPStatus.NOT_FOUND,  # NotRegistered, NotSeated
    errors.NotYourSeat: HTTPStatus.FORBIDDEN,
    errors.Conflict: HTTPStatus.CONFLICT,  # RegistrationClosed, AlreadyRegistered, WaitingListFull, ...
    errors.StaleVersion: HTTPStatus.CONFLICT,  # StaleAction
    errors.IllegalAction: HTTPStatus.CONFLICT,
    errors.NotYourTurn: HTTPStatus.CONFLICT,
    errors.InsufficientFunds: HTTPStatus.UNPROCESSABLE_ENTITY,
    errors.InvalidConfiguration: HTTPStatus.UNPROCESSABLE_ENTITY,
    errors.InvalidDisplayName: HTTPStatus.UNPROCESSABLE_ENTITY,
    errors.InvalidDeal: HTTPStatus.INTERNAL_SERVER_ERROR,  # the server dealt wrongly: never the caller's fault
}
"""HTTP status by error class; the nearest class in the hierarchy decides."""


def status_of(error: Exception) -> HTTPStatus:
    """The HTTP status of an error: the entry of its nearest class in ``STATUS_BY_ERROR``, else 500."""
    for cls in type(error).__mro__:
        status = STATUS_BY_ERROR.get(cls)
        if status is not None:
            return status
    if isinstance(error, (errors.TourneyError, EdgeError)):
        return HTTPStatus.BAD_REQUEST  # a domain refusal nobody has classified yet: still the request's fault
    return HTTPStatus.INTERNAL_SERVER_ERROR


def code_of(error: Exception) -> str:
    """The stable ``error`` code of an error (its class's ``code``)."""
    code = getattr(type(error), "code", None)
    return code if isinstance(code, str) else "internal_error"
