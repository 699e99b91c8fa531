"""Play, time-outs, coordination and recovery through the services (memory adapters)."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain.errors import NotYourSeat, StaleVersion
from tourney.domain.registration import TournamentStatus
from tourney.services.messages import HandEnded, TimeoutDue

from tests.support.driver import Driver
from tests.unit.services.conftest import fund, started
from tests.unit.services.test_rule_17_termination_defects import fold_to_the_end_of_the_hand


def awaiting(services: Services, tid: str, table: str = "1"):  # type: ignore[no-untyped-def]
    record = services.adapters.store.tables.get(tid, table)
    return record.table.awaiting()


def test_the_start_deals_every_table_and_arms_the_first_time_out(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid = started(services, create, clock, players=10)
    tables = services.adapters.store.tables.list(tid)
    assert len(tables) == 2 and all(t.table.hand_in_progress for t in tables)
    assert {m.table for m in services.adapters.timers.armed} == {"1", "2"}
    assert services.lobby.tournament(tid).started_at == clock.now()


def test_a_player_acts_only_at_their_own_seat(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid = started(services, create, clock)
    waiting = awaiting(services, tid)
    other = next(p for p in services.adapters.store.tables.get(tid, "1").table.players.values() if p != waiting.player)
    with pytest.raises(NotYourSeat):
        services.play.act(tid, "1", "stranger", waiting.hand, waiting.seq, "fold")
    with pytest.raises(Exception):  # noqa: B017 - NotYourTurn or StaleAction: the decision is not theirs
        services.play.act(tid, "1", other, waiting.hand, waiting.seq, "fold")
    assert awaiting(services, tid) == waiting


def test_two_actions_racing_for_one_decision_exactly_one_wins(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a decision awaited, and two requests for it held at the commit until both have read the table
    tid = started(services, create, clock)
    waiting = awaiting(services, tid)
    barrier = threading.Barrier(2)
    services.adapters.store.before_commit = lambda: barrier.wait(timeout=5)
    outcomes: list[object] = []

    def act(kind: str) -> None:
        try:
            outcomes.append(services.play.act(tid, "1", waiting.player, waiting.hand, waiting.seq, kind))
        except StaleVersion as lost:
            outcomes.append(lost)
        except threading.BrokenBarrierError:
            outcomes.append("barrier")

    threads = [threading.Thread(target=act, args=(k,)) for k in ("fold", "call")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    services.adapters.store.before_commit = None
    # Then one was applied and the other got a stale-version conflict; the table moved one decision
    assert sum(isinstance(o, StaleVersion) for o in outcomes) == 1
    assert awaiting(services, tid) is None or awaiting(services, tid).seq == waiting.seq + 1


def test_rule_16_a_time_out_spends_the_time_bank_then_checks_or_folds_marks_away_and_a_duplicate_changes_nothing(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid = started(services, create, clock)
    w = awaiting(services, tid)
    due = TimeoutDue(tournament_id=tid, table="1", hand=w.hand, seq=w.seq, seat=w.seat)
    # The decision's own time runs out: the 30-second time bank starts, and a time-out is armed for it.
    started_bank = services.timeouts.on_timeout(due)
    assert started_bank is not None and started_bank.action == "time_bank"
    armed = [m for m in services.adapters.timers.armed if isinstance(m, TimeoutDue) and m.time_bank]
    assert len(armed) == 1 and armed[0].seq == w.seq and armed[0].seat == w.seat
    bank_due = armed[0]
    view = services.lobby.table_view(tid, "1", w.player)
    assert view.to_act is not None and view.to_act.on_time_bank and view.to_act.seconds == 30
    record = services.adapters.store.tables.get(tid, "1")
    assert not record.table.seats[w.seat].away
    version = record.version
    assert services.timeouts.on_timeout(due) is None  # the first time-out delivered again
    assert services.adapters.store.tables.get(tid, "1").version == version
    # The bank runs out too: check or fold, away, the bank empty.
    first = services.timeouts.on_timeout(bank_due)
    assert first is not None and first.action in ("check", "fold")
    record = services.adapters.store.tables.get(tid, "1")
    assert record.table.seats[w.seat].away and record.table.seats[w.seat].bank.seconds == 0
    version = record.version
    assert services.timeouts.on_timeout(bank_due) is None
    assert services.timeouts.on_timeout(due) is None
    assert services.adapters.store.tables.get(tid, "1").version == version


def test_an_away_time_out_is_stale_once_the_player_is_back(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid = started(services, create, clock)
    w = awaiting(services, tid)
    services.play.away(tid, w.player)
    services.play.back(tid, w.player)
    stale = TimeoutDue(tournament_id=tid, table="1", hand=w.hand, seq=w.seq, seat=w.seat, armed_for_away=True)
    assert services.timeouts.on_timeout(stale) is None
    assert awaiting(services, tid).seq == w.seq


def test_rule_16_away_and_back_write_their_table_alone_never_holding_the_tournaments_item(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a running tournament, and every unit of work its store opens kept
    tid = started(services, create, clock)
    store = services.adapters.store
    opened = []
    unit_of_work = store.unit_of_work

    def kept():  # type: ignore[no-untyped-def]
        unit = unit_of_work()
        opened.append(unit)
        return unit

    store.unit_of_work = kept  # type: ignore[method-assign]
    w = awaiting(services, tid)
    # When the player to act steps away and comes back
    services.play.away(tid, w.player)
    services.play.back(tid, w.player)
    # Then each wrote their table and nothing else: no check of the tournament, which thousands of players
    # stepping away and back at once would all hold in their transactions
    assert [[type(r).__name__ for r in u._saves] for u in opened] == [["TableRecord"], ["TableRecord"]]
    assert all(not u._checks for u in opened)
    assert not awaiting(services, tid).away


def test_observers_never_see_hole_cards_and_players_only_their_own(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given an observer and two players connected to table 1
    pushes = services.adapters.pushes
    tid = create(seats_per_table=6)
    names = [f"p{i}" for i in range(6)]
    fund(services, *names)
    for name in names:
        services.registration.register(tid, name)
    pushes.connect("obs")
    pushes.subscribe("obs", tid, "1")
    for name in names[:2]:
        pushes.connect(f"c-{name}", name)
        pushes.subscribe(f"c-{name}", tid, "1")
    clock.advance(3_600)
    services.start.start_due(tid)
    driver = Driver(services)
    driver.run_workflows()
    for _ in range(40):
        driver.step(tid)
    # Then during every hand in progress nobody saw a card that is not theirs
    for delivery in pushes.deliveries:
        table = delivery.message["table"]
        for seat in table["seats"]:
            if seat["cards"] and table["hand_in_progress"]:
                assert seat["player"] == delivery.player
    assert any(d.player is None for d in pushes.deliveries)


def test_a_duplicate_hand_ended_changes_nothing(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid = started(services, create, clock)
    fold_to_the_end_of_the_hand(services, tid)  # a hand end the coordination settles
    Driver(services).drain_coordinator()
    assert services.adapters.store.tables.get(tid, "1").table.hand_number == 2
    first = services.adapters.coordination.sent[0]
    assert isinstance(first, HandEnded)
    before = services.adapters.store.commits
    result = services.coordinator.on_hand_ended(first)
    assert result.duplicate and services.adapters.store.commits == before


def test_the_lobby_standings_and_history_of_a_finished_hand(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid = started(services, create, clock)
    driver = Driver(services)
    while services.adapters.store.tables.get(tid, "1").table.hand_number < 2:
        driver.step(tid)
    standings = services.lobby.standings(tid)
    assert standings.players_left == 6 and sum(r.chips for r in standings.players) == 6 * 10_000
    assert [r.chips for r in standings.players] == sorted((r.chips for r in standings.players), reverse=True)
    history = services.lobby.hand_history(tid, "1", 1, "p0")
    assert "PokerStars" in history.pokerstars and "actions" in history.phh
    view = services.lobby.table_view(tid, "1", None)
    assert all(not s.cards for s in view.seats) or not view.hand_in_progress


def test_rule_17_terminated_by_an_operator_is_compensated_after_twenty_minutes(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a running tournament terminated by an operator in its first minutes
    tid = started(services, create, clock)
    services.admin.terminate(tid, "op", "broken")
    assert services.adapters.workflows.recovering == [tid]
    # When the recovery workflow cancels the hands and waits out the window
    assert services.recovery.cancel_hands(tid).cancelled_hands == 1
    assert services.recovery.try_restart(tid).outcome == "retry"
    assert services.recovery.compensate(tid).outcome == "retry"
    clock.advance(20 * 60)
    step = services.recovery.compensate(tid)
    # Then it is rolled back (within 30 minutes of the start): everyone gets back what they paid
    assert step.outcome == "rollback"
    assert all(services.accounts.account(f"p{i}").balance == 10_000 for i in range(6))
    services.adapters.store.money.verify_invariants()
    assert services.recovery.compensate(tid).outcome == "nothing"


def test_the_watchdog_terminates_a_stalled_tournament_and_recovery_restarts_it(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid = started(services, create, clock)
    # Given a running tournament: the watch counts it and its table for the dashboard
    quiet = services.recovery.watch()
    assert (quiet.terminated, quiet.running_tournaments, quiet.open_tables) == ((), 1, 1)
    # When its table makes no progress for six minutes
    clock.advance(6 * 60)
    report = services.recovery.watch()
    assert report.terminated == (tid,)
    services.recovery.cancel_hands(tid)
    step = services.recovery.try_restart(tid)
    assert step.outcome == "restarted"
    assert services.adapters.store.tournaments.get(tid).status is TournamentStatus.RUNNING
    assert services.adapters.store.tables.get(tid, "1").table.hand_in_progress


def test_repeated_start_steps_change_nothing(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a started tournament; When the workflow steps are delivered again; Then no table or money changes
    tid = started(services, create, clock)
    store = services.adapters.store
    versions = [t.version for t in store.tables.list(tid)]
    assert services.start.seat_batch(tid, 0).tables == ("1",)
    assert services.start.deal_first_hands(tid, ["1"]).tables == ()
    assert services.start.close_registration(tid).status == "running"
    assert [t.version for t in store.tables.list(tid)] == versions
    store.money.verify_invariants()
