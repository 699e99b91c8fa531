"""The model as the simulated cloud will call it (``simulation/aws/model.py``, ``records.py``): an invocation's
calls timed, metered, priced and refused as AWS would."""

from __future__ import annotations

import functools
import itertools
import random
from datetime import timedelta

import pytest
from tourney.adapters.dynamo.mapping import mapper_of
from tourney.domain.errors import StaleAction
from tourney.services.commands import CreateTournament
from tourney.simulation import chaos
from tourney.simulation.aws.capacity import PartitionMeters
from tourney.simulation.aws.items import ItemTooLarge, typed_item_size, write_units
from tourney.simulation.aws.latency import DEFAULT_LATENCIES
from tourney.simulation.aws.model import ADAPTER_TRANSACTION_RETRIES, AwsModel, Throttled, TransactionConflict
from tourney.simulation.aws.records import StoredItem, stored_item
from tourney.simulation.aws.requests import Request, Service
from tourney.simulation.aws.template import FunctionLimits, StageThrottle, TemplateLimits
from tourney.simulation.cloud import Cloud

TABLE = StoredItem("tourney-tables", "tables#t1#0", "table#0001", size=1_967)
COORDINATOR = StoredItem("tourney-tournaments", "tournament#t1", "coordinator", size=1_159)
LIMITS = TemplateLimits(
    {"coordinator": FunctionLimits("coordinator", reserved=1, memory_mb=1024, architecture="arm64")}, {}
)


def _warm(model: AwsModel, function: str, at: float) -> None:
    """One invocation that ends at once, so the next one finds a warm execution environment."""
    run = model.invocation(function, at)
    assert run is not None
    model.finish(run)


def test_a_hand_end_of_fourteen_sequential_calls_takes_their_sum() -> None:
    # Given a warm coordinator that reads the coordinator and the table, writes both in a transaction and the next
    # hand, sends the next hand's time-out, and posts the new hand to nine players, one call after the other
    model = AwsModel(limits=LIMITS)
    _warm(model, "coordinator", 0.0)
    run = model.invocation("coordinator", at=10.0)
    assert run is not None

    # When it makes its calls and ends
    run.get(COORDINATOR)
    run.get(TABLE)
    run.transact([TABLE, COORDINATOR])
    run.write(StoredItem("tourney-tables", "hands#t1#0001", "hand#000002", size=1_624))
    run.send(fifo=False)
    run.post(9)
    end = model.finish(run)

    # Then it took the sum of the fourteen calls' latencies, about a quarter of a second: one FIFO group at a time
    # plays three to four hand ends a second
    latency = DEFAULT_LATENCIES
    expected = 2 * latency.get_item + latency.transact_write_items + latency.put_item + latency.send_message
    expected += 9 * latency.post_to_connection
    assert end - 10.0 == pytest.approx(expected)
    assert 3 <= 1 / (end - 10.0) <= 4
    # and it was priced: two reads, a transaction of two items (2 units per KB each), a write, a send, nine posts,
    # and the invocation itself at 1 GB on arm64
    report = model.cost.report()
    assert report.services[Service.DYNAMODB].requests == 4
    assert report.services[Service.DYNAMODB].units["write_units"] == 2 * 2 + 2 * 2 + 2
    assert report.services[Service.WEBSOCKET].requests == 9
    assert report.services[Service.LAMBDA].requests == 2
    assert model.item_max_bytes == 1_967


def test_an_invocation_past_the_reservation_is_throttled_until_a_slot_frees() -> None:
    # Given a function reserved at 1 with one invocation running from 5.0 s (a cold start and a post)
    model = AwsModel(limits=LIMITS)
    first = model.invocation("coordinator", at=5.0)
    assert first is not None
    first.post()

    # When a second invocation comes at 5.1 s, before the first ends
    end = model.finish(first)
    second = model.invocation("coordinator", at=5.1)

    # Then it is throttled, and may start when the first ends (warm then)
    assert second is None
    assert model.next_free("coordinator") == pytest.approx(end) == pytest.approx(5.0 + 0.65 + 0.025)
    third = model.invocation("coordinator", at=end)
    assert third is not None and third.watch.elapsed == 0.0


def test_a_coordinator_item_of_61_kb_written_by_every_hand_end_throttles_its_key_at_8_a_second() -> None:
    # Given the coordinator item at 250,000 players (61,600 bytes: 122 write units in a transaction)
    big = StoredItem("tourney-tournaments", "tournament#t1", "coordinator", size=61_600)
    assert write_units(big.size, transactional=True) == 122
    model = AwsModel(rng=random.Random(1))
    _warm(model, "coordinator", 19.0)

    # When nine hand ends each write it in a transaction within one second
    outcomes = []
    for n in range(9):
        run = model.invocation("coordinator", at=20.0 + n * 0.05)
        assert run is not None
        try:
            run.transact([big])
            outcomes.append("written")
        except Throttled:
            outcomes.append("throttled")
        model.finish(run)

    # Then eight get through (976 units) and the ninth is throttled through the adapter's retries
    assert outcomes == ["written"] * 8 + ["throttled"]
    assert model.meters.hottest() == ("tourney-tournaments/tournament#t1", 976, 0)
    assert model.throttled_requests == 1 + len(ADAPTER_TRANSACTION_RETRIES)


def test_a_single_write_throttled_through_the_sdks_retries_fails_the_invocation() -> None:
    # Given a key whose partition takes no more writes for now
    model = AwsModel(rng=random.Random(2))
    model.meters = PartitionMeters(write_per_second=0)
    run = model.invocation("api", at=0.5)
    assert run is not None

    # When the function writes to it
    # Then the SDK tries four times, backing off, and the write fails
    with pytest.raises(Throttled, match="throttled 4 times"):
        run.write(TABLE)
    assert run.watch.calls[Request.PUT_ITEM] == 4
    assert model.cost.report().services[Service.DYNAMODB].requests == 0  # nothing consumed, nothing billed


def test_a_transaction_meeting_one_in_flight_is_retried_by_the_adapter_then_fails() -> None:
    # Given a transaction on the coordinator item held from 30.000 s to 30.500 s (a slow one)
    model = AwsModel()
    _warm(model, "coordinator", 29.0)
    model.locks.hold([COORDINATOR.item], 30.0, 30.5)
    run = model.invocation("coordinator", at=30.01)
    assert run is not None

    # When another invocation's transaction touches it
    with pytest.raises(TransactionConflict):
        run.transact([COORDINATOR, TABLE])

    # Then it was sent four times, 20, 40 and 80 ms apart, each cancelled, and holds nothing
    assert run.watch.calls[Request.TRANSACT_WRITE_ITEMS] == 4
    assert model.locks.cancelled == 4
    assert model.locks.write(TABLE.item, 30.1) is True


def test_an_item_over_400_kb_fails_the_write_and_the_largest_item_is_kept() -> None:
    # Given a function writing a table item, then one over 400 KB
    model = AwsModel()
    run = model.invocation("coordinator", at=0.0)
    assert run is not None
    run.write(TABLE)

    # When it writes the large one
    # Then DynamoDB refuses it, and the largest item written so far is the table's
    with pytest.raises(ItemTooLarge):
        run.write(StoredItem("tourney-tournaments", "tournament#t1", "coordinator", size=400 * 1024 + 1))
    assert model.item_max_bytes == TABLE.size


def test_stages_and_connections_are_limited_and_priced() -> None:
    # Given the template's HTTP stage (500 a second, burst 1,000) and the connection quota
    model = AwsModel(limits=TemplateLimits({}, {"HTTP": StageThrottle(500, 1_000)}))

    # When 1,001 requests and 501 connections arrive at once
    served = sum(model.through_stage("HTTP", 0.0) for _ in range(1_001))
    connected = sum(model.connect(0.0) for _ in range(501))

    # Then the stage serves its burst and the account 500 connections; only what was served is priced
    assert (served, connected) == (1_000, 500)
    assert model.cost.report().services[Service.HTTP].requests == 1_000


def _registered_cloud() -> Cloud:
    """A tournament created and two players registered through the services (no play)."""
    epoch = chaos.EPOCH
    cloud = Cloud(epoch - timedelta(hours=2))
    services = cloud.services
    command = CreateTournament(
        name="sizes", format="freezeout", buy_in=1_000, entry_fee=0, start_at=epoch, tournament_id="t1", operator="op"
    )
    cloud.run_as("admin", lambda: services.admin.create_tournament(command))
    for name in ("p1", "p2"):
        cloud.run_as("admin", functools.partial(services.accounts.deposit, name, 5_000, f"fund-{name}"))
        cloud.invoke_api(functools.partial(services.registration.register, "t1", name, f"reg-{name}"))
    return cloud


def test_a_record_is_sized_as_the_dynamodb_adapter_would_store_it() -> None:
    # Given the tournament and a registration the services stored
    store = _registered_cloud().store
    tournament = store.tournaments.get("t1")
    registration = store.registrations.get("t1", "p1")
    assert registration is not None

    # When they are sized as stored items
    stored_tournament, stored_registration = stored_item(tournament), stored_item(registration)

    # Then each has the adapter's table and keys, and the size of the item the adapter would write
    mapper = mapper_of(tournament)
    item = mapper.to_item(tournament, tournament.version + 1)
    assert stored_tournament.size == typed_item_size(item.serialize()) > 1_000
    assert (stored_tournament.partition_key, stored_tournament.sort_key) == ("tournament#t1", "tournament")
    assert stored_registration.partition.startswith(stored_registration.table + "/")
    assert 0 < stored_registration.size < stored_tournament.size


def test_a_backlog_of_time_outs_is_consumed_ten_to_an_invocation_as_the_event_sources_poller_hands_it_over() -> None:
    # Given the time-outs function reserved at 1, and 25 time-outs due at the same moment
    limits = TemplateLimits(
        {"timeouts": FunctionLimits("timeouts", reserved=1, memory_mb=1024, architecture="arm64", batch_size=10)}, {}
    )
    model = AwsModel(limits=limits)
    cloud = Cloud(chaos.EPOCH, aws=model)
    consumed: list[tuple[int, object]] = []

    def consume(n: int) -> None:
        consumed.append((n, cloud._run))
        if n == 7:
            raise StaleAction("the decision was taken: the trigger drops it")

    for n in range(25):
        cloud.send("timeouts", n, consume)

    # When the cloud runs until they are all consumed
    assert cloud.run(lambda: len(consumed) == 25, chaos.EPOCH + timedelta(minutes=5))

    # Then the first ran alone (a slot was free), and the 24 that waited for it went 10, 10 and 4 to an invocation,
    # in the order they were sent
    assert [n for n, _ in consumed] == list(range(25))
    runs = [id(run) for _, run in consumed]
    sizes = [len(list(group)) for _, group in itertools.groupby(runs)]
    assert sizes == [1, 10, 10, 4]
    assert model.cost.report().services[Service.LAMBDA].requests == 4
    # and the stale one cost no delivery again
    assert not cloud.dead_letters
