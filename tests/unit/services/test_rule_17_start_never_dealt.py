"""Rule 17.6: a tournament that closed registration and never dealt a hand is refunded in full within 24 hours.

Its start workflow closed registration (the tournament runs, the money is in
the pool) and then a step failed every time (a broken deployment): no table
was seated, no hand dealt. The watchdog asks for the start again for a while;
then the sweeper gives the start up and refunds every player buy-in and fee,
well within 24 hours of the start time, and the watchdog stops asking. An
operator's terminate gives such a start up at once
(``test_rule_17_terminate_before_any_hand_refunds_at_once.py``); one
terminated by the recovery's own ``terminate_running`` before a hand was dealt
gets, as its compensation, the same full refund: it needs no tables, no
entrants and no stacks.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain.errors import Conflict
from tourney.domain.registration import TournamentStatus
from tourney.services.recover import START_QUIET, terminate_running

from tests.unit.services.conftest import registration_closed

BALANCE = 10_000


def closed_and_never_seated(services: Services, create: Callable[..., str], clock: FrozenClock) -> str:
    """Six players registered; the start closed registration and its seating step never ran (it keeps failing)."""
    tid, plan = registration_closed(services, create, clock, [f"p{i}" for i in range(6)], BALANCE, seats=6)
    assert plan.status == "running"
    assert services.adapters.store.tables.list(tid) == []
    return tid


def balances(services: Services) -> list[int]:
    return [services.accounts.account(f"p{i}").balance for i in range(6)]


def test_rule_17_6_a_start_that_never_dealt_is_refunded_in_full_within_24_hours(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament whose start closed registration and then failed every time
    tid = closed_and_never_seated(services, create, clock)
    store = services.adapters.store
    start_at = store.tournaments.get(tid).start_at
    assert start_at is not None and balances(services) == [BALANCE - 1_100] * 6
    # When ten minutes have passed: the watchdog asks for the start again, the sweeper refunds nobody yet
    clock.advance(START_QUIET.total_seconds())
    assert services.recovery.watch().starting == (tid,)
    assert services.recovery.sweep().refunded == ()
    # When the sweeper runs every 15 minutes until 24 hours after the start time
    refunded: tuple[str, ...] = ()
    while not refunded and clock.now() < start_at + timedelta(hours=24):
        clock.advance(15 * 60)
        services.recovery.watch()
        refunded = services.recovery.sweep().refunded
    # Then it refunded every player buy-in and fee before the 24 hours were over, once
    assert refunded == (tid,) and clock.now() <= start_at + timedelta(hours=24)
    assert balances(services) == [BALANCE] * 6
    t = store.tournaments.get(tid)
    assert t.status is TournamentStatus.CANCELLED and t.ended_at is not None
    store.money.verify_invariants()
    # And the watchdog no longer asks for the start, and the start's steps, delivered late, seat and deal nothing
    clock.advance(START_QUIET.total_seconds())
    assert services.recovery.watch().starting == ()
    assert services.start.close_registration(tid).status == "cancelled"
    assert services.start.seat_batch(tid, 0).tables == ()
    assert services.start.deal_first_hands(tid, ["1"]).tables == ()
    assert services.recovery.sweep().refunded == ()
    assert balances(services) == [BALANCE] * 6


def test_rule_17_6_the_watchdog_stops_asking_for_a_start_given_up(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament whose start never dealt, 24 hours after its start time, the sweeper not run yet
    tid = closed_and_never_seated(services, create, clock)
    clock.advance(24 * 3_600)
    # When the watchdog runs
    report = services.recovery.watch()
    # Then it does not ask for the start again
    assert report.starting == () and report.failed == ()
    assert tid not in services.adapters.workflows.pending_starts


def terminated(services: Services, tid: str, clock: FrozenClock) -> None:
    """``tid`` terminated before it dealt a hand (an operator's terminate gives such a start up instead)."""
    t = services.adapters.store.tournaments.get(tid)
    terminate_running(services.deps, t, "op", "the start keeps failing", clock.now())


def test_rule_17_6_a_tournament_terminated_before_it_dealt_is_compensated_by_a_full_refund(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament whose start closed registration and never seated a table
    tid = closed_and_never_seated(services, create, clock)
    # When it is terminated and its recovery runs to compensation
    terminated(services, tid, clock)
    services.recovery.cancel_hands(tid)
    assert services.recovery.try_restart(tid).outcome == "retry"
    clock.advance(20 * 60)
    outcomes = [services.recovery.compensate(tid).outcome for _ in range(3)]
    # Then its compensation refunds every player buy-in and fee in full, without any table
    assert outcomes[0] == "rollback" and outcomes[-1] == "nothing"
    assert balances(services) == [BALANCE] * 6
    t = services.adapters.store.tournaments.get(tid)
    assert t.status is TournamentStatus.TERMINATED and t.ended_at is not None
    services.adapters.store.money.verify_invariants()


def test_rule_17_6_a_restart_of_a_tournament_whose_start_never_seated_it_is_refused_and_commits_nothing(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament whose start never seated a table, terminated
    tid = closed_and_never_seated(services, create, clock)
    terminated(services, tid, clock)
    # When the operator restarts it
    with pytest.raises(Conflict):
        services.admin.restart(tid, "op", "try again")
    # Then it is still terminated, its clock never started: its compensation will refund everyone in full
    t = services.adapters.store.tournaments.get(tid)
    assert t.status is TournamentStatus.TERMINATED and t.started_at is None and t.restarted_at is None
    coordinator = services.adapters.store.coordinators.get(tid)
    assert coordinator is not None and coordinator.state.started_at is None


def test_rule_17_6_a_first_deal_that_comes_after_the_start_was_given_up_deals_nothing(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament seated by its start, whose first deal kept failing until the start was given up
    tid = closed_and_never_seated(services, create, clock)
    assert services.start.seat_batch(tid, 0).tables == ("1",)
    clock.advance(24 * 3_600)
    assert services.recovery.sweep().refunded == (tid,)
    # When the first deal finally runs
    dealt = services.start.deal_first_hands(tid, ["1"])
    # Then it deals nothing: everyone keeps the refund
    assert dealt.tables == () and services.adapters.store.tables.get(tid, "1").table.hand_number == 0
    assert balances(services) == [BALANCE] * 6


def test_rule_17_6_a_start_that_dealt_before_the_sweep_is_not_given_up(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament whose start, an hour and more late, dealt at last
    tid = closed_and_never_seated(services, create, clock)
    clock.advance(2 * 3_600)
    services.start.seat_batch(tid, 0)
    assert services.start.deal_first_hands(tid, ["1"]).tables == ("1",)
    # When the sweeper runs
    # Then it refunds nobody: the tournament has started
    assert services.recovery.sweep().refunded == ()
    assert services.adapters.store.tournaments.get(tid).status is TournamentStatus.RUNNING
