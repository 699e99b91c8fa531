"""A whole freezeout through the services on the DynamoDB store (moto): money conserved, one table write per action."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from tourney.adapters.dynamo.ledger import LedgerShards
from tourney.adapters.dynamo.schema import TABLES
from tourney.adapters.dynamo.store import DynamoStore
from tourney.adapters.memory import (
    FrozenClock,
    MemoryAdapters,
    MemoryCoordination,
    MemoryPushes,
    MemoryStartScheduler,
    MemoryTimers,
    MemoryWorkflows,
)
from tourney.domain.ledger import EXTERNAL, house_account, player_account, pool_account
from tourney.domain.registration import TournamentStatus
from tourney.services.bootstrap import bootstrap
from tourney.services.commands import CreateTournament

from tests.support.aws import AwsCallRecorder, aws, dynamodb  # noqa: F401
from tests.support.driver import Driver

pytestmark = [pytest.mark.usefixtures("dynamodb"), pytest.mark.slow]


def test_a_freezeout_runs_to_its_winner_on_dynamodb_and_every_action_is_one_read_and_one_write_of_its_table() -> None:
    # Given the services over the DynamoDB store, a freezeout of 12 funded players on two 6-seat tables
    clock = FrozenClock()
    store = DynamoStore(LedgerShards(pool=4, house=4, external=4))
    adapters = MemoryAdapters(
        clock=clock,
        store=store,  # type: ignore[arg-type]
        pushes=MemoryPushes(),
        timers=MemoryTimers(clock),
        coordination=MemoryCoordination(),
        start_scheduler=MemoryStartScheduler(),
        workflows=MemoryWorkflows(),
    )
    services = bootstrap(
        store=store,
        pushes=adapters.pushes,
        timers=adapters.timers,
        coordination=adapters.coordination,
        start_scheduler=adapters.start_scheduler,
        workflows=adapters.workflows,
        clock=clock,
        rng=random.Random(4),
        adapters=adapters,
    )
    start_at = clock.now() + timedelta(hours=1)
    tid = services.admin.create_tournament(
        CreateTournament(
            name="Dynamo", format="freezeout", buy_in=1_000, entry_fee=100, seats_per_table=6, start_at=start_at,
            level_minutes=3, tournament_id="dyn",
        )
    ).id  # fmt: skip
    players = [f"p{i:02d}" for i in range(12)]
    for player in players:
        services.accounts.deposit(player, 5_000, key=f"d-{player}")
        services.registration.register(tid, player, key=f"r-{player}")
    # When the start fires and bots play it to the end, every action recorded
    per_action: list[Counter[str]] = []
    act = services.play.act

    def recorded_act(*args: Any, **kwargs: Any) -> Any:
        calls = AwsCallRecorder()
        with calls.recording():
            result = act(*args, **kwargs)
        per_action.append(
            Counter(
                f"{c.operation}:{'table' if c.table == TABLES.name() else 'other'}"
                f"{':strong' if c.consistent else ''}{':conditional' if c.conditional else ''}"
                for c in calls.of("dynamodb")
            )
        )
        return result

    services.play.act = recorded_act  # type: ignore[method-assign]
    clock.set(start_at)
    services.start.start_due(tid)
    Driver(services, rng=random.Random(4)).play_to_the_end(tid)
    # Then it finished with one winner, and no money was created or lost
    assert store.tournaments.get(tid).status is TournamentStatus.FINISHED
    places = sorted(e.placing.place for e in store.entrants.list(tid) if e.placing is not None)
    assert places == list(range(1, 13))
    wallets = sum(store.ledger.balance(player_account(p)) for p in players)
    shards = store.tournaments.get(tid).house_shards
    house = [house_account(tid)] if shards == 1 else [house_account(tid, s) for s in range(shards)]
    revenue = sum(store.ledger.balance(account) for account in house)
    assert revenue == 12 * 100
    held = wallets + store.ledger.balance(pool_account(tid)) + revenue
    assert held == -store.ledger.balance(EXTERNAL) == 12 * 5_000
    # And each action read its table once (strongly consistent) and wrote it once, conditionally
    assert per_action
    for calls in per_action:
        assert calls["GetItem:table:strong"] == 1
        assert calls["PutItem:table:conditional"] == 1
        assert sum(n for name, n in calls.items() if name.startswith(("Put", "Update", "Delete", "Transact"))) == 1
