"""The store as the DynamoDB adapter uses DynamoDB (``simulation/aws/store.py``): each call of the services charged
to the running invocation as the adapter's requests, and counted as the issue counted them on moto."""

from __future__ import annotations

from datetime import timedelta

import pytest
from tourney.adapters.dynamo.ledger import LedgerShards
from tourney.adapters.memory import FrozenClock, MemoryStore
from tourney.bootstrap import Services
from tourney.domain.errors import StaleVersion
from tourney.domain.ledger import Account, AccountKind, Entry, EntryKind, Leg
from tourney.services.commands import CreateTournament
from tourney.simulation.aws.model import AwsModel, Invocation
from tourney.simulation.aws.records import stored_item
from tourney.simulation.aws.requests import Request, Service
from tourney.simulation.aws.store import MeteredStore, ledger_items

from tests.support.composition import services_over


class _Running:
    """The invocation the store charges (None: the harness, outside any invocation)."""

    def __init__(self) -> None:
        self.run: Invocation | None = None

    def __call__(self) -> Invocation | None:
        return self.run


def _services(running: _Running) -> tuple[Services, MeteredStore]:
    clock = FrozenClock()
    store = MeteredStore(MemoryStore(), running)
    services = services_over(store, clock, seed=1)
    command = CreateTournament(
        name="metered", format="freezeout", buy_in=1_000, entry_fee=0, start_at=clock.now() + timedelta(hours=1),
        tournament_id="t1",
    )  # fmt: skip
    services.admin.create_tournament(command)
    services.accounts.deposit("p1", 5_000, key="fund-p1")
    return services, store


def test_a_registration_reads_the_tournament_once_and_its_own_counter_shard() -> None:
    # Given a freezeout open for registration (90 counter shards), set up by the harness (nothing charged), and a
    # funded player
    model, running = AwsModel(), _Running()
    services, store = _services(running)
    assert model.cost.report().services[Service.DYNAMODB].requests == 0
    assert store.tournaments.get("t1").registration_shards == 90

    # When the player registers through an invocation of the API
    running.run = model.invocation("api", at=0.0)
    services.registration.register("t1", "p1")

    # Then it reads the tournament item once (its configuration compressed: under 4 KB, 1 read unit), its
    # registration and its own counter shard (1 unit each), never the 89 others, and writes everything in one
    # transaction
    assert running.run is not None
    assert running.run.watch.calls == {Request.GET_ITEM: 3, Request.TRANSACT_WRITE_ITEMS: 1}
    dynamodb = model.cost.report().services[Service.DYNAMODB]
    assert dynamodb.units["read_units"] == 3


def test_listing_a_tournaments_tables_is_a_query_per_bucket() -> None:
    # Given a tournament (no table yet)
    model, running = AwsModel(), _Running()
    _, store = _services(running)

    # When a function lists its tables
    running.run = model.invocation("watchdog", at=0.0)
    assert store.tables.list("t1") == []

    # Then it queried each of the 32 partitions the tables are spread over
    assert running.run is not None and running.run.watch.calls == {Request.QUERY: 32}


def test_a_single_save_is_sent_alone_and_a_larger_commit_as_a_transaction() -> None:
    # Given the stored tournament
    model, running = AwsModel(), _Running()
    _, store = _services(running)
    tournament = store.tournaments.get("t1")

    # When a function saves it alone, then saves it with a check of the waiting list
    running.run = run = model.invocation("admin", at=0.0)
    unit = store.unit_of_work()
    unit.save(tournament)
    unit.commit()
    unit = store.unit_of_work()
    unit.save(store.tournaments.get("t1"))
    unit.check(store.registrations.waiting_list("t1"))
    unit.commit()

    # Then the first is one conditional PutItem, the second one TransactWriteItems
    assert run is not None
    assert run.watch.calls[Request.PUT_ITEM] == 1
    assert run.watch.calls[Request.TRANSACT_WRITE_ITEMS] == 1


def test_a_pool_credit_lands_on_the_players_shard_of_the_pool() -> None:
    # Given buy-ins of two players into one prize pool
    def buy_in(player: str) -> Entry:
        legs = (Leg(Account(AccountKind.PLAYER, player), -1_000), Leg(Account(AccountKind.POOL, "t1"), 1_000))
        return Entry(f"buy-in-{player}", EntryKind.BUY_IN, "t1", legs, FrozenClock().now())

    # When their ledger items are placed as the adapter places them
    items = [ledger_items([buy_in(player)]) for player in ("ann", "bob")]

    # Then each writes its entry, its player's leg and balance, and one shard of the pool's balance
    for placed in items:
        kinds = sorted(item.partition_key.split("#")[0] + ":" + item.sort_key.split("#")[0] for item in placed)
        assert len(placed) == 4
        assert kinds.count("account:balance") == 2
    pool_shards = {i.partition_key for placed in items for i in placed if i.partition_key.startswith("account#pool")}
    assert all("~" in shard for shard in pool_shards)


def test_a_commit_places_the_pool_credit_on_the_stores_own_ledger_shards() -> None:
    # Given a metered store whose pools are kept in one balance item (not the adapter's default split)
    model, running = AwsModel(), _Running()
    services, store = _services(running)
    store.ledger_shards = LedgerShards(pool=1)

    # When a player registers through an invocation of the API
    running.run = model.invocation("api", at=0.0)
    services.registration.register("t1", "p1")

    # Then the registration's transaction credited the pool's one item, not a shard of it
    pool = "tourney-ledger/account#pool:t1"
    assert model.meters.load(pool, 0.5)[0] > 0
    assert model.meters.load(pool + "~0", 0.5) == (0.0, 0.0)


def test_the_store_reads_through_whatever_repository_the_wrapped_store_has_now() -> None:
    # Given a wrapped store whose repositories are swapped per function (as ``StoreAs.become`` swaps them)
    class Repository:
        def __init__(self, name: str) -> None:
            self.name = name

        def get(self, tournament_id: str) -> None:
            raise LookupError(self.name)

    class Swapping:
        coordinators = Repository("the harness's")

    inner = Swapping()
    store = MeteredStore(inner, _Running())

    # When the repository is swapped after the wrapping
    inner.coordinators = Repository("the function's")

    # Then a read goes to the one in place now
    with pytest.raises(LookupError, match="the function's"):
        store.coordinators.get("t1")


def test_a_commit_meeting_a_transaction_in_flight_is_a_lost_race_the_service_retries() -> None:
    # Given the stored tournament, and a transaction on its item in flight for the next second
    model, running = AwsModel(), _Running()
    _, store = _services(running)
    tournament = store.tournaments.get("t1")
    stored = stored_item(tournament)
    model.locks.hold([stored.item], 0.0, 1.0)

    # When a function commits the tournament with a check of another item (a transaction)
    running.run = run = model.invocation("admin", at=0.0)
    unit = store.unit_of_work()
    unit.save(tournament)
    unit.check(store.registrations.waiting_list("t1"))

    # Then, after the adapter's three retries, the commit is a lost race (StaleVersion), and nothing is written
    with pytest.raises(StaleVersion):
        unit.commit()
    assert run is not None and run.watch.calls[Request.TRANSACT_WRITE_ITEMS] == 4
    assert store.tournaments.get("t1").version == tournament.version
