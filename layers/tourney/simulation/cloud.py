"""The AWS around the services, on a discrete-event clock (docs/architecture.md, 'Simulation and fault injection').

The services are the one orchestration of a tournament. On AWS, triggers
call them: SQS delivers decision time-outs after their delay, a FIFO queue
delivers hand ends in order per tournament, EventBridge Scheduler fires the
start and the watchdog and sweeper schedules, Step Functions runs the start
and recovery workflows step by step. :class:`Cloud` delivers the same
things, at the same moments of a virtual clock, through adapters of the same
ports (``services/ports.py``), to services built by ``bootstrap`` over the
in-memory store. It decides nothing about the rules.

A :class:`~tourney.simulation.faults.FaultPlan` may make an invocation die at
a commit (before or after it applies) or past its timeout, deliver a message
twice or late, or fail a workflow task; the cloud then recovers as AWS does:
SQS redelivers after the visibility timeout (up to ``max_receive_count``,
then the dead-letter queue), a FIFO group waits for its head message,
Step Functions retries a task by its retry policy and otherwise fails the
execution, and the schedules keep firing.

Every invocation runs as its function (``invoke``'s first argument): the store, the queues, the
workflows, the pushes and the start schedules it reaches are those ``infra/wiring.py`` gives that
function, and a call AWS would refuse raises ``AccessDenied`` (``simulation/permissions.py``). The
invocation then fails, as it would on AWS, and the refusal is kept in ``Cloud.refusals``: a defect of
the wiring, which the simulation and ``tourney chaos`` report.
"""

from __future__ import annotations

import contextlib
import functools
import heapq
import itertools
import math
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from infra import wiring
from infra.workflow_states import DEFINITIONS, RETRY
from tourney.adapters.aws import SQS_BATCH
from tourney.adapters.memory import MemoryStore
from tourney.adapters.memory_chat import MemoryChatLog
from tourney.bootstrap import Services, bootstrap
from tourney.domain.errors import IGNORED_BY_TRIGGERS, TourneyError
from tourney.entrypoints import workflow_tasks
from tourney.services.messages import (
    DEDUPLICATION_WINDOW_SECONDS,
    HandEnded,
    RebuyClosed,
    RebuyDue,
    TablesSettled,
    TimeoutDue,
    deduplication_id,
)
from tourney.services.ports import PlayerPush, Push, PushesByRound
from tourney.services.records import Record
from tourney.simulation.faults import NO_FAULTS, CrashPoint, FaultPlan
from tourney.simulation.permissions import AccessDenied, ChatLogAs, Grants, StoreAs, View
from tourney.simulation.workflow_run import CAUGHT, Map, Task, Wait, Workflow, interpret

if TYPE_CHECKING:
    from tourney.services.coordinate import CoordinatorService
    from tourney.simulation.aws.delivery import FifoBatches
    from tourney.simulation.aws.model import AwsModel, Invocation

T = TypeVar("T")

QUEUES = wiring.QUEUES_BY_NAME
SCHEDULES = {s.name: s for s in wiring.SCHEDULES}
DELIVERY_SECONDS = 0.05
"""From a send to its consumer's invocation (SQS and Lambda polling)."""
TASK_SECONDS = 0.05
"""From one workflow state to the next task's invocation."""
TASK_RETRY = (float(RETRY.interval_seconds), RETRY.backoff_rate, 1 + RETRY.max_attempts)
"""A workflow task's retry policy: first interval (s), backoff rate, attempts in all (``infra/workflow_states.py``)."""

_MICROSECOND = timedelta(microseconds=1)


def _micros(seconds: float) -> int:
    """``seconds`` in whole microseconds, rounded half to even as ``timedelta(seconds=...)`` rounds them."""
    return round(seconds * 1_000_000)


class Crash(Exception):
    """An invocation died (injected by the fault plan): never a defect of the code under test."""


class InvocationError(AssertionError):
    """A function raised what no trigger expects: a defect."""


def _caused_by(error: BaseException, kind: type[BaseException]) -> bool:
    """Whether ``kind`` is in ``error``'s chain of causes (a lost race that was a throttled request, say)."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, kind):
            return True
        seen = seen.__cause__
    return False


def _rate_seconds(expression: str) -> float:
    """``rate(15 minutes)`` -> 900.0."""
    number, unit = expression.removeprefix("rate(").removesuffix(")").split()
    return float(number) * {"minute": 60, "minutes": 60, "hour": 3_600, "hours": 3_600}[unit]


@dataclass
class Execution:
    name: str
    workflow: str
    started: datetime | None = None
    status: str = "running"
    error: str = ""
    answers: list[tuple[str, Any]] = field(default_factory=list)


Event = tuple[int, int, Callable[[], None]]
"""(microseconds since the start, the order it was sent in, the action)."""


class _Lane:
    """The events of one fixed delay, in the order they fall due; the heap holds only the first."""

    __slots__ = ("_entries", "_heap")

    def __init__(self, heap: list[Event]) -> None:
        self._entries: deque[Event] = deque()
        self._heap = heap

    def append(self, event: Event) -> None:
        self._entries.append(event)
        if len(self._entries) == 1:
            head: Event = (event[0], event[1], self)
            heapq.heappush(self._heap, head)

    def __call__(self) -> None:
        entries = self._entries
        _, _, action = entries.popleft()
        if entries:
            due, order, _ = entries[0]
            head: Event = (due, order, self)
            heapq.heappush(self._heap, head)
        action()


class VirtualClock:
    """The cloud's clock: microseconds since ``start``, made a datetime only when something reads it.

    Most events (a time-out delivered for a decision already taken, a lane's next head) never read the
    clock, so the event loop moves it by an int and builds no datetime for them.
    """

    __slots__ = ("_micros", "_now", "_start")

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("the clock is timezone-aware")
        self._start = start
        self._micros = 0
        self._now: datetime | None = start

    def now(self) -> datetime:
        now = self._now
        if now is None:
            now = self._now = self._start + timedelta(0, 0, self._micros)  # positional: a third cheaper
        return now

    def move_to(self, micros: int) -> None:
        """To ``micros`` after the start (the event loop)."""
        self._micros = micros
        self._now = None


class Cloud:
    """The event loop and the adapters of the ports that carry messages and time."""

    def __init__(
        self,
        start: datetime,
        faults: FaultPlan = NO_FAULTS,
        *,
        copy_records: bool = True,
        aws: AwsModel | None = None,
    ) -> None:
        self.clock = VirtualClock(start)
        self.aws = aws
        """AWS modeled (latency, capacity, cost: ``simulation/aws``), or None: every call instant and free."""
        self._run: Invocation | None = None
        """With ``aws``: the running invocation, which every call the adapters and the store make is charged to."""
        self.last_run: Invocation | None = None
        """With ``aws``: the last invocation that ran (None: it was throttled), and ``last_end`` when it ended."""
        self.last_end = 0.0
        self._slot_lines: dict[str, deque[Callable[[], None]]] = {}
        """With ``aws``: per function, the deliveries throttled at its reservation, waiting for a slot in order."""
        self._slot_wakes: set[str] = set()
        self.failed_invocations: Counter[str] = Counter()
        """With ``aws``: invocations AWS failed, by function (a request throttled past the SDK's retries, a write
        meeting a transaction, an item over 400 KB); the trigger delivers or the client sends again."""
        self.faults = faults
        self.store = MemoryStore(copy_records=copy_records, copy_tables=aws is not None)  # AWS may fail a write
        self.delivery_seconds = DELIVERY_SECONDS if aws is None else aws.latencies.sqs_to_lambda
        self.task_seconds = TASK_SECONDS if aws is None else aws.latencies.state_transition
        """The whole store, as the harness reads it; the services reach it as the running function does."""
        self.refusals: list[AccessDenied] = []
        """Every call refused as AWS would refuse it (a permission or an environment variable the wiring lacks),
        kept as it is refused, whatever the function then does with the error."""
        self._views = {spec.name: View.of(self.store, Grants.of(spec, self.refusals)) for spec in wiring.FUNCTIONS}
        self._open = View.of(self.store, None)
        self._store_as = StoreAs(self.store)
        self._function: str | None = None
        self.grants: Grants | None = None
        """What the running invocation's function may reach (None: the harness, outside any invocation)."""
        if faults.crash:
            self.store.commit_hook = self._on_commit  # only a plan that kills invocations needs to see commits
        self.watchers: list[Callable[[Record], None]] = []
        """Called with every record a commit saved (the simulation's checks and its timeline): ``watch``."""
        self._start = start
        self._micros = 0
        """The clock in microseconds since ``start``: the heap compares ints, not datetimes."""
        self._events: list[Event] = []
        """(microseconds since start, order, action): plain tuples, the cheapest heap entries."""
        self._lanes: dict[int, _Lane] = {}
        """Events sent with one fixed delay, by the delay in microseconds (``after(..., fixed=True)``)."""
        self._order = itertools.count()
        self._crash_at: CrashPoint | None = None
        self._commits_in_invocation = 0
        self.executions: dict[str, Execution] = {}
        self.dead_letters: list[Any] = []
        self.timers = _Timers(self)
        self.coordination = _Fifo(self)
        self.scheduler = _StartScheduler(self)
        self.workflows = _Workflows(self)
        self.pushes = _Pushes(self)
        self.on_armed: Callable[[TimeoutDue, float], None] = lambda message, delay: None
        self._failures, self._charge_pushes = _modeled(aws)
        self.services: Services = self._compose(faults)

    def _compose(self, faults: FaultPlan) -> Services:
        """The services on the cloud's adapters, reaching the store as the running function may (metered with AWS)."""
        store: Any = self._store_as
        if self.aws is not None:
            from tourney.simulation.aws.store import MeteredStore

            store = MeteredStore(self._store_as, lambda: self._run)
        return bootstrap(
            store=store,
            pushes=self.pushes,
            timers=self.timers,
            coordination=self.coordination,
            start_scheduler=self.scheduler,
            workflows=self.workflows,
            clock=self.clock,
            rng=faults.rng_for("services"),
            chat_log=ChatLogAs(MemoryChatLog(), lambda: self.grants),
        )

    # -- the clock and the events ------------------------------------------------

    def now(self) -> datetime:
        return self.clock.now()

    def at(self, when: datetime, action: Callable[[], None], label: str = "") -> None:
        self._push((when - self._start) // _MICROSECOND, action)

    def after(self, seconds: float, action: Callable[[], None], label: str = "", *, fixed: bool = False) -> None:
        """Run ``action`` ``seconds`` from now. ``fixed``: a delay that many events share (a queue's own delay).

        Events of one fixed delay fall due in the order they were sent, so they wait in a FIFO lane with only
        its head in the heap: a large field's thousands of pending time-outs cost the heap nothing. The order
        of events is the heap's order either way: (time, then the order sent).

        With AWS modeled, a delay sent by a running invocation counts from the moment of its call (the
        invocation's start plus what its calls took so far), and takes no lane (its due times are not in send order).
        """
        run = self._run
        if run is not None:
            seconds += run.watch.elapsed
            fixed = False
        if not fixed:
            self._push(self._micros + _micros(seconds), action)
            return
        delay = _micros(seconds)
        lane = self._lanes.get(delay)
        if lane is None:
            lane = self._lanes[delay] = _Lane(self._events)
        lane.append((self._micros + max(delay, 0), next(self._order), action))

    def _push(self, micros: int, action: Callable[[], None]) -> None:
        now = self._micros
        heapq.heappush(self._events, (micros if micros > now else now, next(self._order), action))

    def run(self, done: Callable[[], bool], until: datetime) -> bool:
        """Deliver events in time order until ``done()`` or the clock passes ``until``; True when done."""
        events, clock = self._events, self.clock
        limit = (until - self._start) // _MICROSECOND
        while events and not done():
            if events[0][0] > limit:
                return False
            micros, _, action = heapq.heappop(events)
            if micros != self._micros:
                self._micros = micros
                clock.move_to(micros)
            action()
        return done()

    def every(self, name: str, first: datetime, action: Callable[[], object]) -> None:
        """A recurring schedule of ``infra.wiring.SCHEDULES`` (its rate), from ``first`` on."""
        period = _rate_seconds(SCHEDULES[name].expression)

        function = SCHEDULES[name].function
        if self.aws is not None:
            self._every_to_the_minute(name, first, period, function, action)
            return

        def tick() -> None:
            self.invoke(function, action)
            self.after(period, tick, name)

        self.at(first, tick, name)

    def _every_to_the_minute(
        self, name: str, first: datetime, period: float, function: str, action: Callable[[], object]
    ) -> None:
        """``every`` as EventBridge Scheduler fires it: each time at a moment of its minute."""
        from tourney.simulation.aws.latency import scheduled_fire

        aws = self.aws
        assert aws is not None
        nominal = (first - self._start).total_seconds()

        def tick(due: float) -> None:
            self.invoke(function, action)
            self._push(_micros(scheduled_fire(due + period, aws.rng)), lambda: tick(due + period))

        self._push(_micros(scheduled_fire(nominal, aws.rng)), lambda: tick(nominal))

    # -- invocations and the faults that kill them ----------------------------------

    def watch(self, watcher: Callable[[Record], None]) -> None:
        """Call ``watcher`` with every record a commit saves, once the commit applied."""
        self.watchers.append(watcher)
        # One watcher (the simulation's) is the store's hook itself: a call fewer for every record saved.
        self.store.on_saved = watcher if len(self.watchers) == 1 else self._on_saved

    def _on_saved(self, record: Record) -> None:
        for watcher in self.watchers:
            watcher(record)

    def _on_commit(self, phase: str) -> None:
        point = self._crash_at
        if point is None:
            return
        if phase == "before":
            self._commits_in_invocation += 1
        if point.commit == self._commits_in_invocation and point.phase == phase:
            self._crash_at = None
            self.faults.counts.crashes += 1
            raise Crash(f"died {phase} commit {point.commit}")

    def _become(self, function: str | None) -> str | None:
        """Run as ``function`` from now on (None: the harness); the function that ran until now."""
        previous = self._function
        if function != previous:
            view = self._open if function is None else self._views[function]
            self._function, self.grants = function, view.grants
            self._store_as.become(view)
        return previous

    def refused(self) -> list[str]:
        """The distinct refusals, in the order first met, each with how often it was met."""
        counts: dict[str, int] = {}
        for refusal in self.refusals:
            counts[str(refusal)] = counts.get(str(refusal), 0) + 1
        return [f"{text}, {n} times" if n > 1 else text for text, n in counts.items()]

    def run_as(self, function: str, call: Callable[[], T]) -> T:
        """``call`` as ``function``, with no fault: the harness setting a run up (an operator's set-up, say)."""
        previous = self._become(function)
        try:
            return call()
        finally:
            self._become(previous)

    def invoke(self, function: str, call: Callable[[], T]) -> tuple[bool, T | None]:
        """One Lambda invocation as ``function``: (True, its answer), or (False, None) when it died or refused
        as stale, or when AWS refused one of its calls (kept in ``refusals``)."""
        return self._run_as(function, call, self._invoke, stage=None)

    def _run_as(
        self,
        function: str,
        call: Callable[[], T],
        inner: Callable[[str, Callable[[], T]], tuple[bool, T | None]],
        stage: str | None,
    ) -> tuple[bool, T | None]:
        """``inner`` run as ``function``, in the AWS model when there is one (behind the API ``stage`` if named: past
        its rate, a 429 and no function runs); a call AWS refused (kept in ``refusals``) fails the invocation."""
        previous = self._become(function)
        try:
            if self.aws is not None:
                if stage is not None and not self.aws.through_stage(stage, self.model_now()):
                    self.last_run = None
                    return False, None
                return self._modeled(function, call, inner)
            return inner(function, call)
        except AccessDenied:  # kept in ``refusals`` as it was raised
            return False, None
        finally:
            self._become(previous)

    def model_now(self) -> float:
        """The clock in seconds since the start, with what the running invocation's calls took so far."""
        run = self._run
        return self._micros / 1e6 + (run.watch.elapsed if run is not None else 0.0)

    def _modeled(
        self, function: str, call: Callable[[], T], inner: Callable[[str, Callable[[], T]], tuple[bool, T | None]]
    ) -> tuple[bool, T | None]:
        """``inner`` as one invocation in the AWS model: admitted at the function's reservation (None in ``last_run``
        when throttled: the trigger retries), its calls charged to it, failed as AWS fails it (a request throttled
        through the SDK's retries, a write meeting a transaction, an item over 400 KB), ended and billed."""
        aws = self.aws
        assert aws is not None
        run = aws.invocation(function, self._micros / 1e6)
        self.last_run = run
        if run is None:
            return False, None
        outer, self._run = self._run, run
        failures = self._failures
        try:
            return inner(function, call)
        except failures:
            self.failed_invocations[function] += 1
            return False, None
        except InvocationError as error:
            if _caused_by(error, failures[0]):
                self.failed_invocations[function] += 1
                return False, None  # throttled past the service's own retries: it fails, its trigger retries
            raise
        finally:
            self._run = outer
            self.last_end = aws.finish(run)

    def _invoke(self, function: str, call: Callable[[], T]) -> tuple[bool, T | None]:
        return self._run_once(function, call, functools.partial(_refused_by_trigger, function))

    def invoke_api(self, call: Callable[[], T], function: str = "api") -> tuple[bool, T | None]:
        """One HTTP request through the API function (``admin``: an operator's, under /admin): a refusal is a 4xx
        answer (True, None); a death, or a call AWS refused (kept in ``refusals``), a 5xx (False, None)."""
        return self._run_as(function, call, self._invoke_api, stage="WEBSOCKET" if function == "ws" else "HTTP")

    def _invoke_api(self, function: str, call: Callable[[], T]) -> tuple[bool, T | None]:
        return self._run_once(function, call, lambda error: None)  # a refusal is the API's 4xx answer

    def _run_once(
        self, function: str, call: Callable[[], T], refused: Callable[[TourneyError], None]
    ) -> tuple[bool, T | None]:
        """``call`` as one invocation of ``function``, dying where the faults say (False, None); a refusal is handed
        to ``refused`` (which may raise) and answers (True, None)."""
        if not self.faults.crash:  # nothing dies: the invocation is the call
            try:
                return True, call()
            except TourneyError as error:
                refused(error)
                return True, None
        point = self.faults.crash_point(function)
        self._crash_at, self._commits_in_invocation = point, 0
        try:
            answer = call()
        except Crash:
            return False, None
        except TourneyError as error:
            refused(error)
            return True, None
        finally:
            self._crash_at = None
        if point is not None and point.past_timeout:
            self.faults.counts.timeouts += 1
            return False, None  # it did its work, then ran past its timeout: a failed invocation
        return True, answer

    def _wait_for_a_slot(self, function: str, retry: Callable[[], None]) -> None:
        """Hold a throttled delivery in ``function``'s line until a slot frees, as the event source's poller waits.

        One wake-up per freed slot tries the line's head: a thousand messages throttled at once cost a thousand
        tries, not a thousand at every slot that frees.
        """
        self._slot_lines.setdefault(function, deque()).append(retry)
        if function not in self._slot_wakes:
            self._wake_when_free(function)

    def _wake_when_free(self, function: str) -> None:
        assert self.aws is not None
        free = self.aws.next_free(function)
        self._slot_wakes.add(function)
        # Never before the slot frees: a wake rounded to the microsecond below it would find it busy, again and again.
        wake = self._micros + 1 if free is None else max(math.ceil(free * 1_000_000), self._micros + 1)
        self._push(wake, functools.partial(self._slot_freed, function))

    def _slot_freed(self, function: str) -> None:
        assert self.aws is not None
        self._slot_wakes.discard(function)
        line = self._slot_lines[function]
        while line and self.aws.has_room(function, self._micros / 1e6):
            head = line.popleft()
            if isinstance(head, _Delivery) and not self.faults.active:
                self._deliver_batch(head, line)
            else:
                head()
        if line and function not in self._slot_wakes:
            self._wake_when_free(function)

    def deliver(self, queue: str, message: Any, consume: Callable[[Any], Any], receives: int = 1) -> None:
        """A standard queue's delivery: failed ones come back after the visibility timeout, then dead-letter."""
        spec = QUEUES[queue]
        ok, _ = self.invoke(spec.consumer, functools.partial(consume, message))
        if ok:
            return
        if self.aws is not None and self.last_run is None:  # throttled: SQS keeps it, the poller tries again
            self._wait_for_a_slot(spec.consumer, _Delivery(self, queue, message, consume, receives))
            return
        self._redeliver(queue, message, consume, receives)

    def _redeliver(self, queue: str, message: Any, consume: Callable[[Any], Any], receives: int) -> None:
        spec = QUEUES[queue]
        if receives >= spec.max_receive_count:
            self.dead_letters.append(message)
            return
        self.after(
            spec.visibility_timeout_seconds,
            lambda: self.deliver(queue, message, consume, receives + 1),
            f"{queue} redelivery",
        )

    def _deliver_batch(self, head: _Delivery, line: deque[Callable[[], None]]) -> None:
        """A backlog's deliveries as the event source's poller hands them over: up to the batch size in one
        invocation, each record on its own (a stale one is dropped, as the trigger drops it).

        Messages wait in line only while the consumer's slots are full, so batches fill exactly under load; an
        invocation that fails (a call AWS refused) sends every record of its batch back after the visibility
        timeout. Without an AWS model, or with faults planned, every delivery stays an invocation of its own.
        """
        spec = QUEUES[head.queue]
        batch = [head]
        while line and len(batch) < spec.batch_size and isinstance(line[0], _Delivery) and line[0].queue == head.queue:
            batch.append(line.popleft())  # type: ignore[arg-type]

        def each() -> None:
            for d in batch:
                try:
                    d.consume(d.message)
                except TourneyError as error:
                    _refused_by_trigger(spec.consumer, error)

        ok, _ = self.invoke(spec.consumer, each)
        if ok:
            return
        if self.last_run is None:  # throttled after all: back to the head of the line, in order
            line.extendleft(reversed(batch))
            return
        for d in batch:
            self._redeliver(d.queue, d.message, d.consume, d.receives)

    def send(
        self, queue: str, message: Any, consume: Callable[[Any], Any], delay: float = 0.0, *, charged: bool = True
    ) -> None:
        """A standard queue's send: the fault plan may deliver it twice, or late (so out of order).

        ``charged`` False: the request is charged by the caller (one SendMessageBatch for several).
        """
        faults = self.faults
        deliver = functools.partial(self.deliver, queue, message, consume)
        if self._run is not None and charged:
            self._run.send(fifo=False)
        if not (faults.duplicate or faults.late):  # once and on time (``delivery`` draws nothing then)
            self.after(delay + self.delivery_seconds, deliver, queue, fixed=True)
            return
        copies, extra = faults.delivery(queue)
        for copy in range(copies):
            late = extra if copy == 0 else extra + faults.duplicate_lag()
            self.after(delay + self.delivery_seconds + late, deliver, queue, fixed=not late)

    # -- workflows -----------------------------------------------------------------

    def execute(self, name: str, workflow: str, body: Workflow) -> None:
        """Start an execution; a name already used is a no-op (Step Functions' ``ExecutionAlreadyExists``)."""
        if name in self.executions:
            return
        execution = self.executions[name] = Execution(name, workflow, started=self.now())
        if self._run is not None:
            self._run.start_execution()
        self.after(self.task_seconds, lambda: self._advance(execution, body, None), name, fixed=True)

    def _advance(self, execution: Execution, body: Workflow, answer: Any) -> None:
        limit = timedelta(minutes=wiring.WORKFLOWS_BY_NAME[execution.workflow].timeout_minutes)
        if execution.started is not None and self.now() - execution.started > limit:
            execution.status, execution.error = "timed_out", f"ran past {limit}"
            body.close()
            return
        try:
            state = body.send(answer)
        except StopIteration:
            execution.status = "succeeded"
            return
        if self.aws is not None:
            self.aws.cost.state_transitions(1)
        if isinstance(state, Wait):
            self.after(state.seconds, lambda: self._advance(execution, body, None), execution.name)
            return
        if isinstance(state, Map):
            self._run_map(execution, body, state)
            return
        self._run_task(execution, body, state, attempt=1)

    def _run_map(self, execution: Execution, body: Workflow, state: Map) -> None:
        """Run ``state``'s tasks, ``concurrency`` at a time; the workflow goes on with every answer once all ended."""
        answers: list[Any] = [None] * len(state.calls)
        waiting = deque(range(len(state.calls)))
        running = 0

        def start_more() -> None:
            nonlocal running
            while waiting and running < state.concurrency:
                item = waiting.popleft()
                running += 1
                task = Task(state.step, state.calls[item])
                go = functools.partial(self._run_task, execution, body, task, 1, functools.partial(ended, item))
                self.after(self.task_seconds, go, execution.name, fixed=True)

        def ended(item: int, answer: Any) -> None:
            nonlocal running
            running -= 1
            answers[item] = answer
            if execution.status != "running":
                return
            if waiting:
                start_more()
            elif running == 0:
                self._advance(execution, body, answers)

        if not state.calls:
            self.after(self.task_seconds, lambda: self._advance(execution, body, []), execution.name, fixed=True)
        start_more()

    def _run_task(
        self,
        execution: Execution,
        body: Workflow,
        task: Task,
        attempt: int,
        then: Callable[[Any], None] | None = None,
    ) -> None:
        """Run ``task`` with its retries; ``then`` takes its answer (by default the workflow's next state)."""
        function = wiring.WORKFLOWS_BY_NAME[execution.workflow].task_function
        if execution.status != "running":
            return  # the execution failed (another iteration of its Map) or timed out meanwhile
        if self.faults.task_fails(task.step):
            ok, answer = False, None
        else:
            ok, answer = self.invoke(function, task.call)
        if ok:
            execution.answers.append((task.step, answer))
            after_end = self.task_seconds
            if self.aws is not None:  # the next state follows the task's end
                after_end += max(0.0, self.last_end - self._micros / 1e6)
            go_on = then or (lambda answer: self._advance(execution, body, answer))
            self.after(after_end, lambda: go_on(answer), execution.name, fixed=True)
            return
        interval, backoff, attempts = TASK_RETRY
        if attempt >= attempts and task.catch:
            self.after(self.task_seconds, lambda: self._advance(execution, body, CAUGHT), execution.name)
            return
        if attempt >= attempts:
            execution.status, execution.error = "failed", f"{task.step} failed {attempt} times"
            body.close()
            return
        self.after(
            interval * backoff ** (attempt - 1),
            lambda: self._run_task(execution, body, task, attempt + 1, then),
            f"{execution.name} retry",
        )


def _modeled(
    aws: AwsModel | None,
) -> tuple[tuple[type[Exception], ...], Callable[[MemoryStore, Invocation, Sequence[Push]], None] | None]:
    """With ``aws``: what a modeled call raises for AWS's refusals (the invocation fails), and how a round of pushes
    is charged. Imported once, when the cloud is built, not at every invocation (nor without the model)."""
    if aws is None:
        return (), None
    from tourney.simulation.aws.delivery import charge_pushes
    from tourney.simulation.aws.items import ItemTooLarge
    from tourney.simulation.aws.model import Failure

    return (Failure, ItemTooLarge), charge_pushes


# -- the adapters of the ports -------------------------------------------------------


class _Timers:
    """``TimeoutScheduler``: the time-outs queue (SQS standard, per-message delay)."""

    def __init__(self, cloud: Cloud) -> None:
        self._cloud = cloud

    def arm(self, message: TimeoutDue | RebuyDue, delay_seconds: int, *, charged: bool = True) -> None:
        cloud = self._cloud
        if cloud.grants is not None:
            cloud.grants.send("timeouts")
        cloud.send("timeouts", message, cloud.services.timeouts.on_timeout, delay=delay_seconds, charged=charged)
        if isinstance(message, TimeoutDue):
            cloud.on_armed(message, float(delay_seconds))

    def follow(self, settled: TablesSettled) -> bool:
        cloud = self._cloud
        if cloud.grants is not None:
            cloud.grants.send("timeouts")
        cloud.send("timeouts", settled, cloud.services.timeouts.on_tables_settled)
        return True

    def arm_many(self, armed: Sequence[tuple[TimeoutDue | RebuyDue, int]]) -> None:
        """As ``adapters/aws.py`` sends them: one SendMessageBatch for each ten."""
        run = self._cloud._run
        for first in range(0, len(armed), SQS_BATCH):
            if run is not None:
                run.send(fifo=False, batch=True)
            for message, delay_seconds in armed[first : first + SQS_BATCH]:
                self.arm(message, delay_seconds, charged=False)


class _Fifo:
    """``CoordinatorQueue``: one FIFO group per tournament, a message at a time, redelivered in order.

    As on SQS FIFO, a send with the deduplication id of a message enqueued in the last five minutes is
    dropped (``deduplication_id``, the id ``SqsCoordination`` sets). A duplicate delivery drawn by the
    fault plan is still delivered: it stands for a redelivery, which deduplication does not stop.
    """

    def __init__(self, cloud: Cloud) -> None:
        self._cloud = cloud
        self._groups: dict[str, deque[tuple[HandEnded | RebuyClosed, int]]] = {}
        self._busy: set[str] = set()
        self._sent: dict[str, datetime] = {}
        """Deduplication id -> when a message with it was last enqueued, for the window SQS keeps."""
        self._sent_order: deque[tuple[datetime, str]] = deque()
        self.deduplicated = 0
        self.batches: FifoBatches | None = None
        """With AWS modeled: a group delivers a batch of up to 10 at a time, busy until its invocation ends."""
        if cloud.aws is not None:
            from tourney.simulation.aws.delivery import FifoBatches

            self.batches = FifoBatches(cloud)

    def hand_ended(self, message: HandEnded) -> None:
        self._send(message)

    def rebuy_closed(self, message: RebuyClosed) -> None:
        self._send(message)

    def _first_in_window(self, message: HandEnded | RebuyClosed) -> bool:
        """False for a send SQS drops: one with the deduplication id of a message enqueued in the last 5 minutes."""
        now = self._cloud.now()
        expired = now - timedelta(seconds=DEDUPLICATION_WINDOW_SECONDS)
        sent, order = self._sent, self._sent_order
        while order and order[0][0] <= expired:
            del sent[order.popleft()[1]]  # a key is enqueued again only once it expired: its entry is this one
        key = deduplication_id(message)
        if key in sent:
            self.deduplicated += 1
            return False
        sent[key] = now
        order.append((now, key))
        return True

    def _send(self, message: HandEnded | RebuyClosed) -> None:
        grants = self._cloud.grants
        if grants is not None:
            grants.send("coordinator")
        if self._cloud._run is not None:
            self._cloud._run.send(fifo=True)
        if not self._first_in_window(message):
            return  # accepted by the queue and dropped, as SQS FIFO does (the adapter sets the same id)
        copies, late = self._cloud.faults.delivery("coordinator")
        group = self._groups.setdefault(message.tournament_id, deque())
        for _ in range(copies):
            group.append((message, 1))
        if self.batches is not None:
            self.batches.sent(message)
        self._poll(message.tournament_id, self._cloud.delivery_seconds + late)

    def _poll(self, group_id: str, delay: float) -> None:
        if group_id in self._busy or not self._groups.get(group_id):
            return
        self._busy.add(group_id)
        fixed = delay == DELIVERY_SECONDS and self.batches is None
        self._cloud.after(delay, lambda: self._deliver(group_id), "coordinator", fixed=fixed)

    def _deliver(self, group_id: str) -> None:
        cloud = self._cloud
        if self.batches is not None:
            self.batches.deliver(self, group_id)
            return
        group = self._groups[group_id]
        spec = QUEUES["coordinator"]
        run = CoordinatorRun(cloud.services.coordinator, [m for m, _ in itertools.islice(group, spec.batch_size)])
        ok, _ = cloud.invoke("coordinator", run)
        self._busy.discard(group_id)
        for _ in range(run.done):
            group.popleft()
        if ok or not group:
            self._poll(group_id, DELIVERY_SECONDS)
            return
        message, receives = group[0]
        if receives >= spec.max_receive_count:
            group.popleft()
            cloud.dead_letters.append(message)
            self._poll(group_id, DELIVERY_SECONDS)
        else:
            group[0] = (message, receives + 1)
            self._poll(group_id, spec.visibility_timeout_seconds)

    def pending(self) -> int:
        return sum(len(g) for g in self._groups.values())


class CoordinatorRun:
    """One invocation of the coordinator over a batch of its FIFO group, as ``functions/coordinator`` runs it.

    The batch is settled together (``on_hand_ends``); when that raises, its messages are taken one at a time, as the
    function's partial batch response does, and the first that fails ends the invocation. ``done`` counts the
    messages it finished: those leave the group, the rest are delivered again.
    """

    def __init__(self, coordinator: CoordinatorService, messages: list[HandEnded | RebuyClosed]) -> None:
        self._coordinator = coordinator
        self._messages = messages
        self.done = 0

    def __call__(self) -> None:
        try:
            self._coordinator.on_hand_ends(self._messages)
        except Crash:
            raise  # the invocation died: nothing after this runs
        except Exception:  # the function's fallback: each message alone, a failure its own
            for message in self._messages:
                with contextlib.suppress(*IGNORED_BY_TRIGGERS):
                    self._coordinator.on_hand_ended(message)
                self.done += 1
        else:
            self.done = len(self._messages)


class _StartScheduler:
    """``StartScheduler``: one-time schedules at each tournament's start (EventBridge Scheduler)."""

    def __init__(self, cloud: Cloud) -> None:
        self._cloud = cloud
        self._generation: dict[str, int] = {}

    def schedule(self, tournament_id: str, at: datetime) -> None:
        if self._cloud.grants is not None:
            self._cloud.grants.schedule()
        generation = self._generation[tournament_id] = self._generation.get(tournament_id, 0) + 1
        cloud = self._cloud

        def fire(attempt: int = 1) -> None:
            if self._generation.get(tournament_id) != generation:
                return  # deleted or replaced
            ok, _ = cloud.invoke("start", lambda: cloud.services.start.start_due(tournament_id))
            if not ok and attempt < 185:  # the Scheduler's default retry policy
                cloud.after(min(60.0 * attempt, 900.0), lambda: fire(attempt + 1), "start schedule retry")

        copies, late = cloud.faults.delivery("start")
        if cloud.aws is not None:  # EventBridge Scheduler fires within the minute, not to the second
            from tourney.simulation.aws.latency import scheduled_fire

            due = scheduled_fire((at - cloud._start).total_seconds(), cloud.aws.rng)
            at = cloud._start + timedelta(seconds=due)
        for copy in range(copies):
            cloud.at(at + timedelta(seconds=late + copy * cloud.faults.duplicate_lag()), fire, "start schedule")

    def cancel(self, tournament_id: str) -> None:
        if self._cloud.grants is not None:
            self._cloud.grants.cancel_schedule()
        self._generation[tournament_id] = -1


class _Workflows:
    """``Workflows``: executions named as ``adapters/aws.py`` names them, so a repeated start is a no-op."""

    def __init__(self, cloud: Cloud) -> None:
        self._cloud = cloud

    def _may_start(self, workflow: str) -> None:
        if self._cloud.grants is not None:
            self._cloud.grants.start(workflow)

    def start_tournament(self, tournament_id: str) -> None:
        self._may_start("start")
        body = run_workflow(self._cloud.services, "start", tournament_id)
        self._cloud.execute(f"start-{tournament_id}", "start", body)

    def start_again(self, tournament_id: str) -> None:
        self._may_start("start")
        body = run_workflow(self._cloud.services, "start", tournament_id)
        self._cloud.execute(f"start-{tournament_id}-{self._stamp()}", "start", body)

    def recover(self, tournament_id: str) -> None:
        self._may_start("recovery")
        body = run_workflow(self._cloud.services, "recovery", tournament_id)
        self._cloud.execute(f"recover-{tournament_id}-{self._stamp()}", "recovery", body)

    def _stamp(self) -> str:
        """An execution name's time, to the second, as the AWS adapter writes it."""
        return self._cloud.now().astimezone(UTC).strftime("%Y%m%dT%H%M%S")


class _Pushes(PushesByRound):
    """``Pushes`` with no connection: nothing is built or sent (bots read what they may see from the store).

    Messages to one player reach ``on_player_message`` (the bots hear their rebuy offers there).
    """

    def __init__(self, cloud: Cloud) -> None:
        self._cloud = cloud
        self.on_player_message: Callable[[str, dict[str, Any]], None] = lambda player, message: None

    def _may_push(self) -> None:
        if self._cloud.grants is not None:
            self._cloud.grants.push()

    def many(self, pushes: Sequence[Push]) -> None:
        for _ in pushes:
            self._may_push()
        run, charge = self._cloud._run, self._cloud._charge_pushes
        if run is not None and charge is not None:
            charge(self._cloud.store, run, pushes)
        for push in pushes:
            if isinstance(push, PlayerPush):
                self.on_player_message(push.player_id, dict(push.message))


# -- the workflows, as infra/workflow_states.py describes them ------------------------------


def run_workflow(services: Services, workflow: str, tid: str) -> Workflow:
    """An execution of ``workflow`` for ``tid``: its description run, each task a step of its task function."""

    def call(step: str, payload: dict[str, Any]) -> dict[str, Any]:
        return workflow_tasks.answer(services, workflow_tasks.parse(workflow, payload))

    return interpret(DEFINITIONS[workflow], {"tournament_id": tid}, call)


def _refused_by_trigger(function: str, error: TourneyError) -> None:
    """A trigger's record refused: a stale or duplicate one is logged and dropped; any other fails the invocation."""
    if not isinstance(error, IGNORED_BY_TRIGGERS):
        raise InvocationError(f"{function} raised {type(error).__name__}: {error}") from error


@dataclass(frozen=True, slots=True)
class _Delivery:
    """A standard queue's message waiting for a slot of its consumer (``Cloud._deliver_batch``)."""

    cloud: Cloud
    queue: str
    message: Any
    consume: Callable[[Any], Any]
    receives: int

    def __call__(self) -> None:
        self.cloud.deliver(self.queue, self.message, self.consume, self.receives)
