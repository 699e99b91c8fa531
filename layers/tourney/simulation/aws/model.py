"""The model as one object the simulated cloud calls: an invocation's calls timed, metered, priced and refused.

:class:`AwsModel` holds the run's meters (partition keys, transactions in flight, each function's concurrency,
new WebSocket connections, the stages' throttles) and its :class:`~tourney.simulation.aws.pricing.CostMeter`.
:meth:`AwsModel.invocation` admits an invocation of a function at a moment of the cloud's clock (or throttles
it); the :class:`Invocation` then takes the calls its code makes, in order, each at the moment its
:class:`~tourney.simulation.aws.latency.Stopwatch` has reached, and raises what AWS would answer:

- :class:`Throttled`: a partition key stayed over its limit through the SDK's retries (a single-item request:
  4 attempts, full-jitter back-off from 1 s, PynamoDB's ``max_retry_attempts = 3`` in standard mode) or the
  adapter's (a transaction cancelled for throttling: 3 retries after 20, 40 and 80 ms,
  ``adapters/dynamo/transaction.py``);
- :class:`TransactionConflict`: a transaction (after the adapter's same 3 retries) or a single-item write met an
  item another transaction held;
- :class:`~tourney.simulation.aws.items.ItemTooLarge`: an item over 400 KB.

:meth:`AwsModel.finish` ends the invocation: its duration frees its concurrency slot at ``start + duration`` and
is billed (cold start included: Lambda bills the init phase since August 2025). A throttled request is not billed
(it consumed nothing).

>>> model = AwsModel()
>>> run = model.invocation("coordinator", at=100.0)
>>> table = StoredItem("tourney-tables", "tables#t1#0", "table#0001", size=1_967)
>>> run.get(table)
>>> run.transact([table, StoredItem("tourney-tournaments", "tournament#t1", "coordinator", 1_159)])
>>> run.send(fifo=True)
>>> run.post(9)
>>> round(model.finish(run) - 100.0, 3)  # cold start, a read, a transaction, a send, nine posts
0.916
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from tourney.simulation.aws.capacity import (
    DYNAMODB_THROTTLED,
    Concurrency,
    ItemLocks,
    PartitionMeters,
    PerSecondLimit,
    TokenBucket,
    with_retries,
)
from tourney.simulation.aws.items import Consistency, check_item_size, read_units, write_units
from tourney.simulation.aws.latency import DEFAULT_LATENCIES, Latencies, ParallelGroup, Stopwatch
from tourney.simulation.aws.pricing import DEFAULT_PRICES, CostMeter, Prices
from tourney.simulation.aws.records import StoredItem
from tourney.simulation.aws.requests import Request
from tourney.simulation.aws.template import FunctionLimits, TemplateLimits

ADAPTER_TRANSACTION_RETRIES = (0.02, 0.04, 0.08)
"""The DynamoDB adapter's waits before sending a transaction cancelled by a conflict or throttling again
(``Transaction.commit``: ``0.01 * 2 ** attempt``, 3 retries)."""
QUERY_PAGE_BYTES = 1024 * 1024
"""A Query answers at most 1 MB a page; the caller asks again for the rest."""
DEFAULT_FUNCTION = FunctionLimits(name="", reserved=None, memory_mb=1024, architecture="arm64")


class Failure(Exception):
    """What AWS answered instead of doing the request: the invocation fails as it would on AWS."""


class Throttled(Failure):
    """Every attempt throttled (``ProvisionedThroughputExceededException``; a transaction's ``ThrottlingError``)."""


class TransactionConflict(Failure):
    """``TransactionCanceledException`` [``TransactionConflict``], or ``TransactionConflictException``."""


class AwsModel:
    """One run's AWS: latencies, limits and meters, prices, and the random draws of the SDK's back-off."""

    def __init__(
        self,
        *,
        latencies: Latencies = DEFAULT_LATENCIES,
        prices: Prices = DEFAULT_PRICES,
        limits: TemplateLimits | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.latencies = latencies
        self.limits = limits or TemplateLimits({}, {})
        self.rng = rng or random.Random(0)
        self.meters = PartitionMeters()
        self.locks = ItemLocks()
        self.cost = CostMeter(prices)
        self.concurrency: dict[str, Concurrency] = self.limits.concurrency()
        self.connections = PerSecondLimit()
        self.stages: dict[str, TokenBucket] = {p: s.bucket() for p, s in self.limits.stages.items()}
        self.item_max_bytes = 0
        self.throttled_requests = 0

    def function(self, name: str) -> FunctionLimits:
        return self.limits.functions.get(name, DEFAULT_FUNCTION)

    def invocation(self, function: str, at: float) -> Invocation | None:
        """An invocation of ``function`` starting at ``at``, or None: past its reserved concurrency (throttled)."""
        limiter = self.concurrency.get(function)
        if limiter is None:
            limiter = self.concurrency[function] = Concurrency(self.function(function).reserved)
        start = limiter.try_start(at)
        if start is None:
            return None
        run = Invocation(self, function, at)
        if start.cold:
            run.watch.wait(self.latencies.cold_start)
        return run

    def finish(self, run: Invocation) -> float:
        """The invocation ends: frees its slot then, is billed; the moment it ends."""
        end = run.start + run.watch.elapsed
        self.concurrency[run.function].finish_at(end)
        limits = self.function(run.function)
        self.cost.lambda_invocation(
            run.function, seconds=run.watch.elapsed, memory_mb=limits.memory_mb, architecture=limits.architecture
        )
        return end

    def has_room(self, function: str, at: float) -> bool:
        """Whether an invocation of ``function`` starting at ``at`` would be admitted (its reservation not full)."""
        limiter = self.concurrency.get(function)
        return limiter is None or limiter.reserved is None or limiter.running(at) < limiter.reserved

    def next_free(self, function: str) -> float | None:
        """When a throttled invocation of ``function`` may start (its first running invocation's end)."""
        limiter = self.concurrency.get(function)
        return None if limiter is None else limiter.next_free()

    def connect(self, at: float) -> bool:
        """A new WebSocket connection at ``at``: False past 500 a second (the client is refused)."""
        return self.connections.take(at)

    def through_stage(self, protocol: str, at: float) -> bool:
        """A request through the ``HTTP`` or ``WEBSOCKET`` stage at ``at`` (priced as an HTTP request or a message
        received): False is a 429, and no function runs."""
        bucket = self.stages.get(protocol)
        if bucket is not None and not bucket.take(at):
            return False
        if protocol == "HTTP":
            self.cost.http_request()
        else:
            self.cost.websocket_message(posted=False)
        return True


class Invocation:
    """One invocation's calls, each at its moment: ``start`` plus what the calls before it took."""

    def __init__(self, model: AwsModel, function: str, start: float) -> None:
        self.model = model
        self.function = function
        self.start = start
        self.watch = Stopwatch(model.latencies)

    @property
    def now(self) -> float:
        """The cloud's clock at the next call."""
        return self.start + self.watch.now

    @contextmanager
    def branch(self, group: ParallelGroup) -> Iterator[None]:
        """The calls made meanwhile as one branch of ``group`` (``watch.parallel``): one thread's among others."""
        main = self.watch
        try:
            with group.branch() as self.watch:
                yield
        finally:
            self.watch = main

    def _single(self, request: Request, partition: str, *, write: float = 0.0, read: float = 0.0) -> None:
        """``_many`` of one charge, with the first attempt's admission inline: nearly every request goes through at
        once, and this is the hottest path of a large run (the same meters, clock, counts and costs)."""
        model = self.model
        watch = self.watch
        at = self.start + (watch.origin + watch.elapsed)  # self.now
        if not model.meters.admit(partition, at, write=write, read=read):
            self._many(request, [(partition, write, read)], first_refused_at=at)
            return
        watch.elapsed += at + model.latencies.of(request) - at  # with_retries' elapsed for a first attempt through
        watch.calls[request] += 1
        model.cost.dynamodb(request, read_units=read, write_units=write)

    def _many(
        self, request: Request, charges: list[tuple[str, float, float]], *, first_refused_at: float | None = None
    ) -> None:
        """``charges`` as one request through the SDK's retries (``first_refused_at``: its first attempt, made then,
        was refused already)."""
        model = self.model
        outcome = with_retries(
            model.meters,
            charges,
            self.now if first_refused_at is None else first_refused_at,
            latency=model.latencies.of(request),
            rng=model.rng,
            policy=DYNAMODB_THROTTLED,
            first_refused=first_refused_at is not None,
        )
        self.watch.wait(outcome.elapsed)
        self.watch.calls[request] += outcome.attempts
        model.throttled_requests += outcome.throttled
        if outcome.admitted_at is None:
            partitions = ", ".join(sorted({p for p, _, _ in charges}))
            raise Throttled(f"{request.operation} on {partitions}: throttled {outcome.attempts} times")
        read = sum(r for _, _, r in charges)
        model.cost.dynamodb(request, read_units=read, write_units=sum(w for _, w, _ in charges))

    def get(self, item: StoredItem, consistency: Consistency = Consistency.STRONG) -> None:
        """A GetItem of ``item`` (its size 0 when it is not there)."""
        self._single(Request.GET_ITEM, item.partition, read=read_units(item.size, consistency))

    def batch_get(self, items: Sequence[StoredItem], consistency: Consistency = Consistency.STRONG) -> None:
        """A BatchGetItem of ``items`` (up to 100 a call), each rounded to 4 KB on its own, on its own partition."""
        for first in range(0, len(items), 100):
            charges = [(i.partition, 0.0, read_units(i.size, consistency)) for i in items[first : first + 100]]
            self._many(Request.BATCH_GET_ITEM, charges)

    def query(self, partition: str, sizes: Sequence[int], consistency: Consistency = Consistency.STRONG) -> None:
        """A Query of ``partition`` (``table/pk``) returning items of ``sizes``: a call per 1 MB page."""
        pages = [0]
        for size in sizes:
            if pages[-1] and pages[-1] + size > QUERY_PAGE_BYTES:
                pages.append(0)
            pages[-1] += size
        for page in pages:
            self._single(Request.QUERY, partition, read=read_units(page, consistency))

    def single_query(self, partition: str, size: int, consistency: Consistency = Consistency.STRONG) -> None:
        """A Query of ``partition`` returning ``size`` bytes in all, at most one page (``query`` of such items)."""
        if size > QUERY_PAGE_BYTES:
            raise ValueError(f"{size} bytes are more than a page")
        self._single(Request.QUERY, partition, read=read_units(size, consistency))

    def write(self, item: StoredItem, *, before: int = 0, request: Request = Request.PUT_ITEM) -> None:
        """A single-item write (PutItem, UpdateItem, DeleteItem) of ``item`` (``before``: its size before)."""
        self._record_size(item)
        if not self.model.locks.write(item.item, self.now):
            self.watch.call(request)
            raise TransactionConflict(f"{request.operation} on {item.item}: a transaction holds it")
        self._single(request, item.partition, write=write_units(max(item.size, before)))

    def transact(self, items: Iterable[StoredItem], checks: Iterable[StoredItem] = ()) -> None:
        """A TransactWriteItems of ``items`` (and condition checks of ``checks``): 2 write units per KB each,
        conflicting with any transaction holding one of them, retried as the adapter retries."""
        items, checks = list(items), list(checks)
        for item in items:
            self._record_size(item)
        model = self.model
        latency = model.latencies.of(Request.TRANSACT_WRITE_ITEMS)
        touched = [i.item for i in items + checks]
        charges = [(i.partition, float(write_units(i.size, transactional=True)), 0.0) for i in items + checks]
        waits = list(ADAPTER_TRANSACTION_RETRIES)
        while True:
            at = self.now
            self.watch.call(Request.TRANSACT_WRITE_ITEMS)
            failure: Failure
            if model.locks.conflicts(touched, at, at + latency):
                model.locks.cancelled += 1
                failure = TransactionConflict(f"TransactWriteItems of {len(touched)} items: a transaction holds one")
            elif not model.meters.admit_all(at, charges):
                model.throttled_requests += 1
                failure = Throttled(f"TransactWriteItems of {len(touched)} items: throttled")
            else:
                model.locks.hold(touched, at, at + latency)
                model.cost.dynamodb(Request.TRANSACT_WRITE_ITEMS, write_units=sum(units for _, units, _ in charges))
                return
            if not waits:
                raise failure
            self.watch.wait(waits.pop(0))

    def _record_size(self, item: StoredItem) -> None:
        check_item_size(item.size)
        self.model.item_max_bytes = max(self.model.item_max_bytes, item.size)

    def send(self, *, fifo: bool, size: int = 1_024, batch: bool = False) -> None:
        """A SendMessage (or a SendMessageBatch) to a queue."""
        request = Request.SEND_MESSAGE_BATCH if batch else Request.SEND_MESSAGE
        self.watch.call(request)
        self.model.cost.sqs_request(request, fifo=fifo, size=size)

    def post(self, count: int = 1, *, size: int = 2_048, workers: int | None = 1) -> None:
        """``count`` posts to WebSocket connections, one after the other (``workers=None``: all at once)."""
        if workers == 1:
            self.watch.call(Request.POST_TO_CONNECTION, times=count)
        else:
            self.watch.calls_at_once(Request.POST_TO_CONNECTION, count, workers)
        self.model.cost.websocket_message(size=size, count=count)

    def start_execution(self) -> None:
        """A StartExecution of a Step Functions workflow (its transitions are priced as they happen)."""
        self.watch.call(Request.START_EXECUTION)
