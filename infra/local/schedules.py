"""Schedules: EventBridge Scheduler (template and run-time ones) and EventBridge rules.

moto stores Scheduler schedules but nothing fires them, so the runtime does:
the template's ``AWS::Scheduler::ScheduleGroup`` and ``AWS::Scheduler::Schedule``
resources are created in moto, and one thread polls ``list_schedules`` /
``get_schedule`` for every schedule there (the ones handlers create at run time
included) and fires those due at their target: a Lambda function (in-process),
an SQS queue or a state machine. ``AWS::Events::Rule`` resources with a
``ScheduleExpression`` fire their targets the same way.

Time is compressed by the time factor: a ``rate(1 minute)`` schedule fires
every ``60 / factor`` seconds, a ``cron(...)`` one when the runtime's virtual
clock (``clock.VirtualClock``, which the functions are told) passes a
matching minute, and a one-time ``at(...)`` schedule when the virtual clock
reaches its time.

>>> rate_seconds("rate(15 minutes)")
900
>>> from datetime import datetime
>>> Cron.parse("cron(0/15 * ? * MON-FRI *)").matches(datetime(2025, 1, 6, 10, 30))
True
>>> Cron.parse("cron(0/15 * ? * MON-FRI *)").matches(datetime(2025, 1, 5, 10, 30))
False
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from croniter import croniter

from infra.local.clock import VirtualClock
from infra.local.lambdas import FunctionRegistry
from infra.local.template import ACCOUNT_ID, REGION, Resolver, Template

log = logging.getLogger("infra.local")

_UNITS = {"minute": 60, "minutes": 60, "hour": 3600, "hours": 3600, "day": 86400, "days": 86400}
_DAYS = {"SUN": 0, "MON": 1, "TUE": 2, "WED": 3, "THU": 4, "FRI": 5, "SAT": 6}


def rate_seconds(expression: str) -> int:
    match = re.fullmatch(r"rate\(\s*(\d+)\s+([a-z]+)\s*\)", expression.strip())
    if not match or match.group(2) not in _UNITS:
        raise ValueError(f"not a rate expression: {expression!r}")
    return int(match.group(1)) * _UNITS[match.group(2)]


def at_time(expression: str, timezone: str = "UTC") -> datetime:
    match = re.fullmatch(r"at\(\s*([0-9T:\-]+)\s*\)", expression.strip())
    if not match:
        raise ValueError(f"not an at expression: {expression!r}")
    local = datetime.fromisoformat(match.group(1)).replace(tzinfo=ZoneInfo(timezone or "UTC"))
    return local.astimezone(UTC)


@dataclass(frozen=True)
class Cron:
    """An AWS cron expression (minutes hours day-of-month month day-of-week year), evaluated by croniter.

    croniter reads the same fields (``?``, ``L``, ``W`` and ``#`` included) once given in its order (a seconds
    field before the year) and with its numbering of the days (0-6 from Sunday, where AWS counts 1-7).
    """

    expression: str
    """croniter's form: minute hour day-of-month month day-of-week second year."""

    @classmethod
    def parse(cls, expression: str) -> Cron:
        match = re.fullmatch(r"cron\((.*)\)", expression.strip())
        fields = match.group(1).split() if match else []
        if len(fields) == 6:
            minute, hour, dom, month, dow, year = fields
            text = " ".join((minute, hour, dom, month, _day_of_week(dow), "0", year))
            if croniter.is_valid(text):
                return cls(text)
        raise ValueError(f"not a cron expression: {expression!r}")

    def matches(self, moment: datetime) -> bool:
        return bool(croniter.match(self.expression, moment))

    def next_after(self, moment: datetime) -> datetime:
        """The first matching minute after ``moment``."""
        following: datetime = croniter(self.expression, moment).get_next(datetime)
        return following


def _day_of_week(field: str) -> str:
    """AWS's day-of-week field in croniter's numbering: days shift by one; AWS's last Friday ``6L`` is ``L5``."""
    if len(field) > 1 and field.upper().endswith("L"):
        day = field[:-1].upper()
        return f"L{_DAYS[day] if day in _DAYS else int(day) - 1}"
    return re.sub(r"(?<![#/\d])[1-7](?!\d)", lambda number: str(int(number.group()) - 1), field)


# ---------------------------------------------------------------------- targets


@dataclass
class Target:
    arn: str
    input: str | None = None
    message_group_id: str | None = None


class Targets:
    """Fires a target ARN: a Lambda function (asynchronously, in-process), an SQS queue, a state machine."""

    def __init__(
        self, functions: FunctionRegistry, client: Callable[[str], Any], queue_url_of: Callable[[str], str]
    ) -> None:
        self.functions = functions
        self._client = client
        self._queue_url_of = queue_url_of
        self.executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="local-schedule")

    def fire(self, source: str, target: Target, default_event: Any) -> Future[None]:
        return self.executor.submit(self._fire, source, target, default_event)

    def _fire(self, source: str, target: Target, default_event: Any) -> None:
        started = time.monotonic()
        if target.input is None and default_event.get("detail-type"):
            now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            default_event = {"id": str(uuid.uuid4()), "time": now, **default_event}
        payload = target.input if target.input is not None else json.dumps(default_event)
        try:
            if ":lambda:" in target.arn:
                function = self.functions.lookup(target.arn)
                if function is None:
                    raise LookupError(f"no local function {target.arn}")
                function.invoke(json.loads(payload) if payload else {})
                destination = function.name
            elif ":sqs:" in target.arn:
                request: dict[str, Any] = {"QueueUrl": self._queue_url_of(target.arn), "MessageBody": payload}
                if target.message_group_id:
                    request["MessageGroupId"] = target.message_group_id
                    request["MessageDeduplicationId"] = uuid.uuid4().hex
                self._client("sqs").send_message(**request)
                destination = target.arn.rsplit(":", 1)[-1]
            elif ":states:" in target.arn:
                self._client("stepfunctions").start_execution(
                    stateMachineArn=target.arn, name=f"schedule-{uuid.uuid4().hex}", input=payload or "{}"
                )
                destination = target.arn.rsplit(":", 1)[-1]
            else:
                log.warning("schedule %s: target %s is not run locally", source, target.arn)
                return
        except Exception:
            log.exception("schedule %s: firing %s failed", source, target.arn)
            return
        log.info("SCHEDULE %s fired %.1f ms -> %s", source, (time.monotonic() - started) * 1000, destination)

    def shutdown(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)


# ---------------------------------------------------------------------- the scheduler


@dataclass
class _Tracked:
    """A schedule seen in moto: when it fires next (real epoch seconds), or never again."""

    modified: Any
    expression: str
    target: Target
    next_real: float | None
    cron: Cron | None = None
    period: float | None = None
    delete_after: bool = False
    last_virtual: float = 0.0


@dataclass
class RuleSchedule:
    """An ``AWS::Events::Rule`` with a schedule expression and its targets."""

    name: str
    arn: str
    expression: str
    targets: list[Target]


def read_rules(template: Template, resolver: Resolver) -> list[RuleSchedule]:
    rules = []
    for logical_id, raw in template.of_type("AWS::Events::Rule"):
        props = resolver.resolve(raw)
        if not props.get("ScheduleExpression") or props.get("State", "ENABLED") != "ENABLED":
            continue
        targets = [
            Target(str(t["Arn"]), t.get("Input"), (t.get("SqsParameters") or {}).get("MessageGroupId"))
            for t in props.get("Targets", [])
        ]
        rules.append(
            RuleSchedule(
                resolver.physical_name(logical_id),
                resolver.get_att(logical_id, "Arn"),
                str(props["ScheduleExpression"]),
                targets,
            )
        )
    return rules


def create_template_schedules(scheduler: Any, template: Template, resolver: Resolver) -> None:
    """The template's schedule groups and schedules, created in moto (so one poller sees them all)."""
    for logical_id, _ in template.of_type("AWS::Scheduler::ScheduleGroup"):
        scheduler.create_schedule_group(Name=resolver.physical_name(logical_id))
    for logical_id, raw in template.of_type("AWS::Scheduler::Schedule"):
        props = resolver.resolve(raw)
        target = dict(props.get("Target") or {})
        request: dict[str, Any] = {
            "Name": resolver.physical_name(logical_id),
            "ScheduleExpression": props["ScheduleExpression"],
            "FlexibleTimeWindow": props.get("FlexibleTimeWindow") or {"Mode": "OFF"},
            "Target": target,
            "State": props.get("State", "ENABLED"),
        }
        for key in ("GroupName", "ScheduleExpressionTimezone", "Description"):
            if props.get(key):
                request[key] = props[key]
        scheduler.create_schedule(**request)


class Scheduler:
    """Polls moto's schedules and the template's rules, and fires what is due."""

    def __init__(
        self,
        client: Callable[[str], Any],
        targets: Targets,
        rules: list[RuleSchedule],
        clock: VirtualClock,
        stopping: threading.Event,
        tick: float = 0.2,
    ) -> None:
        self._client = client
        self.targets = targets
        self.clock = clock
        self._stopping = stopping
        self.tick = tick
        self._tracked: dict[str, _Tracked] = {}
        self._fired_once: set[tuple[str, Any]] = set()
        self._rule_events: dict[str, dict[str, Any]] = {}
        self._running: dict[str, Future[None]] = {}
        for rule in rules:
            event = self._rule_event(rule)
            for index, target in enumerate(rule.targets):
                tracked = self._track(rule.expression, "UTC", target, modified=None)
                tracked.delete_after = False
                self._tracked[f"rule:{rule.name}:{index}"] = tracked
                self._rule_events[f"rule:{rule.name}:{index}"] = event
        self._thread = threading.Thread(target=self._run, name="local-scheduler", daemon=True)

    @staticmethod
    def _rule_event(rule: RuleSchedule) -> dict[str, Any]:
        return {
            "version": "0",
            "detail-type": "Scheduled Event",
            "source": "aws.events",
            "account": ACCOUNT_ID,
            "region": REGION,
            "resources": [rule.arn],
            "detail": {},
        }

    def start(self) -> None:
        self._thread.start()

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)

    def _track(self, expression: str, timezone: str, target: Target, modified: Any) -> _Tracked:
        tracked = _Tracked(modified=modified, expression=expression, target=target, next_real=None)
        factor = self.clock.factor
        if expression.startswith("rate("):
            tracked.period = rate_seconds(expression) / factor
            tracked.next_real = time.time() + tracked.period
        elif expression.startswith("cron("):
            tracked.cron = Cron.parse(expression)
            tracked.last_virtual = self.clock.now()
            tracked.next_real = 0.0  # checked on every tick
        elif expression.startswith("at("):
            # a time of the virtual clock (the functions' clock): due when the virtual clock reaches it
            tracked.next_real = self.clock.real(at_time(expression, timezone).timestamp())
        else:
            raise ValueError(f"unknown schedule expression {expression!r}")
        return tracked

    def _run(self) -> None:
        scheduler = self._client("scheduler")
        while not self._stopping.wait(self.tick):
            try:
                self._refresh(scheduler)
            except Exception:
                if self._stopping.is_set():
                    return
                log.exception("reading the schedules failed")
            self._fire_due(scheduler)

    def _refresh(self, scheduler: Any) -> None:
        seen = set()
        for summary in self._list(scheduler):
            key = summary["Arn"]
            seen.add(key)
            if summary.get("State") != "ENABLED":
                self._tracked.pop(key, None)
                continue
            modified = summary.get("LastModificationDate")
            current = self._tracked.get(key)
            if current is not None and current.modified == modified:
                continue
            if (key, modified) in self._fired_once:
                continue
            detail = scheduler.get_schedule(Name=summary["Name"], GroupName=summary.get("GroupName", "default"))
            raw_target = detail.get("Target") or {}
            target = Target(
                str(raw_target.get("Arn", "")),
                raw_target.get("Input"),
                (raw_target.get("SqsParameters") or {}).get("MessageGroupId"),
            )
            try:
                tracked = self._track(
                    str(detail["ScheduleExpression"]),
                    str(detail.get("ScheduleExpressionTimezone") or "UTC"),
                    target,
                    modified=modified,
                )
            except ValueError:
                log.warning("schedule %s: cannot read %r", summary["Name"], detail.get("ScheduleExpression"))
                continue
            tracked.delete_after = detail.get("ActionAfterCompletion") == "DELETE"
            self._tracked[key] = tracked
        for key in [k for k in self._tracked if not k.startswith("rule:") and k not in seen]:
            del self._tracked[key]

    @staticmethod
    def _list(scheduler: Any) -> list[dict[str, Any]]:
        schedules: list[dict[str, Any]] = []
        token = None
        while True:
            answer = scheduler.list_schedules(**({"NextToken": token} if token else {}))
            schedules.extend(answer.get("Schedules", []))
            token = answer.get("NextToken")
            if not token:
                return schedules

    def _fire_due(self, scheduler: Any) -> None:
        now = time.time()
        for key, tracked in list(self._tracked.items()):
            if tracked.next_real is None:
                continue
            name = key.rsplit("/", 1)[-1] if not key.startswith("rule:") else key.split(":")[1]
            event = self._rule_events.get(key, {})
            if tracked.cron is not None:
                virtual_now = self.clock.now()
                if self._cron_due(tracked, virtual_now):
                    self._fire_recurring(key, name, tracked, event)
                tracked.last_virtual = virtual_now
                continue
            if now < tracked.next_real:
                continue
            if tracked.period is not None:
                self._fire_recurring(key, name, tracked, event)
                tracked.next_real = max(tracked.next_real + tracked.period, now)
                continue
            self.targets.fire(name, tracked.target, event)
            tracked.next_real = None  # a one-time schedule
            self._fired_once.add((key, tracked.modified))
            if tracked.delete_after:
                group = key.split("/")[-2]
                try:
                    scheduler.delete_schedule(Name=name, GroupName=group)
                except Exception:
                    log.warning("schedule %s: could not delete it after firing", name)

    def _fire_recurring(self, key: str, name: str, tracked: _Tracked, event: Any) -> None:
        """Fire a recurring schedule, unless its last firing still runs (a compressed clock can outpace it)."""
        running = self._running.get(key)
        if running is not None and not running.done():
            log.debug("schedule %s: skipped, its last firing still runs", name)
            return
        self._running[key] = self.targets.fire(name, tracked.target, event)

    @staticmethod
    def _cron_due(tracked: _Tracked, virtual_now: float) -> bool:
        """Whether a minute matching the cron began in ``(last_virtual, virtual_now]``."""
        assert tracked.cron is not None
        last = datetime.fromtimestamp(tracked.last_virtual, UTC).replace(second=0, microsecond=0, tzinfo=None)
        return tracked.cron.next_after(last) <= datetime.fromtimestamp(virtual_now, UTC).replace(tzinfo=None)
