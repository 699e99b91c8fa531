# ruff: noqa: F811  (pytest fixtures imported from tests.support.aws)
"""Registrations at scale on DynamoDB (moto): the cap and the waiting list stay exact under concurrent requests.

The registration service (``services/register.py``) runs over the DynamoDB
store; threads register at once, as 1,000 clients a second would. moto answers
one request at a time (``serial_aws``), as DynamoDB serializes one item's writes.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from tourney.adapters.aws import JitteredBackoff
from tourney.adapters.dynamo.ledger import LedgerShards
from tourney.adapters.dynamo.store import DynamoStore
from tourney.adapters.memory import (
    FrozenClock,
    MemoryCoordination,
    MemoryPushes,
    MemoryStartScheduler,
    MemoryTimers,
    MemoryWorkflows,
)
from tourney.bootstrap import Services, bootstrap
from tourney.domain.errors import StaleVersion, WaitingListFull
from tourney.domain.formats import TournamentFormat
from tourney.domain.ledger import EXTERNAL, house_account, player_account, pool_account
from tourney.domain.registration import TournamentStatus
from tourney.domain.structure import TournamentConfig
from tourney.services.commands import CreateTournament
from tourney.services.records import CounterShard, RegistrationState, TournamentRecord, WaitingList

from tests.support.aws import AwsCallRecorder, aws, dynamodb, recorder, serial_aws  # noqa: F401

pytestmark = pytest.mark.usefixtures("dynamodb")


def services_on_dynamo(store: DynamoStore) -> Services:
    clock = FrozenClock()
    return bootstrap(
        store=store,
        pushes=MemoryPushes(),
        timers=MemoryTimers(clock),
        coordination=MemoryCoordination(),
        start_scheduler=MemoryStartScheduler(),
        workflows=MemoryWorkflows(),
        clock=clock,
        backoff=JitteredBackoff(),  # as bootstrap_aws
    )


def race(services: Services, tid: str, players: list[str]) -> list[Exception]:
    """Every player registers at once from a thread; a lost race (409) is retried, as a client would."""
    errors: list[Exception] = []
    start = threading.Barrier(len(players))

    def register(player: str) -> None:
        start.wait()
        for _ in range(50):
            try:
                services.registration.register(tid, player, key=f"key-{player}")
                return
            except StaleVersion:
                continue
            except Exception as error:
                errors.append(error)
                return
        errors.append(RuntimeError(f"{player} never got an answer"))

    threads = [threading.Thread(target=register, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def open_freezeout(services: Services, tid: str, max_players: int) -> str:
    """Freezeout ``tid`` of ``max_players`` seats at 1,000 + 100, announced now, starting in an hour."""
    start_at = services.deps.clock.now() + timedelta(hours=1)
    command = CreateTournament(
        name=tid.title(), format="freezeout", buy_in=1_000, entry_fee=100, max_players=max_players, start_at=start_at,
        tournament_id=tid,
    )  # fmt: skip
    return services.admin.create_tournament(command).id


def fund(services: Services, players: list[str]) -> None:
    for player in players:
        services.accounts.deposit(player, 5_000, key=f"fund-{player}")


def test_registrations_racing_at_the_cap_never_overfill_nor_charge_twice(serial_aws: None) -> None:
    # Given a tournament with 3 seats (one counter shard) and 14 funded players registering at once
    store = DynamoStore(LedgerShards(pool=4, house=4, external=4))
    services = services_on_dynamo(store)
    tid = open_freezeout(services, "race", max_players=3)
    players = [f"r{i:02d}" for i in range(14)]
    fund(services, players)
    # When they all register at once
    errors = race(services, tid, players)
    # Then 3 are registered, 10 wait in order, 1 is refused, and each paid at most once
    registered = store.registrations.list(tid, RegistrationState.REGISTERED)
    waiting = store.registrations.waiting_list(tid).players
    assert len(registered) == 3
    assert len(waiting) == 10
    assert sorted(r.player_id for r in store.registrations.list(tid, RegistrationState.WAITLISTED)) == sorted(waiting)
    assert len(errors) == 1 and all(isinstance(e, WaitingListFull) for e in errors)
    paid = sorted(5_000 - store.ledger.balance(player_account(p)) for p in players)
    assert paid == [0] * 1 + [1_100] * 13
    # And the money adds up: what left the wallets is in the pool and the house
    assert store.ledger.balance(pool_account(tid)) == 13 * 1_000
    assert store.ledger.balance(house_account(tid)) == 13 * 100
    assert -store.ledger.balance(EXTERNAL) == 14 * 5_000


def race_over_shards(caps: tuple[int, ...], players: list[str]) -> tuple[DynamoStore, list[Exception]]:
    """``players``, funded, all registering at once for ``multi``, whose seats are counted by one shard per cap:
    the store after the race and the errors the players met."""
    store = DynamoStore(LedgerShards(pool=4, house=4, external=4))
    services = services_on_dynamo(store)
    sharded_tournament(store, services, caps)
    fund(services, players)
    return store, race(services, "multi", players)


def sharded_tournament(store: DynamoStore, services: Services, caps: tuple[int, ...]) -> None:
    """Tournament ``multi``, open, whose seats are counted by one counter shard per cap."""
    now = services.deps.clock.now()
    config = TournamentConfig.for_format(TournamentFormat.FREEZEOUT, buy_in=1_000, entry_fee=100, max_players=sum(caps))
    uow = store.unit_of_work()
    uow.save(
        TournamentRecord(
            "multi", "Multi", config, TournamentStatus.REGISTERING, now, now + timedelta(hours=1), now,
            registration_shards=len(caps),
        )
    )  # fmt: skip
    for shard, cap in enumerate(caps):
        uow.save(CounterShard("multi", shard, cap))
    uow.save(WaitingList("multi"))
    uow.commit()


def counted_by_shard(store: DynamoStore) -> dict[int, int]:
    """How many registered players each shard's records name."""
    by_shard: dict[int, int] = {}
    for record in store.registrations.list("multi", RegistrationState.REGISTERED):
        assert record.shard is not None
        by_shard[record.shard] = by_shard.get(record.shard, 0) + 1
    return by_shard


def test_players_racing_over_several_counter_shards_fill_each_exactly_and_pay_once(serial_aws: None) -> None:
    # Given 3 seats counted by 3 shards (caps 1, 1, 1) and 6 funded players
    players = [f"s{i}" for i in range(6)]
    # When they all register at once
    store, errors = race_over_shards((1, 1, 1), players)
    # Then every shard is exactly full, each counting the player its record names, and the other 3 wait
    assert errors == []
    assert [(s.count, s.cap) for s in store.registrations.shards("multi")] == [(1, 1), (1, 1), (1, 1)]
    assert counted_by_shard(store) == {0: 1, 1: 1, 2: 1}
    waiting = store.registrations.waiting_list("multi").players
    assert len(waiting) == 3
    registered = {r.player_id for r in store.registrations.list("multi", RegistrationState.REGISTERED)}
    assert registered | set(waiting) == set(players) and not registered & set(waiting)
    # And each paid once: what left the wallets is in the pool and the house
    assert all(5_000 - store.ledger.balance(player_account(p)) == 1_100 for p in players)
    assert store.ledger.balance(pool_account("multi")) == 6 * 1_000
    assert -store.ledger.balance(EXTERNAL) == 6 * 5_000


@pytest.mark.slow
def test_several_counter_shards_fill_to_exactly_max_players(serial_aws: None) -> None:
    # Given a tournament of 7 seats counted by 3 shards (caps 3, 2, 2) and 18 funded players
    # When they all register at once
    store, errors = race_over_shards((3, 2, 2), [f"m{i:02d}" for i in range(18)])
    # Then every shard is exactly full, 10 wait, 1 is refused
    assert [(s.count, s.cap) for s in store.registrations.shards("multi")] == [(3, 3), (2, 2), (2, 2)]
    assert len(store.registrations.list("multi", RegistrationState.REGISTERED)) == 7
    assert len(store.registrations.waiting_list("multi").players) == 10
    assert len(errors) == 1 and all(isinstance(e, WaitingListFull) for e in errors)
    # And each registered player is counted by the shard their record names
    assert counted_by_shard(store) == {0: 3, 1: 2, 2: 2}


def test_a_registration_is_one_transaction_and_writes_no_item_every_registration_writes(
    recorder: AwsCallRecorder,
) -> None:
    # Given an open tournament of 5,000 seats (5 counter shards) and two funded players
    store = DynamoStore()
    services = services_on_dynamo(store)
    tid = open_freezeout(services, "big", max_players=5_000)
    fund(services, ["ann", "bob"])
    written: list[set[str]] = []
    for player in ("ann", "bob"):
        recorder.clear()
        # When each registers
        services.registration.register(tid, player, key=f"k-{player}")
        # Then one TransactWriteItems carries the whole registration
        writes = recorder.writes()
        assert [w.operation for w in writes] == ["TransactWriteItems"]
        items = writes[0].params["TransactItems"]
        keys = set()
        for item in items:
            (op,) = item.values()
            key = op.get("Key") or {name: op["Item"][name] for name in ("pk", "sk")}
            keys.add(f"{key['pk']['S']}|{key['sk']['S']}")
        written.append(keys)
    # And the two registrations share no item (no tournament-wide hot item)
    assert written[0].isdisjoint(written[1])
