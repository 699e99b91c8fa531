"""The AsyncAPI document of the WebSocket API (``docs/asyncapi.json``, served at ``GET /asyncapi.json``).

The messages a client sends are the ``ClientMessage`` models (``entrypoints/models.py``): their schemas
are generated from them. The messages the API sends are listed here, each with the field that names it
(``type`` for answers and the chat push, ``event`` for pushes) and its payload; the table views they
carry are generated from ``services/views.py``. ``tests/integration/test_api_documents.py`` reads
the code for every message it parses and sends and fails on one this document does not name.
"""

from __future__ import annotations

import typing
from typing import Any, Final

from pydantic import TypeAdapter

from tourney.domain.fees import Purchase
from tourney.entrypoints.apidocs import HOW_TO_GET_A_TOKEN
from tourney.entrypoints.models import ClientMessage
from tourney.services.views import ActionOutcome, PlaceView, TableView

REF: Final = "#/components/schemas/{model}"
NULLABLE_INT: Final = {"type": ["integer", "null"]}
NULLABLE_TIME: Final = {"type": ["string", "null"], "description": "ISO-8601 UTC"}

ANSWERS: Final[dict[str, tuple[str, dict[str, Any]]]] = {
    "connected": ("The connection is open (the answer to $connect)", {"player": {"type": "string"}}),
    "disconnected": ("The connection is forgotten (the answer to $disconnect; no client receives it)", {}),
    "table": ("The table as the caller sees it (the answer to subscribe)", {"table": {"$ref": "TableView"}}),
    "action_accepted": ("The decision was applied (the answer to act)", {"outcome": {"$ref": "ActionOutcome"}}),
    "chat_accepted": (
        "The chat line was said at the table (the answer to chat)",
        {"hand": {"type": ["integer", "null"]}},
    ),
    "error": (
        "A message refused: its error code (the HTTP API's) and why; nothing changed",
        {
            "error": {"type": "string", "description": "the code, as in the HTTP API's error body"},
            "message": {"type": "string"},
            "detail": {"type": "array", "description": "invalid_request: each field refused and why"},
        },
    ),
}
"""Frames sent to the connection that sent a message (``type``), as the route's answer and through @connections."""

TABLE_EVENTS: Final[dict[str, str]] = {
    "hand_dealt": "A hand was dealt (the first of the table, or the next)",
    "action": "A player acted",
    "timeout": "The decision's time ran out: the time-out checked or folded for the player",
    "time_bank": "The decision's time ran out and the player's time bank runs",
    "away": "A player sat out",
    "back": "A player came back",
    str(Purchase.REBUY): "A player rebought",
    str(Purchase.ADD_ON): "A player took the add-on",
    "stack_adjusted": "An operator adjusted a stack",
    "disqualified": "An operator disqualified a player at this table",
    "table_changed": "Players were moved in or out, or the table closed (balancing, breaking)",
    "hand_for_hand": "Hand-for-hand: the table's hand is over and it waits for the round's other tables",
}
"""Table pushes ``{"event": name, "table": TableView}``: every connection subscribed to the table gets the table as
its player sees it (a seated player's own hole cards; the observer's view otherwise)."""

PLAYER_EVENTS: Final[dict[str, tuple[str, dict[str, Any]]]] = {
    "moved": (
        "The player was moved to another table (balancing, breaking): where they now sit; open that table",
        {
            "tournament_id": {"type": "string"},
            "player_id": {"type": "string"},
            "table": {"type": "string"},
            "seat": {"type": "integer"},
            "from_table": {"type": "string"},
            "reason": {"type": "string"},
        },
    ),
    "placed": (
        "The player finished the tournament: their place and prize (cents)",
        {
            "tournament_id": {"type": "string"},
            "player_id": {"type": "string"},
            "place": {"type": "integer"},
            "prize": {"type": "integer"},
        },
    ),
    "rebuy_offered": (
        "The player busted within the rebuy period: they may rebuy (POST /tournaments/{id}/rebuys)",
        {"tournament_id": {"type": "string"}, "table": {"type": "string"}},
    ),
    "disqualified": (
        "An operator disqualified the player, with the reason",
        {"tournament_id": {"type": "string"}, "reason": {"type": "string"}},
    ),
    "muted": (
        "An operator muted the player in chat until a time (null: until unmuted)",
        {"until": {"type": ["string", "null"]}},
    ),
    "unmuted": ("The player's chat mute was lifted", {"until": {"type": ["string", "null"]}}),
}
"""Pushes to every connection of one player ``{"event": name, ...}``."""

CHAT: Final = (
    "A chat line said at the table (docs/rules.md, rule 18), to every connection subscribed to it",
    {
        "tournament_id": {"type": "string"},
        "table": {"type": "string"},
        "hand": NULLABLE_INT,
        "player": {"type": "string"},
        "name": {"type": "string", "description": "the speaker's display name (their id when they chose none)"},
        "text": {"type": "string"},
    },
)


def _client_models() -> list[Any]:
    union = typing.get_args(ClientMessage)[0]
    return list(typing.get_args(union))


def _schemas() -> dict[str, Any]:
    """The view schemas the messages refer to, and those they refer to in turn."""
    schemas: dict[str, Any] = {}
    for view in (TableView, ActionOutcome, PlaceView):
        schema = TypeAdapter(view).json_schema(ref_template=REF)
        schemas.update(schema.pop("$defs", {}))
        schemas[view.__name__] = schema
    return schemas


def _payload(field: str, name: str, properties: dict[str, Any], description: str) -> dict[str, Any]:
    resolved = {
        key: {"$ref": REF.format(model=value["$ref"])} if set(value) == {"$ref"} else value
        for key, value in properties.items()
    }
    return {
        "type": "object",
        "description": description,
        "properties": {field: {"type": "string", "const": name}, **resolved},
        "required": [field, *resolved],
    }


def _message(key: str, name: str, summary: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "title": key, "summary": summary, "contentType": "application/json", "payload": payload}


def asyncapi_document() -> dict[str, Any]:
    """The AsyncAPI 3.0 document of the WebSocket API."""
    messages, receive, send = _messages()
    channel = {
        "address": "/",
        "title": "The connection",
        "description": "One WebSocket per client. API Gateway routes a client's message on its action field.",
        "messages": {key: {"$ref": f"#/components/messages/{key}"} for key in messages},
    }
    return {
        "asyncapi": "3.0.0",
        "info": _info(),
        "defaultContentType": "application/json",
        "servers": _servers(),
        "channels": {"connection": channel},
        "operations": _operations(messages, receive, send),
        "components": {"messages": messages, "schemas": _schemas()},
    }


def _messages() -> tuple[dict[str, Any], list[str], list[str]]:
    """Every message by key; the keys of those a client sends, and of those the API sends."""
    messages: dict[str, Any] = {}
    receive: list[str] = []
    send: list[str] = []
    for model in _client_models():
        action = typing.get_args(model.model_fields["action"].annotation)[0]
        schema = model.model_json_schema(ref_template=REF)
        messages[action] = _message(action, action, (model.__doc__ or action).strip().splitlines()[0], schema)
        receive.append(action)
    for name, (summary, properties) in ANSWERS.items():
        messages[f"answer.{name}"] = _message(name, name, summary, _payload("type", name, properties, summary))
        send.append(f"answer.{name}")
    messages["push.chat"] = _message("chat", "chat", CHAT[0], _payload("type", "chat", CHAT[1], CHAT[0]))
    send.append("push.chat")
    for name, summary in TABLE_EVENTS.items():
        payload = _payload("event", name, {"table": {"$ref": "TableView"}}, summary)
        messages[f"push.table.{name}"] = _message(name, name, summary, payload)
        send.append(f"push.table.{name}")
    for name, (summary, properties) in PLAYER_EVENTS.items():
        messages[f"push.player.{name}"] = _message(name, name, summary, _payload("event", name, properties, summary))
        send.append(f"push.player.{name}")
    return messages, receive, send


def _info() -> dict[str, Any]:
    """What the API is, and how a client connects."""
    return {
        "title": "tourney WebSocket API",
        "version": "1.0.0",
        "description": (
            "Live tables: subscribe to a table, act and chat; the API pushes every change of the tables a "
            "connection watches and what happens to its player (moves, places, mutes). Connect with the "
            "token as a query parameter (wss://.../live?token=JWT; without a valid token the connection is "
            "refused). Messages are JSON of at most 16384 bytes; a refused one answers an error frame and "
            f"changes nothing. The HTTP API is described in openapi.json beside this document. {HOW_TO_GET_A_TOKEN}"
        ),
    }


def _servers() -> dict[str, Any]:
    """Where the API listens: the stack on AWS, and the local stack."""
    return {
        "aws": {
            "host": "{apiId}.execute-api.{region}.amazonaws.com",
            "pathname": "/live",
            "protocol": "wss",
            "description": "The stack's WebSocketUrl output",
            "variables": {"apiId": {}, "region": {}},
        },
        "local": {
            "host": "127.0.0.1:8000",
            "pathname": "/live",
            "protocol": "ws",
            "description": "tourney local up",
        },
    }


def _operations(messages: dict[str, Any], receive: list[str], send: list[str]) -> dict[str, Any]:
    """An operation for each message: ``receive`` those a client sends, ``send`` those the API sends."""

    def refs(keys: list[str]) -> list[dict[str, str]]:
        return [{"$ref": f"#/channels/connection/messages/{key}"} for key in keys]

    return {
        **{
            f"receive.{key}": {
                "action": "receive",
                "channel": {"$ref": "#/channels/connection"},
                "summary": f"A client sends {key}",
                "messages": refs([key]),
            }
            for key in receive
        },
        **{
            f"send.{key}": {
                "action": "send",
                "channel": {"$ref": "#/channels/connection"},
                "summary": messages[key]["summary"],
                "messages": refs([key]),
            }
            for key in send
        },
    }
