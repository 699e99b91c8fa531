"""Stored shapes of the ``connections`` table (docs/data-model.md, "connections").

==================  ========================  =================================
item                pk                        sk
==================  ========================  =================================
connection          ``connection#<id>``       ``connection``
subscription        ``connection#<id>``       ``subscription#<t>#<table>``
==================  ========================  =================================

A connection item carries its ``player`` (absent for an observer), so the
``player_connections`` index finds a player's connections; a subscription item
carries ``subscription`` = ``<t>#<table>`` and the ``player``, so the
``subscribers`` index lists a table's connections with whose they are (what
each may see) in one Query. Both expire with the connection (TTL ``expires_at``:
API Gateway closes a WebSocket after two hours at most).
"""

from __future__ import annotations

from pynamodb.attributes import NumberAttribute, UnicodeAttribute
from pynamodb.indexes import GlobalSecondaryIndex, IncludeProjection, KeysOnlyProjection
from pynamodb.models import Model

from tourney.adapters.dynamo.models.base import meta_for, stored_in
from tourney.adapters.dynamo.schema import CONNECTIONS, PLAYER_INDEX, SUBSCRIPTION_INDEX

CONNECTION_SK = "connection"
SUBSCRIPTION_PREFIX = "subscription#"


def connection_pk(connection_id: str) -> str:
    return f"connection#{connection_id}"


def subscription_key(tournament_id: str, table_id: str) -> str:
    return f"{tournament_id}#{table_id}"


class SubscribersIndex(GlobalSecondaryIndex["ConnectionItem"]):  # type: ignore[no-untyped-call]
    class Meta:
        index_name = SUBSCRIPTION_INDEX.name
        projection = IncludeProjection(list(SUBSCRIPTION_INDEX.included))

    subscription = UnicodeAttribute(hash_key=True)
    pk = UnicodeAttribute(range_key=True)


class PlayerConnectionsIndex(GlobalSecondaryIndex["ConnectionItem"]):  # type: ignore[no-untyped-call]
    class Meta:
        index_name = PLAYER_INDEX.name
        projection = KeysOnlyProjection()

    player = UnicodeAttribute(hash_key=True)
    pk = UnicodeAttribute(range_key=True)


@stored_in(CONNECTIONS)
class ConnectionItem(Model):
    """A connection (``sk = connection``) or one of its subscriptions (``sk = subscription#...``)."""

    Meta = meta_for(CONNECTIONS)
    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)
    connection_id = UnicodeAttribute()
    player = UnicodeAttribute(null=True)
    subscription = UnicodeAttribute(null=True)
    connected_at = UnicodeAttribute(null=True)
    expires_at = NumberAttribute()
    """Epoch seconds: DynamoDB's TTL deletes the item after it."""
    subscribers = SubscribersIndex()
    player_connections = PlayerConnectionsIndex()
