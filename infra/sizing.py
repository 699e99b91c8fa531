"""How big the deployment is sized: the stages' throttles and every function's reserved concurrency (no CDK here).

Two sizings, chosen at synth with the CDK context ``sizing`` (``cdk deploy -c
sizing=large``, ``python app.py -c sizing=large``; docs/operations.md,
"Throttling and reserved concurrency"):

* ``standard`` (the default) fits the account's default quota of 1,000
  concurrent executions and holds tournaments of up to 10,000 players
  registering at 1,000 a second (``tourney bench capacity --players 10000``).
* ``large`` needs the quotas raised first (docs/operations.md, "Before a
  250,000-player event") and holds a 250,000-player field: every table's
  decisions through the stages, its time-outs and pushes without a queue
  backing up (``tourney bench capacity --players 250000 --sizing large``).

In each, the reservations are both a floor and a ceiling: the API functions
(``api``, ``ws``, ``admin``) can never use more than theirs, so the
coordinator, the time-outs, the workflows' tasks, the watchdog and the sweeper
always find theirs free; a queue's consumer reads with an SQS maximum
concurrency no higher than its reservation (a throttled delivery would count
towards the dead-letter queue). ``infra/throttling.py`` applies a sizing;
``bench/capacity.py`` reads one when no template is synthesized.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final

UNRESERVED_MINIMUM: Final = 100
"""Lambda keeps at least this much of an account's concurrency quota unreserved."""


@dataclass(frozen=True)
class StageThrottle:
    """API Gateway's default route throttling of a stage: requests per second, and the burst above it."""

    rate_per_second: int
    burst: int


@dataclass(frozen=True)
class Sizing:
    """The figures of one sizing, for an account whose Lambda concurrency quota is ``account_concurrency``."""

    name: str
    account_concurrency: int
    http: StageThrottle
    """The HTTP API (players and operators): registrations beside the actions sent over HTTP."""
    websocket: StageThrottle
    """The WebSocket API's messages (subscribe, act, chat) and connections."""
    reserved: Mapping[str, int]
    """Each function's reserved concurrency."""
    sqs_maximum: Mapping[str, int]
    """The most concurrent invocations a queue consumer's event source mapping starts (at most its reservation)."""

    def unreserved(self) -> int:
        """What the reservations leave of the account's quota (Lambda requires ``UNRESERVED_MINIMUM``)."""
        return self.account_concurrency - sum(self.reserved.values())


STANDARD: Final = Sizing(
    name="standard",
    account_concurrency=1_000,
    http=StageThrottle(rate_per_second=2_000, burst=4_000),
    websocket=StageThrottle(rate_per_second=500, burst=1_000),
    reserved={
        # The edges: capped, so that a flood of calls throttles them (429 / a refused message) and nothing else.
        "api": 400,
        "ws": 200,
        "admin": 20,
        # What keeps tournaments moving: always free to run.
        "timeouts": 100,
        "coordinator": 50,  # one hand end at a time per tournament (FIFO group): 50 tournaments at once
        "start": 5,
        "start_tasks": 80,  # the start workflow's Maps run 40 batches at once (wiring.MAP_CONCURRENCY): two starts
        "recovery_tasks": 20,
        "watchdog": 2,
        "sweeper": 2,
    },
    sqs_maximum={"timeouts": 100, "coordinator": 50},
)

LARGE: Final = replace(
    STANDARD,
    name="large",
    account_concurrency=10_000,
    # About 27,800 tables of a 250,000 field each deal a hand a minute: some 6,000 decisions a second at the start,
    # half of them over each API (the app's choice), beside 1,000 registrations a second before it.
    http=StageThrottle(rate_per_second=5_000, burst=10_000),
    websocket=StageThrottle(rate_per_second=5_000, burst=10_000),
    # every table's decision clock, ten to an invocation: 1,000 is the most an SQS event source runs at once
    reserved={**STANDARD.reserved, "api": 2_000, "ws": 2_000, "timeouts": 1_000},
    sqs_maximum={**STANDARD.sqs_maximum, "timeouts": 1_000},
)

SIZINGS: Final[Mapping[str, Sizing]] = {sizing.name: sizing for sizing in (STANDARD, LARGE)}


def sizing_named(name: str | None) -> Sizing:
    """The sizing ``name`` names (``None``: ``standard``); a clear error for any other name."""
    if name is None:
        return STANDARD
    if name not in SIZINGS:
        raise ValueError(f"unknown sizing {name!r}: one of {', '.join(SIZINGS)}")
    return SIZINGS[name]
