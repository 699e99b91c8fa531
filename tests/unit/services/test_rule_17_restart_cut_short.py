"""A restart whose invocation died before it resumed every table (found by a chaos run, seed 1622594613).

docs/rules.md, rule 17.2: a restart resumes play where it stopped. ``_restart``
writes the tournament running in one commit, then clears ``halted`` table by
table and deals. An operator's restart that died after the commit left the
tables it had not reached halted in a running tournament: they never dealt
again, the operator's second restart was refused (the tournament is running),
and the watchdog did nothing for a table with no hand in progress. The run
ended two days later still running, its players' money locked. Now the
watchdog resumes a table a restart left halted.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain.errors import Conflict
from tourney.domain.registration import TournamentStatus
from tourney.services.records import TournamentRecord
from tourney.services.recover import RecoveryService

from tests.unit.services.conftest import started


class Died(Exception):
    """The restart's invocation died (past its first table)."""


def test_rule_17_the_watchdog_resumes_the_tables_a_restart_left_halted(
    services: Services, create: Callable[..., str], clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a tournament of two tables terminated by an operator, its hands cancelled
    tid = started(services, create, clock, players=12, seats_per_table=6)
    store = services.adapters.store
    assert [r.table_id for r in store.tables.list(tid)] == ["1", "2"]
    services.admin.terminate(tid, "op", "broken")
    services.recovery.cancel_hands(tid)
    # When the operator's restart dies after resuming table 1
    resume = RecoveryService._resume

    def dies_after_the_first(self: RecoveryService, table_id: str, restarted: TournamentRecord) -> None:
        if table_id != "1":
            raise Died
        resume(self, table_id, restarted)

    monkeypatch.setattr(RecoveryService, "_resume", dies_after_the_first)
    with pytest.raises(Died):
        services.admin.restart(tid, "op", "fixed")
    monkeypatch.undo()
    # Then it runs, table 2 still halted, and a second restart is refused
    assert store.tournaments.get(tid).status is TournamentStatus.RUNNING
    assert store.tables.get(tid, "2").halted and not store.tables.get(tid, "2").table.hand_in_progress
    with pytest.raises(Conflict):
        services.admin.restart(tid, "op", "again")
    # When the watchdog runs a minute later
    clock.advance(60)
    report = services.recovery.watch()
    # Then it resumed table 2, which deals again; table 1 played on untouched
    assert report.resumed == ("2",)
    record = store.tables.get(tid, "2")
    assert not record.halted and record.table.hand_in_progress
    assert not store.tables.get(tid, "1").halted
    assert services.recovery.watch().resumed == ()
