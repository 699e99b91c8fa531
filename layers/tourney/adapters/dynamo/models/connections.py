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
from pynamodb.indexes import GlobalSecondaryIndex

from tourney.adapters.dynamo.models.base import KeyedItem, meta_for, secondary_index, stored_in
from tourney.adapters.dynamo.schema import CONNECTIONS, PLAYER_INDEX, SUBSCRIPTION_INDEX

CONNECTION_SK = "connection"
SUBSCRIPTION_PREFIX = "subscription#"


def connection_pk(connection_id: str) -> str:
    return f"connection#{connection_id}"


def subscription_key(tournament_id: str, table_id: str) -> str:
    return f"{tournament_id}#{table_id}"


@stored_in(CONNECTIONS)
class ConnectionItem(KeyedItem):
    """A connection (``sk = connection``) or one of its subscriptions (``sk = subscription#...``)."""

    Meta = meta_for(CONNECTIONS)
    connection_id = UnicodeAttribute()
    player = UnicodeAttribute(null=True)
    subscription = UnicodeAttribute(null=True)
    connected_at = UnicodeAttribute(null=True)
    expires_at = NumberAttribute()
    """Epoch seconds: DynamoDB's TTL deletes the item after it."""
    subscribers: GlobalSecondaryIndex[ConnectionItem] = secondary_index(SUBSCRIPTION_INDEX)
    player_connections: GlobalSecondaryIndex[ConnectionItem] = secondary_index(PLAYER_INDEX)
