"""A full table mid-hand, as DynamoDB stores it, is under 1 KB: every write of the play path is one write unit.

docs/data-model.md, 'tables and hands'. The table is as large as play makes it: 9 or 10 seats of players
named by Cognito ids (UUIDs, which do not compress), a table number of a 250,000-player field, stacks moved
by the hands before, the positions of the last hand kept, the hand's secret, and a long hand of raises.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from tourney.adapters.dynamo.models.tables import table_pk, table_sk
from tourney.adapters.dynamo.schema import TABLES
from tourney.adapters.dynamo.store import DynamoStore
from tourney.domain.cards import shuffled_deck
from tourney.domain.fairness import draw_hand_secret
from tourney.domain.formats import TournamentFormat
from tourney.domain.hand import ActionKind
from tourney.domain.structure import TournamentConfig
from tourney.domain.table import Table
from tourney.services.records import TableRecord

from tests.support.aws import aws, dynamodb, item_size, raw_item  # noqa: F401

pytestmark = pytest.mark.usefixtures("dynamodb")

T0 = datetime(2026, 3, 1, 18, 0, 0, 417_302, tzinfo=UTC)  # the clock's times have microseconds
LEVEL = TournamentConfig.for_format(TournamentFormat.FREEZEOUT, buy_in=1_000, entry_fee=100).level(4)
TOURNAMENT = "t-5f0c2a9e41d7"
TABLE = "27778"


def _decide(table: Table, rng: random.Random, now: datetime) -> None:
    """One decision: a fold, a minimum raise or a call (a check when nothing is owed)."""
    awaiting, hand = table.awaiting(), table.hand
    assert awaiting is not None and hand is not None
    options = hand.options()
    assert options is not None
    roll = rng.random()
    if roll < 0.2 and options.can_fold:
        kind, amount = ActionKind.FOLD, None
    elif roll < 0.45 and options.min_raise_to is not None:
        facing = any(hand.current_bet(seat) for seat in hand.seats)
        kind, amount = (ActionKind.RAISE if facing else ActionKind.BET), options.min_raise_to
    else:
        kind, amount = (ActionKind.CHECK if options.can_check else ActionKind.CALL), None
    table.act(awaiting.player, kind, amount, hand=awaiting.hand, seq=awaiting.seq, now=now)


def _deal(table: Table, rng: random.Random, now: datetime) -> None:
    table.start_hand(LEVEL, shuffled_deck(rng), secret=draw_hand_secret(rng), now=now)


@pytest.mark.parametrize("seats", [9, 10])
def test_a_full_table_mid_hand_is_stored_in_under_one_kilobyte(seats: int) -> None:
    # Given a full table that played two hands (stacks moved, the last hand's positions kept)
    rng = random.Random(seats * 13)
    table = Table(int(TABLE), seats)
    for seat in range(1, seats + 1):
        player = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        table.seat_player(player, seat, rng.randrange(8_000, 30_000, 25))
    table.draw_button(rng=rng)
    now = T0
    for _ in range(2):
        _deal(table, rng, now)
        while table.awaiting() is not None:
            now += timedelta(seconds=4)
            table.act(table.awaiting().player, ActionKind.FOLD)  # type: ignore[union-attr]
    store, sizes = DynamoStore(), []
    # When its third hand is played, a long one of raises, and the table stored after every decision
    _deal(table, rng, now)
    record = TableRecord(TOURNAMENT, TABLE, table, level=LEVEL.number, dealt_at=now, updated_at=now)
    while record.table.awaiting() is not None and len(record.table.players) == seats:
        uow = store.unit_of_work()
        uow.save(replace(record, updated_at=now))
        uow.commit()
        raw = raw_item(TABLES.name(), table_pk(TOURNAMENT, TABLE), table_sk(TABLE))
        assert raw is not None
        sizes.append(item_size(raw))
        record = store.tables.get(TOURNAMENT, TABLE)
        now += timedelta(seconds=rng.uniform(1, 9))
        _decide(record.table, rng, now)
    # Then every item stored mid-hand fits one write request unit (1 KB), the longest hand's too
    assert len(sizes) >= 30, sizes
    assert max(sizes) < 1_024, sizes
