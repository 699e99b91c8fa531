"""Rules 16 and 17: a lost time-out is armed again for the time left of the decision, never past its deadline.

A decision's time-out (its own time, then the time bank's) is a delayed
message; one can be lost (an invocation died between its write and its
send). The watchdog arms it again once the table has been quiet past the time
the lost one would have applied, and arms it for what is left of that time
(nothing, by then), not for the whole decision time again: at 300-second
decisions a lost time-out re-armed for 300 seconds at 600 would fire at 900,
past the table's deadline (300 s, the 30-second bank, 5 minutes of slack), so
the watchdog called a healthy table stalled and terminated the tournament.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain.registration import TournamentStatus
from tourney.services.tables import arm

from tests.support.driver import Driver
from tests.unit.services.conftest import five_minute_decisions, started


def watch_every_minute(services: Services, minutes: int) -> None:
    """The watchdog runs every minute, and every time-out due is delivered; it never terminates anything."""
    driver = Driver(services)
    for _ in range(minutes):
        services.adapters.clock.advance(60)
        assert services.recovery.watch().terminated == ()
        driver.fire_due_timers()


def test_rule_16_a_lost_time_out_of_a_five_minute_decision_is_rearmed_for_the_time_left(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament of 300-second decisions whose first decision's time-out is lost
    tid, first = five_minute_decisions(services, create, clock)
    store = services.adapters.store
    services.adapters.timers.clear()
    # When the watchdog runs every minute for eleven minutes, each time-out due delivered
    watch_every_minute(services, 11)
    # Then the tournament was never terminated, and the lost time-out, armed again, timed the decision out
    assert store.tournaments.get(tid).status is TournamentStatus.RUNNING
    table = store.tables.get(tid, "1").table
    assert not table.awaits(first.hand, first.seq, first.seat)
    assert table.seats[first.seat].away


def test_rule_16_a_lost_time_out_of_a_time_bank_is_rearmed_for_the_time_left(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament of 300-second decisions whose first decision runs on its 30-second time bank
    tid = started(services, create, clock, decision_seconds=300)
    store = services.adapters.store
    clock.advance(300)
    assert Driver(services).fire_due_timers() >= 1
    first = store.tables.get(tid, "1").table.awaiting(normal=300)
    assert first is not None and first.on_time_bank
    # When the bank's time-out is lost and the watchdog runs every minute for seven minutes
    services.adapters.timers.clear()
    watch_every_minute(services, 7)
    # Then the tournament was never terminated, and the bank's time-out, armed again, timed the decision out
    assert store.tournaments.get(tid).status is TournamentStatus.RUNNING
    assert not store.tables.get(tid, "1").table.awaits(first.hand, first.seq, first.seat)


def test_rule_16_a_time_out_armed_again_applies_when_the_decisions_time_runs_out(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a 300-second decision awaited for 100 seconds, its time-out lost
    tid = started(services, create, clock, decision_seconds=300)
    services.adapters.timers.clear()
    record = services.adapters.store.tables.get(tid, "1")
    assert record.updated_at is not None
    clock.advance(100)
    # When its time-out is armed again
    armed = arm(services.deps, record, now=clock.now())
    # Then it is armed for the 200 seconds left, due when the decision's own time runs out
    assert armed is not None and armed.seconds == 200 and not armed.on_time_bank
    assert services.adapters.timers.next_due() == record.updated_at + timedelta(seconds=300)
