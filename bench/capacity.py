"""``tourney bench capacity``: one freezeout through the services in the simulated cloud with AWS modeled.

From the opening of registration (the players arrive at up to 1,000 a second) through the start and ``minutes`` of
tournament time, then an operator's termination and the compensation that follows it to its last payment, all in
``simulation/cloud.py`` with :class:`~tourney.simulation.aws.model.AwsModel` switched on: every request timed,
metered against the partition limits and the functions' reservations, and priced. :func:`measure_capacity` returns
the report of ``docs/performance.md`` ("tourney bench capacity"), plus a few counts beside it (``coordinator``,
``registration.rcu_each``) that ``docs/performance.md`` compares with the issue's counts, and what a registration
holds an API environment for (``registration.mean_ms``, ``transactions_each``: a race lost is sent again) and how
long after the last player's arrival the last one is in (``after_last_arrival_s``).

The limits are read from the synthesized template (``cdk.out/``) when there is one, otherwise from the figures the
template is synthesized from (``infra/sizing.py``, ``infra/wiring.py``): the same numbers. ``sizing`` chooses which
(``standard`` or ``large``, as ``python app.py -c sizing=large`` synthesizes it).
"""

from __future__ import annotations

import functools
import gc
import math
import random
import resource
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tourney.services.messages import HandEnded, RebuyClosed
from tourney.services.records import HandRecord, Record, TableRecord, TournamentRecord
from tourney.simulation.aws.model import AwsModel
from tourney.simulation.aws.records import stored_item
from tourney.simulation.aws.requests import Request, Service
from tourney.simulation.aws.template import FunctionLimits, StageThrottle, TemplateLimits
from tourney.simulation.checks import Checks
from tourney.simulation.cloud import Cloud
from tourney.simulation.memory import ANNOUNCE_BEFORE, EPOCH, Simulation, SimulationOptions
from tourney.simulation.players import Crowd

from infra import wiring
from infra.local.template import load_stack
from infra.sizing import STANDARD, Sizing

ARRIVALS_PER_SECOND = 1_000
"""Registrations arrive at up to this rate from the opening of registration (the design's figure)."""
RETRY_CAP_SECONDS = 20.0
REGISTRATION_ATTEMPTS = 30
"""The app retries a refused registration (429, 5xx) with the same key, full jitter, doubling up to this."""
WINDOW_SECONDS = 20 * 60
"""The restart window after a termination (``services/recover.py``, ``RESTART_WINDOW``)."""
CDK_OUT = Path(__file__).resolve().parent.parent / "cdk.out"


def template_limits(sizing: Sizing = STANDARD, cdk_out: Path = CDK_OUT) -> TemplateLimits:
    """The functions' reservations and memory, the event sources and the stages' throttles of ``sizing``.

    As synthesized when ``cdk_out`` holds a template of that sizing (its ``tourney:sizing``), otherwise from the
    figures the template is synthesized from (``infra/sizing.py``, ``infra/wiring.py``): the same numbers.
    """
    if cdk_out.is_dir() and any(cdk_out.glob("*.template.json")):
        template = load_stack(cdk_out)
        if template.stack_metadata.get("tourney:sizing", STANDARD.name) == sizing.name:
            return TemplateLimits.from_template(template)
    functions: dict[str, FunctionLimits] = {}
    for spec in wiring.FUNCTIONS:
        most = sizing.sqs_maximum.get(spec.name)
        functions[spec.name] = FunctionLimits(
            name=spec.name,
            reserved=sizing.reserved.get(spec.name),
            memory_mb=spec.memory_mb,
            architecture="arm64",
            batch_size=10 if most is not None else None,
            maximum_concurrency=most,
        )
    stages = {
        protocol: StageThrottle(float(throttle.rate_per_second), throttle.burst)
        for protocol, throttle in (("HTTP", sizing.http), ("WEBSOCKET", sizing.websocket))
    }
    return TemplateLimits(functions, stages)


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def _spread(values_s: list[float]) -> dict[str, float]:
    """p50, p99 and max of seconds, in milliseconds."""
    return {
        "p50": round(_percentile(values_s, 0.50) * 1000, 1),
        "p99": round(_percentile(values_s, 0.99) * 1000, 1),
        "max": round(max(values_s, default=0.0) * 1000, 1),
    }


class CapacityRun(Simulation):
    """A freezeout with AWS modeled, measured as it plays (the simulation's own checks still run)."""

    def __init__(
        self,
        players: int,
        minutes: float,
        seed: int,
        progress: Callable[[str], None] | None = None,
        sizing: Sizing = STANDARD,
    ) -> None:
        options = SimulationOptions(players=players, seed=seed, terminate_at=minutes, restart=False)
        super().__init__(options)
        self.sizing = sizing
        self.aws = AwsModel(limits=template_limits(sizing), rng=random.Random(seed))
        # the same set-up as Simulation's, over a cloud with AWS modeled
        copy = not options.fast or self.faults.active
        self.cloud = Cloud(EPOCH - ANNOUNCE_BEFORE, self.faults, copy_records=copy, aws=self.aws)
        self.services = self.cloud.services
        self.store = self.cloud.store
        self.crowd = Crowd(self.cloud, self.tournament_id, self.faults.rng_for("bots"))
        every = options.check_every or max(100, options.players // 10)
        self.checks = Checks(self.store, self.tournament_id, options.full_check_players, every)
        self.minutes = minutes
        self.report_progress = progress or (lambda line: None)
        self._rng = random.Random(seed ^ 0x5EED)
        self._origin = (EPOCH - ANNOUNCE_BEFORE).timestamp()
        # registration
        self.registration_seconds: list[float] = []
        self.registration_rcu: list[float] = []
        self.registration_transactions: list[int] = []
        """TransactWriteItems sent by each registration's invocation (more than one: a race lost and sent again)."""
        self.registration_throttled = 0
        """Refused before any function ran: the stage's throttle (429) or the API function's reservation."""
        self.registration_failed = 0
        self.registration_conflicts = 0
        self.registration_abandoned = 0
        self.registered_at: list[float] = []
        self.opened_at = 0.0
        # play
        self.first_deal: dict[str, float] = {}
        self.hand_ends: dict[str, tuple[int, float]] = {}
        """A table's last hand end (its number, model seconds), until its next deal."""
        self.hand_gaps: list[float] = []
        self.dealing_hand: dict[str, int] = {}
        """A table's hand in progress when last written (a hand dealt by the write that ended the one before)."""
        self.hands_by_table: dict[str, int] = {}
        self.table_span: dict[str, list[float]] = {}
        self.seated_at_end: dict[tuple[str, int], frozenset[str]] = {}
        self.coordination_lags: list[float] = []
        self.settled = 0
        self.coordinator_calls: list[tuple[float, float]] = []
        """(write units, read units) of each hand end the coordinator processed."""
        self.ended_model_at: float | None = None
        self.hands_in_window = 0
        batches = self.cloud.coordination.batches
        assert batches is not None
        batches.on_settled = self._on_settled
        self._wrap_coordinator()

    # -- set-up ----------------------------------------------------------------------------

    def _fund_and_register(self) -> None:
        config = self.store.tournaments.get(self.tournament_id).config
        deposit = self.services.accounts.deposit
        self.opened_at = self.cloud.model_now()
        for i, player in enumerate(self.players):
            self.cloud.run_as("admin", functools.partial(deposit, player, config.entry_cost + 500, f"sim-{i}"))
            self.cloud.after(i / ARRIVALS_PER_SECOND, functools.partial(self._register, player), "register")

    def _register(self, player: str, attempt: int = 1) -> None:
        """One registration request; the app tries again with the same key after a 429, a 5xx or a 409 (a race
        lost on the tournament's items), after a jittered back-off."""
        cloud = self.cloud
        key = f"{self.tournament_id}:{player}"
        read_before = self._units("read_units")
        ok, answer = cloud.invoke_api(lambda: self.services.registration.register(self.tournament_id, player, key))
        run = cloud.last_run
        if run is not None:
            self.registration_seconds.append(run.watch.elapsed)
            self.registration_rcu.append(self._units("read_units") - read_before)
            self.registration_transactions.append(run.watch.calls[Request.TRANSACT_WRITE_ITEMS])
        if ok and answer is not None:
            self.registered_at.append(cloud.last_end)
            return
        if run is None:
            self.registration_throttled += 1
        elif not ok:
            self.registration_failed += 1
        else:
            self.registration_conflicts += 1
        if attempt >= REGISTRATION_ATTEMPTS:
            self.registration_abandoned += 1
            return
        wait = self._rng.random() * min(RETRY_CAP_SECONDS, 0.5 * 2**attempt)
        cloud.after(wait, lambda: self._register(player, attempt + 1), "register retry")

    def _units(self, unit: str) -> float:
        return self.aws.cost._units.get((Service.DYNAMODB, unit), 0.0)

    def _wrap_coordinator(self) -> None:
        coordinator = self.services.coordinator
        handle = coordinator.on_hand_ends

        def measured(messages: Sequence[HandEnded | RebuyClosed]) -> Any:
            write, read = self._units("write_units"), self._units("read_units")
            try:
                return handle(messages)
            finally:  # a batch's units shared evenly by its hand ends
                n = len(messages)
                share = ((self._units("write_units") - write) / n, (self._units("read_units") - read) / n)
                self.coordinator_calls += [share] * n

        coordinator.on_hand_ends = measured  # type: ignore[method-assign]

    # -- what the run sees -------------------------------------------------------------------

    def _seconds(self, moment: Any) -> float:
        return float(moment.timestamp() - self._origin)

    def _saved(self, record: Record) -> None:
        super()._saved(record)
        if record.tournament_id != self.tournament_id:
            return
        now = self.cloud.model_now()
        if isinstance(record, TableRecord):
            self._table_saved(record, now)
        elif isinstance(record, HandRecord):
            table = record.table_id
            self.hands_by_table[table] = self.hands_by_table.get(table, 0) + 1
            self.table_span.setdefault(table, [now, now])[1] = now
            self.seated_at_end[(table, record.hand_number)] = frozenset(record.players.values())
            self.hands_in_window += 1
        elif isinstance(record, TournamentRecord) and record.ended_at is not None and self.ended_model_at is None:
            self.ended_model_at = now

    def _table_saved(self, record: TableRecord, now: float) -> None:
        table, number, hand = record.table_id, record.table.hand_number, record.table.hand
        if number < 1 or hand is None:
            return
        if hand.is_over or hand.is_cancelled:  # played out: the hand end, until the coordinator deals the next
            ended = self.hand_ends.get(table)
            if ended is None or ended[0] != number:
                self.hand_ends[table] = (number, now)
            return
        if table not in self.first_deal:
            self.first_deal[table] = now
            self.dealing_hand[table] = number
            self.table_span.setdefault(table, [now, now])
            return
        ended = self.hand_ends.pop(table, None)
        if ended is not None and number > ended[0]:
            self.hand_gaps.append(now - ended[1])
        elif self.dealing_hand.get(table) == number - 1:  # the write that ended the hand dealt the next: its own deal
            self.hand_gaps.append(0.0)
        self.dealing_hand[table] = number

    def _on_settled(self, message: HandEnded | RebuyClosed, sent: float, end: float) -> None:
        self.settled += 1
        before = self.seated_at_end.pop((message.table, message.hand), None)
        if before is None:
            return
        try:
            stored = self.store.stored_table(self.tournament_id, message.table)
            now = frozenset(sp.player for sp in stored.table.seats.values() if sp.stack > 0)
        except Exception:  # the table broke: its players moved
            now = frozenset()
        if now != before:  # a bust or a move
            self.coordination_lags.append(end - sent)

    def _tick(self) -> None:
        super()._tick()
        started = self.store.tournaments.get(self.tournament_id).started_at
        minute = 0.0 if started is None else (self.cloud.now() - started).total_seconds() / 60
        self.report_progress(
            f"minute {minute:6.1f} of {self.minutes:g} (+ compensation), {self.hands_in_window:,} hands, "
            f"{len(self.registered_at):,} registered"
        )

    # -- the report ----------------------------------------------------------------------------

    def _coordinator_bytes(self) -> int:
        """The coordinator item's size as the adapter stores it, at the end of the run."""
        record = self.store.coordinators.get(self.tournament_id)
        return 0 if record is None else stored_item(record).size

    def capacity_report(self, wall_s: float) -> dict[str, Any]:
        aws, store, tid = self.aws, self.store, self.tournament_id
        t = store.tournaments.get(tid)
        start_s = self._seconds(EPOCH)
        hands = self.hands_in_window
        cost = aws.cost.report(hands or None)
        span_hours = sum(max(0.0, b - a) for a, b in self.table_span.values()) / 3600
        hottest = aws.meters.hottest()
        registered = self.registered_at
        duration = (max(registered) - self.opened_at) if registered else 0.0
        last_arrival = self.opened_at + (len(self.players) - 1) / ARRIVALS_PER_SECOND
        terminated = self._seconds(t.terminated_at) if t.terminated_at else None
        compensation = None
        if terminated is not None and self.ended_model_at is not None:
            compensation = round(self.ended_model_at - (terminated + WINDOW_SECONDS), 1)
        batches = self.cloud.coordination.batches
        assert batches is not None
        writes = [w for w, _ in self.coordinator_calls]
        played_minutes = self.minutes
        return {
            "players": self.o.players,
            "tables": t.tables_at_start,
            "minutes": self.minutes,
            "seed": self.o.seed,
            "sizing": self.sizing.name,
            "wall_s": round(wall_s, 1),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "registration": {
                "per_s": round(len(registered) / duration, 1) if duration > 0 else float(len(registered)),
                "p99_ms": round(_percentile(self.registration_seconds, 0.99) * 1000, 1),
                "mean_ms": round(sum(self.registration_seconds) / max(1, len(self.registration_seconds)) * 1000, 1),
                "transactions_each": round(
                    sum(self.registration_transactions) / max(1, len(self.registration_transactions)), 2
                ),
                "after_last_arrival_s": round(max(registered) - last_arrival, 2) if registered else None,
                "throttled": self.registration_throttled,
                "failed": self.registration_failed,
                "conflicts": self.registration_conflicts,
                "abandoned": self.registration_abandoned,
                "registered": len(registered),
                "rcu_each": round(sum(self.registration_rcu) / max(1, len(self.registration_rcu)), 1),
            },
            "start": {
                "first_deal_s": round(min(self.first_deal.values(), default=start_s) - start_s, 1),
                "last_deal_s": round(max(self.first_deal.values(), default=start_s) - start_s, 1),
            },
            "hand_gap_ms": _spread(self.hand_gaps),
            "hands_per_table_per_hour": round(hands / span_hours, 1) if span_hours else 0.0,
            "coordination_lag_ms": _spread(self.coordination_lags),
            "hottest_key": (
                {"key": hottest.key, "wcu_per_s": hottest.wcu_per_s, "rcu_per_s": hottest.rcu_per_s}
                if hottest is not None
                else {"key": None, "wcu_per_s": 0.0, "rcu_per_s": 0.0}
            ),
            "throttled_requests": aws.throttled_requests,
            "item_max_bytes": aws.item_max_bytes,
            "lambda_peak_concurrency": {f: c.peak for f, c in sorted(aws.concurrency.items())},
            "failed_invocations": dict(sorted(self.cloud.failed_invocations.items())),
            "compensation_s": compensation,
            "cost_per_1000_hands_usd": {k: round(v, 4) for k, v in cost.per_1000_hands().items()} if hands else {},
            "requests_per_1000_hands": {k: round(v, 1) for k, v in cost.requests_per_1000_hands().items()}
            if hands
            else {},
            "hands": hands,
            "coordinator": {
                "hand_ends": len(self.coordinator_calls),
                "hand_ends_per_s": round(len(self.coordinator_calls) / (played_minutes * 60), 2),
                "batches": batches.batches,
                "largest_batch": batches.largest_batch,
                "failed_batches": batches.failed,
                "sent_by": dict(sorted(batches.sent_by.items())),
                "busy_s": round(batches.busy_seconds, 1),
                "seconds_per_hand_end": round(batches.busy_seconds / max(1, len(writes)), 3),
                "item_bytes": self._coordinator_bytes(),
                "wcu_per_hand_end": round(sum(writes) / max(1, len(writes)), 1),
                "wcu_per_hand_end_max": round(max(writes, default=0.0), 1),
            },
            "status": str(t.status),
            "terminated_by": t.terminated_by,
        }


def measure_capacity(
    players: int,
    minutes: float = 30,
    seed: int = 1,
    progress: Callable[[str], None] | None = None,
    sizing: Sizing = STANDARD,
) -> dict[str, Any]:
    """Run one capacity benchmark; the report (docs/performance.md, ``tourney bench capacity``).

    The cyclic garbage collector stays off from the set-up to the report. The simulation stops it only five minutes
    into play (``memory.FREEZE_AFTER_START``) and starts it again before its report: until then every full collection
    walks the whole field, which grows with it (a quarter of the time at 10,000 players and 6 minutes of play), and
    the one after the run walks the whole run. The set-up and the start make little cyclic garbage: peak memory at
    10,000 players grew 2% without any collection.
    """
    started = time.perf_counter()
    collecting = gc.isenabled()
    gc.disable()
    try:
        run = CapacityRun(players, minutes, seed, progress, sizing)
        run.run()
        return run.capacity_report(time.perf_counter() - started)
    finally:
        if collecting:
            gc.enable()


class ProgressLine:
    """One line on stderr, rewritten in place, only when stderr is a terminal."""

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()
        self._started = time.monotonic()

    def __call__(self, line: str) -> None:
        if self.enabled:
            sys.stderr.write(f"\r{line}, {time.monotonic() - self._started:,.0f} s   ")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
