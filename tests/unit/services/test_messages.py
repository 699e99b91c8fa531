"""Contract tests of the queue and workflow payloads (docs/architecture.md, 'Tests': each event payload has one)."""

from __future__ import annotations

import dataclasses
import json

import pytest
from pydantic import ValidationError
from tourney.services.messages import (
    HandEnded,
    RebuyClosed,
    RebuyDue,
    StartPlan,
    StartTournament,
    TablesSettled,
    TimeoutDue,
    parse_coordination,
    parse_timer,
)


def test_timeout_due_round_trips_through_json_with_its_kind() -> None:
    # Given a time-out armed for an away player's decision
    message = TimeoutDue(tournament_id="t1", table="3", hand=7, seq=4, seat=2, armed_for_away=True)
    # When it goes through the queue as JSON
    raw = json.loads(message.to_json())
    # Then the wire shape is fixed and it parses back to the same message
    assert raw == {
        "kind": "timeout_due",
        "tournament_id": "t1",
        "table": "3",
        "hand": 7,
        "seq": 4,
        "seat": 2,
        "armed_for_away": True,
        "time_bank": False,
    }
    assert parse_timer(message.to_json()) == message


def test_the_timeouts_queue_tells_a_rebuy_window_from_a_decision() -> None:
    # Given both kinds of delayed message
    rebuy = RebuyDue(tournament_id="t1", table="3", hand=7)
    # When parsed from plain dicts
    # Then each comes back as its own type
    assert parse_timer(rebuy.to_dict()) == rebuy
    assert isinstance(
        parse_timer({"kind": "timeout_due", "tournament_id": "t", "table": "1", "hand": 1, "seq": 0, "seat": 1}),
        TimeoutDue,
    )


def test_the_timeouts_queue_carries_what_a_coordination_batch_committed_with_each_tables_event() -> None:
    # Given a batch that dealt table 1, held table 2 for hand-for-hand, changed table 3 and placed a player
    settled = TablesSettled("t1", ("1", "2", "3"), dealt=("1",), held=("2",), players=(("ann", {"event": "placed"}),))
    # When it goes through the queue; Then it parses back to itself, and names each table's event
    assert parse_timer(settled.to_json()) == settled
    assert json.loads(settled.to_json())["kind"] == "tables_settled"
    assert [settled.event(t) for t in ("1", "2", "3")] == ["hand_dealt", "hand_for_hand", "table_changed"]


def test_the_coordinator_queue_carries_hand_ended_and_rebuy_closed() -> None:
    ended = HandEnded(tournament_id="t1", table="1", hand=3)
    closed = RebuyClosed(tournament_id="t1", table="1", hand=3)
    assert json.loads(ended.to_json()) == {"kind": "hand_ended", "tournament_id": "t1", "table": "1", "hand": 3}
    assert parse_coordination(ended.to_json()) == ended
    assert parse_coordination(closed.to_dict()) == closed


@pytest.mark.parametrize(
    "raw",
    [
        {"kind": "hand_ended", "tournament_id": "", "table": "1", "hand": 3},
        {"kind": "hand_ended", "tournament_id": "t", "table": "1", "hand": 0},
        {"kind": "hand_ended", "tournament_id": "t", "table": "1", "hand": 3, "extra": 1},
        {"kind": "timeout_due", "tournament_id": "t", "table": "1", "hand": 3},
        {"kind": "nope", "tournament_id": "t"},
    ],
)
def test_a_malformed_coordination_or_timer_message_is_refused(raw: dict[str, object]) -> None:
    # Given a payload that breaks the contract; When it is parsed; Then validation fails (no silent repair)
    with pytest.raises(ValidationError):
        parse_coordination(raw)
    with pytest.raises(ValidationError):
        parse_timer(raw)


def test_the_start_messages_have_fixed_shapes() -> None:
    # Given the start's trigger and the plan its first step answers; Then their JSON shape is the contract the state
    # machine uses (each step's own payload: infra/workflow_states.py, entrypoints/workflow_tasks.py)
    assert StartTournament(tournament_id="t").to_dict() == {"kind": "start_tournament", "tournament_id": "t"}
    plan = StartPlan(tournament_id="t", status="running", batches=[0, 1], tables=12, players=100, refunded=3)
    assert StartPlan.model_validate_json(plan.to_json()) == plan
    with pytest.raises(ValidationError):
        StartPlan(tournament_id="t", status="paused")  # type: ignore[arg-type]


def test_messages_are_frozen() -> None:
    message = HandEnded(tournament_id="t1", table="1", hand=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        message.hand = 4  # type: ignore[misc]
    plan = StartPlan(tournament_id="t", status="running")
    with pytest.raises(ValidationError):
        plan.tables = 4  # type: ignore[misc]


def test_a_queue_message_written_with_bad_values_is_refused_where_it_comes_off_the_queue() -> None:
    # Given queue messages built in code (not validated there) that break the contract
    bad_seat = TimeoutDue(tournament_id="t", table="1", hand=1, seq=0, seat=11)
    no_table = HandEnded(tournament_id="t", table="", hand=1)
    # When their wire form is parsed by the consumer; Then it is refused
    with pytest.raises(ValidationError):
        parse_timer(bad_seat.to_json())
    with pytest.raises(ValidationError):
        parse_coordination(no_table.to_json())
