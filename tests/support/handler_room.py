"""A poker room run through the Lambda handlers as AWS runs it: built events in, the services' messages routed back.

The services run over the DynamoDB store on moto (``tests.support.aws``) with
in-memory queues, scheduler and workflows (``tourney.adapters.memory``); what
the services emit there is delivered to the handler that AWS would invoke:

- the start schedule (EventBridge Scheduler) -> ``start`` with ``{"tournament_id": ...}``;
- the start workflow (Step Functions) -> ``start_tasks`` with ``close_registration``,
  then ``seat_batch`` and ``deal_first_hands`` per batch (the Map states);
- a time-out whose delay has passed (SQS standard queue) -> ``timeouts``;
- a hand end (SQS FIFO, group = tournament) -> ``coordinator``.

Players and operators speak through ``api`` and ``admin`` only (API Gateway HTTP v2 events).
"""

from __future__ import annotations

import importlib.util
import itertools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from tourney.adapters.aws import JitteredBackoff
from tourney.adapters.dynamo.ledger import LedgerShards
from tourney.adapters.dynamo.store import DynamoStore
from tourney.adapters.memory import (
    FrozenClock,
    MemoryAdapters,
)
from tourney.bootstrap import Services
from tourney.entrypoints import dependencies, observability
from tourney.services.messages import HandEnded, RebuyClosed, RebuyDue, TimeoutDue
from tourney.simulation.workflow_run import run_at_once

from functions.admin.app import app as admin_app
from functions.admin.app import handler as admin_handler
from functions.api.app import app as api_app
from functions.api.app import handler as api_handler
from functions.coordinator.app import handler as coordinator_handler
from functions.start.app import handler as start_handler
from functions.start_tasks.app import handler as start_tasks_handler
from functions.sweeper.app import handler as sweeper_handler
from functions.timeouts.app import handler as timeouts_handler
from functions.watchdog.app import handler as watchdog_handler
from infra.workflow_states import START
from tests.support.composition import services_over
from tests.support.events import FakeContext, answer_json, http_event, sqs_event, sqs_record

OPERATOR = "op"

T = TypeVar("T")


def services_on_dynamo(clock: FrozenClock, seed: int = 3) -> Services:
    """Services over the DynamoDB store (moto must be active, tables made) and in-memory queues."""
    store = DynamoStore(LedgerShards(pool=2, house=2, external=2))
    # the backoff as bootstrap_aws's: requests racing on DynamoDB spread out
    return services_over(store, clock, seed, backoff=JitteredBackoff())


@contextmanager
def handlers_over(services: Services) -> Iterator[Services]:
    """Every handler runs over ``services`` (the HTTP resolvers through ``dependency_overrides``)."""
    for app in (api_app, admin_app):
        app.dependency_overrides[dependencies.services] = lambda: services
    try:
        with dependencies.use_services(services):
            yield services
    finally:
        for app in (api_app, admin_app):
            app.dependency_overrides.clear()


@dataclass
class Room:
    """Talks to the handlers only; ``services`` and its adapters are read to route messages and to check."""

    services: Services
    clock: FrozenClock
    context: FakeContext = field(default_factory=FakeContext)
    delivered_timeouts: list[TimeoutDue | RebuyDue] = field(default_factory=list)
    delivered_hand_ends: list[HandEnded | RebuyClosed] = field(default_factory=list)
    workflow_steps: list[dict[str, Any]] = field(default_factory=list)

    @property
    def adapters(self) -> MemoryAdapters:
        adapters: MemoryAdapters = self.services.adapters
        return adapters

    # -- HTTP ----------------------------------------------------------------------------------------------------

    def api(
        self, method: str, path: str, player: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        response = api_handler(http_event(method, path, body=body, player=player, headers=headers), self.context)
        return response["statusCode"], answer_json(response)

    def admin(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        event = http_event(method, path, body=body, player=OPERATOR, operator=True, headers=headers)
        response = admin_handler(event, self.context)
        return response["statusCode"], answer_json(response)

    # -- schedules and workflows -----------------------------------------------------------------------------------

    def fire_start_schedule(self, tid: str) -> dict[str, Any]:
        answer: dict[str, Any] = start_handler({"tournament_id": tid}, self.context)
        return answer

    def step(self, payload: dict[str, Any]) -> dict[str, Any]:
        """One Step Functions task of the start workflow (``start_tasks``)."""
        self.workflow_steps.append(payload)
        answer: dict[str, Any] = start_tasks_handler(payload, self.context)
        return answer

    def run_start_workflows(self) -> list[str]:
        """Run each start workflow execution the services started: its description, each task through ``start_tasks``.

        The tables of the tournaments started.
        """
        tables: list[str] = []
        pending = self.adapters.workflows.pending_starts
        while pending:
            tid = pending.popleft()
            run_at_once(START, {"tournament_id": tid}, lambda step, payload: self.step(payload))
            tables += [record.table_id for record in self.adapters.store.tables.list(tid)]
        return tables

    def sweep(self) -> dict[str, Any]:
        answer: dict[str, Any] = sweeper_handler({"source": "scheduler"}, self.context)
        return answer

    def watch(self) -> dict[str, Any]:
        answer: dict[str, Any] = watchdog_handler({"source": "scheduler"}, self.context)
        return answer

    # -- queues ----------------------------------------------------------------------------------------------------

    def deliver_timeouts(self, *messages: TimeoutDue | RebuyDue) -> list[str]:
        """Deliver time-out messages in one SQS batch; the ids of the records that failed."""
        self.delivered_timeouts += messages
        records = [
            sqs_record(m.to_json(), message_id=f"t{i}-{m.hand}-{getattr(m, 'seq', 0)}") for i, m in enumerate(messages)
        ]
        return failures(timeouts_handler(sqs_event(*records), self.context))

    def fire_due_timeouts(self) -> int:
        due = self.adapters.timers.due(self.clock.now())
        if due:
            assert self.deliver_timeouts(*due) == []
        return len(due)

    def deliver_hand_ends(self, *messages: HandEnded | RebuyClosed) -> list[str]:
        self.delivered_hand_ends += messages
        records = [
            sqs_record(m.to_json(), group=m.tournament_id, queue="coordinator", message_id=f"c-{m.table}-{m.hand}-{i}")
            for i, m in enumerate(messages)
        ]
        return failures(coordinator_handler(sqs_event(*records), self.context))

    def drain_coordinator(self) -> int:
        """Deliver the hand ends queued so far, one SQS batch of up to 10 (FIFO: in order, one group)."""
        n = 0
        queue = self.adapters.coordination.queue
        while queue:
            batch = [queue.popleft() for _ in range(min(10, len(queue)))]
            assert self.deliver_hand_ends(*batch) == []
            n += len(batch)
        return n


def failures(answer: dict[str, Any]) -> list[str]:
    return [failure["itemIdentifier"] for failure in answer["batchItemFailures"]]


_API_MODULE = Path(__file__).resolve().parents[2] / "functions" / "api" / "app.py"
_instances = itertools.count()
_metrics_lock = threading.RLock()


def _metrics_one_thread_at_a_time() -> None:
    """Powertools keeps one metric set for every ``Metrics`` of a process: threads standing for environments would
    flush each other's metrics half-way (a set emptied between its check and its serialization). Lambda runs one
    invocation per environment at a time; here, one thread at a time adds or flushes."""
    metrics = observability.metrics.provider  # where log_metrics, add_metric and flush_metrics run
    if getattr(metrics, "_one_thread_at_a_time", False):
        return
    for name in ("add_metric", "flush_metrics", "add_dimension", "add_metadata", "clear_metrics"):
        method = getattr(metrics, name)

        def locked(*args: Any, _method: Callable[..., Any] = method, **kwargs: Any) -> Any:
            with _metrics_lock:
                return _method(*args, **kwargs)

        setattr(metrics, name, locked)
    metrics._one_thread_at_a_time = True  # type: ignore[attr-defined]


def api_instance(services: Services) -> Callable[[dict[str, Any], Any], dict[str, Any]]:
    """The ``api`` handler of its own execution environment, for threads standing for concurrent invocations.

    Lambda runs concurrent invocations in separate environments (processes), never two in one resolver.
    Threads of one process share more than that: Powertools keeps the event being resolved and the routing
    context on the ``BaseRouter`` class (``BaseRouter.current_event = ...`` in ``resolve``), so two threads
    would read each other's caller, headers and body. Each environment here is a fresh copy of the module (its
    own resolver) whose resolver holds its own event, Lambda context and routing context as instance
    attributes (they shadow the class's). Every copy runs over ``services``, shared: they stand for DynamoDB
    and the queues, which concurrent invocations do share.
    """
    _metrics_one_thread_at_a_time()
    name = f"api_environment_{next(_instances)}"
    spec = importlib.util.spec_from_file_location(name, _API_MODULE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    app = module.app
    app.dependency_overrides[dependencies.services] = lambda: services
    app.context = {}

    def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
        app.current_event = app._to_proxy_event(event)
        app.lambda_context = context
        answer: dict[str, Any] = module.handler(event, context)
        return answer

    return handler


def at_once(calls: list[Callable[[], T]]) -> list[T]:
    """Run every call in its own thread, released together; their results in order (an exception is raised)."""
    results: list[Any] = [None] * len(calls)
    raised: list[BaseException] = []
    barrier = threading.Barrier(len(calls))

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = calls[i]()
        except BaseException as error:  # handed to the test
            raised.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if raised:
        raise raised[0]
    return results
