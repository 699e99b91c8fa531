"""Rule 2: a tournament starts at its start time, even one with a fraction of a second.

EventBridge Scheduler's ``at()`` takes whole seconds: the schedule fires at
the next whole second, to the minute; a start that fires early anyway answers
"not yet" and the watchdog, every minute, starts a tournament still registering
a minute past its start time.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import boto3
import pytest
from tourney.adapters.aws import EventBridgeStartScheduler
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services, bootstrap_memory
from tourney.domain.registration import TournamentStatus
from tourney.services.commands import CreateTournament

from tests.support.aws import REGION, aws  # noqa: F401
from tests.support.driver import Driver

START = datetime(2026, 12, 1, 20, 0, 0, 400_000, tzinfo=UTC)
"""A start time with 0.4 seconds."""


@pytest.mark.usefixtures("aws")
@pytest.mark.parametrize(
    ("at", "expression"),
    [
        (START, "at(2026-12-01T20:00:01)"),
        (START.replace(microsecond=0), "at(2026-12-01T20:00:00)"),
        (datetime(2026, 12, 31, 23, 59, 59, 1, tzinfo=UTC), "at(2027-01-01T00:00:00)"),
    ],
)
def test_rule_2_the_start_schedule_fires_at_the_next_whole_second(at: datetime, expression: str) -> None:
    scheduler = boto3.client("scheduler", region_name=REGION)
    scheduler.create_schedule_group(Name="tourney")
    starts = EventBridgeStartScheduler("tourney", "arn:aws:iam::123456789012:role/s", "arn:aws:lambda:x:1:function:s")
    starts.schedule("t1", at)
    assert scheduler.get_schedule(Name="start-t1", GroupName="tourney")["ScheduleExpression"] == expression


def announced(clock: FrozenClock) -> tuple[Services, str]:
    services = bootstrap_memory(clock=clock, rng=random.Random(2))
    command = CreateTournament(
        name="Fraction", format="freezeout", buy_in=1_000, entry_fee=100, start_at=START, tournament_id="t1",
    )  # fmt: skip
    tid = services.admin.create_tournament(command).id
    for player in ("ann", "bob", "cat"):
        services.accounts.deposit(player, 10_000, key=f"fund-{player}")
        services.registration.register(tid, player)
    return services, tid


def test_rule_2_a_start_due_at_the_scheduled_whole_second_starts() -> None:
    # Given a tournament starting at 20:00:00.4, whose schedule fires at 20:00:01
    clock = FrozenClock(START - timedelta(hours=1))
    services, tid = announced(clock)
    # When the schedule fires at the whole second
    clock.set(START.replace(microsecond=0) + timedelta(seconds=1))
    due = services.start.start_due(tid)
    Driver(services).run_workflows()
    # Then the start workflow runs and the tournament is running
    assert due.started
    assert services.adapters.store.tournaments.get(tid).status is TournamentStatus.RUNNING


def test_rule_2_a_start_that_fires_early_is_started_by_the_watchdog() -> None:
    # Given a tournament starting at 20:00:00.4, the schedule firing at 20:00:00 by the scheduler's clock
    clock = FrozenClock(START - timedelta(hours=1))
    services, tid = announced(clock)
    schedules = services.adapters.start_scheduler.schedules
    schedules.clear()  # the one-time schedule is deleted once it fired
    clock.set(START.replace(microsecond=0))
    # When the start answers "not yet"
    due = services.start.start_due(tid)
    # Then it schedules nothing (the start function may not: infra/wiring.py) and starts nothing yet
    assert not due.started and tid not in schedules
    assert services.adapters.store.tournaments.get(tid).status is TournamentStatus.REGISTERING
    # And the watchdog starts it in the minute after its start time
    clock.set(START + timedelta(seconds=30))
    assert tid not in services.recovery.watch().starting
    clock.set(START + timedelta(minutes=1))
    assert tid in services.recovery.watch().starting
    Driver(services).run_workflows()
    assert services.adapters.store.tournaments.get(tid).status is TournamentStatus.RUNNING
