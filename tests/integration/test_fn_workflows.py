"""The scheduled and workflow functions fed with their payloads: the EventBridge Scheduler input of a start,
the Step Functions task inputs of the start and recovery workflows (as infra/workflows.py passes them), and
the recurring sweeper and watchdog schedules."""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

from datetime import timedelta

import pytest
from pydantic import ValidationError
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain.registration import TournamentStatus

from functions.recovery_tasks.app import handler as recovery_tasks
from functions.start.app import handler as start
from functions.start_tasks.app import handler as start_tasks
from functions.sweeper.app import handler as sweeper
from functions.watchdog.app import handler as watchdog
from tests.support.functions import announce, clock, context, fund, memory, running  # noqa: F401


def registered(services: Services, clock: FrozenClock, players: int = 4) -> str:
    tid = announce(services, clock)
    names = [f"p{i}" for i in range(players)]
    fund(services, *names)
    for name in names:
        services.registration.register(tid, name)
    return tid


def test_the_start_schedule_starts_the_workflow_once(memory: Services, clock: FrozenClock, context) -> None:
    # Given a tournament at its start time
    tid = registered(memory, clock)
    clock.set(memory.adapters.store.tournaments.get(tid).start_at)
    # When its one-time schedule fires, and fires again (at-least-once delivery)
    first = start({"tournament_id": tid}, context)
    second = start({"tournament_id": tid}, context)
    # Then the start workflow was started once
    assert first["started"] is True and first["tournament_id"] == tid
    assert second["tournament_id"] == tid
    assert list(memory.adapters.workflows.pending_starts) == [tid]


def test_a_start_schedule_without_a_tournament_id_is_refused(memory: Services, context) -> None:
    with pytest.raises(ValidationError):
        start({"detail-type": "Scheduled Event"}, context)


def test_the_start_workflow_tasks_seat_and_deal_every_table(memory: Services, clock: FrozenClock, context) -> None:
    # Given a tournament whose start workflow was started
    tid = registered(memory, clock, players=12)
    clock.set(memory.adapters.store.tournaments.get(tid).start_at)
    start({"tournament_id": tid}, context)
    # When the workflow runs its tasks with the payloads of infra/workflows.py (Map over the batches)
    plan = start_tasks({"step": "close_registration", "tournament_id": tid}, context)
    seated = [start_tasks({"step": "seat_batch", "tournament_id": tid, "batch": b}, context) for b in plan["batches"]]
    dealt = [start_tasks({"step": "deal_first_hands", "tournament_id": tid, "batch": b}, context)
             for b in plan["batches"]]  # fmt: skip
    # Then every table of every batch is seated and has a hand in progress
    tables = [table for batch in seated for table in batch["tables"]]
    assert plan["status"] == "running" and len(tables) == 2
    assert sorted(t for batch in dealt for t in batch["tables"]) == sorted(tables)
    assert all(memory.lobby.table_view(tid, table, None).hand_in_progress for table in tables)


def test_start_workflow_tasks_retried_change_nothing(memory: Services, clock: FrozenClock, context) -> None:
    tid = registered(memory, clock, players=6)
    clock.set(memory.adapters.store.tournaments.get(tid).start_at)
    start({"tournament_id": tid}, context)
    plan = start_tasks({"step": "close_registration", "tournament_id": tid}, context)
    for batch in plan["batches"]:
        start_tasks({"step": "seat_batch", "tournament_id": tid, "batch": batch}, context)
        start_tasks({"step": "deal_first_hands", "tournament_id": tid, "batch": batch}, context)
    table = memory.adapters.store.tables.list(tid)[0].table_id
    before = memory.lobby.table_view(tid, table, None)
    # When Step Functions retries every task (a lost answer, a timeout)
    again = start_tasks({"step": "close_registration", "tournament_id": tid}, context)
    for batch in plan["batches"]:
        start_tasks({"step": "seat_batch", "tournament_id": tid, "batch": batch}, context)
        start_tasks({"step": "deal_first_hands", "tournament_id": tid, "batch": batch}, context)
    # Then the plan is the same and the table was not dealt again
    assert again["batches"] == plan["batches"]
    assert memory.lobby.table_view(tid, table, None) == before


def test_an_unknown_workflow_step_is_refused(memory: Services, context) -> None:
    with pytest.raises(ValidationError):
        start_tasks({"step": "shuffle_up", "tournament_id": "t1"}, context)


def test_the_recovery_tasks_cancel_retry_then_compensate(memory: Services, clock: FrozenClock, context) -> None:
    # Given a running tournament an operator terminates
    tid, _ = running(memory, clock)
    terminated = memory.admin.terminate(tid, "op", "test")
    # When the recovery workflow cancels the hands and tries to restart within the 20 minutes
    cancelled = recovery_tasks({"step": "cancel_hands", "tournament_id": tid}, context)
    early = recovery_tasks({"step": "try_restart", "tournament_id": tid,
                            "terminated_at": terminated.to_dict()["terminated_at"]}, context)  # fmt: skip
    # Then it waits and tries again; once the 20 minutes are over it compensates
    clock.advance(21 * 60)
    late = recovery_tasks({"step": "try_restart", "tournament_id": tid}, context)
    paid = recovery_tasks({"step": "compensate", "tournament_id": tid}, context)
    assert cancelled["tournament_id"] == tid
    assert (early["restarted"], early["window_closed"]) == (False, False)
    assert (late["restarted"], late["window_closed"]) == (False, True)
    assert paid["outcome"] in ("rollback", "payout", "refund_share")


def test_the_sweeper_refunds_a_tournament_that_never_started(memory: Services, clock: FrozenClock, context) -> None:
    # Given registered players and a start time long gone, with no start
    tid = registered(memory, clock)
    clock.set(memory.adapters.store.tournaments.get(tid).start_at + timedelta(hours=1))
    # When the sweeper's schedule fires (twice: overlapping runs)
    first = sweeper({}, context)
    second = sweeper({}, context)
    # Then the tournament was refunded once and everybody has their money back
    assert first["refunded"] == [tid] and second["refunded"] in ([], [tid])
    assert memory.accounts.account("p0").balance == 10_000


def test_the_watchdog_terminates_a_stalled_tournament(memory: Services, clock: FrozenClock, context) -> None:
    # Given a running tournament whose tables make no progress for ten minutes
    tid, _ = running(memory, clock)
    clock.advance(10 * 60)
    # When the watchdog's schedule fires
    report = watchdog({}, context)
    # Then the tournament is terminated and its recovery workflow started
    assert report["terminated"] == [tid]
    assert memory.adapters.store.tournaments.get(tid).status is TournamentStatus.TERMINATED
    assert tid in memory.adapters.workflows.pending_recoveries
