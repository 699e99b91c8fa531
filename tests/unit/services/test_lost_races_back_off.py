"""A unit of work that lost a race is tried again after a jittered wait (AWS), so racers spread out.

Seen once under load: 26 registrations racing for one waiting-list item on the local stack, and one
lost all five tries at once (``409 stale_version``) because every loser came straight back.
"""

import random

import pytest
from tourney.adapters.aws import JitteredBackoff
from tourney.bootstrap import bootstrap_memory
from tourney.domain.errors import StaleAction, StaleVersion
from tourney.services.tables import retrying


def test_each_lost_race_waits_once_before_the_next_try_and_a_win_stops_the_waits() -> None:
    # Given services whose backoff records the losses it is told of
    waits: list[int] = []
    deps = bootstrap_memory().deps
    deps = type(deps)(**{**deps.__dict__, "backoff": waits.append})
    tries = iter([StaleVersion("lost"), StaleVersion("lost again"), "won"])

    def attempt() -> str:
        outcome = next(tries)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    # When the unit of work loses twice, then wins
    # Then it waited after the first and the second loss, and not after the win
    assert retrying(deps, attempt) == "won"
    assert waits == [1, 2]


def test_a_race_lost_every_time_waits_between_tries_only_and_raises_the_last_loss() -> None:
    waits: list[int] = []
    deps = bootstrap_memory().deps
    deps = type(deps)(**{**deps.__dict__, "backoff": waits.append})
    calls = 0

    def attempt() -> None:
        nonlocal calls
        calls += 1
        raise StaleVersion(f"lost {calls}")

    with pytest.raises(StaleVersion, match="lost 5"):
        retrying(deps, attempt)
    assert (calls, waits) == (5, [1, 2, 3, 4])


def test_a_stale_request_is_not_retried_and_does_not_wait() -> None:
    waits: list[int] = []
    deps = bootstrap_memory().deps
    deps = type(deps)(**{**deps.__dict__, "backoff": waits.append})

    def attempt() -> None:
        raise StaleAction("decision 3 is stale")

    with pytest.raises(StaleAction):
        retrying(deps, attempt)
    assert waits == []


def test_the_aws_backoff_draws_full_jitter_under_a_doubling_cap() -> None:
    # Given the AWS backoff with a seeded draw and a recording sleep
    slept: list[float] = []
    backoff = JitteredBackoff(base=0.02, cap=0.2, rng=random.Random(7), sleep=slept.append)
    # When it is told of losses 1 to 6, many times
    for _ in range(200):
        for lost in range(1, 7):
            backoff(lost)
    # Then each wait lies within [0, min(cap, base * 2^(lost-1))], and the waits differ (jitter)
    by_loss = {lost: slept[lost - 1 :: 6] for lost in range(1, 7)}
    for lost, waits in by_loss.items():
        bound = min(0.2, 0.02 * 2 ** (lost - 1))
        assert all(0.0 <= w <= bound for w in waits)
        assert max(waits) > 0.8 * bound and min(waits) < 0.2 * bound
    assert len(set(slept)) == len(slept)


def test_the_memory_services_never_wait() -> None:
    # The simulation's clock is virtual: a real sleep there would only slow it down
    deps = bootstrap_memory().deps
    assert deps.backoff(1) is None
