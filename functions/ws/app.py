"""The WebSocket API (docs/interfaces.md, 'WebSocket API'): connect, subscribe to a table, act, chat; pushes.

Routes (``requestContext.routeKey``; API Gateway selects on the body's ``action``):

- ``$connect``: ``?token=JWT`` checked here (API Gateway has no JWT
  authorizer for WebSockets); without a valid token the connection is refused (401).
- ``$disconnect``: the connection is forgotten.
- ``subscribe``: watch any table; a seated player gets their own hole cards,
  anyone else observes. The table as this player sees it is sent back at once.
- ``act``: a decision at the caller's own seat (``hand``, ``seq``, ``kind``, ``amount``).
- ``chat``: a line to the table (docs/rules.md, rule 18; ``services/chat.py``: length
  and rate limits, who may speak, mutes, English only). Every line, refused ones
  too, is kept for operators; a refusal answers the sender only.
- ``$default``: a message whose ``action`` no route took: the same dispatch,
  and an ``error`` frame for an unknown action.

Answers go to this connection through ``@connections`` (a ``GoneException``
removes the connection) and as the route's response. Errors are frames
``{"type": "error", "error": code, "message": text}`` with the HTTP status of
the same error; nothing here branches on poker.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import TypeAdapter, ValidationError
from tourney.domain.errors import TourneyError
from tourney.entrypoints import limits
from tourney.entrypoints.auth import verify_token
from tourney.entrypoints.connections import Connections, ConnectionsApi
from tourney.entrypoints.errors import EdgeError, Unauthorized, code_of, status_of
from tourney.entrypoints.models import ActMessage, ChatMessage, ClientMessage, SubscribeMessage
from tourney.entrypoints.observability import MetricUnit, correlate, logger, metrics, observed
from tourney.entrypoints.settings import settings
from tourney.entrypoints.wiring import services

_MESSAGE: TypeAdapter[SubscribeMessage | ActMessage | ChatMessage] = TypeAdapter(ClientMessage)

Answer = dict[str, Any]


def connections() -> Connections:
    """Who is behind each connection: the port the composition root wires (the ``connections`` table on AWS)."""
    found = services().connections
    if found is None:
        raise RuntimeError("these services keep no WebSocket connections")
    return found


def reply_to(event: dict[str, Any]) -> ConnectionsApi:
    context = event["requestContext"]
    endpoint = settings().connections_endpoint or f"https://{context['domainName']}/{context['stage']}"
    return ConnectionsApi(endpoint, forget=connections().disconnect)


def answer(status: int, body: Answer) -> Answer:
    return {"statusCode": status, "body": json.dumps(body)}


# -- routes ------------------------------------------------------------------------------------------------------------


def on_connect(event: dict[str, Any], connection: str) -> Answer:
    token = (event.get("queryStringParameters") or {}).get("token")
    caller = verify_token(token)
    connections().connect(connection, caller.player_id)
    if caller.operator:
        services().chat.operator_connected(connection)  # operators may always chat (rule 18)
    logger.info("connected", extra={"connection_id": connection, "player": caller.player_id})
    return answer(200, {"type": "connected", "player": caller.player_id})


def on_disconnect(event: dict[str, Any], connection: str) -> Answer:
    connections().disconnect(connection)
    return answer(200, {"type": "disconnected"})


def subscribe(message: SubscribeMessage, connection: str, player: str) -> Answer:
    correlate(tournament_id=message.tournament_id, table_id=message.table_id)
    view = services().lobby.table_view(message.tournament_id, message.table_id, player)
    connections().subscribe(connection, message.tournament_id, message.table_id)
    return {"type": "table", "table": view.to_dict()}


def act(message: ActMessage, connection: str, player: str) -> Answer:
    correlate(tournament_id=message.tournament_id, table_id=message.table_id, hand=message.hand)
    outcome = services().play.act(
        message.tournament_id, message.table_id, player, message.hand, message.seq, message.kind, message.amount
    )
    metrics.add_metric(name="Actions", unit=MetricUnit.Count, value=1)
    return {"type": "action_accepted", "outcome": outcome.to_dict()}


def chat(message: ChatMessage, connection: str, player: str) -> Answer:
    correlate(tournament_id=message.tournament_id, table_id=message.table_id)
    chat_ = services().chat
    said = chat_.say(
        message.tournament_id, message.table_id, player, message.text, operator=chat_.is_operator(connection)
    )
    return {"type": "chat_accepted", "hand": said["hand"]}


MESSAGES: dict[str, Callable[[Any, str, str], Answer]] = {"subscribe": subscribe, "act": act, "chat": chat}


def on_message(event: dict[str, Any], connection: str) -> Answer:
    limits.check_size(limits.body_size(event))  # a message over the limit is a 413 error frame, never parsed
    message = _MESSAGE.validate_json(event.get("body") or "")
    player = connections().player_of(connection)
    if player is None:
        raise Unauthorized("unknown connection: connect again with a token")
    body = MESSAGES[message.action](message, connection, player)
    reply_to(event).post(connection, body)
    return answer(200, body)


CONNECTION_ROUTES: dict[str, Callable[[dict[str, Any], str], Answer]] = {
    "$connect": on_connect,
    "$disconnect": on_disconnect,
}


def refusal(event: dict[str, Any], connection: str, status: int, code: str, text: str, **extra: Any) -> Answer:
    body = {"type": "error", "error": code, "message": text, **extra}
    if event["requestContext"].get("eventType") == "MESSAGE":
        reply_to(event).post(connection, body)
    return answer(status, body)


@observed()
def handler(event: dict[str, Any], context: LambdaContext) -> Answer:
    route = event["requestContext"]["routeKey"]
    connection = event["requestContext"]["connectionId"]
    try:
        return CONNECTION_ROUTES.get(route, on_message)(event, connection)
    except ValidationError as error:
        detail = [{"loc": list(e.get("loc", ())), "type": e.get("type", "invalid")} for e in error.errors()]
        return refusal(event, connection, 422, "invalid_request", "invalid message", detail=detail)
    except (TourneyError, EdgeError) as error:
        logger.info("message refused", extra={"error": code_of(error), "route": route})
        return refusal(event, connection, int(status_of(error)), code_of(error), str(error))
    except Exception:
        logger.exception("unexpected error", extra={"route": route})
        raise
