"""Stored shapes of the ``tournaments`` table (docs/data-model.md, "tournaments").

=========================  =====================================  ===========================
item                       pk                                     sk
=========================  =====================================  ===========================
tournament                 ``tournament#<t>``                     ``tournament``
waiting list               ``tournament#<t>``                     ``waiting_list``
coordinator state          ``tournament#<t>``                     ``coordinator``
seating plan (a batch)     ``tournament#<t>``                     ``seating#<batch:05d>``
registration               ``registration#<t>#<bucket:02d>``      ``player#<player>``
counter shard              ``counter#<t>#<shard:03d>``            ``counter``
entrant                    ``entrant#<t>#<bucket:02d>``           ``player#<player>``
=========================  =====================================  ===========================

A registration's ``<bucket>`` is ``crc32(player) % 16``: one tournament's registrations spread over 16 partition
keys (1,000 registrations a second is about 60 a second per key) and are listed with 16 Queries. An entrant's is
``crc32(player) % 64``: the start writes every entrant within a minute or so (a 250,000-player field: about 4,200 a
second, two write units each in a transaction, 130 a second per key), and they are listed with 64 Queries. Every
item has a ``version`` (the number of times it was written); writes are conditional on it.
"""

from __future__ import annotations

import zlib

from pynamodb.attributes import BooleanAttribute, JSONAttribute, ListAttribute, NumberAttribute, UnicodeAttribute
from pynamodb.indexes import GlobalSecondaryIndex

from tourney.adapters.dynamo.models.base import KeyedItem, meta_for, secondary_index, stored_in
from tourney.adapters.dynamo.models.body import BodyAttribute
from tourney.adapters.dynamo.schema import LOBBY_INDEX, TOURNAMENTS

BUCKETS = 16
"""Partition keys that registrations of one tournament are spread over."""
ENTRANT_BUCKETS = 64
"""Partition keys that entrants of one tournament are spread over (the start writes them all at once)."""

TOURNAMENT_SK = "tournament"
WAITING_LIST_SK = "waiting_list"
COORDINATOR_SK = "coordinator"
DEALING_SK = "dealing"
COUNTER_SK = "counter"
PLAYER_PREFIX = "player#"
SEATING_PREFIX = "seating#"


def bucket(player_id: str) -> int:
    return zlib.crc32(player_id.encode()) % BUCKETS


def entrant_bucket(player_id: str) -> int:
    return zlib.crc32(player_id.encode()) % ENTRANT_BUCKETS


def tournament_pk(tournament_id: str) -> str:
    return f"tournament#{tournament_id}"


def dealing_pk(tournament_id: str) -> str:
    """The dealing orders' own partition: every hand end reads them, apart from the tournament item's readers."""
    return f"dealing#{tournament_id}"


def registration_pk(tournament_id: str, bucket_number: int) -> str:
    return f"registration#{tournament_id}#{bucket_number:02d}"


def entrant_pk(tournament_id: str, bucket_number: int) -> str:
    return f"entrant#{tournament_id}#{bucket_number:02d}"


def counter_pk(tournament_id: str, shard: int) -> str:
    return f"counter#{tournament_id}#{shard:03d}"


def player_sk(player_id: str) -> str:
    return f"{PLAYER_PREFIX}{player_id}"


def seating_sk(batch: int) -> str:
    return f"{SEATING_PREFIX}{batch:05d}"


def compensation_pk(tournament_id: str, batch: int) -> str:
    """A frozen compensation plan's batch under a partition key of its own: at 250,000 players the freeze writes 500
    of them in a few seconds, more than the 1,000 write units a second the tournament's partition takes."""
    return f"compensation#{tournament_id}#{batch:05d}"


def compensation_sk(batch: int) -> str:
    return f"compensation#{batch:05d}"


def lobby_pk(status: str) -> str:
    return f"status#{status}"


def lobby_sk(start_at_iso: str | None, tournament_id: str) -> str:
    """Ordered by start time; a Sit&Go (no start time) sorts after every dated tournament."""
    return f"{start_at_iso or '~'}#{tournament_id}"


class InTournaments(KeyedItem):
    """An item of the tournaments table, written conditionally on its ``version``."""

    Meta = meta_for(TOURNAMENTS)
    version = NumberAttribute(default=0)


class _OfTournament(InTournaments):
    tournament_id = UnicodeAttribute()


@stored_in(TOURNAMENTS)
class TournamentItem(_OfTournament):
    sk = UnicodeAttribute(range_key=True, default=TOURNAMENT_SK)
    name = UnicodeAttribute()
    status = UnicodeAttribute()
    config = BodyAttribute()
    """``TournamentConfig.to_dict()``, compressed: the blind structure and payout make it 7 KB of JSON, read by every
    registration (one read unit a strongly consistent read under 4 KB)."""
    announce_at = UnicodeAttribute()
    start_at = UnicodeAttribute(null=True)
    created_at = UnicodeAttribute()
    facts = JSONAttribute()
    """The rest of the record (who created it, shards, start and end times, termination), as plain data."""
    lobby_pk = UnicodeAttribute()
    lobby_sk = UnicodeAttribute()
    lobby: GlobalSecondaryIndex[TournamentItem] = secondary_index(LOBBY_INDEX)


@stored_in(TOURNAMENTS)
class RegistrationItem(_OfTournament):
    player_id = UnicodeAttribute()
    state = UnicodeAttribute()
    number = NumberAttribute()
    registered_at = UnicodeAttribute()
    shard = NumberAttribute(null=True)
    key = UnicodeAttribute(default="")


@stored_in(TOURNAMENTS)
class CounterShardItem(_OfTournament):
    sk = UnicodeAttribute(range_key=True, default=COUNTER_SK)
    shard = NumberAttribute()
    cap = NumberAttribute()
    filled = NumberAttribute(default=0)
    """Players counted by this shard (the record's ``count``; ``count`` is a Model method)."""
    sealed = BooleanAttribute(default=False)


@stored_in(TOURNAMENTS)
class WaitingListItem(_OfTournament):
    sk = UnicodeAttribute(range_key=True, default=WAITING_LIST_SK)
    players = ListAttribute(of=UnicodeAttribute, default=list)
    sealed = BooleanAttribute(default=False)


@stored_in(TOURNAMENTS)
class SeatingPlanItem(_OfTournament):
    batch = NumberAttribute()
    body = BodyAttribute()
    """``[[table, [[seat, player], ...]], ...]``"""


@stored_in(TOURNAMENTS)
class CompensationBatchItem(_OfTournament):
    batch = NumberAttribute()
    body = BodyAttribute()
    """``[[kind, player, from_house, from_pool], ...]``: the batch's movements (``recovery.Movement``)."""


@stored_in(TOURNAMENTS)
class CoordinatorItem(_OfTournament):
    sk = UnicodeAttribute(range_key=True, default=COORDINATOR_SK)
    body = BodyAttribute()
    """``TournamentState.to_dict()``, compressed."""


@stored_in(TOURNAMENTS)
class DealingItem(_OfTournament):
    sk = UnicodeAttribute(range_key=True, default=DEALING_SK)
    body = BodyAttribute()
    """``DealingOrders.to_dict()``, compressed."""


@stored_in(TOURNAMENTS)
class EntrantItem(_OfTournament):
    player_id = UnicodeAttribute()
    contribution = JSONAttribute()
    table_id = UnicodeAttribute(null=True)
    placing = JSONAttribute(null=True)
    placed_at = UnicodeAttribute(null=True)
    management = JSONAttribute(null=True)
    """Operators' acts on the entrant (rule 19): ``chips_adjusted``, ``disqualified_at``, ``chips_removed``."""
