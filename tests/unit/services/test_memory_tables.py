"""The fast memory store with tables copied (``copy_tables``): a change not committed leaves the stored table as it was.

With AWS modeled an invocation may fail after its service changed the table it read (a write throttled past its
retries, or meeting a transaction); DynamoDB then keeps the item as it was, and so must the store.
"""

import random
from datetime import UTC, datetime

import pytest
from tourney.adapters.memory import MemoryStore
from tourney.domain.hand import ActionKind
from tourney.domain.structure import TournamentConfig, TournamentFormat
from tourney.domain.table import Table
from tourney.services.records import TableRecord

T0 = datetime(2026, 12, 3, 8, 0, tzinfo=UTC)
CONFIG = TournamentConfig.for_format(TournamentFormat.FREEZEOUT, buy_in=1_000, entry_fee=100, max_players=20)


def _table_mid_hand() -> Table:
    table = Table(1, 6)
    for seat in range(1, 7):
        table.seat_player(f"p{seat}", seat, 10_000)
    table.draw_button(rng=random.Random(3))
    deck = list(range(52))
    random.Random(4).shuffle(deck)
    table.start_hand(CONFIG.level(1), deck)
    return table


def _stored(store: MemoryStore) -> TableRecord:
    uow = store.unit_of_work()
    uow.save(TableRecord("t1", "1", _table_mid_hand(), dealt_at=T0))
    uow.commit()
    return store.tables.get("t1", "1")


@pytest.mark.parametrize("copy_tables", [True, False], ids=["tables copied", "nothing copied"])
def test_a_table_changed_but_never_committed_stays_as_stored_only_when_tables_are_copied(copy_tables: bool) -> None:
    # Given a table mid-hand in the fast store
    store = MemoryStore(copy_records=False, copy_tables=copy_tables)
    before = _stored(store).table.to_dict()

    # When a service reads it, a player acts and calls away, and its unit of work never commits
    read = store.tables.get("t1", "1").table
    awaiting = read.awaiting()
    assert awaiting is not None
    read.act(awaiting.player, ActionKind.CALL, hand=awaiting.hand, seq=awaiting.seq)
    read.set_away(awaiting.player)

    # Then with tables copied the store still holds the table as stored; without, the change leaked into it
    after = store.tables.get("t1", "1").table.to_dict()
    assert (after == before) is copy_tables


def test_a_committed_change_is_read_back_from_the_store_that_copies_tables() -> None:
    store = MemoryStore(copy_records=False, copy_tables=True)
    record = _stored(store)
    awaiting = record.table.awaiting()
    assert awaiting is not None
    record.table.act(awaiting.player, ActionKind.FOLD, hand=awaiting.hand, seq=awaiting.seq)
    uow = store.unit_of_work()
    uow.save(record)
    uow.commit()
    assert store.tables.get("t1", "1").table.to_dict() == record.table.to_dict()
    assert [r.table.to_dict() for r in store.tables.list("t1")] == [record.table.to_dict()]
