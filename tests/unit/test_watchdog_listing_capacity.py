"""The watchdog lists every table of a running tournament each minute (docs/architecture.md, "The watchdog lists the
tables"): at 250,000 players that is 27,778 table items, 868 on each of the 32 partition keys, and one key's Query
must stay far below the 3,000 read units a second DynamoDB serves a partition key, strongly consistent."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime

from tourney.adapters.dynamo.models.tables import TABLE_BUCKETS
from tourney.adapters.memory import MemoryStore
from tourney.domain.cards import shuffled_deck
from tourney.domain.fairness import draw_hand_secret
from tourney.domain.structure import TournamentConfig, TournamentFormat
from tourney.domain.table import Table
from tourney.services.records import TableRecord
from tourney.simulation.aws.capacity import PartitionMeters
from tourney.simulation.aws.model import AwsModel
from tourney.simulation.aws.requests import Request
from tourney.simulation.aws.store import MeteredStore

T0 = datetime(2026, 3, 1, 18, 0, 0, 417_302, tzinfo=UTC)
TABLES_AT_250_000 = 27_778


def _full_table_mid_hand(number: int) -> Table:
    """A 9-seat table of players named by Cognito ids (UUIDs), its hand dealt: a table item as large as play makes."""
    rng = random.Random(number)
    table = Table(number, 9)
    for seat in range(1, 10):
        table.seat_player(str(uuid.UUID(int=rng.getrandbits(128), version=4)), seat, rng.randrange(8_000, 30_000, 25))
    table.draw_button(rng=rng)
    level = TournamentConfig.for_format(TournamentFormat.FREEZEOUT, buy_in=1_000, entry_fee=100).level(4)
    table.start_hand(level, shuffled_deck(rng), secret=draw_hand_secret(rng), now=T0)
    return table


def test_the_watchdogs_listing_at_250000_players_reads_each_tables_key_far_below_its_limit() -> None:
    # Given the tables of one partition key of a 250,000-player tournament (every 32nd table number), each mid-hand
    memory = MemoryStore()
    table = _full_table_mid_hand(TABLES_AT_250_000)
    numbers = range(TABLE_BUCKETS, TABLES_AT_250_000 + 1, TABLE_BUCKETS)
    uow = memory.unit_of_work()
    for number in numbers:
        uow.save(TableRecord("t-5f0c2a9e41d7", str(number), table, level=4, dealt_at=T0, updated_at=T0))
    uow.commit()
    # When the watchdog lists the tournament's tables, strongly consistent
    model = AwsModel()
    run = model.invocation("watchdog", at=0.0)
    store = MeteredStore(memory, lambda: run)
    assert len(store.tables.list("t-5f0c2a9e41d7")) == len(numbers) == 868
    # Then the key's one Query (under 1 MB: one page) read under a fifth of the key's 3,000 units in that second
    assert run is not None and run.watch.calls == {Request.QUERY: TABLE_BUCKETS}
    hottest = model.meters.hottest()
    assert hottest is not None and hottest.key.endswith("tables#t-5f0c2a9e41d7#00")
    assert hottest.rcu_per_s < PartitionMeters().read_per_second / 5, hottest
