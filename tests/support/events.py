"""Events as AWS builds them, for feeding handlers in tests (API Gateway HTTP v2, WebSocket, SQS, Scheduler, SFN).

Shapes follow the AWS documentation of each trigger (payload format 2.0 for
the HTTP API; the WebSocket API's ``requestContext`` with ``routeKey``,
``eventType`` and ``connectionId``; SQS records with ``messageId``, FIFO
attributes when ``group`` is given).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any


def http_event(
    method: str,
    path: str,
    *,
    body: Any = None,
    raw_body: str | None = None,
    player: str | None = "ann",
    operator: bool = False,
    headers: dict[str, str] | None = None,
    query: str = "",
) -> dict[str, Any]:
    """An HTTP API (payload v2) event; ``player`` None: no authorizer claims (an unauthenticated route)."""
    text = raw_body if raw_body is not None else (None if body is None else json.dumps(body))
    request_context: dict[str, Any] = {
        "accountId": "123456789012",
        "apiId": "api1",
        "domainName": "api1.execute-api.us-east-1.amazonaws.com",
        "http": {"method": method, "path": path, "protocol": "HTTP/1.1", "sourceIp": "10.0.0.1", "userAgent": "test"},
        "requestId": uuid.uuid4().hex,
        "routeKey": f"{method} {path}",
        "stage": "$default",
        "time": "01/Jan/2030:00:00:00 +0000",
        "timeEpoch": 1893456000000,
    }
    if player is not None:
        claims = {"sub": player, "iss": "https://issuer.example", "token_use": "access"}
        if operator:
            claims["cognito:groups"] = "[operators]"
        request_context["authorizer"] = {"jwt": {"claims": claims, "scopes": None}}
    all_headers = {"content-type": "application/json", "host": "api1.execute-api.us-east-1.amazonaws.com"}
    all_headers.update({k.lower(): v for k, v in (headers or {}).items()})
    return {
        "version": "2.0",
        "routeKey": f"{method} {path}",
        "rawPath": path,
        "rawQueryString": query,
        "headers": all_headers,
        "queryStringParameters": dict(p.split("=", 1) for p in query.split("&")) if query else None,
        "requestContext": request_context,
        "body": text,
        "isBase64Encoded": False,
    }


def ws_event(
    route: str,
    connection_id: str,
    *,
    body: Any = None,
    raw_body: str | None = None,
    query: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A WebSocket API event for ``$connect``, ``$disconnect``, ``$default`` or a custom route."""
    event_type = {"$connect": "CONNECT", "$disconnect": "DISCONNECT"}.get(route, "MESSAGE")
    event: dict[str, Any] = {
        "requestContext": {
            "routeKey": route,
            "eventType": event_type,
            "connectionId": connection_id,
            "messageId": uuid.uuid4().hex[:12] if event_type == "MESSAGE" else None,
            "domainName": "ws1.execute-api.us-east-1.amazonaws.com",
            "stage": "live",
            "apiId": "ws1",
            "requestId": uuid.uuid4().hex,
            "connectedAt": 1893456000000,
            "requestTimeEpoch": 1893456000000,
        },
        "isBase64Encoded": False,
    }
    if route == "$connect":
        event["queryStringParameters"] = query or None
        event["headers"] = {"Host": "ws1.execute-api.us-east-1.amazonaws.com"}
    if event_type == "MESSAGE":
        event["body"] = raw_body if raw_body is not None else json.dumps(body)
    return event


def sqs_record(
    body: Any,
    *,
    message_id: str | None = None,
    group: str | None = None,
    receive_count: int = 1,
    queue: str = "timeouts",
) -> dict[str, Any]:
    """One SQS record as Lambda's event source mapping delivers it (FIFO attributes when ``group`` is given)."""
    attributes: dict[str, Any] = {
        "ApproximateReceiveCount": str(receive_count),
        "SentTimestamp": "1893456000000",
        "SenderId": "AIDAEXAMPLE",
        "ApproximateFirstReceiveTimestamp": "1893456000001",
    }
    arn = f"arn:aws:sqs:us-east-1:123456789012:{queue}"
    if group is not None:
        attributes.update(
            {
                "MessageGroupId": group,
                "MessageDeduplicationId": uuid.uuid4().hex,
                "SequenceNumber": "18849496460467696128",
            }
        )
        arn += ".fifo"
    text = body if isinstance(body, str) else json.dumps(body)
    return {
        "messageId": message_id or str(uuid.uuid4()),
        "receiptHandle": "AQEB" + uuid.uuid4().hex,
        "body": text,
        "attributes": attributes,
        "messageAttributes": {},
        "md5OfBody": "0" * 32,
        "eventSource": "aws:sqs",
        "eventSourceARN": arn,
        "awsRegion": "us-east-1",
    }


def sqs_event(*records: dict[str, Any]) -> dict[str, Any]:
    return {"Records": list(records)}


@dataclass
class FakeContext:
    """The Lambda context's attributes Powertools reads."""

    function_name: str = "tourney-test"
    memory_limit_in_mb: int = 1024
    invoked_function_arn: str = "arn:aws:lambda:us-east-1:123456789012:function:tourney-test"
    aws_request_id: str = "req-1"
    log_group_name: str = "/aws/lambda/tourney-test"
    log_stream_name: str = "stream"

    def get_remaining_time_in_millis(self) -> int:
        return 30_000


def answer_json(response: dict[str, Any]) -> Any:
    """The JSON body of a handler's HTTP answer."""
    body = response.get("body")
    return json.loads(body) if isinstance(body, str) and body else body
