"""Rule 17: a recovery workflow that failed to start is requested again.

A second terminate of a terminated tournament, and the watchdog finding a
terminated tournament whose recovery has shown no sign of life for
``RECOVERY_QUIET``, request the recovery workflow again (its start is
idempotent), so money is never locked by a lost start.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.services.recover import RECOVERY_QUIET

from tests.unit.services.conftest import started, terminated


class LostStart(RuntimeError):
    """Step Functions did not take the execution (throttled, or the invocation died)."""


def lose_the_next_recovery_start(services: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    workflows = services.adapters.workflows
    real = workflows.recover

    def lost(tournament_id: str) -> None:
        monkeypatch.setattr(workflows, "recover", real)
        raise LostStart(tournament_id)

    monkeypatch.setattr(workflows, "recover", lost)


def terminated_with_its_recovery_lost(
    services: Services, create: Callable[..., str], clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> str:
    """A running tournament terminated, the start of its recovery workflow lost: its id."""
    tid = started(services, create, clock)
    lose_the_next_recovery_start(services, monkeypatch)
    with pytest.raises(LostStart):
        services.admin.terminate(tid, "op", "broken")
    return tid


def test_rule_17_terminating_again_re_requests_a_lost_recovery(
    services: Services, create: Callable[..., str], clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a termination whose recovery workflow failed to start
    tid = terminated_with_its_recovery_lost(services, create, clock, monkeypatch)
    assert services.adapters.store.tournaments.get(tid).status == "terminated"
    assert services.adapters.workflows.recovering == []
    # When the operator terminates it again
    again = services.admin.terminate(tid, "op", "broken")
    # Then the recovery workflow is requested, for the first termination (its window unchanged)
    assert services.adapters.workflows.recovering == [tid]
    assert again.status == "terminated"
    assert again.terminated_at == services.adapters.store.tournaments.get(tid).terminated_at


def test_rule_17_the_watchdog_re_requests_a_lost_recovery(
    services: Services, create: Callable[..., str], clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a termination whose recovery workflow failed to start
    tid = terminated_with_its_recovery_lost(services, create, clock, monkeypatch)
    # When the watchdog runs once the recovery has been quiet long enough
    assert services.recovery.watch().recovering == ()
    clock.advance(RECOVERY_QUIET.total_seconds())
    report = services.recovery.watch()
    # Then it requests the recovery workflow again
    assert report.recovering == (tid,)
    assert services.adapters.workflows.recovering == [tid]


def test_rule_17_the_watchdog_leaves_a_live_recovery_alone(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a terminated tournament whose recovery workflow runs (a try every minute)
    tid = terminated(services, create, clock)
    for _ in range(10):
        clock.advance(60)
        assert services.recovery.try_restart(tid).outcome == "retry"
        # Then the watchdog does not request another one
        assert services.recovery.watch().recovering == ()


def test_rule_17_the_watchdog_re_drives_a_recovery_that_stopped_before_compensating(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a terminated tournament whose workflow stopped after its window closed, nobody compensated
    tid = terminated(services, create, clock)
    clock.advance(20 * 60)
    assert services.recovery.try_restart(tid).outcome == "compensate"
    workflows = services.adapters.workflows
    workflows.recovering.clear()  # that execution is over: a new one may start
    # When the watchdog runs once it has been quiet long enough
    clock.advance(RECOVERY_QUIET.total_seconds())
    assert services.recovery.watch().recovering == (tid,)
    # Then a compensated tournament is left alone
    assert services.recovery.compensate(tid).outcome == "rollback"
    clock.advance(RECOVERY_QUIET.total_seconds())
    assert services.recovery.watch().recovering == ()
