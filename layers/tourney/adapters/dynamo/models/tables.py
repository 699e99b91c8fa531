"""Stored shapes of the ``tables`` and ``hands`` tables (docs/data-model.md).

==================  ===================================  ======================
item                pk                                   sk
==================  ===================================  ======================
poker table         ``tables#<t>#<bucket:02d>``          ``table#<table:05d>``
finished hand       ``hands#<t>#<table:05d>``            ``hand#<hand:08d>``
==================  ===================================  ======================

A tournament's tables spread over 32 partition keys (``<bucket>`` is the
table number modulo 32, or a CRC of a non-numeric id): 10,000 tables of one
tournament each written every few seconds would be too much for one key.
The table item holds ``TableRecord`` with ``Table.to_dict()`` compressed in
``body``, its ``version``, and small top-level attributes for the watchdog's
index (``watch_pk``, ``watch_sk``: when the hand in progress was dealt).
"""

from __future__ import annotations

import zlib

from pynamodb.attributes import BooleanAttribute, NumberAttribute, UnicodeAttribute
from pynamodb.indexes import GlobalSecondaryIndex

from tourney.adapters.dynamo.models.base import KeyedItem, meta_for, secondary_index, stored_in
from tourney.adapters.dynamo.models.body import BodyAttribute
from tourney.adapters.dynamo.schema import HANDS, TABLES, WATCH_INDEX

TABLE_BUCKETS = 32
WATCH_PARTITIONS = 16
TABLE_PREFIX = "table#"


def padded(table_id: str) -> str:
    """Numeric table ids sort as numbers (``00042``); others as they are.

    >>> padded("42"), padded("final")
    ('00042', 'final')
    """
    return f"{int(table_id):05d}" if table_id.isdigit() else table_id


def table_bucket(table_id: str) -> int:
    return int(table_id) % TABLE_BUCKETS if table_id.isdigit() else zlib.crc32(table_id.encode()) % TABLE_BUCKETS


def table_pk(tournament_id: str, table_id: str) -> str:
    return tables_pk(tournament_id, table_bucket(table_id))


def tables_pk(tournament_id: str, bucket: int) -> str:
    return f"tables#{tournament_id}#{bucket:02d}"


def table_sk(table_id: str) -> str:
    return f"{TABLE_PREFIX}{padded(table_id)}"


def watch_pk(tournament_id: str, table_id: str) -> str:
    return f"watch#{zlib.crc32(f'{tournament_id}#{table_id}'.encode()) % WATCH_PARTITIONS:02d}"


def hand_pk(tournament_id: str, table_id: str) -> str:
    return f"hands#{tournament_id}#{padded(table_id)}"


def hand_sk(hand_number: int) -> str:
    return f"hand#{hand_number:08d}"


@stored_in(TABLES)
class TableItem(KeyedItem):
    Meta = meta_for(TABLES)
    tournament_id = UnicodeAttribute()
    table_id = UnicodeAttribute()
    version = NumberAttribute(default=0)
    body = BodyAttribute()
    """``Table.to_dict()`` and the record's other fields (level, pending chips, ...), compressed."""
    hand_number = NumberAttribute(default=0)
    level = NumberAttribute(default=1)
    closed = BooleanAttribute(default=False)
    dealt_at = UnicodeAttribute(null=True)
    updated_at = UnicodeAttribute(null=True)
    watch_pk = UnicodeAttribute(null=True)
    watch_sk = UnicodeAttribute(null=True)
    watch: GlobalSecondaryIndex[TableItem] = secondary_index(WATCH_INDEX)


@stored_in(HANDS)
class HandItem(KeyedItem):
    Meta = meta_for(HANDS)
    tournament_id = UnicodeAttribute()
    table_id = UnicodeAttribute()
    hand_number = NumberAttribute()
    version = NumberAttribute(default=0)
    body = BodyAttribute()
    """The hand (``Hand.to_dict``), players, seats, level and times, compressed."""
    ended_at = UnicodeAttribute()
