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
)
from tourney.domain.ledger import EXTERNAL, house_account, player_account, pool_account
from tourney.domain.registration import TournamentStatus
from tourney.services.commands import CreateTournament
from tourney.simulation.bots import Bot, BotChoice, Move, Situation, Style

from tests.support.aws import AwsCallRecorder, aws, dynamodb  # noqa: F401
from tests.support.composition import services_over
from tests.support.driver import Driver

pytestmark = pytest.mark.usefixtures("dynamodb")


class Shover(Bot):
    """All in half the times it may bet or raise; otherwise checks or calls."""

    def decide(self, seen: Situation) -> BotChoice:
        if seen.max_raise_to is not None and self._rng.random() < 0.5:
            return BotChoice(Move.RAISE, seen.max_raise_to)
        return BotChoice(Move.CALL if seen.to_call else Move.CHECK)


@pytest.mark.parametrize(
    ("field", "seats", "starting_stack"),
    [
        pytest.param(4, 3, 200, id="4-players-on-2-tables"),
        pytest.param(12, 6, None, id="12-players-on-2-tables", marks=pytest.mark.slow),
    ],
)
def test_a_freezeout_runs_to_its_winner_on_dynamodb_and_every_action_is_one_read_and_one_write_of_its_table(
    field: int, seats: int, starting_stack: int | None
) -> None:
    # Given the services over the DynamoDB store, a freezeout of funded players on two tables
    # (make test: 4 players with short stacks, two tables broken into a final table; -m slow: 12 players, full stacks)
    clock = FrozenClock()
    store = DynamoStore(LedgerShards(pool=4, house=4, external=4))
    services = services_over(store, clock, seed=4)
    start_at = clock.now() + timedelta(hours=1)
    tid = services.admin.create_tournament(
        CreateTournament(
            name="Dynamo", format="freezeout", buy_in=1_000, entry_fee=100, seats_per_table=seats, start_at=start_at,
            level_minutes=3, starting_stack=starting_stack, tournament_id="dyn",
        )
    ).id  # fmt: skip
    players = [f"p{i:02d}" for i in range(field)]
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
    driver = Driver(services, rng=random.Random(4))
    if starting_stack is not None:  # the short version: players who go all in often, so that hands are few
        driver.bots = {p: Shover(Style.CALLING_STATION, random.Random(i)) for i, p in enumerate(players)}
    driver.run_workflows()
    assert len(store.tables.list(tid)) == 2
    driver.play_to_the_end(tid)
    # Then it finished with one winner, and no money was created or lost
    assert store.tournaments.get(tid).status is TournamentStatus.FINISHED
    places = sorted(e.placing.place for e in store.entrants.list(tid) if e.placing is not None)
    assert places == list(range(1, field + 1))
    wallets = sum(store.ledger.balance(player_account(p)) for p in players)
    shards = store.tournaments.get(tid).house_shards
    house = [house_account(tid)] if shards == 1 else [house_account(tid, s) for s in range(shards)]
    revenue = sum(store.ledger.balance(account) for account in house)
    assert revenue == field * 100
    held = wallets + store.ledger.balance(pool_account(tid)) + revenue
    assert held == -store.ledger.balance(EXTERNAL) == field * 5_000
    # And each action read its table once (strongly consistent) and wrote it once, conditionally
    assert per_action
    for calls in per_action:
        assert calls["GetItem:table:strong"] == 1
        assert calls["PutItem:table:conditional"] == 1
        assert sum(n for name, n in calls.items() if name.startswith(("Put", "Update", "Delete", "Transact"))) == 1
