"""The SQS functions fed with SQS records: time-outs (standard queue) and the coordinator (FIFO, group = tournament).

One bad record does not fail the batch (partial batch responses), a stale or
duplicate message is a no-op, and an infrastructure error is answered as a
failure of that record so SQS delivers it again.
"""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from aws_lambda_powertools.utilities.batch.exceptions import BatchProcessingError
from tourney.adapters.memory import FrozenClock, MemoryPushes
from tourney.bootstrap import Services
from tourney.entrypoints.dependencies import use_services
from tourney.services.messages import HandEnded, TablesSettled
from tourney.services.ports import Push, TablePush

from functions.coordinator.app import handler as coordinator
from functions.timeouts.app import handler as timeouts
from tests.support.events import sqs_event, sqs_record
from tests.support.functions import clock, context, memory, running  # noqa: F401
from tests.support.hand_ends import hold_for_the_coordination


def failures(answer: dict[str, Any]) -> list[str]:
    return [failure["itemIdentifier"] for failure in answer["batchItemFailures"]]


def play_hand_out(services: Services, tid: str, table: str) -> None:
    """Everyone folds to the last player: the hand ends and its end is queued for the coordinator."""
    hold_for_the_coordination(services.adapters.store, tid, table)
    while (to_act := services.lobby.table_view(tid, table, None).to_act) is not None:
        view = services.lobby.table_view(tid, table, to_act.player)
        services.play.act(tid, table, to_act.player, view.hand, to_act.seq, "fold")
        if services.adapters.coordination.queue:
            return


def test_a_decision_that_times_out_is_checked_or_folded(memory: Services, clock: FrozenClock, context) -> None:
    # Given a running table whose first decision has armed its time-out
    tid, table = running(memory, clock)
    before = memory.lobby.table_view(tid, table, None)
    armed = memory.adapters.timers.armed[-1]
    # When the delayed message arrives: the player's time bank starts, with a time-out of its own
    answer = timeouts(sqs_event(sqs_record(armed.to_json(), message_id="m1")), context)
    assert failures(answer) == []
    on_bank = memory.lobby.table_view(tid, table, None)
    assert on_bank.to_act is not None and on_bank.to_act.on_time_bank and on_bank.to_act.seq == before.to_act.seq
    bank = memory.adapters.timers.armed[-1]
    # And when the bank's time-out arrives
    answer = timeouts(sqs_event(sqs_record(bank.to_json(), message_id="m2")), context)
    # Then no record failed, and the decision was taken for the player
    assert failures(answer) == []
    after = memory.lobby.table_view(tid, table, None)
    assert after.to_act is None or after.to_act.seq > before.to_act.seq or after.hand > before.hand


def test_a_stale_time_out_is_a_no_op(memory: Services, clock: FrozenClock, context) -> None:
    # Given a time-out whose decision the player already took
    tid, table = running(memory, clock)
    armed = memory.adapters.timers.armed[-1]
    to_act = memory.lobby.table_view(tid, table, None).to_act
    assert to_act is not None
    hand = memory.lobby.table_view(tid, table, to_act.player).hand
    memory.play.act(tid, table, to_act.player, hand, to_act.seq, "fold")
    after_action = memory.lobby.table_view(tid, table, None)
    # When the time-out is delivered (twice: SQS delivers at least once)
    answer = timeouts(sqs_event(sqs_record(armed.to_json()), sqs_record(armed.to_json())), context)
    # Then both records succeed and the table is unchanged
    assert failures(answer) == []
    assert memory.lobby.table_view(tid, table, None) == after_action


def test_a_malformed_record_fails_alone(memory: Services, clock: FrozenClock, context) -> None:
    running(memory, clock)
    armed = memory.adapters.timers.armed[-1]
    # When a batch holds one malformed record and one good one
    answer = timeouts(sqs_event(sqs_record("{not json", message_id="bad"), sqs_record(armed.to_json())), context)
    # Then only the malformed one is reported failed (it goes to the dead-letter queue after its retries)
    assert failures(answer) == ["bad"]


class Unreachable:
    """A service whose store cannot be reached (an infrastructure error, not a domain refusal)."""

    def on_timeout(self, message: Any) -> None:
        raise ConnectionError("DynamoDB unreachable")

    def on_hand_ended(self, message: Any) -> None:
        raise ConnectionError("DynamoDB unreachable")


def test_an_infrastructure_error_is_retried_by_sqs(memory: Services, clock: FrozenClock, context) -> None:
    running(memory, clock)
    armed = memory.adapters.timers.armed[-1]
    broken = dataclasses.replace(memory, timeouts=Unreachable())
    # When the store is unreachable while a batch of two is handled
    with use_services(broken), pytest.raises(BatchProcessingError) as failed:
        timeouts(sqs_event(sqs_record(armed.to_json(), message_id="a"), sqs_record("{}", message_id="b")), context)
    # Then the invocation fails (every record failed): SQS delivers the batch again
    assert any(isinstance(e[1], ConnectionError) for e in failed.value.child_exceptions)


def test_the_coordinator_takes_a_hand_end_once(memory: Services, clock: FrozenClock, context) -> None:
    # Given a hand played out at a running table
    tid, table = running(memory, clock)
    play_hand_out(memory, tid, table)
    ended = memory.adapters.coordination.take()
    assert isinstance(ended, HandEnded)
    # When the hand end is delivered, and delivered again
    first = coordinator(sqs_event(sqs_record(ended.to_json(), group=tid, queue="coordinator")), context)
    dealt = memory.lobby.table_view(tid, table, None)
    again = coordinator(sqs_event(sqs_record(ended.to_json(), group=tid, queue="coordinator")), context)
    # Then the next hand was dealt once: the duplicate changed nothing
    assert failures(first) == [] and failures(again) == []
    assert dealt.hand == ended.hand + 1 and dealt.hand_in_progress
    assert memory.lobby.table_view(tid, table, None) == dealt


def test_rule_11_the_coordinator_settles_a_batch_of_hand_ends_in_one_unit_of_work(
    memory: Services, clock: FrozenClock, context
) -> None:
    # Given hands played out at two tables of one tournament, both hand ends queued for the coordinator
    tid, _ = running(memory, clock, players=18)
    tables = [t.table_id for t in memory.adapters.store.tables.list(tid)][:2]
    ended = []
    for table in tables:
        play_hand_out(memory, tid, table)
        ended.append(memory.adapters.coordination.take())
    assert all(isinstance(m, HandEnded) for m in ended)
    before = memory.adapters.store.coordinators.get(tid)
    # When the FIFO group delivers them in one batch
    records = [sqs_record(m.to_json(), message_id=f"m{i}", group=tid, queue="coordinator") for i, m in enumerate(ended)]
    answer = coordinator(sqs_event(*records), context)
    # Then both tables dealt their next hand, and the coordinator's state was written once for the two
    assert failures(answer) == []
    for table, message in zip(tables, ended, strict=True):
        assert memory.lobby.table_view(tid, table, None).hand == message.hand + 1  # type: ignore[union-attr]
    after = memory.adapters.store.coordinators.get(tid)
    assert before is not None and after is not None and after.version == before.version + 1


def test_rule_11_a_batchs_pushes_are_handed_over_together_each_viewer_with_its_own_view(
    memory: Services, clock: FrozenClock, context, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given hands played out at two tables, a player of each and an observer watching both
    tid, _ = running(memory, clock, players=18)
    store, pushes = memory.adapters.store, memory.adapters.pushes
    tables = [t.table_id for t in store.tables.list(tid)][:2]
    players = [next(iter(store.tables.get(tid, table).table.players.values())) for table in tables]
    pushes.connect("c-obs")
    for table, player in zip(tables, players, strict=True):
        pushes.connect(f"c-{player}", player)
        pushes.subscribe(f"c-{player}", tid, table)
        pushes.subscribe("c-obs", tid, table)
    ended = []
    for table in tables:
        play_hand_out(memory, tid, table)
        ended.append(memory.adapters.coordination.take())
    rounds: list[list[Push]] = []

    def many(batch: list[Push]) -> None:
        rounds.append(list(batch))
        MemoryPushes.many(pushes, batch)

    monkeypatch.setattr(pushes, "many", many)
    pushes.deliveries.clear()
    # When the FIFO group delivers both hand ends in one batch
    records = [sqs_record(m.to_json(), message_id=f"m{i}", group=tid, queue="coordinator") for i, m in enumerate(ended)]
    assert failures(coordinator(sqs_event(*records), context)) == []
    # Then both tables' pushes were handed over in one round, each table once
    assert len(rounds) == 1
    assert sorted(p.table_id for p in rounds[0] if isinstance(p, TablePush)) == sorted(tables)
    # And each connection got each table it watches once: the player its own hole cards only, the observer none
    for table, player in zip(tables, players, strict=True):
        (own,) = [d.message["table"] for d in pushes.deliveries if d.connection == f"c-{player}"]
        (seen,) = [
            d.message["table"]
            for d in pushes.deliveries
            if d.connection == "c-obs" and d.message["table"]["table"] == table
        ]
        assert own["table"] == table
        assert [bool(s["cards"]) for s in own["seats"] if s["player"] == player] == [True]
        assert not any(s["cards"] for s in own["seats"] if s["player"] != player)
        assert not any(s["cards"] for s in seen["seats"])


def test_rule_16_what_a_coordination_batch_committed_is_pushed_and_timed_from_the_time_outs_queue(
    memory: Services, clock: FrozenClock, context
) -> None:
    # Given a table whose hand end was coordinated and its next hand dealt, one of its players and an observer watching
    tid, table = running(memory, clock)
    play_hand_out(memory, tid, table)
    ended = memory.adapters.coordination.take()
    assert failures(coordinator(sqs_event(sqs_record(ended.to_json(), group=tid, queue="coordinator")), context)) == []
    store, pushes, timers = memory.adapters.store, memory.adapters.pushes, memory.adapters.timers
    player = next(iter(store.tables.get(tid, table).table.players.values()))
    pushes.connect(f"c-{player}", player)
    pushes.subscribe(f"c-{player}", tid, table)
    pushes.connect("c-obs")
    pushes.subscribe("c-obs", tid, table)
    pushes.deliveries.clear()
    timers.clear()
    before, seen_before = store.tables.get(tid, table), memory.lobby.table_view(tid, table, None)
    # When what the batch committed comes off the time-outs queue (as on AWS), twice
    settled = TablesSettled(tid, (table,), dealt=(table,), players=((player, {"event": "moved", "seat": 3}),))
    for message_id in ("s1", "s2"):
        assert failures(timeouts(sqs_event(sqs_record(settled.to_json(), message_id=message_id)), context)) == []
    # Then the table was pushed as dealt, the player with their own cards, the observer with none, and told the rest
    own = [d.message for d in pushes.deliveries if d.connection == f"c-{player}" and "table" in d.message]
    seen = [d.message for d in pushes.deliveries if d.connection == "c-obs"]
    assert [m["event"] for m in own] == ["hand_dealt"] * 2 and [m["event"] for m in seen] == ["hand_dealt"] * 2
    assert [bool(s["cards"]) for s in own[0]["table"]["seats"] if s["player"] == player] == [True]
    assert not any(s["cards"] for s in seen[0]["table"]["seats"])
    assert [d.message for d in pushes.deliveries if d.message.get("event") == "moved"] == [settled.players[0][1]] * 2
    # And the dealt hand's first decision has its time-out armed; the table itself is unchanged
    awaiting = before.table.awaiting()
    assert awaiting is not None
    assert {(t.table, t.hand, t.seq) for t in timers.armed} == {(table, awaiting.hand, awaiting.seq)}
    assert store.tables.get(tid, table).version == before.version
    assert memory.lobby.table_view(tid, table, None) == seen_before


def test_a_failing_tournament_does_not_hold_up_another(memory: Services, clock: FrozenClock, context) -> None:
    # Given a FIFO batch: a malformed record of tournament A, then A's next record, then B's record
    tid, table = running(memory, clock)
    play_hand_out(memory, tid, table)
    ended = memory.adapters.coordination.take()
    assert ended is not None
    batch = sqs_event(
        sqs_record("{broken", message_id="a1", group="A", queue="coordinator"),
        sqs_record(ended.to_json(), message_id="a2", group="A", queue="coordinator"),
        sqs_record(ended.to_json(), message_id="b1", group=tid, queue="coordinator"),
    )
    # When the coordinator processes it
    answer = coordinator(batch, context)
    # Then A's records come back (in order, later), and the other tournament's hand end was processed
    assert failures(answer) == ["a1", "a2"]
    assert memory.lobby.table_view(tid, table, None).hand == ended.hand + 1
