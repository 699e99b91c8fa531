"""The composition root (cosmicpython ch. 13): settings or adapters in, ``Services`` out.

It sits at the top of the package, beside ``domain``, ``services``, ``adapters`` and
``entrypoints`` and inside none of them, because it is the one module that knows them
all: it picks the adapters, gives each service the ports its constructor names, and
hands the entrypoints one ``Services``. Nothing in ``services/`` or ``adapters/`` imports it.

- ``bootstrap_aws(settings)``: the AWS adapters named by the function's settings
  (``entrypoints/wiring.py`` builds them once per cold start);
- ``bootstrap_memory(clock=..., rng=...)``: fresh in-memory adapters (tests reach them
  through ``services.adapters``);
- ``bootstrap(store=..., ...)``: any adapters given (the simulated cloud, the DynamoDB tests).
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tourney.services.accounts import AccountsService
from tourney.services.admin import AdminService
from tourney.services.audit import AuditService
from tourney.services.chat import ChatLog, ChatService
from tourney.services.coordinate import CoordinatorService
from tourney.services.deps import Deps, no_wait
from tourney.services.lobby import LobbyService
from tourney.services.management import ManagementService
from tourney.services.play import PlayService
from tourney.services.ports import (
    Backoff,
    Clock,
    CoordinatorQueue,
    Pushes,
    StartScheduler,
    Store,
    TimeoutScheduler,
    Workflows,
)
from tourney.services.recover import RecoveryService
from tourney.services.recovery_report import RecoveryReportService
from tourney.services.register import RegistrationService
from tourney.services.start import StartService
from tourney.services.timeouts import TimeoutService

if TYPE_CHECKING:
    from tourney.adapters.memory import FrozenClock
    from tourney.entrypoints.connections import Connections
    from tourney.entrypoints.settings import Settings


@dataclass(frozen=True)
class Services:
    """One object per use case (docs/architecture.md, 'Services: what the edges call')."""

    lobby: LobbyService
    accounts: AccountsService
    registration: RegistrationService
    admin: AdminService
    play: PlayService
    start: StartService
    timeouts: TimeoutService
    coordinator: CoordinatorService
    recovery: RecoveryService
    recovery_report: RecoveryReportService
    management: ManagementService
    audit: AuditService
    chat: ChatService
    deps: Deps
    """Every port the root built (tests and helpers reach the adapters through it; no service is given it)."""
    connections: Connections | None = None
    """Who is behind each WebSocket connection (the ``ws`` function's port; None where nothing connects)."""
    adapters: Any = None
    """The adapters bundle it was built from (``MemoryAdapters`` for ``bootstrap_memory``)."""


def bootstrap(
    *,
    store: Store,
    pushes: Pushes,
    timers: TimeoutScheduler,
    coordination: CoordinatorQueue,
    start_scheduler: StartScheduler,
    workflows: Workflows,
    clock: Clock,
    rng: random.Random | None = None,
    adapters: Any = None,
    chat_log: ChatLog | None = None,
    backoff: Backoff = no_wait,
    connections: Connections | None = None,
) -> Services:
    """Wire the services over the given adapters (``rng``: ``secrets.SystemRandom()`` by default).

    ``chat_log``: where the table chat keeps its lines and rate windows (in memory by default).
    ``backoff``: the wait after a lost race (none by default). ``connections``: the adapter
    that keeps the WebSocket connections, for the ``ws`` function (on AWS, the pushes adapter).
    """
    ports = Deps(
        store=store,
        pushes=pushes,
        timers=timers,
        coordination=coordination,
        start_scheduler=start_scheduler,
        workflows=workflows,
        clock=clock,
        rng=rng if rng is not None else secrets.SystemRandom(),
        backoff=backoff,
    )
    return _services(ports, chat_log if chat_log is not None else _memory_chat_log(), connections, adapters)


# fmt: off
def _services(p: Deps, chat_log: ChatLog, connections: Connections | None, adapters: Any) -> Services:
    """Each service given the ports its constructor names, and only those."""
    recovery = RecoveryService(
        store=p.store, pushes=p.pushes, timers=p.timers, coordination=p.coordination,
        start_scheduler=p.start_scheduler, workflows=p.workflows, clock=p.clock, rng=p.rng, backoff=p.backoff,
    )
    return Services(
        lobby=LobbyService(store=p.store, clock=p.clock),
        accounts=AccountsService(store=p.store, clock=p.clock, backoff=p.backoff),
        registration=RegistrationService(store=p.store, workflows=p.workflows, clock=p.clock, backoff=p.backoff),
        admin=AdminService(
            store=p.store, pushes=p.pushes, start_scheduler=p.start_scheduler, workflows=p.workflows,
            clock=p.clock, rng=p.rng, recovery=recovery, backoff=p.backoff,
        ),
        play=PlayService(
            store=p.store, pushes=p.pushes, timers=p.timers, coordination=p.coordination,
            clock=p.clock, rng=p.rng, backoff=p.backoff,
        ),
        start=StartService(
            store=p.store, pushes=p.pushes, timers=p.timers, coordination=p.coordination,
            start_scheduler=p.start_scheduler, workflows=p.workflows, clock=p.clock, rng=p.rng, backoff=p.backoff,
        ),
        timeouts=TimeoutService(
            store=p.store, pushes=p.pushes, timers=p.timers, coordination=p.coordination,
            clock=p.clock, rng=p.rng, backoff=p.backoff,
        ),
        coordinator=CoordinatorService(
            store=p.store, pushes=p.pushes, timers=p.timers, coordination=p.coordination,
            clock=p.clock, rng=p.rng, backoff=p.backoff,
        ),
        recovery=recovery,
        recovery_report=RecoveryReportService(store=p.store, clock=p.clock),
        management=ManagementService(
            store=p.store, pushes=p.pushes, timers=p.timers, coordination=p.coordination,
            clock=p.clock, backoff=p.backoff,
        ),
        audit=AuditService(store=p.store),
        chat=ChatService(store=p.store, pushes=p.pushes, clock=p.clock, log=chat_log, language_of=_language_of),
        deps=p, connections=connections, adapters=adapters,
    )
# fmt: on


def _memory_chat_log() -> ChatLog:
    from tourney.adapters.memory_chat import MemoryChatLog

    return MemoryChatLog()


def _language_of(text: str) -> str | None:
    """The English-only check, imported on the chat path only (py3langid loads at its first call)."""
    from tourney.adapters.language import language_of

    return language_of(text)


def bootstrap_memory(
    *,
    clock: FrozenClock | None = None,
    rng: random.Random | None = None,
    store: Store | None = None,
    backoff: Backoff = no_wait,
) -> Services:
    """Services over fresh in-memory adapters (``services.adapters`` is the ``MemoryAdapters``).

    ``store``: one to use in the memory store's place (a test's DynamoDB under moto, a store that meters or
    crashes), the queues, timers, scheduler and workflows staying in memory.
    """
    from tourney.adapters.memory import FrozenClock, MemoryAdapters

    # any store may stand in the memory store's place: the adapters only hand it to the services
    adapters = MemoryAdapters.create(clock or FrozenClock(), store=store)  # type: ignore[arg-type]
    return bootstrap(
        store=adapters.store,
        pushes=adapters.pushes,
        timers=adapters.timers,
        coordination=adapters.coordination,
        start_scheduler=adapters.start_scheduler,
        workflows=adapters.workflows,
        clock=adapters.clock,
        rng=rng,
        adapters=adapters,
        backoff=backoff,
    )


def bootstrap_aws(config: Settings) -> Services:
    """Services over the AWS adapters named by the function's settings (one per cold start).

    DynamoDB through PynamoDB (the models configured with the settings' tables,
    endpoint and region), pushes through the WebSocket API's ``@connections``,
    time-outs and coordination through SQS, start times through EventBridge
    Scheduler, and the workflows through Step Functions.
    """
    from tourney.adapters.aws import (
        EventBridgeStartScheduler,
        JitteredBackoff,
        SqsCoordination,
        SqsTimeouts,
        StepFunctionsWorkflows,
        SystemClock,
        WebSocketPushes,
    )
    from tourney.adapters.dynamo.chat import DynamoChatLog
    from tourney.adapters.dynamo.models.base import configure
    from tourney.adapters.dynamo.store import DynamoStore

    configure(config.dynamodb_environ())
    pushes = WebSocketPushes(config.connections_endpoint)  # it keeps the connections it pushes to
    return bootstrap(
        store=DynamoStore(),
        pushes=pushes,
        timers=SqsTimeouts(config.timeouts_queue_url),
        coordination=SqsCoordination(config.coordinator_queue_url),
        start_scheduler=EventBridgeStartScheduler(
            config.schedule_group, config.scheduler_role_arn, config.start_function_arn
        ),
        workflows=StepFunctionsWorkflows(config.start_workflow_arn, config.recovery_workflow_arn),
        clock=SystemClock(config.local_time_factor, config.local_time_origin),
        chat_log=DynamoChatLog(),
        backoff=JitteredBackoff(),
        connections=pushes,
    )
