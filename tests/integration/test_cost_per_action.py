"""Cost per action on DynamoDB (docs/architecture.md, 'Scale to design for'): a player's action is one strongly
consistent read and one conditional write of its table, nothing else of DynamoDB (the pushes, time-outs and hand
ends go elsewhere)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from tourney.adapters.dynamo.schema import TABLES
from tourney.adapters.memory import FrozenClock
from tourney.services.commands import CreateTournament

from tests.support.aws import AwsCallRecorder, aws, dynamodb  # noqa: F401
from tests.support.driver import Driver
from tests.support.handler_room import services_on_dynamo

pytestmark = pytest.mark.usefixtures("dynamodb")


def test_an_action_is_one_strongly_consistent_read_and_one_conditional_write_of_its_table() -> None:
    # Given a running three-player freezeout on DynamoDB, its first hand dealt
    clock = FrozenClock()
    services = services_on_dynamo(clock, seed=7)
    start_at = clock.now() + timedelta(hours=1)
    command = CreateTournament(
        name="Cost", format="freezeout", buy_in=1_000, entry_fee=100, start_at=start_at, tournament_id="cost"
    )
    tid = services.admin.create_tournament(command).id
    for player in ("ann", "bob", "cy"):
        services.accounts.deposit(player, 5_000, key=f"d-{player}")
        services.registration.register(tid, player, key=f"r-{player}")
    clock.set(start_at)
    services.start.start_due(tid)
    Driver(services, rng=random.Random(7)).run_workflows()
    (table_id,) = {row.table for row in services.lobby.standings(tid).players}
    view = services.lobby.table_view(tid, table_id, None)
    assert view.to_act is not None
    # When the player to act calls, with every AWS call recorded
    calls = AwsCallRecorder()
    with calls.recording():
        services.play.act(tid, table_id, view.to_act.player, view.hand, view.to_act.seq, "call")
    # Then DynamoDB saw exactly one strongly consistent GetItem of the table and one conditional PutItem
    dynamo = calls.of("dynamodb")
    assert [(c.operation, c.table == TABLES.name(), c.consistent, c.conditional) for c in dynamo] == [
        ("GetItem", True, True, False),
        ("PutItem", True, False, True),
    ]
