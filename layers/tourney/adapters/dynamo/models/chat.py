"""Stored shapes of the table chat (docs/data-model.md, "chat"; docs/rules.md, rule 18).

=====================  ==============================  ===================  ===========
item                   pk                              sk                   TTL
=====================  ==============================  ===================  ===========
chat line              ``table#<t>#<table>``           ``line#<line id>``   none
rate window            ``player#<player>``             ``rate``             a minute on
operator connection    ``connection#<connection id>``  ``operator``         two hours
=====================  ==============================  ===================  ===========

A line's id starts with the time it was said (``20261201T113000.123456Z#ab12cd34``),
so a Query of the table's partition lists its lines oldest first. A rate
window holds the times of the player's lines in the last 10 seconds and a
version; it is put only if the stored version is the one read
(``attribute_not_exists`` for the first), so every Lambda counts the same lines.
"""

from __future__ import annotations

from pynamodb.attributes import BooleanAttribute, ListAttribute, NumberAttribute, UnicodeAttribute

from tourney.adapters.dynamo.models.base import KeyedItem, meta_for, stored_in
from tourney.adapters.dynamo.schema import CHAT

LINE_PREFIX = "line#"
RATE_SK = "rate"
OPERATOR_SK = "operator"


def table_pk(tournament_id: str, table_id: str) -> str:
    return f"table#{tournament_id}#{table_id}"


def rate_pk(player: str) -> str:
    return f"player#{player}"


def connection_pk(connection: str) -> str:
    return f"connection#{connection}"


class _InChat(KeyedItem):
    Meta = meta_for(CHAT)


@stored_in(CHAT)
class ChatLineItem(_InChat):
    tournament_id = UnicodeAttribute()
    table_id = UnicodeAttribute()
    at = UnicodeAttribute()
    hand = NumberAttribute()
    player = UnicodeAttribute()
    speaker = UnicodeAttribute()
    text = UnicodeAttribute()
    accepted = BooleanAttribute()
    reason = UnicodeAttribute(null=True)


@stored_in(CHAT)
class RateWindowItem(_InChat):
    sk = UnicodeAttribute(range_key=True, default=RATE_SK)
    times = ListAttribute(of=NumberAttribute, default=list)
    version = NumberAttribute(default=0)
    expires_at = NumberAttribute()


@stored_in(CHAT)
class OperatorConnectionItem(_InChat):
    sk = UnicodeAttribute(range_key=True, default=OPERATOR_SK)
    expires_at = NumberAttribute()
