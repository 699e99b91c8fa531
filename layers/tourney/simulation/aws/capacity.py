"""What AWS lets through: partition meters, the SDK's retries, FIFO groups, reserved concurrency, rate limits
and transaction conflicts.

Every class is a pure meter: times are seconds (floats) on the caller's clock, randomness is a ``random.Random``
passed in, and nothing waits. The simulated cloud asks ("may this run now?") and schedules what the answer says.

- :class:`PartitionMeters`: per partition key, at most 1,000 write units and 3,000 read units in any one second
  (whole seconds of the caller's clock). A request over either is throttled and counts nothing (DynamoDB's
  ``ProvisionedThroughputExceededException``; adaptive capacity isolates a hot item on its own partition but
  does not lift that ceiling).
- :class:`RetryPolicy` and :func:`with_retries`: the SDK's standard retry mode (botocore ``retries/standard.py``,
  the default mode): attempt ``n`` failing waits ``random() * min(base * 2 ** (n - 1), 20 s)`` (full jitter) before
  the next; DynamoDB makes 4 attempts in all, other services 3; the base is 1 s after a throttling error, 25 ms
  after another retryable DynamoDB error (50 ms for other services).
- :class:`FifoQueue`: an SQS FIFO queue's message groups; a group hands out one batch of at most 10 at a time and
  none while one is in flight; the messages a batch did not finish go back to the head, in order.
- :class:`Concurrency`: a function's reserved concurrency; an invocation past it is throttled, and
  :meth:`Concurrency.next_free` says when a slot frees (for the caller to queue it till then).
- :class:`TokenBucket`: an API stage's throttle (rate a second, burst); :class:`PerSecondLimit`: at most ``limit``
  in any one second (500 new WebSocket connections a second per account and region).
- :class:`ItemLocks`: a transaction holds its items from its start to its end; another transaction touching one
  of them meanwhile is cancelled (``TransactionCanceledException``, reason ``TransactionConflict``), and so is a
  single-item write of one of them (``TransactionConflictException``).
"""

from __future__ import annotations

import bisect
import heapq
import math
import random
from collections import Counter, deque
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

T = TypeVar("T")

PARTITION_WRITE_UNITS_PER_SECOND = 1_000
PARTITION_READ_UNITS_PER_SECOND = 3_000
FIFO_BATCH_SIZE = 10
WEBSOCKET_CONNECTIONS_PER_SECOND = 500
_KEPT_SECONDS = 8
"""A key's meter keeps its last few seconds: invocations run in the order they start, so their calls (and the
SDK's retries, up to 7 s of back-off) reach a key a little out of clock order."""


def _second(at: float) -> int:
    return math.floor(at)


# -- partition keys -------------------------------------------------------------------------------------------


class HotKey(NamedTuple):
    """The busiest partition key and its highest one-second load."""

    key: str
    wcu_per_s: float
    rcu_per_s: float


_Meter = tuple[dict[int, list[float]], list[float]]
"""A key's meter: its recent seconds' (write, read) units, and its busiest second's."""


class PartitionMeters:
    """Write and read units per partition key and whole second; a request over a limit is throttled."""

    def __init__(
        self,
        write_per_second: float = PARTITION_WRITE_UNITS_PER_SECOND,
        read_per_second: float = PARTITION_READ_UNITS_PER_SECOND,
    ) -> None:
        self.write_per_second = write_per_second
        self.read_per_second = read_per_second
        self._keys: dict[str, _Meter] = {}
        """Per key, in the order first counted: its (write, read) units by second (its last few seconds), and its
        busiest second's. One entry per key: a request looks its key up once."""
        self.throttled = 0
        self.throttled_by_key: Counter[str] = Counter()

    def load(self, key: str, at: float) -> tuple[float, float]:
        """(write units, read units) ``key`` has served in the second of ``at``."""
        meter = self._keys.get(key)
        units = meter[0].get(_second(at)) if meter is not None else None
        return (units[0], units[1]) if units else (0.0, 0.0)

    def admit(self, key: str, at: float, *, write: float = 0.0, read: float = 0.0) -> bool:
        """Count a request of ``write`` and ``read`` units on ``key`` at ``at``; False (nothing counted): throttled.

        ``_count`` inline (the hottest call of a large run): the key is looked up once.
        """
        second = math.floor(at)
        meter = self._keys.get(key)
        units = meter[0].get(second) if meter is not None else None
        used_write, used_read = (units[0], units[1]) if units is not None else (0.0, 0.0)
        if used_write + write > self.write_per_second or used_read + read > self.read_per_second:
            self.throttled += 1
            self.throttled_by_key[key] += 1
            return False
        self._add(key, meter, second, units, write, read)
        return True

    def admit_all(self, at: float, charges: Iterable[tuple[str, float, float]]) -> bool:
        """A request touching several keys (a transaction, a batch): every ``(key, write, read)`` is counted, or,
        if any key would pass a limit, none is (the whole request is throttled)."""
        second = _second(at)
        totals: dict[str, list[float]] = {}
        for key, write, read in charges:
            total = totals.setdefault(key, [0.0, 0.0])
            total[0] += write
            total[1] += read
        for key, (write, read) in totals.items():
            used_write, used_read = self.load(key, at)
            if used_write + write > self.write_per_second or used_read + read > self.read_per_second:
                self.throttled += 1
                self.throttled_by_key[key] += 1
                return False
        for key, (write, read) in totals.items():
            self._count(key, second, write, read)
        return True

    def _count(self, key: str, second: int, write: float, read: float) -> None:
        meter = self._keys.get(key)
        self._add(key, meter, second, meter[0].get(second) if meter is not None else None, write, read)

    def _add(
        self, key: str, meter: _Meter | None, second: int, units: list[float] | None, write: float, read: float
    ) -> None:
        """Count units on ``key`` in ``second`` (``meter`` and ``units``: what the caller looked up, None if none)."""
        if meter is None:
            meter = self._keys[key] = ({}, [0.0, 0.0])
        seconds, peak = meter
        if units is None:
            for old in [s for s in seconds if s <= second - _KEPT_SECONDS]:
                del seconds[old]
            units = seconds[second] = [0.0, 0.0]
        units[0] += write
        units[1] += read
        if units[0] > peak[0]:
            peak[0] = units[0]
        if units[1] > peak[1]:
            peak[1] = units[1]

    def hottest(self) -> HotKey | None:
        """The key whose busiest second came closest to a limit, with its highest write and read loads."""
        if not self._keys:
            return None
        key, (_, (write, read)) = max(
            self._keys.items(),
            key=lambda kv: max(kv[1][1][0] / self.write_per_second, kv[1][1][1] / self.read_per_second),
        )
        return HotKey(key, write, read)


# -- the SDK's retries ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RetryPolicy:
    """botocore's standard retry mode: full-jitter exponential back-off, capped, and a number of attempts in all."""

    max_attempts: int
    base_seconds: float
    max_backoff_seconds: float = 20.0

    def delay(self, attempt: int, rng: random.Random) -> float:
        """The wait after attempt ``attempt`` (1-based) failed, before the next."""
        return rng.random() * min(self.base_seconds * 2.0 ** (attempt - 1), self.max_backoff_seconds)


DYNAMODB_THROTTLED = RetryPolicy(max_attempts=4, base_seconds=1.0)
"""A DynamoDB request throttled (``ProvisionedThroughputExceededException``, ``ThrottlingException``)."""
DYNAMODB_TRANSIENT = RetryPolicy(max_attempts=4, base_seconds=0.025)
"""A DynamoDB request that failed otherwise retryably (a 500, a time-out)."""
SDK_THROTTLED = RetryPolicy(max_attempts=3, base_seconds=1.0)
"""Another service's request throttled (SQS, API Gateway's @connections, Step Functions)."""


@dataclass(frozen=True)
class Attempts:
    """How a request went through its retries."""

    attempts: int
    elapsed: float
    """From the first attempt's start to the last attempt's answer."""
    admitted_at: float | None
    """When the attempt that got through started; None: every attempt was throttled (the SDK raises)."""

    @property
    def throttled(self) -> int:
        return self.attempts - (self.admitted_at is not None)


def with_retries(
    meters: PartitionMeters,
    charges: Iterable[tuple[str, float, float]],
    at: float,
    *,
    latency: float,
    rng: random.Random,
    policy: RetryPolicy = DYNAMODB_THROTTLED,
    first_refused: bool = False,
) -> Attempts:
    """A DynamoDB request made at ``at`` (each attempt takes ``latency``), retried as the SDK retries throttling.

    ``first_refused``: the first attempt was already made at ``at`` and refused (the meters counted it).

    >>> meters = PartitionMeters(write_per_second=1)
    >>> meters.admit("T#1", 0.0, write=1)
    True
    >>> outcome = with_retries(meters, [("T#1", 1, 0)], 0.5, latency=0.01, rng=random.Random(7))
    >>> outcome.attempts > 1 and outcome.admitted_at is not None and outcome.admitted_at >= 1.0
    True
    """
    charges = list(charges)
    single = charges[0] if len(charges) == 1 else None
    clock = at
    for attempt in range(1, policy.max_attempts + 1):
        if attempt == 1 and first_refused:
            admitted = False
        elif single is not None:
            admitted = meters.admit(single[0], clock, write=single[1], read=single[2])
        else:
            admitted = meters.admit_all(clock, charges)
        if admitted:
            return Attempts(attempt, clock + latency - at, clock)
        clock += latency
        if attempt < policy.max_attempts:
            clock += policy.delay(attempt, rng)
    return Attempts(policy.max_attempts, clock - at, None)


# -- SQS FIFO -------------------------------------------------------------------------------------------------


class FifoQueue(Generic[T]):
    """An SQS FIFO queue's message groups, as Lambda's event source mapping reads them.

    >>> queue: FifoQueue[int] = FifoQueue()
    >>> for n in range(12):
    ...     queue.send("T#1", n)
    >>> queue.receive("T#1"), queue.receive("T#1")
    ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [])
    >>> queue.complete("T#1", succeeded=4)
    [4, 5, 6, 7, 8, 9]
    >>> queue.receive("T#1")
    [4, 5, 6, 7, 8, 9, 10, 11]
    """

    def __init__(self, batch_size: int = FIFO_BATCH_SIZE) -> None:
        if not 1 <= batch_size <= FIFO_BATCH_SIZE:
            raise ValueError(f"a FIFO event source reads batches of 1 to {FIFO_BATCH_SIZE}")
        self.batch_size = batch_size
        self._waiting: dict[str, deque[T]] = {}
        self._in_flight: dict[str, list[T]] = {}
        self.receives: Counter[str] = Counter()

    def send(self, group: str, message: T) -> None:
        self._waiting.setdefault(group, deque()).append(message)

    def in_flight(self, group: str) -> bool:
        return group in self._in_flight

    def waiting(self, group: str) -> int:
        return len(self._waiting.get(group, ()))

    def ready(self) -> list[str]:
        """The groups with messages waiting and no batch in flight."""
        return [g for g, messages in self._waiting.items() if messages and g not in self._in_flight]

    def receive(self, group: str) -> list[T]:
        """The group's next batch (at most ``batch_size``), now in flight; [] while one is in flight or none waits."""
        waiting = self._waiting.get(group)
        if group in self._in_flight or not waiting:
            return []
        batch = [waiting.popleft() for _ in range(min(self.batch_size, len(waiting)))]
        self._in_flight[group] = batch
        self.receives[group] += 1
        return batch

    def complete(self, group: str, succeeded: int | None = None) -> list[T]:
        """The batch in flight ends: its first ``succeeded`` messages (all when None) are deleted, the rest go back
        to the head of the group in order (what ``SqsFifoPartialProcessor`` reports after a failure); returns them."""
        batch = self._in_flight.pop(group)
        done = len(batch) if succeeded is None else succeeded
        returned = batch[done:]
        if returned:
            self._waiting.setdefault(group, deque()).extendleft(reversed(returned))
        return returned


# -- Lambda concurrency ---------------------------------------------------------------------------------------


class Start(NamedTuple):
    """An invocation admitted; ``cold`` when no idle execution environment was there to take it."""

    cold: bool


class Concurrency:
    """One function's concurrent invocations, never more than its reservation (None: no reservation).

    The caller asks :meth:`try_start` at an invocation's start, runs it, then tells :meth:`finish_at` when it
    ends. Past the reservation the invocation is throttled (``TooManyRequestsException``): SQS keeps the message
    and Lambda polls again, an API answers 429; :meth:`next_free` is the first moment a slot frees.

    >>> fn = Concurrency(reserved=1)
    >>> fn.try_start(0.0), fn.finish_at(0.3)
    (Start(cold=True), None)
    >>> fn.try_start(0.1), fn.next_free()
    (None, 0.3)
    >>> fn.try_start(0.3)
    Start(cold=False)
    """

    def __init__(self, reserved: int | None) -> None:
        self.reserved = reserved
        self._ends: list[float] = []
        self._starting = 0
        self.environments = 0
        self.peak = 0
        self.throttled = 0
        self.cold_starts = 0

    def running(self, at: float) -> int:
        """Invocations still running at ``at`` (and any admitted whose end is not known yet)."""
        ends = self._ends
        while ends and ends[0] <= at:
            heapq.heappop(ends)
        return len(ends) + self._starting

    def try_start(self, at: float) -> Start | None:
        """Admit an invocation starting at ``at``, or None: throttled (nothing changes)."""
        running = self.running(at)
        if self.reserved is not None and running >= self.reserved:
            self.throttled += 1
            return None
        self._starting += 1
        running += 1
        self.peak = max(self.peak, running)
        cold = running > self.environments
        if cold:
            self.environments = running
            self.cold_starts += 1
        return Start(cold)

    def finish_at(self, end: float) -> None:
        """The invocation admitted last (and not finished yet) ends at ``end``."""
        if self._starting <= 0:
            raise RuntimeError("finish_at without an admitted invocation")
        self._starting -= 1
        heapq.heappush(self._ends, end)

    def next_free(self) -> float | None:
        """When the first running invocation ends (None: none whose end is known)."""
        return self._ends[0] if self._ends else None


# -- rate limits ----------------------------------------------------------------------------------------------


class TokenBucket:
    """An API Gateway stage's throttle: ``rate`` tokens a second, at most ``burst`` kept; a request takes one.

    The same algorithm as the local runtime's (``infra/local/throttle.py``), with the time passed in.

    >>> bucket = TokenBucket(rate=2, burst=2)
    >>> [bucket.take(t) for t in (0.0, 0.0, 0.0, 0.5)]
    [True, True, False, True]
    """

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = float(rate)
        self.burst = int(burst)
        self._tokens = float(burst)
        self._at: float | None = None
        self.refused = 0

    def take(self, at: float) -> bool:
        if self._at is not None and at > self._at:
            self._tokens = min(float(self.burst), self._tokens + (at - self._at) * self.rate)
        self._at = at if self._at is None else max(self._at, at)
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        self.refused += 1
        return False


class PerSecondLimit:
    """At most ``limit`` admissions in any one whole second (500 new WebSocket connections a second).

    >>> connects = PerSecondLimit(2)
    >>> [connects.take(t) for t in (0.1, 0.2, 0.3, 1.0)]
    [True, True, False, True]
    """

    def __init__(self, limit: int = WEBSOCKET_CONNECTIONS_PER_SECOND) -> None:
        self.limit = limit
        self._counts: dict[int, int] = {}
        self.refused = 0

    def take(self, at: float) -> bool:
        second = _second(at)
        count = self._counts.get(second, 0)
        if count >= self.limit:
            self.refused += 1
            return False
        if count == 0:
            for old in [s for s in self._counts if s <= second - _KEPT_SECONDS]:
                del self._counts[old]
        self._counts[second] = count + 1
        return True


# -- transactions ---------------------------------------------------------------------------------------------


class ItemLocks:
    """The items each transaction holds while it runs (from its start to its end).

    >>> locks = ItemLocks()
    >>> locks.transact(["T#1/COORD", "T#1/TABLE#3"], 0.000, 0.020)
    True
    >>> locks.transact(["T#1/COORD"], 0.010, 0.030), locks.write("T#1/TABLE#3", 0.015), locks.write("T#1/COORD", 0.02)
    (False, False, True)
    """

    def __init__(self) -> None:
        self._held: dict[Hashable, list[tuple[float, float]]] = {}
        self._ends: list[tuple[float, int, Hashable]] = []
        self._order = 0
        self._longest = 0.0
        """The longest hold yet (a transaction's latency)."""
        self.cancelled = 0
        self.conflicting_writes = 0

    def _holder(self, item: Hashable, start: float, end: float) -> bool:
        """Whether a transaction holds ``item`` at some moment of [start, end).

        An item's holds are kept by their start, and none is longer than ``_longest``: only those that started
        after ``start - _longest`` can still run at ``start``, found by bisection (a hot item, the tournament's,
        holds tens of thousands of transactions a minute).
        """
        held = self._held.get(item)
        if not held:
            return False
        i, n = bisect.bisect_right(held, (start - self._longest, math.inf)), len(held)
        while i < n:
            s, e = held[i]
            if s >= end:
                return False
            if start < e:
                return True
            i += 1
        return False

    def conflicts(self, items: Iterable[Hashable], start: float, end: float) -> bool:
        """Whether a transaction holds one of ``items`` at some moment from ``start`` to ``end``."""
        self.prune(start)
        return any(self._holder(item, start, end) for item in items)

    def hold(self, items: Iterable[Hashable], start: float, end: float) -> None:
        """A transaction that went through holds ``items`` from ``start`` to ``end``."""
        self._longest = max(self._longest, end - start)
        for item in items:
            bisect.insort(self._held.setdefault(item, []), (start, end))
            self._order += 1
            heapq.heappush(self._ends, (end, self._order, item))

    def transact(self, items: Iterable[Hashable], start: float, end: float) -> bool:
        """A transaction of ``items`` running from ``start`` to ``end``: True, and it holds them; False: it touches
        an item another transaction holds meanwhile, and is cancelled (it holds nothing)."""
        items = list(items)
        if self.conflicts(items, start, end):
            self.cancelled += 1
            return False
        self.hold(items, start, end)
        return True

    def write(self, item: Hashable, at: float) -> bool:
        """A single-item write (PutItem, UpdateItem, DeleteItem) at ``at``: False when a transaction holds the item
        then (``TransactionConflictException``)."""
        if self._holder(item, at, math.nextafter(at, math.inf)):
            self.conflicting_writes += 1
            return False
        return True

    def prune(self, now: float, horizon: float = 60.0) -> None:
        """Forget transactions that ended more than ``horizon`` seconds before ``now``."""
        ends, cutoff = self._ends, now - horizon
        while ends and ends[0][0] <= cutoff:
            _, _, item = heapq.heappop(ends)
            held = self._held.get(item)
            if held is None:
                continue
            # Kept in order of start: drop the ended holds at the front (one still running stops the scan; those
            # behind it go at a later prune, and meanwhile cannot conflict, having ended).
            done = 0
            while done < len(held) and held[done][1] <= cutoff:
                done += 1
            del held[:done]
            if not held:
                del self._held[item]
