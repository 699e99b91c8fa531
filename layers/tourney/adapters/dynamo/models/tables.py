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
``body``, its ``version``, and a few small top-level attributes (hand number,
level, closed, when the hand was dealt and the table last written). No index:
the watchdog lists the tables (docs/architecture.md, "The watchdog lists the tables").
"""

from __future__ import annotations

import zlib
from typing import Final

from pynamodb.attributes import BooleanAttribute, NumberAttribute, UnicodeAttribute

from tourney.adapters.dynamo.models.base import KeyedItem, meta_for, stored_in
from tourney.adapters.dynamo.models.body import BodyAttribute
from tourney.adapters.dynamo.schema import HANDS, TABLES

TABLE_BUCKETS = 32
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


def hand_pk(tournament_id: str, table_id: str) -> str:
    return f"hands#{tournament_id}#{padded(table_id)}"


def hand_sk(hand_number: int) -> str:
    return f"hand#{hand_number:08d}"


TABLE_BODY_DICTIONARY: Final = (
    b'{"away_seconds":5,"decision_seconds":15,"disqualified":[],"halted":true,"hand_for_hand":true,'
    b'"pending_chips":[["",1000]],"rebuy_pending":[""],"table":{"bank_running":{"hand":2,"seat":3,'
    b'"seconds":30,"seq":12,"started_at":"2026-01-01T00:00:00.000000+00:00"},"hold_busted_seats":true,'
    b'"last_hand_ended":{"busted":[{"player":"","seat":4}],"finishing_stacks":{"1":0},"hand":1,"players":{"1":""},'
    b'"starting_stacks":{"1":0},"vacated":[5]},"hand":{"cancelled":true,"ante":0,"big_blind_ante":false,'
    b'"small_blind_seat":null,"version":3}},"coordinated_hand":1,"table":{"button_draw":{"button":1,'
    b'"cards":{"1":"As","10":"Kd","2":"Qh","3":"Jc","4":"Ts","5":"9d","6":"8h","7":"7c","8":"6s",'
    b'"9":"5d"},"hand":1},"decision_clock":{"hand":2,"seq":10,"started_at":"2026-01-01T00:00:00.000000+00:00"},'
    b'"hand":{"ante":100,"big_blind":200,"big_blind_ante":true,"big_blind_seat":3,"button":1,'
    b'"decisions":"f4 c5 k6 b7:200 r8:400 c9 c10 f1* k2* c3 r4:",'
    b'"deck":"","seats":[2,3,4,5,6,7,8,9,10,1],"secret":"","small_blind":100,"small_blind_seat":2,'
    b'"stacks":[10000,10000],"version":3},"hand_number":2,"last_positions":{"big_blind":{"player":"",'
    b'"seat":2},"button":{"player":"","seat":10},"small_blind":{"player":"","seat":1}},"number":1,'
    b'"positions":{"big_blind":{"player":"","seat":3},"button":{"player":"","seat":1},"small_blind":{"player":"",'
    b'"seat":2}},"seat_count":9,"seats":[[1,"",10000,30,1,0],[2,"",10000,30,1,0],[3,"",10000,30,'
    b'1,0],[4,"",10000,30,1,0],[5,"",10000,30,1,0],[6,"",10000,30,1,0],[7,"",10000,30,1,0],[8,"",'
    b'10000,30,1,0],[9,"",10000,30,1,0],[10,"",10000,30,1,0]],"version":2}}'
)
"""zlib's preset dictionary of the table bodies: a 10-seat table's body with its keys, shapes and usual values
(no player ids, deck or secret). A body is a few hundred bytes, too small for zlib to learn its own keys: primed,
a table mid-hand is stored in under 1 KB (docs/data-model.md). Never changed: stored bodies name it."""


class TableBodyAttribute(BodyAttribute):
    """The table's body, compressed with ``TABLE_BODY_DICTIONARY``."""

    dictionary = TABLE_BODY_DICTIONARY


@stored_in(TABLES)
class TableItem(KeyedItem):
    Meta = meta_for(TABLES)
    tournament_id = UnicodeAttribute()
    table_id = UnicodeAttribute()
    version = NumberAttribute(default=0)
    body = TableBodyAttribute()
    """``Table.to_dict()`` and the record's other fields (level, pending chips, ...), compressed."""
    hand_number = NumberAttribute(default=0)
    level = NumberAttribute(default=1)
    closed = BooleanAttribute(default=False)
    dealt_at = UnicodeAttribute(null=True)
    updated_at = UnicodeAttribute(null=True)


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
