"""Stored shapes of the ``ledger`` table (docs/data-model.md, "ledger").

==========================  ==============================  ======================================================
item                        pk                              sk
==========================  ==============================  ======================================================
balance of an account       ``account#<account>[~<n>]``     ``balance``
leg of an entry             ``account#<account>[~<n>]``     ``leg#<at ISO>#<entry key>``
idempotency key of entry    ``entry#<entry key>``           ``entry``
==========================  ==============================  ======================================================

``<account>`` is the domain's account name (``player:ann``, ``pool:t1``,
``house:t1#3``); ``~<n>`` marks a storage shard of an account split over
several items (prize pools, unsharded house revenue, the external account), so
that no balance item is written by every registration.
"""

from __future__ import annotations

from pynamodb.attributes import NumberAttribute, UnicodeAttribute

from tourney.adapters.dynamo.models.base import KeyedItem, meta_for, stored_in
from tourney.adapters.dynamo.schema import LEDGER

BALANCE_SK = "balance"
ENTRY_SK = "entry"
LEG_PREFIX = "leg#"


def account_pk(account_name: str, shard: int | None = None) -> str:
    """The partition key of an account's items (its balance and its legs), of one storage shard when split.

    >>> account_pk("player:ann"), account_pk("pool:t1", 3)
    ('account#player:ann', 'account#pool:t1~3')
    """
    return f"account#{account_name}" if shard is None else f"account#{account_name}~{shard}"


def entry_pk(key: str) -> str:
    return f"entry#{key}"


def leg_sk(at_iso: str, key: str) -> str:
    return f"{LEG_PREFIX}{at_iso}#{key}"


class _InLedger(KeyedItem):
    Meta = meta_for(LEDGER)


class _Entry(_InLedger):
    """An entry as stored: its key, kind and tournament, when, and the whole entry's legs."""

    key = UnicodeAttribute()
    kind = UnicodeAttribute()
    tournament_id = UnicodeAttribute(null=True)
    at = UnicodeAttribute()
    legs = UnicodeAttribute()
    """The whole entry's legs, JSON ``[[account, amount], ...]``, so the entry is rebuilt from this item alone."""


@stored_in(LEDGER)
class BalanceItem(_InLedger):
    """An account's balance (or one shard of it), in cents; changed only by ``ADD`` inside a transaction."""

    sk = UnicodeAttribute(range_key=True, default=BALANCE_SK)
    account = UnicodeAttribute(null=True)
    shard = NumberAttribute(null=True)
    balance = NumberAttribute(default=0)


@stored_in(LEDGER)
class LegItem(_Entry):
    """One entry as seen from one account: under the account's partition, so its history is one Query."""

    amount = NumberAttribute()
    """What this entry adds to this account (all of the account's shards together)."""


@stored_in(LEDGER)
class EntryItem(_Entry):
    """The idempotency key of one entry and the entry itself: written once, ``attribute_not_exists(pk)``."""

    sk = UnicodeAttribute(range_key=True, default=ENTRY_SK)
