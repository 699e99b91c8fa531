"""The one wiring of tourney, declared once (docs/architecture.md, principle 3).

Plain data, no CDK import: the CDK constructs in ``infra/`` build the AWS
resources from it, the local runtime (``infra/local/``) reads the template they
synthesize, and tests import it freely. ``docs/architecture.md`` ("The
serverless shape") is the prose version of this module.

What is declared here:

- ``TABLES``: the DynamoDB tables (imported from ``tourney.adapters.dynamo.schema``, their one
  declaration: keys, indexes, TTL attribute, the environment variable of each table's name);
- ``QUEUES``: the SQS queues (each with a dead-letter queue) and their consumer;
- ``WORKFLOWS``: the Step Functions state machines and their task function;
- ``FUNCTIONS``: the ten Lambda functions, each with what it reaches and how
  (tables read or read/write, queues it sends to, workflows it starts, whether
  it pushes to WebSocket connections or creates start schedules);
- ``HTTP_ROUTES``, ``WEBSOCKET_ROUTES``, ``SCHEDULES``: the triggers;
- ``METRICS``: the custom metrics the functions emit (Powertools Metrics) and
  the dashboard plots.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from tourney.adapters.dynamo import schema

from infra import workflow_states


class Access(StrEnum):
    """How a function reaches a table."""

    READ = "read"
    READ_WRITE = "read_write"
    APPEND = "append"
    """Read, and put new items only (never update or delete): the operators' audit (docs/rules.md, rule 19)."""


# --------------------------------------------------------------------------- tables

# The tables are declared once, in the shared code (the PynamoDB models, the moto fixtures and
# the local runtime read the same declaration): logical name, keys, indexes, TTL, point-in-time
# recovery and the environment variable that carries each table's physical name.
TableSpec = schema.TableSchema
TABLES: tuple[TableSpec, ...] = schema.ALL_TABLES
TABLES_BY_NAME: dict[str, TableSpec] = {t.logical_name: t for t in TABLES}


# --------------------------------------------------------------------------- queues


@dataclass(frozen=True)
class QueueSpec:
    """An SQS queue with its dead-letter queue and the function that consumes it."""

    name: str
    env: str  # the environment variable that carries the queue URL to senders
    consumer: str
    fifo: bool = False
    content_based_deduplication: bool = False
    batch_size: int = 10
    max_receive_count: int = 5  # deliveries before a message goes to the dead-letter queue
    visibility_timeout_seconds: int = 180  # six times the consumer's timeout
    retention_days: int = 4
    dlq_retention_days: int = 14
    oldest_message_alarm_seconds: int = 300  # ApproximateAgeOfOldestMessage threshold


QUEUES: tuple[QueueSpec, ...] = (
    # A decision's time-out: the sender sets DelaySeconds per message (<= 900 s),
    # so the age alarm allows for the longest delay.
    QueueSpec("timeouts", env="TIMEOUTS_QUEUE_URL", consumer="timeouts", oldest_message_alarm_seconds=900 + 120),
    # Hand ended -> the tournament's coordinator: FIFO, MessageGroupId = tournament id,
    # MessageDeduplicationId set by the sender (table id, hand number).
    QueueSpec(
        "coordinator", env="COORDINATOR_QUEUE_URL", consumer="coordinator", fifo=True, oldest_message_alarm_seconds=120
    ),
)

QUEUES_BY_NAME: dict[str, QueueSpec] = {q.name: q for q in QUEUES}


# --------------------------------------------------------------------------- workflows


@dataclass(frozen=True)
class WorkflowSpec:
    """A STANDARD Step Functions state machine whose Lambda tasks all call ``task_function``.

    Its states are ``infra/workflow_states.py``'s description of it; every task's payload carries
    ``"step"`` (one of ``steps``) and ``"tournament_id"``.
    """

    name: str
    env: str  # the environment variable that carries the state machine ARN to starters
    task_function: str
    timeout_minutes: int

    @property
    def definition(self) -> workflow_states.Definition:
        return workflow_states.DEFINITIONS[self.name]

    @property
    def steps(self) -> tuple[str, ...]:
        return self.definition.steps


RECOVERY_RETRY_SECONDS = workflow_states.RECOVERY_RETRY_SECONDS
MAP_CONCURRENCY = workflow_states.MAP_CONCURRENCY
TASK_RETRY_SECONDS = workflow_states.TASK_RETRY_SECONDS
TASK_RETRY_BACKOFF = workflow_states.TASK_RETRY_BACKOFF
TASK_RETRY_ATTEMPTS = workflow_states.TASK_RETRY_ATTEMPTS

WORKFLOWS: tuple[WorkflowSpec, ...] = (
    # Input: {"tournament_id": str}. close_registration answers the StartPlan {"status", "batches", ...}; the
    # Map states pass each batch to seat_batch, then deal_first_hands {"tournament_id", "batch": int}.
    WorkflowSpec("start", env="START_WORKFLOW_ARN", task_function="start_tasks", timeout_minutes=60),
    # Input: {"tournament_id": str, "wait_seconds"?: int (between restart attempts; default
    # RECOVERY_RETRY_SECONDS, tests and the local runtime give a short one)}. try_restart answers
    # {"restarted": bool, "window_closed": bool, ...}; compensate {"outcome", "more": bool, "remaining": int,
    # "seconds_left": int, "paid"}. The execution lives a day: a large field's compensation and its retries
    # fit. Past that, the watchdog requests the workflow again for a terminated tournament that has not ended.
    WorkflowSpec("recovery", env="RECOVERY_WORKFLOW_ARN", task_function="recovery_tasks", timeout_minutes=24 * 60),
)

WORKFLOWS_BY_NAME: dict[str, WorkflowSpec] = {w.name: w for w in WORKFLOWS}


# --------------------------------------------------------------------------- functions

#: Environment variable names that are not a table, queue or workflow.
CONNECTIONS_ENDPOINT_ENV = "CONNECTIONS_ENDPOINT"  # https://{api}.execute-api.{region}.amazonaws.com/{stage}
SCHEDULE_GROUP_ENV = "SCHEDULE_GROUP"  # EventBridge Scheduler group of the per-tournament start schedules
SCHEDULER_ROLE_ARN_ENV = "SCHEDULER_ROLE_ARN"  # the role those schedules run as (may invoke `start` only)
START_FUNCTION_ARN_ENV = "START_FUNCTION_ARN"  # the target of those schedules
JWT_ISSUER_ENV = "JWT_ISSUER"  # https://cognito-idp.{region}.amazonaws.com/{user pool id}
JWT_AUDIENCE_ENV = "JWT_AUDIENCE"  # the app client id
OPERATORS_GROUP_ENV = "OPERATORS_GROUP"  # the Cognito group whose members may call /admin/*
OPERATORS_GROUP = "operators"

#: Set on every function.
COMMON_ENVIRONMENT: dict[str, str] = {
    "POWERTOOLS_SERVICE_NAME": "tourney",
    "POWERTOOLS_METRICS_NAMESPACE": "Tourney",
    "POWERTOOLS_LOG_LEVEL": "INFO",
    # We ship no pydantic plugin; without this, the first model a cold start builds reads every package's metadata.
    "PYDANTIC_DISABLE_PLUGINS": "__all__",
}
METRICS_NAMESPACE = COMMON_ENVIRONMENT["POWERTOOLS_METRICS_NAMESPACE"]

RW = Access.READ_WRITE
R = Access.READ


@dataclass(frozen=True)
class FunctionSpec:
    """One Lambda function: ``functions/<name>/app.py``, entry ``handler``."""

    name: str
    description: str
    tables: dict[str, Access] = field(default_factory=dict)
    sends_to: tuple[str, ...] = ()  # queues
    starts: tuple[str, ...] = ()  # workflows
    pushes: bool = False  # posts to WebSocket connections (@connections)
    schedules_starts: bool = False  # creates, changes and deletes the per-tournament start schedules
    cancels_starts: bool = False  # deletes them only
    validates_tokens: bool = False  # checks Cognito JWTs itself (WebSocket $connect)
    operators_only: bool = False  # every call must come from the operators group
    timeout_seconds: int = 30
    memory_mb: int = 1024

    @property
    def code_path(self) -> str:
        """The code asset, relative to the repository root."""
        return f"functions/{self.name}"

    @property
    def handler(self) -> str:
        """The Lambda ``Handler`` (module ``app`` of the code asset)."""
        return "app.handler"

    def environment_names(self) -> tuple[str, ...]:
        """Every environment variable name this function receives, sorted."""
        names = set(COMMON_ENVIRONMENT)
        names.update(TABLES_BY_NAME[t].env_var for t in self.tables)
        names.update(QUEUES_BY_NAME[q].env for q in self.sends_to)
        names.update(WORKFLOWS_BY_NAME[w].env for w in self.starts)
        if self.pushes:
            names.add(CONNECTIONS_ENDPOINT_ENV)
        if self.schedules_starts:
            names.update((SCHEDULE_GROUP_ENV, SCHEDULER_ROLE_ARN_ENV, START_FUNCTION_ARN_ENV))
        if self.cancels_starts:
            names.add(SCHEDULE_GROUP_ENV)
        if self.validates_tokens:
            names.update((JWT_ISSUER_ENV, JWT_AUDIENCE_ENV))
        if self.operators_only:
            names.add(OPERATORS_GROUP_ENV)
        return tuple(sorted(names))


# The play path (an action, a time-out, a first deal, a restart) reads and writes the table,
# reads the tournament (its state, entrants and dealing orders), writes the history of a hand
# its table settled on its own with the next deal, arms the next time-out, tells the
# coordinator of any other hand's end, and pushes to the table's connections (deleting gone ones).
_PLAY_TABLES = {"tournaments": R, "tables": RW, "hands": RW, "connections": RW}

_CHAT = {"chat": R}

FUNCTIONS: tuple[FunctionSpec, ...] = (
    FunctionSpec(
        "api",
        "HTTP API, player routes: lobby, registration, accounts, tables, actions, rebuys, away/back, histories",
        tables={**_PLAY_TABLES, "tournaments": RW, "ledger": RW, "idempotency": RW},
        sends_to=("timeouts", "coordinator"),
        starts=("start",),  # the registration that fills a Sit&Go starts it
        pushes=True,
    ),
    FunctionSpec(
        "admin",
        "HTTP API, /admin/* (operators): create and announce, cancel, terminate, restart, deposits, "
        "stack and balance adjustments, disqualifications, mutes, the audit",
        # Stack adjustments and disqualifications act on the play path (a fold at once may end the hand: its
        # end goes to the coordinator, the next decision's time-out is armed, the table pushed); every act
        # appends to the audit, which no function may update or delete; operators read the table chat (rule 18).
        tables={**_PLAY_TABLES, "tournaments": RW, "ledger": RW, "idempotency": RW, "audit": Access.APPEND, **_CHAT},
        sends_to=("timeouts", "coordinator"),
        pushes=True,
        starts=("recovery",),
        schedules_starts=True,
        operators_only=True,
    ),
    FunctionSpec(
        "ws",
        "WebSocket API: $connect (token), $disconnect, $default, subscribe, act, chat",
        # chat (rule 18): lines, rate windows and operators' connections are put, never updated or deleted
        tables={**_PLAY_TABLES, "chat": Access.APPEND},
        sends_to=("timeouts", "coordinator"),
        pushes=True,
        validates_tokens=True,
    ),
    FunctionSpec(
        "start",
        "EventBridge Scheduler at a tournament's start: starts the start workflow",
        tables={"tournaments": R},
        starts=("start",),
    ),
    FunctionSpec(
        "start_tasks",
        "Start workflow tasks: close registration, refund the waiting list, seat, draw buttons, deal",
        tables={**_PLAY_TABLES, "tournaments": RW, "ledger": RW},
        sends_to=("timeouts", "coordinator"),
        pushes=True,
        cancels_starts=True,  # closing registration removes the start schedule
        timeout_seconds=120,
        memory_mb=1769,  # one full vCPU for the seat draw of large fields
    ),
    FunctionSpec(
        "timeouts",
        "SQS (standard, per-message delay): a decision's time-out, check or fold; stale ones are no-ops",
        tables=dict(_PLAY_TABLES),
        sends_to=("timeouts", "coordinator"),
        pushes=True,
    ),
    FunctionSpec(
        "coordinator",
        "SQS FIFO (group = tournament): hand ended -> places, prizes, balancing, breaking, final table",
        tables={**_PLAY_TABLES, "tournaments": RW, "hands": RW, "ledger": RW},
        # A hand it deals may end at once (every player but one all in on the blinds and antes): its end goes
        # to the coordinator's own queue, like any other hand's.
        sends_to=("timeouts", "coordinator"),
        pushes=True,
    ),
    FunctionSpec(
        "sweeper",
        "Every 15 minutes: refunds tournaments that should have started and did not (rule 17.6)",
        tables={"tournaments": RW, "ledger": RW},
        cancels_starts=True,
        timeout_seconds=300,
    ),
    FunctionSpec(
        "watchdog",
        "Every minute: resends lost hand ends, re-arms lost time-outs, starts a failed start again, "
        "resumes a table a restart left halted, terminates stalled tournaments",
        # Resuming a halted table is the play path (the table written, its next hand dealt, the time-out armed,
        # the table pushed).
        tables={"tournaments": RW, "tables": RW, "connections": RW},
        sends_to=("timeouts", "coordinator"),
        starts=("start", "recovery"),
        pushes=True,
        timeout_seconds=60,
    ),
    FunctionSpec(
        "recovery_tasks",
        "Recovery workflow tasks: cancel hands, try restart, compensate (rule 17)",
        tables={**_PLAY_TABLES, "tournaments": RW, "ledger": RW},
        sends_to=("timeouts", "coordinator"),
        pushes=True,
        timeout_seconds=120,
    ),
)

FUNCTIONS_BY_NAME: dict[str, FunctionSpec] = {f.name: f for f in FUNCTIONS}


# --------------------------------------------------------------------------- triggers


@dataclass(frozen=True)
class HttpRoute:
    """An HTTP API (v2, payload format 2.0) route."""

    method: str
    path: str
    function: str
    authorized: bool = True  # behind the Cognito JWT authorizer
    operators_only: bool = False  # the function checks the `cognito:groups` claim

    @property
    def route_key(self) -> str:
        return f"{self.method} {self.path}"


def _player(method: str, path: str) -> HttpRoute:
    return HttpRoute(method, path, "api")


def _operator(method: str, path: str) -> HttpRoute:
    return HttpRoute(method, path, "admin", operators_only=True)


HTTP_ROUTES: tuple[HttpRoute, ...] = (
    _player("GET", "/tournaments"),
    _player("GET", "/tournaments/{id}"),
    _player("GET", "/tournaments/{id}/registrations/me"),
    _player("GET", "/tournaments/{id}/standings"),
    _player("POST", "/tournaments/{id}/registrations"),
    _player("DELETE", "/tournaments/{id}/registrations/me"),
    _player("GET", "/me/account"),
    _player("GET", "/me/ledger"),
    _player("GET", "/me/profile"),
    _player("PUT", "/me/profile"),
    _player("GET", "/tournaments/{id}/tables/{table}"),
    _player("POST", "/tournaments/{id}/tables/{table}/actions"),
    _player("POST", "/tournaments/{id}/rebuys"),
    _player("POST", "/tournaments/{id}/addons"),
    _player("POST", "/tournaments/{id}/away"),
    _player("POST", "/tournaments/{id}/back"),
    _player("GET", "/tournaments/{id}/tables/{table}/hands/{hand}"),
    _operator("POST", "/admin/tournaments"),
    _operator("POST", "/admin/tournaments/{id}/terminate"),
    _operator("POST", "/admin/tournaments/{id}/restart"),
    _operator("POST", "/admin/tournaments/{id}/cancel"),
    _operator("POST", "/admin/accounts/{player}/deposits"),
    _operator("POST", "/admin/tournaments/{id}/players/{player}/stack"),
    _operator("POST", "/admin/tournaments/{id}/players/{player}/disqualify"),
    _operator("POST", "/admin/players/{player}/mute"),
    _operator("DELETE", "/admin/players/{player}/mute"),
    _operator("POST", "/admin/accounts/{player}/adjustments"),
    _operator("GET", "/admin/audit"),
    _operator("GET", "/admin/tournaments/{id}/tables/{table}/chat"),
    _operator("GET", "/admin/tournaments/{id}/recovery"),
    HttpRoute("GET", "/openapi.json", "api", authorized=False),
    HttpRoute("GET", "/asyncapi.json", "api", authorized=False),
    HttpRoute("GET", "/swagger", "api", authorized=False),
)

#: API Gateway selects a WebSocket route by this field of the client's JSON message.
WEBSOCKET_ROUTE_SELECTION = "$request.body.action"
WEBSOCKET_STAGE = "live"
WEBSOCKET_ROUTES: dict[str, str] = {
    "$connect": "ws",  # ?token=JWT, validated by the function
    "$disconnect": "ws",
    "$default": "ws",
    "subscribe": "ws",
    "act": "ws",
    "chat": "ws",
}


@dataclass(frozen=True)
class ScheduleSpec:
    """A recurring EventBridge Scheduler schedule."""

    name: str
    function: str
    expression: str


SCHEDULES: tuple[ScheduleSpec, ...] = (
    ScheduleSpec("sweeper", "sweeper", "rate(15 minutes)"),
    ScheduleSpec("watchdog", "watchdog", "rate(1 minute)"),
)

#: The per-tournament one-time schedules (created at run time by the functions that
#: ``schedules_starts``, deleted also by those that ``cancels_starts``) invoke this function,
#: with input {"tournament_id": str}.
SCHEDULED_START_FUNCTION = "start"


# --------------------------------------------------------------------------- metrics


@dataclass(frozen=True)
class MetricSpec:
    """A custom metric (namespace ``Tourney``, dimension ``service=tourney``)."""

    name: str
    unit: str
    statistic: str  # how the dashboard aggregates it per period
    emitted_by: str
    meaning: str


METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("ActiveTournaments", "Count", "Maximum", "watchdog", "tournaments running, each minute"),
    MetricSpec("ActiveTables", "Count", "Maximum", "watchdog", "tables in play, each minute"),
    MetricSpec("HandsPlayed", "Count", "Sum", "coordinator", "one per finished hand, when its end is coordinated"),
    MetricSpec("Actions", "Count", "Sum", "api, ws", "one per player action"),
    MetricSpec("Registrations", "Count", "Sum", "api", "one per registration"),
    MetricSpec("TournamentsTerminated", "Count", "Sum", "watchdog", "stalled tournaments terminated"),
    MetricSpec("TournamentsRefunded", "Count", "Sum", "sweeper", "tournaments refunded for not starting"),
    MetricSpec("WatchdogHeartbeat", "Count", "Sum", "watchdog", "one per run that finished (an alarm if none)"),
    MetricSpec("WatchFailures", "Count", "Sum", "watchdog", "tournaments whose check raised (the others checked)"),
    MetricSpec("MessagesIgnored", "Count", "Sum", "timeouts, coordinator, tasks", "stale or duplicate messages"),
)


def check() -> None:
    """Raise if the declarations refer to something undeclared (run by the tests and by CDK)."""
    functions = set(FUNCTIONS_BY_NAME)
    for spec in FUNCTIONS:
        unknown = (
            (set(spec.tables) - set(TABLES_BY_NAME))
            | (set(spec.sends_to) - set(QUEUES_BY_NAME))
            | (set(spec.starts) - set(WORKFLOWS_BY_NAME))
        )
        if unknown:
            raise ValueError(f"function {spec.name} reaches undeclared {sorted(unknown)}")
    targets = (
        {r.function for r in HTTP_ROUTES}
        | set(WEBSOCKET_ROUTES.values())
        | {s.function for s in SCHEDULES}
        | {q.consumer for q in QUEUES}
        | {w.task_function for w in WORKFLOWS}
        | {SCHEDULED_START_FUNCTION}
    )
    if targets - functions:
        raise ValueError(f"triggers name undeclared functions {sorted(targets - functions)}")
    if functions - targets:
        raise ValueError(f"functions without a trigger {sorted(functions - targets)}")
