"""A termination halts the tables twenty to a unit of work, each unit checked once against the termination (rule 17)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.services.records import TableRecord, TournamentRecord
from tourney.services.recover import HALTS_PER_UNIT

from tests.unit.services.conftest import started


def test_rule_17_a_termination_halts_twenty_tables_a_unit_of_work_with_one_check_of_the_tournament(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given 126 players at 21 tables of 6, every table in its first hand, and the units of work the store makes kept
    tid = started(services, create, clock, players=126)
    store = services.adapters.store
    tables = [t.table_id for t in store.tables.list(tid)]
    assert len(tables) == 21 and HALTS_PER_UNIT == 20
    made: list[Any] = []
    unit_of_work = store.unit_of_work

    def kept() -> Any:
        made.append(unit_of_work())
        return made[-1]

    store.unit_of_work = kept  # type: ignore[method-assign]
    # When an operator terminates it and the recovery cancels the hands
    services.admin.terminate(tid, "op", "broken")
    made.clear()
    step = services.recovery.cancel_hands(tid)
    # Then every table is halted with its hand cancelled
    assert step.cancelled_hands == 21
    assert all(store.tables.get(tid, t).halted and not store.tables.get(tid, t).table.hand_in_progress for t in tables)
    # And the tables were written in two units of work, of 20 and 1, each checked once against the tournament
    halting = [u for u in made if any(isinstance(r, TableRecord) for r in u._saves)]
    assert [sum(isinstance(r, TableRecord) for r in u._saves) for u in halting] == [20, 1]
    assert [[type(r) for r in u._checks] for u in halting] == [[TournamentRecord], [TournamentRecord]]
