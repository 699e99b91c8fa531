"""The HTTP resolver and the one place where errors become HTTP answers (docs/architecture.md, 'Errors').

:func:`http_resolver` builds an ``APIGatewayHttpResolver`` with pydantic
validation and registers the error handlers. Errors are mapped by type,
walking the class hierarchy of ``tourney.domain.errors`` (so a new subclass of
``Conflict`` is a 409 without touching this file). Every error body is
``{"error": code, "message": text}`` (docs/interfaces.md).

- Bad input (malformed JSON, wrong types, a negative amount, an unknown
  action): 422 ``invalid_request``, with the failing fields' locations. The
  body is parsed within ``entrypoints/limits.py``'s bounds (depth, integer
  digits, valid Unicode): outside them it is a 422 too, never a 500.
- A body over ``limits.MAX_BODY_BYTES``: 413 ``payload_too_large``, before any route runs.
- A body that is not JSON (another ``Content-Type``): 415 ``unsupported_media_type``.
- Unknown route: 404 ``not_found``.
- Anything unexpected: logged with ``logger.exception`` and answered 500
  ``internal_error`` with no detail.

"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from http import HTTPStatus
from typing import TYPE_CHECKING, Any, cast

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response, content_types
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestUnsupportedContentType,
    RequestValidationError,
)

from tourney.domain import errors
from tourney.entrypoints import limits
from tourney.entrypoints.errors import STATUS_BY_ERROR, EdgeError, PayloadTooLarge, code_of, status_of
from tourney.entrypoints.models import MAX_CENTS, MAX_CHIPS, Answer
from tourney.entrypoints.observability import logger

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

__all__ = [
    "OPENAPI_INFO",
    "STATUS_BY_ERROR",
    "ErrorBody",
    "GatewayMessage",
    "error_body",
    "error_response",
    "error_responses",
    "http_resolver",
    "status_of",
]


class ErrorBody(Answer):
    """Every error answer (docs/interfaces.md): a stable code and a text for people."""

    error: str
    message: str
    detail: list[dict[str, Any]] | None = None


class GatewayMessage(Answer):
    """What API Gateway answers by itself, before any function runs: ``{"message": text}``.

    Its JWT authorizer refuses a missing, malformed, expired or foreign token
    with 401 ``{"message": "Unauthorized"}``, and a body over its own limit with
    413. A function's error body (``ErrorBody``) has a ``message`` too, so one
    schema describes both."""

    message: str


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """The error body of docs/interfaces.md: ``{"error": code, "message": text}`` (plus optional detail)."""
    return {"error": code, "message": message, **extra}


def error_response(status: int, code: str, message: str, **extra: Any) -> Response[dict[str, Any]]:
    return Response(
        status_code=int(status), content_type=content_types.APPLICATION_JSON, body=error_body(code, message, **extra)
    )


def _known_error(error: Exception) -> Response[dict[str, Any]]:
    status = status_of(error)
    if status >= HTTPStatus.INTERNAL_SERVER_ERROR:
        return _unexpected_error(error)
    logger.info("request refused", extra={"error": code_of(error), "status": int(status)})
    return error_response(status, code_of(error), str(error) or status.phrase)


def _invalid_request(error: RequestValidationError) -> Response[dict[str, Any]]:
    # Locations and types only: the input and pydantic's messages may echo secrets or internals.
    # The message says why (pydantic's ``msg`` names the rule broken, never the input), field by field.
    errors = error.errors()
    detail = [{"loc": list(e.get("loc", ())), "type": e.get("type", "invalid")} for e in errors]
    reasons = "; ".join(_why(e) for e in errors) or "body"
    return error_response(
        HTTPStatus.UNPROCESSABLE_ENTITY, "invalid_request", f"invalid request: {reasons}", detail=detail
    )


def _why(error: Mapping[str, Any]) -> str:
    """``body.amount: Input should be greater than 0``: where, and the rule broken (lower-cased after the colon)."""
    where = ".".join(str(part) for part in error.get("loc", ())) or "body"
    msg = str(error.get("msg") or "").removeprefix("Value error, ")
    return f"{where}: {msg[:1].lower()}{msg[1:]}" if msg else where


def _unsupported_content_type(error: RequestUnsupportedContentType) -> Response[dict[str, Any]]:
    return error_response(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type", "bodies are JSON")


def _route_not_found(error: NotFoundError) -> Response[dict[str, Any]]:
    return error_response(HTTPStatus.NOT_FOUND, "not_found", "no such route")


def _unexpected_error(error: Exception) -> Response[dict[str, Any]]:
    logger.exception("unexpected error")
    return error_response(HTTPStatus.INTERNAL_SERVER_ERROR, "internal_error", "internal error")


def _json_body(text: str) -> Any:
    """The body's JSON within ``limits``' bounds; outside them the same 422 as malformed JSON."""
    try:
        return limits.parse_json(text)
    except limits.InvalidJson as error:
        raise RequestValidationError(
            [{"type": error.kind, "loc": ("body",), "msg": error.message, "input": {}, "ctx": {}}]
        ) from None


def _refusal(status: HTTPStatus, code: str, message: str) -> dict[str, Any]:
    """An HTTP API (payload v2) answer built before the resolver runs."""
    logger.info("request refused", extra={"error": code, "status": int(status)})
    return {
        "statusCode": int(status),
        "headers": {"Content-Type": content_types.APPLICATION_JSON},
        "body": json.dumps(error_body(code, message)),
        "isBase64Encoded": False,
    }


_BODILESS_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _not_json(event: Mapping[str, Any]) -> bool:
    """A request that may carry a body and says it is not JSON (form data, multipart, text...)."""
    method = str(((event.get("requestContext") or {}).get("http") or {}).get("method") or "").upper()
    headers = {str(k).lower(): str(v) for k, v in (event.get("headers") or {}).items()}
    media_type = headers.get("content-type", "").strip()
    return bool(media_type) and method not in _BODILESS_METHODS and not media_type.startswith("application/json")


def _without_media_type(event: Mapping[str, Any]) -> dict[str, Any]:
    """The event without its ``Content-Type``: an empty body says nothing (clients send POST with no body as
    ``application/octet-stream``), and Powertools would parse it by that type."""
    headers = {k: v for k, v in (event.get("headers") or {}).items() if str(k).lower() != "content-type"}
    return {**event, "headers": headers}


Gate = Callable[[Mapping[str, Any]], object]
"""Who may call a resolver at all, checked on the raw event: raises ``Unauthorized`` or ``Forbidden``."""


class BoundedHttpResolver(APIGatewayHttpResolver):
    """Refuses, before routing, validating or parsing anything: a caller the ``gate`` turns away (401/403, so
    that nobody else learns what a route validates), a body over ``limits.MAX_BODY_BYTES`` (413) and a body
    that says it is not JSON (415; Powertools would otherwise parse form data, or fail on a multipart body
    without its boundary)."""

    def __init__(self, *, gate: Gate | None = None, **options: Any) -> None:
        super().__init__(**options)
        self._gate = gate

    def resolve(self, event: Mapping[str, Any], context: Any) -> dict[str, Any]:
        if self._gate is not None:
            try:
                self._gate(event)
            except EdgeError as refused:
                return _refusal(status_of(refused), code_of(refused), str(refused))
        try:
            limits.check_size(limits.body_size(event))
        except PayloadTooLarge as error:
            return _refusal(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, error.code, str(error))
        if _not_json(event):
            if limits.body_size(event):
                return _refusal(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type", "bodies are JSON")
            event = _without_media_type(event)
        return super().resolve(event, context)

    @staticmethod
    def _compile_regex(rule: str, base_regex: str = "^{}$") -> re.Pattern[str]:
        """A route's pattern, each ``<param>`` any text but ``/``: the HTTP API delivers the path
        percent-decoded, so a parameter may hold any character, and the route's validation judges it (a 422),
        not Powertools' narrower pattern (a 404 "no such route")."""
        return re.compile(base_regex.format(_PARAMETER.sub(r"(?P\1[^/]+)", rule)))


_PARAMETER = re.compile(r"(<\w+>)")


def http_resolver(gate: Gate | None = None, **options: Any) -> APIGatewayHttpResolver:
    """An HTTP API (payload v2) resolver with pydantic validation and the error mapping registered; ``gate``
    (say, operators only) runs on every request before anything else."""
    options.setdefault("json_body_deserializer", _json_body)
    app = BoundedHttpResolver(gate=gate, enable_validation=True, **options)
    app.exception_handler(RequestValidationError)(_invalid_request)
    app.exception_handler(RequestUnsupportedContentType)(_unsupported_content_type)
    app.exception_handler(NotFoundError)(_route_not_found)
    app.exception_handler([errors.TourneyError, EdgeError])(_known_error)
    app.exception_handler(Exception)(_unexpected_error)
    return app


OPENAPI_INFO: dict[str, Any] = {
    "title": "tourney",
    "version": "1.0.0",
    "description": (
        "Poker tournaments: lobby, registration, accounts, tables and actions (players); "
        "create, terminate and deposits (operators, /admin/*). Every route but /openapi.json and /swagger "
        "needs a JWT (Authorization: Bearer). Money is integer cents, times ISO-8601 UTC. "
        "Errors are JSON {error, message} with a 4xx status. "
        f"Limits: a body is at most {limits.MAX_BODY_BYTES} bytes of JSON nested at most {limits.MAX_JSON_DEPTH} "
        "deep (else 413 or 422); every number has the maximum its schema states (one amount of money at most "
        f"{MAX_CENTS:,} cents, chips at most {MAX_CHIPS:,}); times carry their offset (a naive time is a 422)."
    ),
}
"""The spec's title, version and description, shared by the functions that serve or generate it."""


def error_responses(*statuses: int, success: int = 200, description: str = "OK") -> dict[int, OpenAPIResponse]:
    """OpenAPI ``responses``: the success status (its schema from the route's return type) and the error
    statuses a route may answer (always 401, 413, 415, 422 and 429), each with the error body; 401, 413 and
    429 as API Gateway answers them itself (``GatewayMessage``)."""
    phrases = {
        401: 'no or invalid token: the JWT authorizer answers {"message": "Unauthorized"} before any function runs',
        413: f"the body is over {limits.MAX_BODY_BYTES} bytes",
        415: "the body is not JSON (Content-Type)",
        429: 'over the stage\'s throttle: API Gateway answers {"message": "Too Many Requests"} (infra/throttling.py)',
        403: "not allowed (another player's seat, or an operator route)",
        404: "no such tournament, table, hand or registration",
        409: "conflicts with the current state (stale decision, closed registration, ...)",
        422: "invalid request (malformed JSON, wrong types, out of range), or insufficient funds",
    }
    answers: dict[int, dict[str, Any]] = {success: {"description": description}}
    return cast(
        "dict[int, OpenAPIResponse]",
        answers
        | {
            status: {
                "description": phrases.get(status, HTTPStatus(status).phrase),
                "content": {"application/json": {"model": GatewayMessage if status in (401, 413, 429) else ErrorBody}},
            }
            for status in sorted({401, 413, 415, 422, 429, *statuses})
        },
    )
