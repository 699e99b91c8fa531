"""Rule 17: the watchdog terminates a tournament only when a table is quiet past its own deadline.

A table waits for the decision awaited: its own time (``decision_seconds``, up
to 300), then the time bank its player may still start (docs/rules.md, 'Defaults').
A healthy table acts or times out within that; the watchdog allows the
time-out's delivery on top (``STALL_SLACK``) before it calls the table stalled
and terminates the tournament (the hand in progress is then voided, rule 17.1).
A fixed five minutes terminated healthy tournaments of long decision times.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain.registration import TournamentStatus
from tourney.services.recover import STALL_SLACK

from tests.support.driver import Driver
from tests.unit.services.conftest import five_minute_decisions, started


def test_rule_17_a_table_of_five_minute_decisions_is_not_stalled_while_its_player_may_still_act(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament of 300-second decisions, its first decision awaited (30 s of time bank)
    tid, _ = five_minute_decisions(services, create, clock)
    store = services.adapters.store
    # When the watchdog runs as the decision's own time runs out, its time-out not yet delivered
    clock.advance(300)
    report = services.recovery.watch()
    # Then nothing is terminated, and the time-out, delivered, starts the player's time bank
    assert report.terminated == ()
    assert Driver(services).fire_due_timers() >= 1
    awaiting = store.tables.get(tid, "1").table.awaiting(normal=300)
    assert awaiting is not None and awaiting.on_time_bank
    # When the watchdog runs as the bank runs out (the time-out not yet delivered)
    clock.advance(30)
    assert services.recovery.watch().terminated == ()
    assert store.tournaments.get(tid).status is TournamentStatus.RUNNING


def test_rule_17_a_table_quiet_past_its_deadline_and_the_slack_is_stalled(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament of 300-second decisions whose time-outs are lost
    tid = started(services, create, clock, decision_seconds=300)
    services.adapters.timers.clear()
    deadline = timedelta(seconds=300 + 30)
    # When the watchdog runs a second before the deadline and the slack: not yet
    clock.advance((deadline + STALL_SLACK).total_seconds() - 1)
    assert services.recovery.watch().terminated == ()
    # When it runs once they are past
    clock.advance(1)
    # Then the tournament is terminated
    assert services.recovery.watch().terminated == (tid,)
    assert services.adapters.store.tournaments.get(tid).status is TournamentStatus.TERMINATED
