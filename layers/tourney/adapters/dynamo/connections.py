"""WebSocket connections and their subscriptions, in the ``connections`` table (docs/data-model.md).

=================  ====================  =====================================  ==========================
item               pk                    sk                                     index keys
=================  ====================  =====================================  ==========================
connection         ``conn#<id>``         ``conn``                               ``player`` (player_connections)
subscription       ``conn#<id>``         ``sub#<tournament>#<table>``           ``subscription`` (subscribers)
=================  ====================  =====================================  ==========================

Both expire with the connection (TTL ``expires_at``, a day after the last
subscribe): API Gateway drops a WebSocket after two hours at most, and a
client that vanished without ``$disconnect`` is also removed the first time a
push finds it gone. A table's subscribers are one Query on the ``subscribers``
index (eventually consistent: a subscription made a moment ago may miss one
push, and the client's ``subscribe`` answer already carries the table).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from pynamodb.attributes import NumberAttribute, UnicodeAttribute
from pynamodb.indexes import GlobalSecondaryIndex, IncludeProjection, KeysOnlyProjection
from pynamodb.models import Model

from tourney.adapters.dynamo.models.base import meta_for, stored_in
from tourney.adapters.dynamo.schema import CONNECTIONS, PLAYER_INDEX, SUBSCRIPTION_INDEX

CONNECTION_SK = "conn"
LIFETIME_SECONDS = 24 * 3600


class _Subscribers(GlobalSecondaryIndex["ConnectionItem"]):
    class Meta:
        index_name = SUBSCRIPTION_INDEX.name
        projection = IncludeProjection(list(SUBSCRIPTION_INDEX.included))

    subscription = UnicodeAttribute(hash_key=True)
    pk = UnicodeAttribute(range_key=True)


class _PlayerConnections(GlobalSecondaryIndex["ConnectionItem"]):
    class Meta:
        index_name = PLAYER_INDEX.name
        projection = KeysOnlyProjection()

    player = UnicodeAttribute(hash_key=True)
    pk = UnicodeAttribute(range_key=True)


@stored_in(CONNECTIONS)
class ConnectionItem(Model):
    Meta = meta_for(CONNECTIONS)

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)
    connection_id = UnicodeAttribute()
    player = UnicodeAttribute(null=True)
    subscription = UnicodeAttribute(null=True)
    expires_at = NumberAttribute()

    subscribers = _Subscribers()
    player_connections = _PlayerConnections()


def _pk(connection: str) -> str:
    return f"conn#{connection}"


class ConnectionStore:
    """Who is behind each connection and which tables it watches."""

    def connect(self, connection: str, player: str | None = None) -> None:
        expires = int(time.time()) + LIFETIME_SECONDS
        ConnectionItem(_pk(connection), CONNECTION_SK, connection_id=connection, player=player, expires_at=expires).save()

    def disconnect(self, connection: str) -> None:
        with ConnectionItem.batch_write() as batch:
            for item in ConnectionItem.query(_pk(connection)):
                batch.delete(item)

    def subscribe(self, connection: str, tournament_id: str, table_id: str) -> None:
        player = self.player_of(connection)
        subscription = f"{tournament_id}#{table_id}"
        ConnectionItem(
            _pk(connection),
            f"sub#{subscription}",
            connection_id=connection,
            player=player,
            subscription=subscription,
            expires_at=int(time.time()) + LIFETIME_SECONDS,
        ).save()

    def player_of(self, connection: str) -> str | None:
        try:
            item = ConnectionItem.get(_pk(connection), CONNECTION_SK, consistent_read=True)
        except ConnectionItem.DoesNotExist:
            return None
        return item.player

    def subscribers(self, tournament_id: str, table_id: str) -> Iterator[tuple[str, str | None]]:
        """(connection, player) for every connection watching the table."""
        for item in ConnectionItem.subscribers.query(f"{tournament_id}#{table_id}"):
            yield item.connection_id, item.player

    def of_player(self, player: str) -> Iterator[str]:
        for item in ConnectionItem.player_connections.query(player):
            if item.sk == CONNECTION_SK:
                yield item.pk.removeprefix("conn#")
