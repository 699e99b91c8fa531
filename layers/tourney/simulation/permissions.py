"""Each simulated function reaches only what ``infra/wiring.py`` gives it, as its environment and role allow on AWS.

On AWS a function reaches a table, a queue, a workflow or the WebSocket connections only when CDK put the
resource's name in its environment and its role allows the call (``infra/functions.py`` builds both from
``wiring.FUNCTIONS``). The simulated cloud (``simulation/cloud.py``) runs every invocation as its function:
the ports the services reach check that function's :class:`Grants` and refuse, with :class:`AccessDenied`, a
call that AWS would refuse: a read of a table it was not given, a write to a table it reads only, a change to
an append-only item, a send to a queue whose URL it does not have (SQS's ``QueueDoesNotExist``), a workflow
it may not start, a push or a start schedule it was not granted.

The store a function reaches is :class:`StoreAs`: one object whose repositories are pointed at the running
function's view (its own repositories, or refusing stand-ins for tables it may not read) once per invocation,
so a read costs nothing more than it did.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from infra import wiring
from tourney.adapters.dynamo.mapping import MAPPERS
from tourney.adapters.dynamo.models.base import schema_of
from tourney.domain import chat as chat_rules
from tourney.domain.ledger import Entry
from tourney.services.chat import ChatLine, ChatLog
from tourney.services.ports import Store, UnitOfWork
from tourney.services.records import CounterShard, Record

LEDGER = "ledger"

REPOSITORY_TABLES: dict[str, str] = {
    "tournaments": "tournaments",
    "registrations": "tournaments",
    "coordinators": "tournaments",
    "dealing": "tournaments",
    "entrants": "tournaments",
    "mutes": "tournaments",
    "accounts": "tournaments",
    "names": "tournaments",
    "compensation": "tournaments",
    "tables": "tables",
    "hands": "hands",
    "ledger": LEDGER,
    "audit": "audit",
}
"""The store's repositories (``services/ports.py``, ``Store``) and the table each reads."""


_TABLE_OF: dict[type, str] = {}
"""A record type's table, found once: each mapper keys every record of its type in one model."""


def table_of(record: Record) -> str:
    """The table ``record`` is stored in: its DynamoDB model's (``adapters/dynamo/mapping.py``)."""
    kind = type(record)
    if kind not in _TABLE_OF:
        mapper = MAPPERS.get(kind) or next((m for k, m in MAPPERS.items() if isinstance(record, k)), None)
        if mapper is None:
            raise TypeError(f"not a stored record: {record!r}")
        _TABLE_OF[kind] = schema_of(mapper.key(record).model).logical_name
    return _TABLE_OF[kind]


class AccessDenied(Exception):
    """A call AWS would refuse to the function making it (``code``: the error AWS answers).

    Not a ``TourneyError``: no trigger takes it for a stale or duplicate message, and no service retries it.
    """

    def __init__(self, function: str, code: str, call: str) -> None:
        super().__init__(f"{function} may not {call}: {code}")
        self.function = function
        self.code = code
        self.call = call


@dataclass(frozen=True)
class Grants:
    """What one function of ``wiring.FUNCTIONS`` may reach, and the refusals of the rest."""

    function: str
    reads: frozenset[str]
    writes: frozenset[str]
    appends: frozenset[str]
    sends: frozenset[str]
    starts: frozenset[str]
    pushes: bool
    schedules: bool
    cancels: bool
    refusals: list[AccessDenied] | None = field(default=None, compare=False, repr=False)
    """Where each refusal is kept as it is raised: a service that catches every error (the watchdog's check of
    one tournament, say) cannot hide it."""

    @classmethod
    def of(cls, spec: wiring.FunctionSpec, refusals: list[AccessDenied] | None = None) -> Grants:
        tables = spec.tables
        return cls(
            function=spec.name,
            reads=frozenset(tables),
            writes=frozenset(t for t, access in tables.items() if access is wiring.Access.READ_WRITE),
            appends=frozenset(t for t, access in tables.items() if access is wiring.Access.APPEND),
            sends=frozenset(spec.sends_to),
            starts=frozenset(spec.starts),
            pushes=spec.pushes,
            schedules=spec.schedules_starts,
            cancels=spec.schedules_starts or spec.cancels_starts,
            refusals=refusals,
        )

    def refuse(self, code: str, call: str) -> NoReturn:
        refusal = AccessDenied(self.function, code, call)
        if self.refusals is not None:
            self.refusals.append(refusal)
        raise refusal

    def read(self, table: str) -> None:
        if table not in self.reads:
            env = wiring.TABLES_BY_NAME[table].env_var
            self.refuse("AccessDeniedException", f"read table {table} (no {env}, no dynamodb:GetItem/Query on it)")

    def save(self, record: Record) -> None:
        """A put of ``record`` (an update when it is stored already: ``version`` > 0)."""
        table = table_of(record)
        if table in self.writes or (table in self.appends and record.version == 0):
            return
        if table in self.appends:
            self.refuse("AccessDeniedException", f"change an item of the append-only table {table}")
        self.read(table)
        self.refuse("AccessDeniedException", f"write table {table} (read only: no dynamodb:PutItem/UpdateItem)")

    def put(self, table: str) -> None:
        """A ``PutItem`` (read/write, or append: the chat's lines, windows and operators' connections are put)."""
        if table not in self.writes and table not in self.appends:
            self.read(table)
            self.refuse("AccessDeniedException", f"write table {table} (read only: no dynamodb:PutItem)")

    def write(self, table: str) -> None:
        if table not in self.writes:
            self.read(table)
            self.refuse("AccessDeniedException", f"write table {table} (read only: no dynamodb:UpdateItem)")

    def send(self, queue: str) -> None:
        if queue not in self.sends:
            env = wiring.QUEUES_BY_NAME[queue].env
            self.refuse("QueueDoesNotExist", f"send to queue {queue} (no {env} in its environment)")

    def start(self, workflow: str) -> None:
        if workflow not in self.starts:
            env = wiring.WORKFLOWS_BY_NAME[workflow].env
            self.refuse("InvalidArn", f"start workflow {workflow} (no {env} in its environment)")

    def push(self) -> None:
        """A push: the connections table read for the recipients, gone connections deleted, ``@connections``."""
        if self.pushes and "connections" in self.writes:
            return
        self.write("connections")
        env = wiring.CONNECTIONS_ENDPOINT_ENV
        self.refuse("AccessDeniedException", f"push to connections (no {env}, no execute-api:ManageConnections)")

    def schedule(self) -> None:
        if not self.schedules:
            self.refuse("AccessDeniedException", "create a start schedule (no scheduler:CreateSchedule)")

    def cancel_schedule(self) -> None:
        if not self.cancels:
            self.refuse("AccessDeniedException", "delete a start schedule (no scheduler:DeleteSchedule)")


GRANTS: dict[str, Grants] = {spec.name: Grants.of(spec) for spec in wiring.FUNCTIONS}
"""Every function's grants, as the wiring declares them today."""


class _Refusing:
    """A repository of a table the function may not read: every call is refused."""

    def __init__(self, grants: Grants, table: str) -> None:
        self._grants = grants
        self._table = table

    def __getattr__(self, name: str) -> Any:
        def refused(*args: Any, **kwargs: Any) -> NoReturn:
            self._grants.read(self._table)
            raise AssertionError("unreachable")  # pragma: no cover

        return refused


class UnitOfWorkAs:
    """A unit of work that refuses, as the call is added, a write the function may not make."""

    __slots__ = ("_grants", "_inner")

    def __init__(self, inner: UnitOfWork, grants: Grants) -> None:
        self._inner = inner
        self._grants = grants

    def save(self, record: Record) -> None:
        self._grants.save(record)
        self._inner.save(record)

    def check(self, record: Record) -> None:
        self._grants.read(table_of(record))  # a ConditionCheck: dynamodb:ConditionCheckItem, a read action
        self._inner.check(record)

    def bump(self, shard: CounterShard, delta: int) -> None:
        self._grants.write(table_of(shard))
        self._inner.bump(shard, delta)

    def post(self, entries: Iterable[Entry]) -> None:
        self._grants.write(LEDGER)
        self._inner.post(entries)

    def commit(self) -> None:
        self._inner.commit()


@dataclass(frozen=True)
class View:
    """The store as one function reaches it: its repositories (refusing stand-ins where it may not read)."""

    repositories: dict[str, Any]
    grants: Grants | None

    @classmethod
    def of(cls, store: Store, grants: Grants | None) -> View:
        repositories: dict[str, Any] = {}
        for name, table in REPOSITORY_TABLES.items():
            allowed = grants is None or table in grants.reads
            repositories[name] = getattr(store, name) if allowed else _Refusing(grants, table)  # type: ignore[arg-type]
        return cls(repositories, grants)


class StoreAs:
    """The ``Store`` port the services of the simulated cloud see: the running function's view of the store.

    ``become(view)`` points the repositories at a function's view (once per invocation); outside an
    invocation (the harness setting a run up) the view is the whole store.
    """

    tournaments: Any
    registrations: Any
    tables: Any
    coordinators: Any
    dealing: Any
    entrants: Any
    hands: Any
    ledger: Any
    audit: Any
    mutes: Any
    accounts: Any
    names: Any
    compensation: Any

    def __init__(self, store: Store) -> None:
        self._store = store
        self._grants: Grants | None = None
        self.become(View.of(store, None))

    def become(self, view: View) -> None:
        self.__dict__.update(view.repositories)
        self._grants = view.grants

    def unit_of_work(self) -> UnitOfWork:
        inner = self._store.unit_of_work()
        grants = self._grants
        return inner if grants is None else UnitOfWorkAs(inner, grants)


class ChatLogAs:
    """The table chat's storage (``ChatLog``) as the running function reaches the chat table: reads and puts."""

    def __init__(self, inner: ChatLog, grants: Callable[[], Grants | None]) -> None:
        self._inner = inner
        self._grants = grants

    def _read(self) -> None:
        grants = self._grants()
        if grants is not None:
            grants.read("chat")

    def _put(self) -> None:
        grants = self._grants()
        if grants is not None:
            grants.put("chat")

    def append(self, line: ChatLine) -> None:
        self._put()
        self._inner.append(line)

    def lines(self, tournament_id: str, table_id: str) -> Sequence[ChatLine]:
        self._read()
        return self._inner.lines(tournament_id, table_id)

    def window(self, player: str) -> chat_rules.RateWindow:
        self._read()
        return self._inner.window(player)

    def save_window(self, player: str, window: chat_rules.RateWindow) -> None:
        self._put()
        self._inner.save_window(player, window)

    def mark_operator(self, connection: str) -> None:
        self._put()
        self._inner.mark_operator(connection)

    def is_operator(self, connection: str) -> bool:
        self._read()
        return self._inner.is_operator(connection)
