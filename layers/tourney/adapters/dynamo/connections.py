"""WebSocket connections and their subscriptions on DynamoDB (docs/data-model.md, "connections").

The items are ``models/connections.py``'s. A table's subscribers are one Query
on the ``subscribers`` index (eventually consistent: a subscription made a
moment ago may miss one push; the client's ``subscribe`` answer already
carries the table); a player's connections one Query on
``player_connections``. Everything expires with the connection (TTL
``expires_at``), and a connection API Gateway reports gone is deleted at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import NamedTuple

from tourney.adapters.dynamo.models.connections import (
    CONNECTION_SK,
    SUBSCRIPTION_PREFIX,
    ConnectionItem,
    connection_pk,
    subscription_key,
)

LIFETIME_SECONDS = 2 * 3600
"""API Gateway closes a WebSocket connection after two hours at most."""


class Subscriber(NamedTuple):
    connection_id: str
    player: str | None


class DynamoConnections:
    """Who is behind each connection and which tables it watches."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock

    def _expires(self) -> int:
        return int(self._clock()) + LIFETIME_SECONDS

    def connect(self, connection: str, player: str | None = None) -> None:
        ConnectionItem(
            connection_pk(connection),
            CONNECTION_SK,
            connection_id=connection,
            player=player,
            connected_at=datetime.fromtimestamp(self._clock(), UTC).isoformat(),
            expires_at=self._expires(),
        ).save()

    def disconnect(self, connection: str) -> None:
        with ConnectionItem.batch_write() as batch:
            for item in ConnectionItem.query(connection_pk(connection), consistent_read=True):
                batch.delete(item)

    def subscribe(self, connection: str, tournament_id: str, table_id: str) -> None:
        key = subscription_key(tournament_id, table_id)
        ConnectionItem(
            connection_pk(connection),
            f"{SUBSCRIPTION_PREFIX}{key}",
            connection_id=connection,
            player=self.player_of(connection),
            subscription=key,
            expires_at=self._expires(),
        ).save()

    def player_of(self, connection: str) -> str | None:
        try:
            item = ConnectionItem.get(connection_pk(connection), CONNECTION_SK, consistent_read=True)
        except ConnectionItem.DoesNotExist:
            return None
        return item.player

    def subscribers(self, tournament_id: str, table_id: str) -> list[Subscriber]:
        """Every connection watching the table, with its player (None: an observer)."""
        items = ConnectionItem.subscribers.query(subscription_key(tournament_id, table_id))
        return [Subscriber(item.connection_id, item.player) for item in items]

    def connections_of(self, player: str) -> list[str]:
        """The player's open connections (connection items only, not their subscriptions)."""
        return [
            item.pk.removeprefix("connection#")
            for item in ConnectionItem.player_connections.query(player)
            if item.sk == CONNECTION_SK
        ]
