"""WebSocket connections on DynamoDB: who is behind a connection and which tables it watches.

:class:`DynamoConnections` is what the ``ws`` function and the pushes adapter
(``tourney.adapters.aws.WebSocketPushes``, which extends it) need:
``connect`` and ``disconnect`` (also when a push finds the connection gone),
``subscribe``, ``player_of``, a table's ``subscribers`` (one Query of the
``subscribers`` index: :class:`Subscriber` pairs of connection and player, so
each recipient gets what it may see) and a player's connections,
``connections_of`` (one Query of ``player_connections``). The stored shapes are in ``models/connections.py``.

Items expire by TTL two hours after they were written (API Gateway closes a
WebSocket after two hours at most), so a client that vanished without
``$disconnect`` leaves nothing behind for long. The indexes are eventually
consistent: a subscription made a moment ago may miss one push, and the
client's ``subscribe`` answer already carries the table.
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

LIFETIME_SECONDS = 2 * 60 * 60
"""API Gateway closes a WebSocket connection after two hours."""


class Subscriber(NamedTuple):
    """A connection watching a table, and whose it is (None: an observer)."""

    connection_id: str
    player: str | None


class DynamoConnections:
    """Who is behind each connection and which tables it watches."""

    _clock: Callable[[], float] = time.time

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        if clock is not None:
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
        """Forget the connection and its subscriptions (one Query, then a batch of deletes)."""
        with ConnectionItem.batch_write() as batch:
            for item in ConnectionItem.query(connection_pk(connection)):
                batch.delete(item)

    def subscribe(self, connection: str, tournament_id: str, table_id: str) -> None:
        """Watch a table; the connection's player (None: an observer) is copied so pushes know what it may see."""
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
        """Every connection watching the table, with its player."""
        return [
            Subscriber(item.connection_id, item.player)
            for item in ConnectionItem.subscribers.query(subscription_key(tournament_id, table_id))
        ]

    def connections_of(self, player: str) -> list[str]:
        """The player's connections (their subscription items share the index: connection items only)."""
        return [
            item.pk.removeprefix(connection_pk(""))
            for item in ConnectionItem.player_connections.query(player)
            if item.sk == CONNECTION_SK
        ]

    of_player = connections_of


ConnectionStore = DynamoConnections
"""The name the pushes adapter first used."""
