"""Rule 17: the 20-minute window is exact to the millisecond.

Compensation never starts before termination + 20:00.000; the seconds left
that the recovery workflow waits before its next try are rounded up.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services

from tests.unit.services.test_rule_17_termination_defects import started

WINDOW = timedelta(minutes=20)


def terminated_with_a_fraction(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> tuple[str, datetime]:
    """A running tournament terminated at an instant with a fraction of a second, its hands cancelled: its id and
    that instant."""
    tid = started(services, create, clock)
    clock.advance(0.25)
    services.admin.terminate(tid, "op", "broken")
    services.recovery.cancel_hands(tid)
    terminated_at = services.adapters.store.tournaments.get(tid).terminated_at
    assert terminated_at is not None
    return tid, terminated_at


@pytest.mark.parametrize("early", [timedelta(seconds=0.5), timedelta(milliseconds=1)])
def test_rule_17_the_window_is_open_until_twenty_minutes_to_the_millisecond(
    services: Services, create: Callable[..., str], clock: FrozenClock, early: timedelta
) -> None:
    # Given a tournament terminated at an instant with a fraction of a second
    tid, terminated_at = terminated_with_a_fraction(services, create, clock)
    assert terminated_at.microsecond
    # When the recovery workflow tries to restart just before 20:00.000
    clock.set(terminated_at + WINDOW - early)
    step = services.recovery.try_restart(tid)
    # Then the window is still open, one second (rounded up) to wait
    assert (step.outcome, step.seconds_left) == ("retry", 1)


def test_rule_17_the_window_closes_at_exactly_twenty_minutes(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid, terminated_at = terminated_with_a_fraction(services, create, clock)
    clock.set(terminated_at + WINDOW)
    assert services.recovery.try_restart(tid).outcome == "compensate"


def test_rule_17_the_seconds_left_are_rounded_up(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid, terminated_at = terminated_with_a_fraction(services, create, clock)
    clock.set(terminated_at + timedelta(minutes=5, milliseconds=1))
    assert services.recovery.try_restart(tid).seconds_left == 15 * 60


def test_rule_17_compensation_never_starts_before_twenty_minutes(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    tid, terminated_at = terminated_with_a_fraction(services, create, clock)
    clock.set(terminated_at + WINDOW - timedelta(milliseconds=500))
    step = services.recovery.compensate(tid)
    assert (step.outcome, step.seconds_left) == ("retry", 1)
