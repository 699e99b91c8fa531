"""Stored shapes of the operators' audit (docs/data-model.md, "audit") and of chat mutes.

==================  ======================================  ==========================
item                pk                                      sk
==================  ======================================  ==========================
audit record        ``tournament#<t>`` (else ``player#<p>``)  ``act#<audit id>``
mute (tournaments)  ``mute#<player>``                       ``mute``
==================  ======================================  ==========================

An audit record about a player carries ``player_key`` = ``player#<player>``,
so the ``by_player`` index lists a player's records. Every record carries
``feed_key`` = ``acts`` and ``feed_sk`` = ``<at, UTC, to the microsecond>#<audit
id>``, so the ``latest`` index lists the newest acts first. A record is put once,
conditional on ``attribute_not_exists(pk)``, and never written again: no
function's role may update or delete an item of this table. Mutes change
(mute, unmute), so they live in the ``tournaments`` table, versioned.
"""

from __future__ import annotations

from datetime import UTC, datetime

from pynamodb.attributes import BooleanAttribute, JSONAttribute, NumberAttribute, UnicodeAttribute
from pynamodb.indexes import GlobalSecondaryIndex

from tourney.adapters.dynamo.models.base import KeyedItem, meta_for, secondary_index, stored_in
from tourney.adapters.dynamo.models.tournaments import InTournaments
from tourney.adapters.dynamo.schema import AUDIT, AUDIT_BY_PLAYER_INDEX, AUDIT_LATEST_INDEX, TOURNAMENTS

ACT_PREFIX = "act#"
MUTE_SK = "mute"
FEED_KEY = "acts"


def audit_pk(tournament_id: str | None, player_id: str | None) -> str:
    if tournament_id is not None:
        return f"tournament#{tournament_id}"
    return player_key(player_id or "")


def player_key(player_id: str) -> str:
    return f"player#{player_id}"


def act_sk(audit_id: str) -> str:
    return f"{ACT_PREFIX}{audit_id}"


def feed_sk(at: datetime, audit_id: str) -> str:
    """The record's place in the ``latest`` index: its time in UTC, fixed width (text order is time order)."""
    return f"{at.astimezone(UTC).strftime('%Y-%m-%dT%H:%M:%S.%fZ')}#{audit_id}"


def mute_pk(player_id: str) -> str:
    return f"mute#{player_id}"


ACCOUNT_SK = "account"
NAME_SK = "name"


def name_pk(key: str) -> str:
    return f"name#{key}"


def account_pk(player_id: str) -> str:
    return f"account#{player_id}"


@stored_in(AUDIT)
class AuditItem(KeyedItem):
    Meta = meta_for(AUDIT)
    audit_id = UnicodeAttribute()
    at = UnicodeAttribute()
    operator = UnicodeAttribute()
    act = UnicodeAttribute()
    reason = UnicodeAttribute(default="")
    tournament_id = UnicodeAttribute(null=True)
    player_id = UnicodeAttribute(null=True)
    player_key = UnicodeAttribute(null=True)
    feed_key = UnicodeAttribute(null=True)
    feed_sk = UnicodeAttribute(null=True)
    before = JSONAttribute(null=True)
    after = JSONAttribute(null=True)
    version = NumberAttribute(default=1)
    by_player: GlobalSecondaryIndex[AuditItem] = secondary_index(AUDIT_BY_PLAYER_INDEX)
    latest: GlobalSecondaryIndex[AuditItem] = secondary_index(AUDIT_LATEST_INDEX)


@stored_in(TOURNAMENTS)
class MuteItem(InTournaments):
    sk = UnicodeAttribute(range_key=True, default=MUTE_SK)
    muted_player = UnicodeAttribute()
    muted = BooleanAttribute()
    at = UnicodeAttribute()
    by = UnicodeAttribute()
    reason = UnicodeAttribute(default="")
    until = UnicodeAttribute(null=True)


@stored_in(TOURNAMENTS)
class AccountItem(InTournaments):
    """A player's account, opened at their first sign-in (``AccountRecord``)."""

    sk = UnicodeAttribute(range_key=True, default=ACCOUNT_SK)
    account_player = UnicodeAttribute()
    opened_at = UnicodeAttribute()
    display_name = UnicodeAttribute(null=True)


@stored_in(TOURNAMENTS)
class NameItem(InTournaments):
    """A display name's claim, by its key regardless of case (``NameRecord``)."""

    sk = UnicodeAttribute(range_key=True, default=NAME_SK)
    holder = UnicodeAttribute(null=True)
