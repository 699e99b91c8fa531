"""The WebSocket function fed with API Gateway WebSocket events; replies through @connections on moto."""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from moto.apigatewaymanagementapi.models import apigatewaymanagementapi_backends
from moto.core import DEFAULT_ACCOUNT_ID
from tourney.adapters.memory import FrozenClock, MemoryAdapters, MemoryPushes
from tourney.bootstrap import Services, bootstrap
from tourney.entrypoints.dependencies import use_services
from tourney.entrypoints.settings import Settings, use_settings

from functions.ws.app import handler
from tests.support.aws import REGION, aws  # noqa: F401
from tests.support.events import FakeContext, ws_event
from tests.support.functions import clock, context, running  # noqa: F401

ISSUER = "https://issuer.test/pool"
AUDIENCE = "tourney-client"


class Connections(MemoryPushes):
    """The in-memory pushes, with the connection book-keeping the ws function needs (forget, whose)."""

    def disconnect(self, connection: str) -> None:
        self._players.pop(connection, None)
        for subscribers in self._subscriptions.values():
            subscribers.discard(connection)

    def player_of(self, connection: str) -> str | None:
        return self._players.get(connection)


@pytest.fixture
def signing_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture
def ws_settings(tmp_path: Path, signing_key: rsa.RSAPrivateKey) -> Iterator[Settings]:
    """Settings whose JWKS (a file: URL) holds the test key."""
    public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(signing_key.public_key()))
    jwks = tmp_path / "jwks.json"
    jwks.write_text(json.dumps({"keys": [{**public, "kid": "k1", "alg": "RS256", "use": "sig"}]}))
    config = Settings.from_environ({"JWT_ISSUER": ISSUER, "JWT_AUDIENCE": AUDIENCE, "JWT_JWKS_URL": jwks.as_uri()})
    with use_settings(config):
        yield config


@pytest.fixture
def services(clock: FrozenClock, aws: None, ws_settings: Settings) -> Iterator[Services]:
    import random

    adapters = MemoryAdapters.create(clock)
    pushes = Connections()
    wired = bootstrap(
        store=adapters.store, pushes=pushes, timers=adapters.timers, coordination=adapters.coordination,
        start_scheduler=adapters.start_scheduler, workflows=adapters.workflows, clock=clock,
        rng=random.Random(5), adapters=adapters, connections=pushes,
    )  # fmt: skip
    with use_services(wired):
        yield wired


def token(key: rsa.RSAPrivateKey, player: str, **claims: Any) -> str:
    payload = {"sub": player, "iss": ISSUER, "aud": AUDIENCE, "exp": int(time.time()) + 600, **claims}
    return jwt.encode(payload, key, algorithm="RS256", headers={"kid": "k1"})


def sent_to(connection: str) -> list[dict[str, Any]]:
    """What @connections received for ``connection`` (moto keeps the bytes posted)."""
    backend = apigatewaymanagementapi_backends[DEFAULT_ACCOUNT_ID][REGION]
    data = backend.connections[connection].data.decode() if connection in backend.connections else ""
    return [json.loads(line) for line in data.replace("}{", "}\n{").splitlines() if line]


def connect(context: FakeContext, key: rsa.RSAPrivateKey, connection: str, player: str) -> dict[str, Any]:
    return handler(ws_event("$connect", connection, query={"token": token(key, player)}), context)


def send(context: FakeContext, connection: str, body: Any) -> tuple[int, dict[str, Any]]:
    action = body.get("action", "$default") if isinstance(body, dict) else "$default"
    route = action if action in ("subscribe", "act", "chat") else "$default"
    answer = handler(ws_event(route, connection, body=body), context)
    return answer["statusCode"], json.loads(answer["body"])


def test_connect_with_a_valid_token_is_accepted(services: Services, signing_key, context) -> None:
    answer = connect(context, signing_key, "c1", "ann")
    assert answer["statusCode"] == 200
    assert services.deps.pushes.player_of("c1") == "ann"


@pytest.mark.parametrize(
    "query",
    [
        None,  # no token
        {"token": "not-a-jwt"},
        {"token": "EXPIRED"},
        {"token": "FOREIGN"},  # signed by another key
        {"token": "WRONG_AUDIENCE"},
    ],
)
def test_connect_without_a_valid_token_is_refused(services: Services, signing_key, context, query) -> None:
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    tokens = {
        "EXPIRED": token(signing_key, "ann", exp=int(time.time()) - 10),
        "FOREIGN": token(other, "ann"),
        "WRONG_AUDIENCE": token(signing_key, "ann", aud="someone-else"),
    }
    if query is not None and query["token"] in tokens:
        query = {"token": tokens[query["token"]]}
    answer = handler(ws_event("$connect", "c9", query=query), context)
    assert answer["statusCode"] == 401 and json.loads(answer["body"])["error"] == "unauthorized"
    assert services.deps.pushes.player_of("c9") is None


def test_an_observer_subscribes_and_sees_no_hole_card(services: Services, clock, signing_key, context) -> None:
    # Given a running table and a connected observer who is not seated there
    tid, table = running(services, clock)
    connect(context, signing_key, "obs", "watcher")
    # When the observer subscribes
    status, body = send(context, "obs", {"action": "subscribe", "tournament_id": tid, "table_id": table})
    # Then the table comes back (also through @connections) without any hole card
    assert status == 200 and body["type"] == "table"
    assert all(seat["cards"] == [] for seat in body["table"]["seats"])
    assert sent_to("obs") == [body]


def test_a_seated_player_subscribes_and_sees_only_their_own_cards(services, clock, signing_key, context) -> None:
    tid, table = running(services, clock)
    connect(context, signing_key, "c-p0", "p0")
    _, body = send(context, "c-p0", {"action": "subscribe", "tournament_id": tid, "table_id": table})
    seats = {seat["player"]: seat["cards"] for seat in body["table"]["seats"]}
    assert len(seats.pop("p0")) == 2 and all(cards == [] for cards in seats.values())


def test_act_takes_the_players_decision_and_refuses_another_player(services, clock, signing_key, context) -> None:
    # Given the player to act and another seated player, both connected
    tid, table = running(services, clock)
    to_act = services.lobby.table_view(tid, table, None).to_act
    assert to_act is not None
    hand = services.lobby.table_view(tid, table, to_act.player).hand
    other = next(s.player for s in services.lobby.table_view(tid, table, None).seats if s.player != to_act.player)
    connect(context, signing_key, "c-me", to_act.player)
    connect(context, signing_key, "c-other", other)
    decision = {"action": "act", "tournament_id": tid, "table_id": table, "hand": hand, "seq": to_act.seq,
                "kind": "fold"}  # fmt: skip
    # When the other player sends the decision, then the player to act does
    refused_status, refused = send(context, "c-other", decision)
    status, accepted = send(context, "c-me", decision)
    # Then only the player at that seat is heard
    assert refused_status in (403, 409) and refused["type"] == "error"
    assert status == 200 and accepted["outcome"]["action"] == "fold"
    assert sent_to("c-other")[-1]["error"] == refused["error"]


@pytest.mark.parametrize(
    "body",
    ['{"action": "dance"}', "{not json", '{"action": "act", "tournament_id": "t1", "table_id": "a", "hand": 1}'],
)
def test_a_bad_message_is_answered_with_an_error_frame(services, signing_key, context, body: str) -> None:
    connect(context, signing_key, "c1", "ann")
    answer = handler(ws_event("$default", "c1", raw_body=body), context)
    frame = json.loads(answer["body"])
    assert answer["statusCode"] == 422 and frame == {**frame, "type": "error", "error": "invalid_request"}


def test_a_message_from_an_unknown_connection_is_refused(services, context) -> None:
    status, body = send(context, "ghost", {"action": "subscribe", "tournament_id": "t1", "table_id": "a"})
    assert (status, body["error"]) == (401, "unauthorized")


def test_rule_18_observers_read_the_chat_only(services, clock, signing_key, context) -> None:
    # Given an observer subscribed to a table
    tid, table = running(services, clock)
    connect(context, signing_key, "obs", "watcher")
    send(context, "obs", {"action": "subscribe", "tournament_id": tid, "table_id": table})
    # When the observer chats, then it is refused as 'observer' (an error frame, the connection kept)
    status, body = send(context, "obs", {"action": "chat", "tournament_id": tid, "table_id": table, "text": "gl all"})
    assert (status, body["type"], body["error"]) == (409, "error", "observer")
    assert services.deps.pushes.player_of("obs") == "watcher"


def test_rule_18_operators_may_always_write(services, clock, signing_key, context) -> None:
    # Given an operator's connection and an observer subscribed to a table whose hand is in progress
    tid, table = running(services, clock)
    operator = token(signing_key, "olga", **{"cognito:groups": ["operators"]})
    handler(ws_event("$connect", "c-op", query={"token": operator}), context)
    connect(context, signing_key, "obs", "watcher")
    send(context, "obs", {"action": "subscribe", "tournament_id": tid, "table_id": table})
    # When the operator chats
    status, body = send(context, "c-op", {"action": "chat", "tournament_id": tid, "table_id": table, "text": "hi all"})
    # Then the line reaches the table's subscribers, with the hand it was said in
    assert (status, body["type"]) == (200, "chat_accepted")
    pushed = services.deps.pushes.received("obs")[-1]
    assert pushed == {"type": "chat", "tournament_id": tid, "table": table, "hand": body["hand"], "player": "olga",
                      "name": "olga", "text": "hi all"}  # fmt: skip


def test_rule_18_a_player_in_the_hand_cannot_chat(services, clock, signing_key, context) -> None:
    tid, table = running(services, clock)
    connect(context, signing_key, "c-p0", "p0")
    status, body = send(context, "c-p0", {"action": "chat", "tournament_id": tid, "table_id": table, "text": "nice"})
    assert (status, body["error"]) == (409, "in_hand")


def test_disconnect_forgets_the_connection(services, clock, signing_key, context) -> None:
    tid, table = running(services, clock)
    connect(context, signing_key, "c1", "watcher")
    send(context, "c1", {"action": "subscribe", "tournament_id": tid, "table_id": table})
    handler(ws_event("$disconnect", "c1"), context)
    services.deps.pushes.to_table(tid, table, {"type": "ping"}, {})
    assert services.deps.pushes.player_of("c1") is None
    assert services.deps.pushes.received("c1") == []


def test_a_gone_connection_is_removed_when_a_push_finds_it_gone(services, signing_key, context) -> None:
    import boto3
    from botocore.stub import Stubber
    from tourney.entrypoints.connections import ConnectionsApi

    # Given a connected player whose client vanished without $disconnect
    connect(context, signing_key, "c-gone", "ann")
    client = boto3.client(
        "apigatewaymanagementapi", endpoint_url="https://ws1.execute-api.us-east-1.amazonaws.com/live",
        region_name=REGION,
    )  # fmt: skip
    api = ConnectionsApi("unused", forget=services.deps.pushes.disconnect, client=client)
    # When a push to it is answered 410 GoneException by API Gateway
    with Stubber(client) as gateway:
        gateway.add_client_error("post_to_connection", service_error_code="GoneException", http_status_code=410)
        delivered = api.post("c-gone", {"type": "ping"})
    # Then the push is dropped without an error, and the connection is forgotten
    assert delivered is False
    assert services.deps.pushes.player_of("c-gone") is None
