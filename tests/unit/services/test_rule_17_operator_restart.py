"""Rule 17: an operator may restart any terminated tournament inside its 20 minutes.

The restart resumes the same blind level with the time that was left and deals
every table; the recovery workflow then finds it restarted. Outside the window,
or when the tournament is not terminated, the restart is refused (409).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain.errors import Conflict
from tourney.domain.registration import TournamentStatus

from tests.support.driver import Driver
from tests.unit.services.conftest import terminated
from tests.unit.services.test_rule_17_termination_defects import (
    started,
    terminated_after_its_hand_ended,
)


def test_rule_17_an_operator_restarts_a_terminated_tournament_at_the_same_level_with_the_time_left(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament of 10-minute levels terminated by an operator 4 minutes into play, its hands cancelled
    tid = started(services, create, clock, level_minutes=10)
    clock.advance(4 * 60)
    services.admin.terminate(tid, "op", "broken")
    services.recovery.cancel_hands(tid)
    # When the operator restarts it 5 minutes later
    clock.advance(5 * 60)
    answer = services.admin.restart(tid, "op", "fixed")
    # Then it runs again at level 1 with 6 minutes left, every table dealing
    assert answer.status == "running" and answer.restarted_at == clock.now()
    standings = services.lobby.standings(tid)
    assert standings.level == 1 and standings.seconds_to_next_level == 6 * 60
    record = services.adapters.store.tables.get(tid, "1")
    assert record.table.hand_in_progress and not record.halted
    t = services.adapters.store.tournaments.get(tid)
    assert (t.status, t.restarted_by, t.restart_reason) == (TournamentStatus.RUNNING, "op", "fixed")
    # And the recovery workflow, at its next try, finds it restarted
    assert services.recovery.try_restart(tid).outcome == "nothing"
    assert services.recovery.compensate(tid).outcome == "nothing"


def test_rule_17_a_restart_before_the_hands_were_cancelled_cancels_them_first(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a terminated tournament whose recovery workflow has not run yet, a hand in progress
    tid = started(services, create, clock)
    first = services.adapters.store.tables.get(tid, "1").table.hand_number
    services.admin.terminate(tid, "op", "broken")
    # When the operator restarts it at once
    services.admin.restart(tid, "op", "false alarm")
    # Then the hand in progress was cancelled and the next one dealt
    record = services.adapters.store.tables.get(tid, "1")
    assert record.table.hand_number == first + 1 and record.table.hand_in_progress


def test_rule_17_a_restart_settles_the_pending_hand_end_and_deals_on(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a hand that ended as the tournament was terminated, its end not coordinated yet
    tid, hand = terminated_after_its_hand_ended(services, create, clock)
    # When the operator restarts it and the coordinator runs
    services.admin.restart(tid, "op", "fixed")
    Driver(services).drain_coordinator()
    # Then the hand was settled and the next one dealt
    record = services.adapters.store.tables.get(tid, "1")
    assert record.coordinated_hand == hand and record.table.hand_number == hand + 1
    assert record.table.hand_in_progress


def test_rule_17_a_restart_after_the_twenty_minutes_is_refused(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament terminated at an instant with milliseconds
    tid = started(services, create, clock)
    clock.advance(0.25)
    services.admin.terminate(tid, "op", "broken")
    services.recovery.cancel_hands(tid)
    # When the operator restarts it at termination + 20:00.000
    clock.advance(20 * 60)
    with pytest.raises(Conflict):
        services.admin.restart(tid, "op", "too late")
    # Then it stays terminated and is compensated
    assert services.adapters.store.tournaments.get(tid).status is TournamentStatus.TERMINATED
    assert services.recovery.compensate(tid).outcome == "rollback"


def test_rule_17_a_restart_a_millisecond_before_the_window_closes_is_accepted(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid = started(services, create, clock)
    services.admin.terminate(tid, "op", "broken")
    clock.advance(20 * 60 - 0.001)
    assert services.admin.restart(tid, "op", "just in time").status == "running"


def test_rule_17_restarting_a_tournament_that_is_not_terminated_is_refused(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid = started(services, create, clock)
    with pytest.raises(Conflict):
        services.admin.restart(tid, "op", "running already")
    registering = create("t2")
    with pytest.raises(Conflict):
        services.admin.restart(registering, "op", "not started")


def test_rule_17_a_tournament_terminated_again_after_a_restart_is_recovered_again(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament terminated, restarted, then terminated again 10 minutes later
    tid = terminated(services, create, clock, "first")
    services.admin.restart(tid, "op", "fixed")
    clock.advance(10 * 60)
    second = services.admin.terminate(tid, "op", "second")
    # Then the second window counts from the second termination
    services.recovery.cancel_hands(tid)
    clock.advance(19 * 60)
    assert services.recovery.try_restart(tid).outcome == "retry"
    assert services.adapters.store.tournaments.get(tid).terminated_at == second.terminated_at
    clock.advance(timedelta(minutes=1).total_seconds())
    assert services.recovery.try_restart(tid).outcome == "compensate"
