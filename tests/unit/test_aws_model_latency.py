"""The model of AWS's latency (``simulation/aws/latency.py``): a function's duration is its calls as it makes them."""

from __future__ import annotations

import dataclasses
import random

import pytest
from tourney.simulation.aws.latency import (
    DEFAULT_LATENCIES,
    Latencies,
    Stopwatch,
    in_parallel,
    scheduled_fire,
    source_of,
)
from tourney.simulation.aws.requests import Request


def test_a_function_making_three_calls_in_sequence_takes_their_summed_latency() -> None:
    # Given a function that reads its table, writes it, then sends to a queue, one after the other
    watch = Stopwatch()

    # When it makes the three calls
    starts = [watch.call(Request.GET_ITEM), watch.call(Request.PUT_ITEM), watch.call(Request.SEND_MESSAGE)]

    # Then it takes the sum of their latencies, and each call starts when the one before answered
    assert watch.elapsed == pytest.approx(0.005 + 0.008 + 0.016)
    assert starts == pytest.approx([0.0, 0.005, 0.013])


def test_a_function_making_three_calls_in_parallel_takes_the_longest() -> None:
    # Given a function that reads, writes and posts at once
    watch = Stopwatch()

    # When it makes the three calls in parallel
    with watch.parallel() as group:
        for request in (Request.GET_ITEM, Request.TRANSACT_WRITE_ITEMS, Request.POST_TO_CONNECTION):
            group.call(request)

    # Then it takes the longest of them, and every call is counted
    assert watch.elapsed == pytest.approx(0.025)
    assert sum(watch.calls.values()) == 3


def test_a_parallel_group_of_sequences_takes_its_longest_branch_and_adds_to_what_came_before() -> None:
    # Given a function that reads first, then runs two branches at once (a read-then-write, and a post)
    watch = Stopwatch()
    watch.call(Request.GET_ITEM)

    # When the branches run
    with watch.parallel() as group:
        with group.branch() as branch:
            branch.call(Request.GET_ITEM)
            started = branch.call(Request.UPDATE_ITEM)
        group.call(Request.POST_TO_CONNECTION)

    # Then the group takes its longest branch (the post, 25 ms, over 13 ms), after the first read
    assert watch.elapsed == pytest.approx(0.005 + 0.025)
    assert started == pytest.approx(0.010)


def test_calls_through_a_thread_pool_take_what_its_threads_take_to_work_through_them() -> None:
    # Given nine posts to a table's players through a pool of four threads
    # When their duration is computed
    # Then the pool works through them in three rounds
    assert in_parallel([0.025] * 9, workers=4) == pytest.approx(0.075)
    assert in_parallel([0.025] * 9, workers=1) == pytest.approx(0.225)
    assert in_parallel([]) == 0.0


def test_a_latency_can_be_overridden_and_an_unknown_one_cannot() -> None:
    # Given the default latencies
    # When one is overridden
    faster = DEFAULT_LATENCIES.with_overrides(post_to_connection=0.010)

    # Then it changes and the others stay; a name that is not a figure is refused
    assert faster.of(Request.POST_TO_CONNECTION) == 0.010
    assert faster.of(Request.GET_ITEM) == DEFAULT_LATENCIES.of(Request.GET_ITEM)
    with pytest.raises(TypeError):
        DEFAULT_LATENCIES.with_overrides(teleport=0.0)


def test_every_request_has_a_latency_and_every_default_its_source() -> None:
    # Given the figures
    # When each request's latency and each default's source are read
    # Then none is missing
    assert all(DEFAULT_LATENCIES.of(request) > 0 for request in Request)
    assert all(source_of(f.name) for f in dataclasses.fields(Latencies))
    assert DEFAULT_LATENCIES.scheduler_precision == 60.0


def test_eventbridge_scheduler_fires_within_the_minute_of_the_schedule() -> None:
    # Given schedules for 10:00:00 and 10:00:45 (seconds since midnight)
    rng = random.Random(8)

    # When each fires a thousand times
    on_the_minute = [scheduled_fire(36_000.0, rng) for _ in range(1_000)]
    mid_minute = [scheduled_fire(36_045.0, rng) for _ in range(1_000)]

    # Then every firing falls between 10:00:00 and 10:00:59, spread over the minute, some before 10:00:45
    assert all(36_000 <= t < 36_060 for t in on_the_minute + mid_minute)
    assert max(on_the_minute) - min(on_the_minute) > 55
    assert min(mid_minute) < 36_045
