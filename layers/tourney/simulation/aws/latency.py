"""How long AWS takes: a latency per request, and a function's duration from the calls it makes.

:class:`Latencies` holds one figure per request kind and per platform step (seconds), each with
its source in the field's metadata (:func:`source_of`); ``Latencies().with_overrides(get_item=0.003)``
changes some. :class:`Stopwatch` adds an invocation's calls up as it makes them: calls in sequence
add up, the calls of a :meth:`Stopwatch.parallel` group overlap (the group takes its longest branch,
or, with ``workers``, what that many threads take to work through them).

>>> watch = Stopwatch()
>>> _ = watch.call(Request.GET_ITEM); _ = watch.call(Request.PUT_ITEM)
>>> round(watch.elapsed, 3)
0.013
>>> with watch.parallel() as group:
...     for _ in range(9):
...         _ = group.call(Request.POST_TO_CONNECTION)
>>> round(watch.elapsed, 3)
0.038
"""

from __future__ import annotations

import dataclasses
import heapq
import math
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tourney.simulation.aws.requests import Request


def _figure(seconds: float, source: str) -> Any:
    return field(default=seconds, metadata={"source": source})


_SINGLE_DIGIT = (
    "AWS: DynamoDB gives 'single-digit millisecond performance' (aws.amazon.com/dynamodb; AWS Database Blog, "
    "'Understanding Amazon DynamoDB latency'), measured on the service side (SuccessfulRequestLatency); "
)


@dataclass(frozen=True)
class Latencies:
    """Seconds each request or platform step takes, as seen by the caller in the same region."""

    get_item: float = _figure(0.005, _SINGLE_DIGIT + "a call from Lambda in the region adds its HTTPS round trip.")
    put_item: float = _figure(
        0.008, _SINGLE_DIGIT + "a write is acknowledged once stored in two of three zones, so above a read."
    )
    update_item: float = _figure(0.008, "As put_item.")
    delete_item: float = _figure(0.008, "As put_item.")
    query: float = _figure(0.010, _SINGLE_DIGIT + "one page (up to 1 MB); a caller that pages calls again.")
    scan: float = _figure(0.020, "Estimate: one page of up to 1 MB, read from one partition at a time.")
    batch_get_item: float = _figure(0.010, "Estimate: up to 100 reads served in parallel by the partitions.")
    batch_write_item: float = _figure(0.015, "Estimate: up to 25 writes served in parallel by the partitions.")
    transact_get_items: float = _figure(0.012, "Estimate: the transaction coordinator's round trip over a read.")
    transact_write_items: float = _figure(
        0.020,
        "Estimate: two phases (prepare, commit) through DynamoDB's transaction coordinator, about twice to three "
        "times a single write in published measurements; AWS publishes no figure.",
    )
    send_message: float = _figure(
        0.016,
        "Amazon's own measurement of sending a 1 KB message from EC2 in us-east-1: 16 ms ('Cloud Performance "
        "Benchmark Series: Amazon SQS', Stony Brook University, revised with Amazon's results, July 2012).",
    )
    send_message_batch: float = _figure(0.020, "Estimate: send_message and a larger request (up to 10 messages).")
    post_to_connection: float = _figure(
        0.025,
        "Estimate: a SigV4-signed HTTPS POST to the API Gateway management endpoint (@connections); AWS publishes "
        "no figure, and reports put one post at 20-50 ms.",
    )
    start_execution: float = _figure(0.030, "Estimate: a Step Functions API call (StartExecution).")
    invoke_overhead: float = _figure(
        0.005, "Estimate: from an event to a warm execution environment's handler (not billed)."
    )
    cold_start: float = _figure(
        0.650,
        "Platform init of a Python zip function, about 150 ms in published measurements (p50), plus this "
        "repository's handler import as shipped, 385-628 ms (docs/performance.md, 'On the bundle as it ships').",
    )
    sqs_to_lambda: float = _figure(
        0.050,
        "Estimate: Lambda's event source mapping long-polls the queue; from a send to the consumer's invocation "
        "(the simulated cloud's DELIVERY_SECONDS).",
    )
    state_transition: float = _figure(
        0.050,
        "Estimate: from one Step Functions state to the next task's invocation (the simulated cloud's "
        "TASK_SECONDS); AWS publishes no figure.",
    )
    scheduler_precision: float = _figure(
        60.0,
        "AWS: 'All schedule types on EventBridge Scheduler invoke their targets with 60 second precision' "
        "(EventBridge Scheduler User Guide, 'Schedule types'): a schedule for 1:00 fires between 1:00:00 and 1:00:59.",
    )

    def with_overrides(self, **seconds: float) -> Latencies:
        """These figures with some replaced; an unknown name is a ``TypeError``."""
        return dataclasses.replace(self, **seconds)

    def of(self, request: Request) -> float:
        """The latency of one ``request``."""
        return float(getattr(self, _FIELD[request]))


_FIELD: dict[Request, str] = {
    Request.GET_ITEM: "get_item",
    Request.PUT_ITEM: "put_item",
    Request.UPDATE_ITEM: "update_item",
    Request.DELETE_ITEM: "delete_item",
    Request.QUERY: "query",
    Request.SCAN: "scan",
    Request.BATCH_GET_ITEM: "batch_get_item",
    Request.BATCH_WRITE_ITEM: "batch_write_item",
    Request.TRANSACT_GET_ITEMS: "transact_get_items",
    Request.TRANSACT_WRITE_ITEMS: "transact_write_items",
    Request.SEND_MESSAGE: "send_message",
    Request.SEND_MESSAGE_BATCH: "send_message_batch",
    Request.POST_TO_CONNECTION: "post_to_connection",
    Request.START_EXECUTION: "start_execution",
}

DEFAULT_LATENCIES = Latencies()


def source_of(name: str) -> str:
    """Where the default of :class:`Latencies` field ``name`` comes from.

    >>> source_of("scheduler_precision").startswith("AWS:")
    True
    """
    return str(next(f for f in dataclasses.fields(Latencies) if f.name == name).metadata["source"])


def scheduled_fire(at: float, rng: random.Random, precision: float = DEFAULT_LATENCIES.scheduler_precision) -> float:
    """When EventBridge Scheduler invokes a target scheduled for ``at`` (seconds on a clock whose minutes start at
    multiples of 60): at a moment of ``at``'s minute, drawn uniformly (no flexible time window). It may be before
    ``at`` when ``at`` is not on the minute.

    >>> 3_600 <= scheduled_fire(3_630.0, random.Random(1)) < 3_660
    True
    """
    minute = math.floor(at / precision) * precision
    return minute + rng.random() * precision


def in_sequence(durations: Iterable[float]) -> float:
    """Calls made one after the other take the sum of their durations."""
    return float(sum(durations))


def in_parallel(durations: Iterable[float], workers: int | None = None) -> float:
    """Calls made at once take the longest of them; with ``workers`` threads, each next call goes to the thread
    free first (what a thread pool of that size takes to work through them, in the order given).

    >>> in_parallel([0.02, 0.03, 0.01])
    0.03
    >>> in_parallel([0.02, 0.03, 0.01], workers=2)
    0.03
    >>> in_parallel([0.01] * 4, workers=2)
    0.02
    """
    durations = list(durations)
    if not durations:
        return 0.0
    if workers is None or workers >= len(durations):
        return float(max(durations))
    if workers < 1:
        raise ValueError("at least one worker")
    free = [0.0] * workers
    for duration in durations:
        heapq.heapreplace(free, free[0] + duration)
    return max(free)


class Stopwatch:
    """An invocation's elapsed time as it makes its calls, and the calls it made.

    ``origin`` is where this watch starts on the invocation's own time line (a branch of a parallel group starts
    where its group started): :attr:`now` is the moment, from the invocation's start, of the next call.
    """

    def __init__(self, latencies: Latencies = DEFAULT_LATENCIES, origin: float = 0.0) -> None:
        self.latencies = latencies
        self.origin = origin
        self.elapsed = 0.0
        self.calls: Counter[Request] = Counter()

    @property
    def now(self) -> float:
        return self.origin + self.elapsed

    def call(self, request: Request, times: int = 1) -> float:
        """``times`` calls of ``request``, one after the other; the moment the first one starts."""
        started = self.now
        self.elapsed += self.latencies.of(request) * times
        self.calls[request] += times
        return started

    def calls_at_once(self, request: Request, count: int, workers: int | None) -> None:
        """``count`` calls of ``request`` made at once by ``workers`` threads (None: one each): as many rounds as
        the threads need, what :meth:`parallel` takes for calls of one latency, without a group for each call.

        >>> watch = Stopwatch()
        >>> watch.calls_at_once(Request.POST_TO_CONNECTION, 25, workers=10)
        >>> round(watch.elapsed, 3), watch.calls[Request.POST_TO_CONNECTION]
        (0.075, 25)
        """
        rounds = 1 if workers is None else math.ceil(count / workers)
        self.elapsed += self.latencies.of(request) * rounds if count else 0.0
        self.calls[request] += count

    def wait(self, seconds: float) -> None:
        """Time spent without a call (a retry's back-off, the function's own work)."""
        self.elapsed += seconds

    @contextmanager
    def parallel(self, workers: int | None = None) -> Iterator[ParallelGroup]:
        """Calls made at once: each :meth:`ParallelGroup.call` or :meth:`ParallelGroup.branch` is one branch."""
        group = ParallelGroup(self.latencies, self.now)
        yield group
        self.elapsed += in_parallel(group.branches, workers)
        self.calls.update(group.calls)


class ParallelGroup:
    """The branches of one :meth:`Stopwatch.parallel`: each starts when the group starts."""

    def __init__(self, latencies: Latencies, origin: float) -> None:
        self._latencies = latencies
        self._origin = origin
        self.branches: list[float] = []
        self.calls: Counter[Request] = Counter()

    def call(self, request: Request) -> float:
        """One call as a branch of its own; the moment it starts (the group's start)."""
        self.branches.append(self._latencies.of(request))
        self.calls[request] += 1
        return self._origin

    @contextmanager
    def branch(self) -> Iterator[Stopwatch]:
        """A branch of several calls in sequence (one thread's work)."""
        watch = Stopwatch(self._latencies, self._origin)
        yield watch
        self.branches.append(watch.elapsed)
        self.calls.update(watch.calls)
