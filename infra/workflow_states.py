"""The workflows' states, described once (plain data, no CDK import).

``infra/workflows.py`` builds the Step Functions state machines by walking these descriptions;
the simulated cloud and the test drivers run the same descriptions
(``tourney.simulation.workflow_run``). Nothing else names a workflow's states or the order of
its steps.

Every task invokes the workflow's task function with ``{"step": <step>, <field>: <value at path>}``
and is retried on any error by :data:`RETRY` (every step is idempotent).

Start::

    CloseRegistration -> Cancelled? --status "cancelled"--> Cancelled
                                    --otherwise--> SeatBatches (Map over $.registration.batches: SeatBatch)
                                                   -> DealFirstHands (Map over the same batches: DealBatch)
                                                   -> Started

Recovery::

    WaitGiven? --no--> DefaultWait ($.wait_seconds = 60) --+
               --yes-----------------------------------------+--> CancelHands
    CancelHands -> TryRestart -> Restarted? --$.restart.restarted--> Restarted
                      ^                      --$.restart.window_closed (20 minutes over)--> Compensate
                      |                      --otherwise--> WaitBeforeRetry --+
                      +------------- (SecondsPath $.wait_seconds) ------------+

    Compensate -> Compensated? --$.compensation.more--> Compensate (the next step of a large field)
        |                      --$.compensation.outcome == "retry"--> WaitForWindow ($.compensation.seconds_left)
        |                                                              -> Compensate
        |                      --otherwise--> Compensated
        +-- failed, its retries spent (Catch) --> WaitBeforeCompensating ($.wait_seconds) -> Compensate
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: Seconds between two restart attempts of the recovery workflow when its input gives none.
RECOVERY_RETRY_SECONDS = 60
#: The start workflow's Map states run this many batches of tables at once (seating, then the first deals):
#: the most an inline Map runs concurrently, so that the last table of 250,000 players is dealt within a
#: minute of the first.
MAP_CONCURRENCY = 40
#: Every workflow task is retried on any error (a function that died, timed out or lost a race:
#: every step is idempotent): after 2 s, then 4, 8, 16, 32 (5 retries), before the execution fails.
TASK_RETRY_SECONDS = 2
TASK_RETRY_BACKOFF = 2.0
TASK_RETRY_ATTEMPTS = 5

DISCARD = None
"""A ``result_path`` that drops the result (``ResultPath: null``)."""

Fields = tuple[tuple[str, str], ...]
"""A payload's ``(key, JSONPath)`` pairs: ``{"<key>.$": "<path>"}``."""


@dataclass(frozen=True)
class Retry:
    """``Retry`` on ``States.ALL``: first interval, backoff rate, retries after the first attempt."""

    interval_seconds: int = TASK_RETRY_SECONDS
    backoff_rate: float = TASK_RETRY_BACKOFF
    max_attempts: int = TASK_RETRY_ATTEMPTS


RETRY = Retry()


@dataclass(frozen=True)
class Catch:
    """``Catch`` on ``States.ALL``: once the retries are spent, the error goes to ``result_path`` and on to ``next``."""

    next: str
    result_path: str


@dataclass(frozen=True)
class Task:
    """A Lambda task: ``step`` of the workflow's task function."""

    name: str
    step: str
    fields: Fields
    result_path: str | None
    next: str | None = None
    result_selector: tuple[str, ...] = ()
    """The answer's keys kept (``{"<key>.$": "$.<key>"}``); none: the whole answer."""
    catch: Catch | None = None
    retry: Retry = RETRY


@dataclass(frozen=True)
class Map:
    """An inline Map over the list at ``items_path``: ``task`` per item, ``concurrency`` at once, results dropped."""

    name: str
    items_path: str
    item_fields: Fields
    """The item's input; ``$$.Map.Item.Value`` is the item."""
    task: Task
    next: str
    concurrency: int = MAP_CONCURRENCY


@dataclass(frozen=True)
class When:
    """A Choice rule: ``variable`` tested by ``test`` (against ``value``) leads to ``next``."""

    variable: str
    test: Literal["string_equals", "boolean_equals", "is_present"]
    value: str | bool | None
    next: str


@dataclass(frozen=True)
class Choice:
    name: str
    rules: tuple[When, ...]
    otherwise: str


@dataclass(frozen=True)
class Wait:
    """Waits the seconds found at ``seconds_path``."""

    name: str
    seconds_path: str
    next: str


@dataclass(frozen=True)
class Pass:
    """Puts ``result`` at ``result_path``."""

    name: str
    result: int
    result_path: str
    next: str


@dataclass(frozen=True)
class Succeed:
    name: str


State = Task | Map | Choice | Wait | Pass | Succeed


@dataclass(frozen=True)
class Definition:
    """A state machine: its states, the first one ``start_at``."""

    start_at: str
    states: tuple[State, ...]

    @property
    def by_name(self) -> dict[str, State]:
        return {state.name: state for state in self.states}

    @property
    def steps(self) -> tuple[str, ...]:
        """The task function's steps, in the order of the states."""
        tasks = [state.task if isinstance(state, Map) else state for state in self.states]
        return tuple(dict.fromkeys(task.step for task in tasks if isinstance(task, Task)))


_TOURNAMENT: Fields = (("tournament_id", "$.tournament_id"),)
_BATCH: Fields = (*_TOURNAMENT, ("batch", "$.batch"))
_ITEM: Fields = (*_TOURNAMENT, ("batch", "$$.Map.Item.Value"))

# Map items are the batch numbers only, and results are dropped: the state stays a few KB even for
# 250,000 players (28,000 tables), far below Step Functions' 256 KB.
START = Definition(
    start_at="CloseRegistration",
    states=(
        Task("CloseRegistration", "close_registration", _TOURNAMENT, "$.registration", next="Cancelled?"),
        Choice(
            "Cancelled?",
            (When("$.registration.status", "string_equals", "cancelled", "Cancelled"),),
            otherwise="SeatBatches",
        ),
        Succeed("Cancelled"),
        Map(
            "SeatBatches",
            "$.registration.batches",
            _ITEM,
            Task("SeatBatch", "seat_batch", _BATCH, DISCARD),
            next="DealFirstHands",
        ),
        Map(
            "DealFirstHands",
            "$.registration.batches",
            _ITEM,
            Task("DealBatch", "deal_first_hands", _BATCH, DISCARD),
            next="Started",
        ),
        Succeed("Started"),
    ),
)

# The starters send {"tournament_id"}; tests and the local runtime add a short "wait_seconds".
# Only what the Choice reads of a compensation step is kept: one step's payments stay out of the state.
RECOVERY = Definition(
    start_at="WaitGiven?",
    states=(
        Choice("WaitGiven?", (When("$.wait_seconds", "is_present", None, "CancelHands"),), otherwise="DefaultWait"),
        Pass("DefaultWait", RECOVERY_RETRY_SECONDS, "$.wait_seconds", next="CancelHands"),
        Task("CancelHands", "cancel_hands", _TOURNAMENT, "$.cancelled", next="TryRestart"),
        Task("TryRestart", "try_restart", _TOURNAMENT, "$.restart", next="Restarted?"),
        Choice(
            "Restarted?",
            (
                When("$.restart.restarted", "boolean_equals", True, "Restarted"),
                When("$.restart.window_closed", "boolean_equals", True, "Compensate"),
            ),
            otherwise="WaitBeforeRetry",
        ),
        Succeed("Restarted"),
        Wait("WaitBeforeRetry", "$.wait_seconds", next="TryRestart"),
        Task(
            "Compensate",
            "compensate",
            _TOURNAMENT,
            "$.compensation",
            next="Compensated?",
            result_selector=("outcome", "more", "remaining", "seconds_left"),
            catch=Catch("WaitBeforeCompensating", "$.compensation_error"),
        ),
        Wait("WaitBeforeCompensating", "$.wait_seconds", next="Compensate"),
        Choice(
            "Compensated?",
            (
                When("$.compensation.more", "boolean_equals", True, "Compensate"),
                When("$.compensation.outcome", "string_equals", "retry", "WaitForWindow"),
            ),
            otherwise="Compensated",
        ),
        Wait("WaitForWindow", "$.compensation.seconds_left", next="Compensate"),
        Succeed("Compensated"),
    ),
)

DEFINITIONS: dict[str, Definition] = {"start": START, "recovery": RECOVERY}
