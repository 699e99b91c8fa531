"""The ports that leave DynamoDB: pushes (API Gateway ``@connections``), SQS, EventBridge Scheduler, Step Functions.

Each adapter takes its boto3 client lazily, so a function imports this module
cheaply and creates only the clients it uses; endpoints come from the
environment (``AWS_ENDPOINT_URL``...), which is how the local runtime points
them at its own servers.
"""

from __future__ import annotations

import contextlib
import functools
import json
import random
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from datetime import UTC, datetime, timedelta
from functools import cached_property
from typing import Any, TypeVar

from tourney.adapters.dynamo.connections import ConnectionStore
from tourney.services.messages import HandEnded, RebuyClosed, RebuyDue, TablesSettled, TimeoutDue, deduplication_id
from tourney.services.ports import PlayerPush, Push, PushesByRound, TablePush

T = TypeVar("T")

MAX_SQS_DELAY = 900
"""SQS holds a message back at most 15 minutes; a longer wait is re-armed by the consumer."""
SQS_BATCH = 10
"""Messages in one SendMessageBatch, at most (SQS)."""


class JitteredBackoff:
    """The wait after a lost race on DynamoDB: "full jitter", a uniform draw up to a doubling cap.

    After the ``lost``-th loss it waits between 0 and ``min(cap, base * 2 ** (lost - 1))`` seconds
    (20, 40, 80, 160 ms by default: 300 ms at most over the five tries a service makes). Requests
    racing for one item (a waiting list, a counter shard) then come back at different moments,
    rather than all at once to lose again.
    """

    def __init__(
        self,
        base: float = 0.02,
        cap: float = 0.2,
        *,
        rng: random.Random | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._base, self._cap = base, cap
        self._rng = rng if rng is not None else secrets.SystemRandom()  # as every draw in production
        self._sleep = sleep

    def __call__(self, lost: int) -> None:
        self._sleep(self._rng.uniform(0.0, min(self._cap, self._base * 2 ** (lost - 1))))


class SystemClock:
    """The system's time; on the local stack, its virtual clock (``origin + (time - origin) * factor``).

    >>> SystemClock(factor=60, origin=1_000.0).at(1_001.0).timestamp()
    1060.0
    """

    def __init__(self, factor: float = 1.0, origin: float | None = None) -> None:
        self._factor = factor
        self._origin = origin

    def at(self, real: float) -> datetime:
        if self._origin is None or self._factor == 1.0:
            return datetime.fromtimestamp(real, UTC)
        return datetime.fromtimestamp(self._origin + (real - self._origin) * self._factor, UTC)

    def now(self) -> datetime:
        return self.at(time.time())


def _client(service: str, **kwargs: Any) -> Any:
    import boto3

    return boto3.client(service, **kwargs)


QUERY_WORKERS = 10
"""A round of pushes' Queries of the connections made at once: PynamoDB's connection pool holds 10."""
POST_WORKERS = 50
"""A round of pushes' posts made at once: the management API's client gets a connection pool this large (boto3's
holds 10), so a coordinator batch's 40 posts or so take one round trip, not four."""

_querying = ThreadPoolExecutor(max_workers=QUERY_WORKERS, thread_name_prefix="push-query")
_posting = ThreadPoolExecutor(max_workers=POST_WORKERS, thread_name_prefix="push-post")


def _settled(call: Callable[[], T]) -> Future[T]:
    """``call`` made in this thread: its outcome, a result or a failure."""
    outcome: Future[T] = Future()
    try:
        outcome.set_result(call())
    except Exception as failure:
        outcome.set_exception(failure)
    return outcome


def _at_once(calls: Sequence[Callable[[], T]], threads: ThreadPoolExecutor) -> list[Future[T]]:
    """Every call made, as many at a time as ``threads`` has (a single one in this thread), each to its end."""
    if len(calls) == 1:
        return [_settled(calls[0])]
    outcomes = [threads.submit(call) for call in calls]
    wait(outcomes)
    return outcomes


def _raise_first(outcomes: Iterable[Future[Any]]) -> None:
    for outcome in outcomes:
        outcome.result()


class WebSocketPushes(ConnectionStore, PushesByRound):
    """Pushes to a table's or a player's connections; each recipient gets what the service chose for it.

    Also the connections store the ``ws`` function uses (connect, subscribe...).
    A connection API Gateway reports gone is forgotten on the spot. A round of
    pushes (``many``; one push is a round of one) makes the Queries of its
    recipients at once, builds the messages in the caller's thread (a table's
    view once per viewer), then posts them all at once (``QUERY_WORKERS``, then
    ``POST_WORKERS`` at a time): a coordinator batch's pushes cost about two
    round trips, not two per table.
    """

    def __init__(self, endpoint: str) -> None:
        super().__init__()
        self._endpoint = endpoint

    @cached_property
    def _api(self) -> Any:
        from botocore.config import Config

        pool = Config(max_pool_connections=POST_WORKERS)
        return _client("apigatewaymanagementapi", endpoint_url=self._endpoint, config=pool)

    def _post(self, connection: str, message: Mapping[str, Any]) -> None:
        if not self._endpoint:
            return
        try:
            self._api.post_to_connection(ConnectionId=connection, Data=json.dumps(message).encode())
        except self._api.exceptions.GoneException:
            self.disconnect(connection)

    def _recipients(self, push: Push) -> list[tuple[str, str | None]]:
        """The connections ``push`` goes to, each with its player (None: an observer): one Query."""
        if isinstance(push, TablePush):
            return list(self.subscribers(push.tournament_id, push.table_id))
        return [(connection, push.player_id) for connection in self.of_player(push.player_id)]

    @staticmethod
    def _messages(push: Push, recipients: list[tuple[str, str | None]]) -> list[tuple[str, Mapping[str, Any]]]:
        """What each recipient receives: a player's message, or the table as its viewer sees it (built once each)."""
        if isinstance(push, PlayerPush):
            return [(connection, push.message) for connection, _ in recipients]
        views: dict[str | None, Mapping[str, Any]] = {}
        posts: list[tuple[str, Mapping[str, Any]]] = []
        for connection, player in recipients:
            if player not in views:
                views[player] = push.view(player or None)
            posts.append((connection, views[player]))
        return posts

    def many(self, pushes: Sequence[Push]) -> None:
        """The pushes' Queries at once, their messages built, then all their posts at once; the first failure (a
        Query, a view, a post) is raised once every other push went out."""
        found = _at_once([functools.partial(self._recipients, push) for push in pushes], _querying)
        built = [
            _settled(functools.partial(self._messages, push, lookup.result()))
            for push, lookup in zip(pushes, found, strict=True)
            if lookup.exception() is None
        ]
        posts = [post for messages in built if messages.exception() is None for post in messages.result()]
        sent = _at_once([functools.partial(self._post, connection, message) for connection, message in posts], _posting)
        _raise_first([*found, *built, *sent])


class SqsTimeouts:
    """Decision time-outs and rebuy windows: a message with a delay on the standard queue (rule 16)."""

    def __init__(self, queue_url: str) -> None:
        self._url = queue_url

    @cached_property
    def _sqs(self) -> Any:
        return _client("sqs")

    def arm(self, message: TimeoutDue | RebuyDue, delay_seconds: int) -> None:
        self._sqs.send_message(QueueUrl=self._url, MessageBody=message.to_json(), DelaySeconds=_delay(delay_seconds))

    def arm_many(self, armed: Sequence[tuple[TimeoutDue | RebuyDue, int]]) -> None:
        """Ten to a SendMessageBatch; a message the queue did not take is raised (the caller's trigger retries)."""
        for first in range(0, len(armed), SQS_BATCH):
            entries = [
                {"Id": str(i), "MessageBody": message.to_json(), "DelaySeconds": _delay(delay_seconds)}
                for i, (message, delay_seconds) in enumerate(armed[first : first + SQS_BATCH])
            ]
            failed = self._sqs.send_message_batch(QueueUrl=self._url, Entries=entries).get("Failed", [])
            if failed:
                raise RuntimeError(f"the time-outs queue refused {len(failed)} of {len(entries)}: {failed[0]}")

    def follow(self, settled: TablesSettled) -> bool:
        self._sqs.send_message(QueueUrl=self._url, MessageBody=settled.to_json())
        return True


def _delay(seconds: int) -> int:
    """An SQS delay: 0 to 900 seconds."""
    return max(0, min(int(seconds), MAX_SQS_DELAY))


class SqsCoordination:
    """The coordinator's ordered stream: SQS FIFO, one message group per tournament.

    The deduplication id names the event (tournament, table, hand), so a
    repeated send within SQS's five minutes is dropped by the queue itself.
    """

    def __init__(self, queue_url: str) -> None:
        self._url = queue_url

    @cached_property
    def _sqs(self) -> Any:
        return _client("sqs")

    def _send(self, message: HandEnded | RebuyClosed) -> None:
        self._sqs.send_message(
            QueueUrl=self._url,
            MessageBody=message.to_json(),
            MessageGroupId=message.tournament_id,
            MessageDeduplicationId=deduplication_id(message),
        )

    def hand_ended(self, message: HandEnded) -> None:
        self._send(message)

    def rebuy_closed(self, message: RebuyClosed) -> None:
        self._send(message)


class EventBridgeStartScheduler:
    """One one-time schedule per tournament, at its start time, invoking the ``start`` function.

    ``at()`` takes whole seconds: a start time with a fraction is scheduled at
    the next whole second, so the schedule never fires before the start
    (``start_due`` would answer "not yet").

    >>> EventBridgeStartScheduler.expression(datetime(2026, 12, 1, 20, 0, 0, 400_000, tzinfo=UTC))
    'at(2026-12-01T20:00:01)'
    >>> EventBridgeStartScheduler.expression(datetime(2026, 12, 1, 20, 0, tzinfo=UTC))
    'at(2026-12-01T20:00:00)'
    """

    def __init__(self, group: str, role_arn: str, target_arn: str) -> None:
        self._group = group
        self._role = role_arn
        self._target = target_arn

    @cached_property
    def _scheduler(self) -> Any:
        return _client("scheduler")

    @staticmethod
    def _name(tournament_id: str) -> str:
        return f"start-{tournament_id}"[:64]

    @staticmethod
    def expression(at: datetime) -> str:
        """The ``at()`` expression of the first whole second at or after ``at`` (UTC)."""
        moment = at.astimezone(UTC)
        if moment.microsecond:
            moment = moment.replace(microsecond=0) + timedelta(seconds=1)
        return f"at({moment.strftime('%Y-%m-%dT%H:%M:%S')})"

    def schedule(self, tournament_id: str, at: datetime) -> None:
        request = {
            "Name": self._name(tournament_id),
            "GroupName": self._group,
            "ScheduleExpression": self.expression(at),
            "ScheduleExpressionTimezone": "UTC",
            "FlexibleTimeWindow": {"Mode": "OFF"},
            "Target": {
                "Arn": self._target,
                "RoleArn": self._role,
                "Input": json.dumps({"tournament_id": tournament_id}),
            },
            "ActionAfterCompletion": "DELETE",
        }
        try:
            self._scheduler.create_schedule(**request)
        except self._scheduler.exceptions.ConflictException:
            self._scheduler.update_schedule(**{k: v for k, v in request.items() if k != "ActionAfterCompletion"})

    def cancel(self, tournament_id: str) -> None:
        with contextlib.suppress(self._scheduler.exceptions.ResourceNotFoundException):
            self._scheduler.delete_schedule(Name=self._name(tournament_id), GroupName=self._group)


class StepFunctionsWorkflows:
    """The start and recovery workflows; the execution name makes a second start for a tournament a no-op."""

    def __init__(self, start_arn: str, recovery_arn: str) -> None:
        self._start = start_arn
        self._recovery = recovery_arn

    @cached_property
    def _sfn(self) -> Any:
        return _client("stepfunctions")

    def _run(self, arn: str, name: str, payload: Mapping[str, Any]) -> None:
        with contextlib.suppress(self._sfn.exceptions.ExecutionAlreadyExists):
            self._sfn.start_execution(stateMachineArn=arn, name=name[:80], input=json.dumps(payload))

    def start_tournament(self, tournament_id: str) -> None:
        self._run(self._start, f"start-{tournament_id}", {"tournament_id": tournament_id})

    def start_again(self, tournament_id: str) -> None:
        self._run(self._start, f"start-{tournament_id}-{_stamp()}", {"tournament_id": tournament_id})

    def recover(self, tournament_id: str) -> None:
        self._run(self._recovery, f"recover-{tournament_id}-{_stamp()}", {"tournament_id": tournament_id})


def _stamp() -> str:
    """An execution name's time, to the second: a new execution per request of a workflow again."""
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
