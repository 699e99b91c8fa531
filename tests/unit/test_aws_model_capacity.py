"""The model of AWS's capacity (``simulation/aws/capacity.py``): each limit bites where AWS's does."""

from __future__ import annotations

import heapq
import random

import pytest
from tourney.simulation.aws.capacity import (
    DYNAMODB_THROTTLED,
    Concurrency,
    FifoQueue,
    ItemLocks,
    PartitionMeters,
    PerSecondLimit,
    TokenBucket,
    with_retries,
)


def test_a_key_written_past_1000_units_a_second_is_throttled_and_its_retry_lands_in_a_later_second() -> None:
    # Given a partition key that has taken 999 write units in the second starting at t=10
    meters = PartitionMeters()
    for n in range(999):
        assert meters.admit("TOURNAMENT#t1", 10.0 + n / 2_000, write=1)

    # When two more 1-unit writes and a 2-unit write arrive in the same second
    one_more = meters.admit("TOURNAMENT#t1", 10.6, write=1)
    past = meters.admit("TOURNAMENT#t1", 10.7, write=1)
    retried = with_retries(meters, [("TOURNAMENT#t1", 2, 0)], 10.8, latency=0.008, rng=random.Random(3))

    # Then the 1,000th unit is served, the 1,001st is throttled (and counts nothing), and the 2-unit write,
    # throttled at first, gets through on a retry the SDK's back-off put in a later second
    assert one_more is True
    assert past is False
    assert meters.load("TOURNAMENT#t1", 10.9) == (1_000, 0)
    assert retried.attempts >= 2 and retried.throttled >= 1
    assert retried.admitted_at is not None and retried.admitted_at >= 11.0
    assert meters.throttled == 1 + retried.throttled
    # and another key's second is its own
    assert meters.admit("TOURNAMENT#t2", 10.9, write=1_000)


def test_a_key_read_past_3000_units_a_second_is_throttled() -> None:
    # Given a key read at 3,000 units within one second
    meters = PartitionMeters()
    assert meters.admit("T#1", 5.0, read=2_999.5)
    assert meters.admit("T#1", 5.5, read=0.5)

    # When one more eventually consistent read (half a unit) comes in that second, then in the next
    late = meters.admit("T#1", 5.99, read=0.5)
    next_second = meters.admit("T#1", 6.0, read=0.5)

    # Then the first is throttled and the second served
    assert (late, next_second) == (False, True)


def test_a_request_touching_several_keys_is_throttled_whole_when_one_key_is_over() -> None:
    # Given one key at its write limit in this second
    meters = PartitionMeters()
    assert meters.admit("COORD#t1", 0.0, write=1_000)

    # When a transaction writes that key and another
    admitted = meters.admit_all(0.5, [("TABLE#1", 2, 0), ("COORD#t1", 2, 0)])

    # Then it is throttled and the other key counts nothing either
    assert admitted is False
    assert meters.load("TABLE#1", 0.5) == (0, 0)


def test_every_attempt_throttled_gives_up_after_the_sdks_four_attempts() -> None:
    # Given a key that cannot take a write for the next minute
    meters = PartitionMeters(write_per_second=0)

    # When a write is made with the SDK's retries
    outcome = with_retries(meters, [("K", 1, 0)], 0.0, latency=0.01, rng=random.Random(1))

    # Then it is attempted four times in all, backing off between attempts, and fails
    assert outcome.attempts == DYNAMODB_THROTTLED.max_attempts == 4
    assert outcome.admitted_at is None
    assert 0.04 <= outcome.elapsed <= 0.04 + 1 + 2 + 4


def test_the_sdks_back_off_is_full_jitter_capped_at_20_seconds() -> None:
    # Given the SDK's policy for a throttled DynamoDB request and a generator that draws its largest value
    class Top(random.Random):
        def random(self) -> float:
            return 1.0

    # When the waits after attempts 1, 2, 3 and 10 are drawn
    waits = [DYNAMODB_THROTTLED.delay(attempt, Top()) for attempt in (1, 2, 3, 10)]

    # Then they double from 1 second and stop at 20
    assert waits == [1.0, 2.0, 4.0, 20.0]


def test_the_hottest_key_is_the_busiest_seconds_load_nearest_a_limit() -> None:
    # Given one key written at 600 units in a second and another read at 2,400
    meters = PartitionMeters()
    meters.admit("WRITTEN", 1.0, write=600)
    meters.admit("READ", 1.0, read=2_400)
    meters.admit("READ", 2.0, read=10)

    # When the hottest key is asked for
    hot = meters.hottest()

    # Then it is the read one (80 % of its limit against 60 %), with its highest second
    assert hot is not None and (hot.key, hot.wcu_per_s, hot.rcu_per_s) == ("READ", 0, 2_400)


def test_a_fifo_group_never_has_two_batches_in_flight() -> None:
    # Given a FIFO group fed 95 messages over time and a consumer whose batches take random times, some failing
    rng = random.Random(20)
    queue: FifoQueue[int] = FifoQueue()
    events: list[tuple[float, int, str, int]] = [(n * 0.01, n, "send", n) for n in range(95)]
    heapq.heapify(events)
    delivered: list[int] = []
    in_flight = 0
    order = 95

    # When every send and every batch's end is played in time order, and the group is polled after each
    while events:
        at, _, kind, value = heapq.heappop(events)
        if kind == "send":
            queue.send("T#1", value)
        else:
            in_flight -= 1
            queue.complete("T#1", succeeded=value)
        batch = queue.receive("T#1")
        if batch:
            in_flight += 1
            # Then a batch is handed out only when none is in flight, and it holds at most 10 messages
            assert in_flight == 1
            assert len(batch) <= 10
            succeeded = len(batch) if rng.random() < 0.8 else rng.randrange(len(batch))
            delivered.extend(batch[:succeeded])
            order += 1
            heapq.heappush(events, (at + rng.uniform(0.05, 0.5), order, "done", succeeded))
        else:
            assert queue.in_flight("T#1") or queue.waiting("T#1") == 0

    # and the group's messages were processed once each, in the order sent
    assert delivered == list(range(95))


def test_a_fifo_group_hands_out_what_is_waiting_up_to_ten_and_another_group_is_not_held() -> None:
    # Given two groups with messages waiting, one with a batch in flight
    queue: FifoQueue[str] = FifoQueue()
    for n in range(3):
        queue.send("T#1", f"a{n}")
        queue.send("T#2", f"b{n}")
    assert queue.receive("T#1") == ["a0", "a1", "a2"]
    queue.send("T#1", "a3")

    # When the consumer polls both
    first, second = queue.receive("T#1"), queue.receive("T#2")

    # Then the busy group waits and the other is delivered
    assert first == []
    assert second == ["b0", "b1", "b2"]
    assert queue.ready() == []


def test_a_functions_concurrency_never_exceeds_its_reservation() -> None:
    # Given a function reserved at 5 and 200 invocations arriving at random over 2 seconds, each taking 0.1-1.5 s;
    # one throttled waits for the first slot to free (as SQS keeps the message and Lambda polls again)
    rng = random.Random(5)
    function = Concurrency(reserved=5)
    arrivals = sorted(rng.uniform(0, 2) for _ in range(200))
    pending = [(at, n) for n, at in enumerate(arrivals)]
    heapq.heapify(pending)
    spans: list[tuple[float, float]] = []

    # When each tries to start at its time
    while pending:
        at, n = heapq.heappop(pending)
        start = function.try_start(at)
        if start is None:
            free = function.next_free()
            assert free is not None and free > at
            heapq.heappush(pending, (free, n))
            continue
        end = at + rng.uniform(0.1, 1.5)
        function.finish_at(end)
        spans.append((at, end))

    # Then every invocation ran, never more than 5 at any moment, and the reservation did bind
    assert len(spans) == 200
    moments = sorted({s for s, _ in spans})
    assert max(sum(1 for s, e in spans if s <= m < e) for m in moments) == 5
    assert function.peak == 5
    assert function.throttled > 0
    # and only the first five starts found no warm execution environment
    assert function.cold_starts == 5


def test_a_function_without_a_reservation_is_not_capped() -> None:
    # Given a function with no reservation
    function = Concurrency(reserved=None)

    # When 50 invocations start at once
    for _ in range(50):
        assert function.try_start(0.0) is not None
        function.finish_at(1.0)

    # Then all run
    assert function.peak == 50 and function.throttled == 0


def test_finishing_an_invocation_that_was_not_started_is_a_mistake() -> None:
    with pytest.raises(RuntimeError):
        Concurrency(reserved=1).finish_at(1.0)


def test_at_most_500_new_websocket_connections_a_second() -> None:
    # Given the account's limit on new WebSocket connections
    connects = PerSecondLimit()

    # When 600 clients connect within one second, then 10 more in the next
    first = [connects.take(7.0 + n / 1_000) for n in range(600)]
    later = [connects.take(8.0 + n / 1_000) for n in range(10)]

    # Then 500 connect in the first second and 100 are refused; the next second admits again
    assert first.count(True) == 500 and first[500:] == [False] * 100
    assert all(later)
    assert connects.refused == 100


def test_an_api_stage_throttles_past_its_burst_and_refills_at_its_rate() -> None:
    # Given the HTTP stage's throttle: 500 requests a second, a burst of 1,000
    stage = TokenBucket(rate=500, burst=1_000)

    # When 1,200 requests arrive at once, then 300 more 0.5 s later
    at_once = [stage.take(0.0) for _ in range(1_200)]
    later = [stage.take(0.5) for _ in range(300)]

    # Then the burst is served and 200 refused (429); half a second refills 250 tokens
    assert at_once.count(True) == 1_000
    assert later.count(True) == 250
    assert stage.refused == 250


def test_a_transaction_touching_an_item_another_holds_is_cancelled() -> None:
    # Given a transaction on the coordinator item and a table, running from 1.000 s to 1.020 s
    locks = ItemLocks()
    assert locks.transact(["COORD#t1", "TABLE#t1#7"], 1.000, 1.020)

    # When another transaction on the coordinator starts at 1.010, a third on other items at the same time,
    # a single write of the table at 1.015, and a fourth transaction on the coordinator after the first ended
    conflicting = locks.transact(["COORD#t1", "TABLE#t1#9"], 1.010, 1.030)
    elsewhere = locks.transact(["TABLE#t1#3"], 1.010, 1.030)
    single_write = locks.write("TABLE#t1#7", 1.015)
    after = locks.transact(["COORD#t1"], 1.020, 1.040)

    # Then the second is cancelled (TransactionConflict) and holds nothing, the single write fails
    # (TransactionConflictException), and the others go through
    assert conflicting is False
    assert locks.write("TABLE#t1#9", 1.015) is True
    assert single_write is False
    assert (elsewhere, after) == (True, True)
    assert (locks.cancelled, locks.conflicting_writes) == (1, 1)


def test_transactions_that_ended_long_ago_are_forgotten() -> None:
    # Given a transaction that ended at 1 s
    locks = ItemLocks()
    locks.transact(["A"], 0.5, 1.0)

    # When the locks are pruned two minutes later
    locks.prune(121.0)

    # Then nothing is held any more (and an overlapping late record would go through)
    assert locks.transact(["A"], 0.6, 0.9) is True
