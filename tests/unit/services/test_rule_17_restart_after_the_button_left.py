"""Rule 17: a restart deals every table again, even one whose drawn button's player was disqualified.

The player who drew the button is disqualified during the table's first hand;
the tournament is terminated, which cancels that hand (rule 17.1), and the
disqualified player leaves. The restart (rule 17.2) deals the table's first
hand again, the button moving by rule 7. A restart commits ``running`` only
once it knows every table can deal: one that cannot answers 409 and leaves
the tournament terminated, its tables halted and its clock paused, for the
recovery workflow. And the watchdog checks every tournament, whatever one of
them raises: the failure is counted and reported, never the end of the watch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain.errors import ButtonNotDrawn
from tourney.domain.registration import TournamentStatus
from tourney.domain.table import Table
from tourney.services.records import TableRecord

from tests.support.driver import Driver
from tests.unit.services.conftest import fund, started


def disqualify_the_button(services: Services, tid: str, table: str = "1") -> str:
    record = services.adapters.store.tables.get(tid, table)
    draw = record.table.button_draw
    assert draw is not None and record.table.hand_number == 1 and record.table.hand_in_progress
    player = record.table.player_at(draw.button)
    assert player is not None
    services.management.disqualify(tid, player, "olga", "collusion")
    return player


def test_rule_17_a_restart_after_disqualifying_the_button_deals_the_first_hand_again(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a table's first hand, during which the player who drew the button is disqualified
    tid = started(services, create, clock)
    gone = disqualify_the_button(services, tid)
    # And an operator terminates the tournament
    services.admin.terminate(tid, "op", "broken")
    # When the operator restarts it
    answer = services.admin.restart(tid, "op", "fixed")
    # Then it runs, and the table deals the first hand again without the disqualified player
    assert answer.status == "running"
    record = services.adapters.store.tables.get(tid, "1")
    assert not record.halted and record.table.hand_in_progress and record.table.hand_number == 2
    assert gone not in record.table.players.values()
    hand = record.table.hand
    assert hand is not None and len(hand.seats) == 5
    # And the watchdog, a minute later, finds nothing to mend
    clock.advance(60)
    report = services.recovery.watch()
    assert (report.resumed, report.terminated, report.failed) == ((), (), ())


def test_rule_17_a_restart_that_cannot_deal_a_table_commits_nothing(
    services: Services, create: Callable[..., str], clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a tournament of two tables, terminated, whose table 2 cannot set its next hand's positions
    tid = started(services, create, clock, players=12)
    store = services.adapters.store
    assert len(store.tables.list(tid)) == 2
    services.admin.terminate(tid, "op", "broken")
    services.recovery.cancel_hands(tid)
    cannot_deal = Table.positions_to_deal

    def positions(table: Table):  # type: ignore[no-untyped-def]
        if table.number == 2:
            raise ButtonNotDrawn("table 2 cannot deal")
        return cannot_deal(table)

    monkeypatch.setattr(Table, "positions_to_deal", positions)
    dealt = [r.table.hand_number for r in store.tables.list(tid)]
    # When the operator restarts it
    with pytest.raises(ButtonNotDrawn):
        services.admin.restart(tid, "op", "fixed")
    # Then nothing was committed: still terminated, its tables halted and undealt, its clock paused
    t = store.tournaments.get(tid)
    assert t.status is TournamentStatus.TERMINATED and t.restarted_at is None
    assert all(r.halted for r in store.tables.list(tid))
    assert [r.table.hand_number for r in store.tables.list(tid)] == dealt
    coordinator = store.coordinators.get(tid)
    assert coordinator is not None and coordinator.state.status is TournamentStatus.TERMINATED
    assert coordinator.state.clock is not None and coordinator.state.clock.is_paused
    # And the recovery workflow's next try answers that it cannot restart yet, without raising
    assert services.recovery.try_restart(tid).outcome == "retry"


def test_rule_17_one_tournament_that_fails_never_stops_the_watchdog_checking_the_others(
    services: Services, create: Callable[..., str], clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given two tournaments running, "a" checked first, whose tables cannot be read (a broken item, say)
    for tid in ("a", "b"):
        create(tid, seats_per_table=6)
    names = [f"p{i}" for i in range(12)]
    fund(services, *names)
    for i, name in enumerate(names):
        services.registration.register("a" if i < 6 else "b", name)
    clock.advance(3_600)
    for tid in ("a", "b"):
        services.start.start_due(tid)
    Driver(services).run_workflows()
    store = services.adapters.store
    assert [t.tournament_id for t in store.tournaments.list()] == ["a", "b"]
    tables = store.tables.list

    def broken(tid: str) -> Sequence[TableRecord]:
        if tid == "a":
            raise RuntimeError("a table item that does not read")
        return tables(tid)

    monkeypatch.setattr(store.tables, "list", broken)
    # And both of them quiet for six minutes: "b" has stalled
    clock.advance(6 * 60)
    # When the watchdog runs
    report = services.recovery.watch()
    # Then it reports "a" as failed and still checked "b", which it terminated
    assert report.failed == ("a",)
    assert report.terminated == ("b",)
    assert store.tournaments.get("b").status is TournamentStatus.TERMINATED
    assert report.to_dict()["failed"] == ["a"]
