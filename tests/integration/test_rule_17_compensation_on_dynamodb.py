"""Rule 17.3 on the DynamoDB store (moto): a rebuy tournament's compensation, crashing and retried, pays once.

And what that needs of the DynamoDB ledger: an entry posted again is a no-op even when the split account it
debits has been spent since (the shards are read before the transaction that would find the key taken).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from tourney.adapters.dynamo.ledger import DynamoLedger, LedgerShards
from tourney.adapters.dynamo.store import DynamoStore
from tourney.adapters.memory import (
    FrozenClock,
)
from tourney.bootstrap import Services
from tourney.domain.errors import IdempotencyConflict
from tourney.domain.ledger import (
    EntryKind,
    deposit,
    house_account,
    overlay_account,
    player_account,
    pool_account,
    transfer,
)
from tourney.services.commands import CreateTournament

from tests.support.aws import aws, dynamodb  # noqa: F401
from tests.support.composition import services_over
from tests.support.driver import Driver

pytestmark = pytest.mark.usefixtures("dynamodb")

DEPOSIT = 10_000


class Crash(Exception):
    pass


class CrashingStore:
    """The DynamoDB store whose every ``crash_every``-th commit dies before it is sent."""

    def __init__(self, inner: DynamoStore) -> None:
        self._inner = inner
        self.crash_every: int | None = None
        self.commits = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def unit_of_work(self) -> Any:
        uow = self._inner.unit_of_work()
        store = self

        class Crashing:
            def __getattr__(self, name: str) -> Any:
                return getattr(uow, name)

            def commit(self) -> None:
                store.commits += 1
                if store.crash_every and store.commits % store.crash_every == 0:
                    raise Crash(f"commit {store.commits}")
                uow.commit()

        return Crashing()


def services_on_dynamodb(clock: FrozenClock) -> tuple[Services, CrashingStore]:
    store = CrashingStore(DynamoStore(LedgerShards(pool=4, house=4, external=4)))
    return services_over(store, clock, seed=2), store


def test_rule_17_rollback_of_a_rebuy_tournament_on_dynamodb_crashing_between_chunks_pays_everyone_once() -> None:
    # Given a rebuy tournament on DynamoDB with the default max_players (house revenue in 90 shards), 12 players
    # who all rebought and bought the add-on, terminated 25 minutes after the start (two tables)
    clock = FrozenClock()
    services, store = services_on_dynamodb(clock)
    start_at = clock.now() + timedelta(hours=1)
    tid = services.admin.create_tournament(
        CreateTournament(
            name="Rebuy", format="rebuy", buy_in=100, entry_fee=10, seats_per_table=6, start_at=start_at,
            level_minutes=10, rebuy_levels=(1, 2), add_on_chips=10_000, tournament_id="dynrb",
        )
    ).id  # fmt: skip
    shards = store.tournaments.get(tid).house_shards
    assert shards == 90
    players = [f"p{i:02d}" for i in range(12)]
    for player in players:
        services.accounts.deposit(player, DEPOSIT, key=f"d-{player}")
        services.registration.register(tid, player, key=f"r-{player}")
    clock.set(start_at)
    services.start.start_due(tid)
    Driver(services).run_workflows()
    for player in players:
        services.play.rebuy(tid, player)
    clock.set(start_at + timedelta(minutes=25))
    for player in players:
        services.play.add_on(tid, player)
    services.admin.terminate(tid, "op", "test")
    services.recovery.cancel_hands(tid)
    clock.advance(20 * 60)
    # When its compensation dies at every third commit and is retried, one chunk per step, until it says it is done
    crashes = 0
    last: Any = None
    store.commits, store.crash_every = 0, 3
    for _ in range(100):
        try:
            last = services.recovery.compensate(tid, units=1)
        except Crash:
            crashes += 1
            continue
        if not getattr(last, "more", False):
            break
    store.crash_every = None
    # Then it was rolled back once: every player has every cent back, the house and the pool hold nothing
    assert crashes > 0 and last.outcome == "rollback" and not last.more
    assert all(services.accounts.account(p).balance == DEPOSIT for p in players)
    assert store.ledger.balance(pool_account(tid)) == 0
    assert all(store.ledger.balance(house_account(tid, shard)) == 0 for shard in range(shards))
    assert store.ledger.balance(house_account(tid)) == 0
    assert store.ledger.balance(overlay_account(tid)) == 0
    assert store.tournaments.get(tid).ended_at is not None
    assert all(t.closed for t in store.tables.list(tid))
    assert services.recovery.compensate(tid).outcome == "nothing"


def test_a_debit_posted_again_after_its_account_was_spent_is_a_no_op_on_dynamodb() -> None:
    # Given a split pool paid in, then paid out to a player
    ledger = DynamoLedger(LedgerShards(pool=4, house=4, external=4))
    at = datetime(2026, 1, 1, tzinfo=UTC)
    ledger.post(deposit("d", "ann", 1_000, at))
    ledger.post(transfer("in", EntryKind.BUY_IN, "t", player_account("ann"), pool_account("t"), 1_000, at))
    out = transfer("out", EntryKind.PRIZE, "t", pool_account("t"), player_account("bob"), 1_000, at)
    assert out is not None
    ledger.post(out)
    # When the payout is posted again (a retry), though the pool no longer holds what it took
    again = ledger.post_all([out])
    # Then nothing moves, as for any entry posted twice, and another movement under its key is refused
    assert again == (ledger.entry("out"),)
    assert ledger.balance(pool_account("t")) == 0 and ledger.balance(player_account("bob")) == 1_000
    other = transfer("out", EntryKind.PRIZE, "t", pool_account("t"), player_account("bob"), 999, at)
    assert other is not None
    with pytest.raises(IdempotencyConflict):
        ledger.post_all([other])
