"""The WebSocket API of the template: routes, route selection, event shapes, connections.

``$connect`` (the query string, ``?token=`` included, reaches the handler; a
non-2xx answer refuses the connection), ``$disconnect``, ``$default`` and the
custom routes selected on the JSON field named by the API's
``RouteSelectionExpression`` (``$request.body.action``). A route with a route
response (two-way) sends the handler's answer back to the client.

>>> api = WebSocketApi("abc", routes={"act": WebSocketRoute("act", None), "$default": WebSocketRoute("$default", None)})
>>> api.select('{"action": "act", "amount": 5}').route_key
'act'
>>> api.select('not json').route_key
'$default'
>>> api.select('{"tournament_id": "t1"}').route_key  # no action: $default, as API Gateway does
'$default'
>>> api.select('{"action": "act", "x": ' + "[" * 3_000 + "]" * 3_000 + "}").route_key  # too deep to read
'$default'
"""

from __future__ import annotations

import json
import secrets
import string
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from infra.local.lambdas import FunctionRegistry, LocalFunction
from infra.local.template import ACCOUNT_ID, Resolver, Template
from infra.local.throttle import TokenBucket

_ID_ALPHABET = string.ascii_letters + string.digits


@dataclass
class WebSocketRoute:
    route_key: str
    function: LocalFunction | None
    two_way: bool = False


@dataclass
class WebSocketApi:
    api_id: str
    stage: str = ""
    selection_expression: str = "$request.body.action"
    routes: dict[str, WebSocketRoute] = field(default_factory=dict)
    throttle: TokenBucket | None = None  # the stage's DefaultRouteSettings

    def select(self, body: str) -> WebSocketRoute | None:
        """The route of a client message (``$default`` when no custom route matches)."""
        key = None
        path = self.selection_expression.removeprefix("$request.body.")
        if path != self.selection_expression:
            try:
                value: Any = json.loads(body)
                for part in path.split("."):
                    value = value.get(part) if isinstance(value, dict) else None
                key = value if isinstance(value, str) else None
            except (ValueError, RecursionError):  # not JSON, or nested too deep to read: the $default route
                key = None
        if key is not None and key in self.routes and not key.startswith("$"):
            return self.routes[key]
        return self.routes.get("$default")


def read_websocket_apis(template: Template, resolver: Resolver, functions: FunctionRegistry) -> list[WebSocketApi]:
    """Every WebSocket API of the template with its routes."""
    from infra.local.http_api import _read_apis

    return _read_apis(template, resolver, functions, "WEBSOCKET")


def new_connection_id() -> str:
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(15)) + "="


@dataclass
class ConnectionInfo:
    connection_id: str
    source_ip: str
    user_agent: str
    connected_at: float = field(default_factory=time.time)
    last_active_at: float = field(default_factory=time.time)

    def describe(self) -> dict[str, Any]:
        """The ``GET @connections/{id}`` answer (as on the wire: boto3 reads ``Identity.SourceIp``...)."""
        return {
            "connectedAt": _iso(self.connected_at),
            "identity": {"sourceIp": self.source_ip, "userAgent": self.user_agent},
            "lastActiveAt": _iso(self.last_active_at),
        }


def _iso(epoch: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(epoch)) + f".{int(epoch * 1000) % 1000:03d}Z"


def _request_context(
    api: WebSocketApi, info: ConnectionInfo, route_key: str, event_type: str, host: str
) -> dict[str, Any]:
    now = time.time()
    return {
        "routeKey": route_key,
        "eventType": event_type,
        "extendedRequestId": uuid.uuid4().hex[:16] + "=",
        "requestTime": time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(now)),
        "messageDirection": "IN",
        "stage": api.stage or "$default",
        "connectedAt": int(info.connected_at * 1000),
        "requestTimeEpoch": int(now * 1000),
        "identity": {"sourceIp": info.source_ip, "userAgent": info.user_agent},
        "requestId": uuid.uuid4().hex[:16] + "=",
        "domainName": host,
        "connectionId": info.connection_id,
        "apiId": api.api_id,
        "accountId": ACCOUNT_ID,
    }


def connect_event(
    api: WebSocketApi, info: ConnectionInfo, headers: Mapping[str, list[str]], query: Mapping[str, list[str]], host: str
) -> dict[str, Any]:
    event: dict[str, Any] = {
        "headers": {k: ",".join(v) for k, v in headers.items()},
        "multiValueHeaders": {k: list(v) for k, v in headers.items()},
        "requestContext": _request_context(api, info, "$connect", "CONNECT", host),
        "isBase64Encoded": False,
    }
    if query:
        event["queryStringParameters"] = {k: v[-1] for k, v in query.items()}
        event["multiValueQueryStringParameters"] = {k: list(v) for k, v in query.items()}
    return event


def message_event(api: WebSocketApi, info: ConnectionInfo, route_key: str, body: str, host: str) -> dict[str, Any]:
    context = _request_context(api, info, route_key, "MESSAGE", host)
    context["messageId"] = uuid.uuid4().hex[:16] + "="
    return {"requestContext": context, "body": body, "isBase64Encoded": False}


def disconnect_event(
    api: WebSocketApi, info: ConnectionInfo, host: str, status_code: int, reason: str
) -> dict[str, Any]:
    context = _request_context(api, info, "$disconnect", "DISCONNECT", host)
    context["disconnectStatusCode"] = status_code
    context["disconnectReason"] = reason
    return {
        "headers": {"Host": host},
        "multiValueHeaders": {"Host": [host]},
        "requestContext": context,
        "isBase64Encoded": False,
    }


def route_reply(result: Any) -> str | None:
    """What a two-way route sends back: the answer's ``body``, or the answer itself."""
    if result is None:
        return None
    if isinstance(result, dict):
        if "body" in result:
            body = result["body"]
            return body if isinstance(body, str) else json.dumps(body)
        if "statusCode" in result:
            return None
    return result if isinstance(result, str) else json.dumps(result)
