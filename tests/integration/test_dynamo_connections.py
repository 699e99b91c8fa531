"""WebSocket connections on DynamoDB (moto): subscribe, find a table's subscribers, forget on disconnect."""

from __future__ import annotations

import pytest
from tourney.adapters.dynamo.connections import LIFETIME_SECONDS, DynamoConnections, Subscriber
from tourney.adapters.dynamo.models.connections import CONNECTION_SK, connection_pk
from tourney.adapters.dynamo.schema import CONNECTIONS

from tests.support.aws import aws, dynamodb, raw_item  # noqa: F401

pytestmark = pytest.mark.usefixtures("dynamodb")

NOW = 1_780_000_000.0


def test_a_tables_subscribers_are_found_with_their_players_and_forgotten_on_disconnect() -> None:
    # Given a player and an observer subscribed to table 3, and another player elsewhere
    connections = DynamoConnections(clock=lambda: NOW)
    connections.connect("c-ann", "ann")
    connections.connect("c-obs")
    connections.connect("c-bob", "bob")
    connections.subscribe("c-ann", "t1", "3")
    connections.subscribe("c-obs", "t1", "3")
    connections.subscribe("c-bob", "t1", "4")
    # When the pushes ask who watches table 3
    watching = sorted(connections.subscribers("t1", "3"))
    # Then the player and the observer, with whose connection each is
    assert watching == [Subscriber("c-ann", "ann"), Subscriber("c-obs", None)]
    assert connections.player_of("c-ann") == "ann"
    assert connections.connections_of("ann") == ["c-ann"]
    # And after ann disconnects, she is gone from the table and has no connection
    connections.disconnect("c-ann")
    assert list(connections.subscribers("t1", "3")) == [("c-obs", None)]
    assert connections.player_of("c-ann") is None
    assert connections.connections_of("ann") == []


def test_connections_expire_by_ttl_after_api_gateways_two_hours() -> None:
    connections = DynamoConnections(clock=lambda: NOW)
    connections.connect("c-1", "ann")
    item = raw_item(CONNECTIONS.name(), connection_pk("c-1"), CONNECTION_SK)
    assert item is not None
    assert int(item["expires_at"]["N"]) == int(NOW) + LIFETIME_SECONDS
