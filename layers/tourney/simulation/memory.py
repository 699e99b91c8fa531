"""A whole tournament, in memory, with bot players: ``tourney simulate --via memory``.

The simulation plays the services that the Lambda functions call, built by
``bootstrap`` over the in-memory store, inside a simulated cloud
(``simulation/cloud.py``) that delivers what AWS would, when it would, on a
virtual clock: the start schedule, the start workflow's steps, decision
time-outs, hand ends in order through the coordinator's FIFO queue, the
watchdog and the sweeper, the recovery workflow with its 20-minute window.
An operator creates the tournament, funds the players and, with
``--terminate-at``, terminates it (and restarts it with ``--restart ok``).
The bots (``simulation/players.py``) register, act, rebuy and buy the add-on
through the services. No rule is decided here.

After every hand the run checks what must hold (``simulation/checks.py``):
chips conserved at the table that played it and in the whole tournament, the
tables within one player of each other between hands, the big blind moving
forward, and the ledger balanced; in fields above ``full_check_players``
the tournament-wide checks run every ``check_every`` hands, and always at
the end. Randomness (shuffles, draws, the bots) comes from generators seeded
by ``--seed``, so a run replays exactly; production shuffles with ``secrets``.
"""

from __future__ import annotations

import functools
import gc
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from tourney.domain.formats import TournamentFormat
from tourney.domain.hand import Hand
from tourney.domain.histories import phh
from tourney.domain.ledger import EntryKind, Ledger
from tourney.domain.structure import rebuy_period_for_minutes
from tourney.services.commands import CreateTournament
from tourney.services.records import HandRecord, Record, TableRecord, TournamentRecord
from tourney.simulation.checks import Checks, SimulationError
from tourney.simulation.cloud import Cloud, Crash
from tourney.simulation.faults import FaultPlan
from tourney.simulation.permissions import AccessDenied
from tourney.simulation.players import Crowd

EPOCH = datetime(2026, 1, 1, 18, 0, tzinfo=UTC)
"""Where simulated tournaments start: a fixed instant, so reports replay exactly."""
ANNOUNCE_BEFORE = timedelta(hours=2)
OPERATOR = "simulator"
DEADLINE = timedelta(days=14)
"""A run that has not ended this long after its start is stuck: a defect."""
FREEZE_AFTER_START = timedelta(minutes=5)
"""When the simulation freezes the objects alive so far and stops the garbage collector (``_stop_collector``)."""


def _stop_collector() -> None:
    """Freeze what is alive (the seated field) and stop the cyclic garbage collector for the rest of the run."""
    gc.freeze()
    gc.disable()


__all__ = ["EPOCH", "Simulation", "SimulationError", "SimulationOptions", "SimulationResult"]


@dataclass(frozen=True)
class SimulationOptions:
    players: int
    seed: int
    format: TournamentFormat = TournamentFormat.FREEZEOUT
    buy_in: int = 1_000
    entry_fee: int = 100
    guarantee: int = 0
    seats: int = 9
    level_minutes: int | None = None
    rebuy_minutes: int | None = None
    add_on_chips: int | None = None
    max_players: int | None = None
    """The field's cap (default: the field itself; a Sit&Go is always full at ``players``)."""
    terminate_at: float | None = None
    """Minutes of tournament time after ``started_at`` when an operator terminates it."""
    restart: bool = True
    restart_after_minutes: float = 5.0
    phh_dir: str | None = None
    full_check_players: int = 200
    check_every: int | None = None
    """Hands between two tournament-wide checks above ``full_check_players`` (default: one per 10 players,
    at least 100, so that their cost, which grows with the field, stays a small share of the run)."""
    fast: bool = True
    """The in-memory store hands out records without copying them (see ``adapters/memory.py``)."""


@dataclass(frozen=True)
class PlayedHand:
    """A finished hand and what a history needs beside it (for the demo and PokerStars text)."""

    table_id: str
    hand: Hand
    players: dict[int, str]
    level: int
    dealt_at: datetime


@dataclass
class SimulationResult:
    report: dict[str, Any]
    ledger: Ledger
    phh_files: dict[str, str]


@dataclass
class _Termination:
    at: datetime
    minute: float
    remaining: list[dict[str, Any]] = field(default_factory=list)
    restarted: bool = False


class Simulation:
    """One tournament run to its end through the services. ``run()`` returns the report of docs/interfaces.md."""

    def __init__(
        self,
        options: SimulationOptions,
        progress: Callable[[int, int], None] | None = None,
        *,
        faults: FaultPlan | None = None,
    ) -> None:
        self.o = options
        self.progress = progress or (lambda remaining, total: None)
        self.faults = faults or FaultPlan(seed=options.seed)
        copy = not options.fast or self.faults.active
        self.cloud = Cloud(EPOCH - ANNOUNCE_BEFORE, self.faults, copy_records=copy)
        self.services = self.cloud.services
        self.store = self.cloud.store
        self.tournament_id = f"sim-{options.format}-{options.players}-{options.seed}"
        self.players = [f"p{i:06d}" for i in range(1, options.players + 1)]
        self.crowd = Crowd(self.cloud, self.tournament_id, self.faults.rng_for("bots"))
        every = options.check_every or max(100, options.players // 10)
        self.checks = Checks(self.store, self.tournament_id, options.full_check_players, every)
        self.termination: _Termination | None = None
        self._last_record: HandRecord | None = None
        self._over = False
        self.deadline = DEADLINE
        self.phh_docs: dict[str, dict[int, str]] = {}
        self.timeline: list[tuple[datetime, str]] = []
        """When the tournament's status changed, and to what (as the API names statuses)."""
        self.dealt: list[tuple[str, int, datetime]] = []
        self.refusals_fail = True
        """A call AWS refused fails the run (``tourney chaos`` reports them as violations instead)."""
        self.check_failures: list[str] = []
        """The watchdog's and the sweeper's checks of a tournament that raised (``_check_failed``)."""
        self.hand_for_hand_rounds: list[dict[str, Any]] = []
        """Each hand-for-hand round as it completed (the report's ``hand_for_hand_rounds``)."""
        self.rounds_completed_at: list[datetime] = []
        self._collect_rounds()

    # -- set-up, as an operator and the players would -------------------------------------

    def _create(self) -> None:
        o = self.o
        sng = o.format is TournamentFormat.SNG
        rebuy_levels = None
        if o.format is TournamentFormat.REBUY and o.rebuy_minutes:
            period = rebuy_period_for_minutes(o.rebuy_minutes, o.level_minutes or 10)
            rebuy_levels = (period.first_level, period.last_level)
        command = CreateTournament(
            name=f"simulated {o.format} of {o.players}",
            format=str(o.format),
            buy_in=o.buy_in,
            entry_fee=o.entry_fee,
            guarantee=o.guarantee,
            max_players=o.players if sng else (o.max_players or max(o.players, 2)),
            seats_per_table=o.seats,
            start_at=None if sng else EPOCH,
            level_minutes=o.level_minutes,
            rebuy_levels=rebuy_levels,
            add_on_chips=o.add_on_chips,
            tournament_id=self.tournament_id,
            operator=OPERATOR,
        )
        self.cloud.run_as("admin", lambda: self.services.admin.create_tournament(command))

    def _fund_and_register(self) -> None:
        config = self.store.tournaments.get(self.tournament_id).config
        purchases = 1 + (6 if config.format is TournamentFormat.REBUY else 0) + (1 if config.add_on else 0)
        deposit = self.services.accounts.deposit
        for i, player in enumerate(self.players):
            self.cloud.run_as(
                "admin", functools.partial(deposit, player, config.entry_cost * purchases + 500, f"sim-{i}")
            )
            at = self.cloud.now() + timedelta(seconds=i % 3_600)
            self.cloud.at(at, functools.partial(self._register, player), "register")

    def _register(self, player: str, attempt: int = 1) -> None:
        key = f"{self.tournament_id}:{player}"
        ok, _ = self.cloud.invoke_api(lambda: self.services.registration.register(self.tournament_id, player, key))
        if not ok and attempt < 5:  # the app retries with the same key after a 5xx
            self.cloud.after(2.0 * attempt, lambda: self._register(player, attempt + 1), "register retry")

    # -- the run -------------------------------------------------------------------------

    def _collect_rounds(self) -> None:
        """Keep each hand-for-hand round the coordinator completes, as it answers."""
        coordinator = self.services.coordinator
        handle = coordinator.on_hand_ends  # one message, or a batch: each answered

        def collected(messages: Any) -> Any:
            answers = handle(messages)
            for answer in answers:
                if answer.hand_for_hand_round is not None:
                    self.hand_for_hand_rounds.append(answer.hand_for_hand_round)
                    self.rounds_completed_at.append(self.cloud.now())
            return answers

        coordinator.on_hand_ends = collected  # type: ignore[method-assign]

    def run(self) -> SimulationResult:
        cloud = self.cloud
        self._create()
        self._fund_and_register()
        cloud.every("watchdog", cloud.now(), lambda: self.services.recovery.watch(on_error=self._check_failed))
        cloud.every("sweeper", cloud.now(), lambda: self.services.recovery.sweep(on_error=self._check_failed))
        cloud.watch(self._saved)
        cloud.after(60.0, self._tick, "progress")
        # The field's records (registrations, entrants, bots, accounts) live for the whole run: once the start
        # has seated everyone they leave the collector's view, and the collector stops. The play path makes no
        # reference cycles (tests/unit/test_simulation_garbage.py), so reference counting frees every hand;
        # a collector kept running would rescan the pending time-outs and events (a tenth of a large run).
        collecting = gc.isenabled()
        cloud.at(EPOCH + FREEZE_AFTER_START, _stop_collector, "gc")
        try:
            finished = cloud.run(self._ended, EPOCH + self.deadline)
        finally:
            gc.unfreeze()
            if collecting:
                gc.enable()
        if not finished:
            raise SimulationError(f"{self.tournament_id} did not end: {self._status()}{self._refusals()}")
        if self.refusals_fail and self.cloud.refusals:
            raise SimulationError(f"permission: {self.tournament_id}{self._refusals()}")
        if self.refusals_fail and self.check_failures:
            raise SimulationError(f"watch_failed: {'; '.join(self.check_failures)}")
        return self._finish()

    def _check_failed(self, tournament_id: str, error: Exception) -> None:
        """The watchdog's or the sweeper's check of one tournament raised: an injected death ends the invocation
        (as on AWS), a refused call is kept by the cloud; anything else is a defect on-call would be paged for."""
        if isinstance(error, Crash | AccessDenied):
            raise error
        self.check_failures.append(f"{tournament_id}: {type(error).__name__}: {error}")

    def _refusals(self) -> str:
        """The calls AWS refused (the wiring lacks a grant), for an error's message."""
        return "".join(f"; refused: {r}" for r in self.cloud.refused())

    def _status(self) -> str:
        t = self.store.tournaments.get(self.tournament_id)
        return f"{t.status}, ended {t.ended_at}, {len(self.cloud.executions)} executions"

    def _ended(self) -> bool:
        return self._over

    def _is_over(self, t: TournamentRecord) -> bool:
        """Finished; or terminated and compensated, or cancelled and refunded (both set ``ended_at`` last)."""
        if t.status in ("terminated", "cancelled"):
            return t.ended_at is not None
        return t.status == "finished"

    def _tick(self) -> None:
        coordinator = self.store.coordinators.get(self.tournament_id)
        if coordinator is not None:
            state = coordinator.state
            self.progress(state.remaining, state.entrants)
            self._maybe_schedule_termination()
        self.cloud.after(60.0, self._tick, "progress")

    def _saved(self, record: Record) -> None:
        if record.tournament_id != self.tournament_id:
            return
        kind = type(record)
        if kind is TableRecord:
            self.checks.after_table_saved(record)  # type: ignore[arg-type]
            return
        if kind is not HandRecord and kind is not TournamentRecord:
            return
        if isinstance(record, HandRecord):
            self._after_hand(record)
        elif isinstance(record, TournamentRecord):
            self._over = self._is_over(record)
            if not self.timeline or self.timeline[-1][1] != record.status:
                self.timeline.append((self.cloud.now(), str(record.status)))

    @property
    def restarts(self) -> int:
        """How often the tournament went from terminated back to running."""
        statuses = [status for _, status in self.timeline]
        return sum(1 for a, b in itertools.pairwise(statuses) if a == "terminated" and b == "running")

    def hands_dealt_while_terminated(self) -> list[str]:
        """Hands dealt while the tournament stood terminated (docs/rules.md: nothing moves until it restarts)."""
        spans: list[tuple[datetime, datetime]] = []
        since: datetime | None = None
        for moment, status in self.timeline:
            if status == "terminated" and since is None:
                since = moment
            elif status != "terminated" and since is not None:
                spans.append((since, moment))
                since = None
        if since is not None:
            spans.append((since, datetime.max.replace(tzinfo=UTC)))
        return [
            f"table {table} hand {number} dealt at {dealt}"
            for table, number, dealt in self.dealt
            if any(start < dealt < end for start, end in spans)
        ]

    def _after_hand(self, record: HandRecord) -> None:
        """Every finished hand, as the coordinator stored it: the checks, the history, the termination."""
        self.dealt.append((record.table_id, record.hand_number, record.dealt_at))
        self.checks.after_hand(record)
        self._last_record = record
        if self.o.phh_dir is not None:
            self._record_phh(record, Hand.from_dict(record.hand))
        self._maybe_schedule_termination()

    @property
    def last_hand(self) -> PlayedHand | None:
        """The last hand played out (the demo prints it as PokerStars text)."""
        r = self._last_record
        if r is None:
            return None
        return PlayedHand(r.table_id, Hand.from_dict(r.hand), dict(r.players), r.level, r.dealt_at)

    # -- termination (docs/rules.md, rule 17), as an operator does it ----------------------------

    def _maybe_schedule_termination(self) -> None:
        if self.o.terminate_at is None or self.termination is not None:
            return
        started = self.store.tournaments.get(self.tournament_id).started_at
        if started is None:
            return
        at = started + timedelta(minutes=self.o.terminate_at)
        self.termination = _Termination(at, round(self.o.terminate_at, 3))
        self.cloud.at(at, self._terminate, "operator terminates")

    def _terminate(self) -> None:
        services = self.services
        terminate = functools.partial(services.admin.terminate, self.tournament_id, OPERATOR, "simulated")
        ok, _ = self.cloud.invoke_api(terminate, "admin")
        if not ok:
            self.cloud.after(5.0, self._terminate, "operator terminates again")
            return
        if self.o.restart:
            self.cloud.after(self.o.restart_after_minutes * 60, self._restart, "operator restarts")

    def _restart(self) -> None:
        assert self.termination is not None
        t = self.store.tournaments.get(self.tournament_id)
        if t.status != "terminated":
            return
        self.termination.remaining = self._remaining()
        restart = self.services.admin.restart
        ok, answer = self.cloud.invoke_api(lambda: restart(self.tournament_id, OPERATOR, "simulated restart"), "admin")
        if not ok:
            self.cloud.after(5.0, self._restart, "operator restarts again")
            return
        self.termination.restarted = answer is not None

    def _remaining(self) -> list[dict[str, Any]]:
        """Every player still holding chips, table by table (stacks as of the start of a cancelled hand)."""
        return [
            {"player": sp.player, "chips": sp.stack}
            for record in self.store.stored_tables(self.tournament_id)
            for sp in record.table.seats.values()
            if sp.stack > 0
        ]

    # -- hand histories -------------------------------------------------------------------

    def _record_phh(self, record: HandRecord, hand: Hand) -> None:
        seats = list(hand.seats)
        fields: dict[str, phh.FieldValue] = {
            "event": self.tournament_id,
            "table": int(record.table_id) if record.table_id.isdigit() else record.table_id,
            "hand": record.hand_number,
            "seat_count": record.seat_count,
            "seats": seats,
            "players": [record.players[s] for s in seats],
            "_level": record.level,
            "_dealt_at": _iso(record.dealt_at),
            **phh.deck_fields(hand),
        }
        # the operator's export: every dealt hole card, as the whole deck (docs/rules.md, section 13)
        self.phh_docs.setdefault(record.table_id, {})[record.hand_number] = phh.dumps(hand, fields, hole_cards=True)

    # -- the report -----------------------------------------------------------------------

    def _finish(self) -> SimulationResult:
        self.checks.at_end()
        report = build_report(self)
        files = {tid: phh.dumps_all([d[n] for n in sorted(d)]) for tid, d in sorted(self.phh_docs.items())}
        return SimulationResult(report, self.store.money, files)


def build_report(sim: Simulation) -> dict[str, Any]:
    """The report of one simulated tournament (docs/interfaces.md), read from what the services stored."""
    store, tid = sim.store, sim.tournament_id
    t = store.tournaments.get(tid)
    config = t.config
    coordinator = store.coordinators.get(tid)
    state = coordinator.state if coordinator is not None else None
    money = store.money
    summary = money.summary(tid).as_report()
    everything = money.summary()
    summary["deposits"] = everything.deposits
    summary["player_balances"] = everything.player_balances
    entrants = store.entrants.list(tid)
    places = sorted(
        (
            {"player": e.player_id, "place": e.placing.place, "prize": e.placing.prize}
            for e in entrants
            if e.placing is not None
        ),
        key=lambda row: (row["place"], row["player"]),
    )
    report: dict[str, Any] = {
        "tournament": {
            "id": tid,
            "format": str(config.format),
            "buy_in": config.buy_in,
            "entry_fee": config.entry_fee,
            "guarantee": config.guarantee,
            "seats_per_table": config.seats_per_table,
            "started_at": _iso(t.started_at),
            "ended_at": _iso(t.ended_at),
            "status": str(t.status_at(sim.cloud.now())),
        },
        "entries": [e.contribution.to_report() for e in entrants],
        "places": places,
        "ledger": summary,
        "hands": sim.checks.hands,
        "tables_at_start": t.tables_at_start,
        "moves": state.moves if state else 0,
        "final_table_formed": state.final_table_formed if state else False,
        "invariant_checks": sim.checks.count,
        "hand_for_hand_rounds": sim.hand_for_hand_rounds,
    }
    if sim.termination is not None and t.terminated_at is not None:
        report["termination"] = _termination_report(sim)
    return report


def compensation_outcome(sim: Simulation) -> str | None:
    """Rule 17.3's branch the compensation took (rollback, payout, refund_share), None before it was planned.

    Read from the plan frozen with the coordinator's state, not from the workflow's answers: a step that
    paid may have died before it answered.
    """
    coordinator = sim.store.coordinators.get(sim.tournament_id)
    frozen = coordinator.state.compensation if coordinator is not None else None
    return str(frozen.outcome) if frozen is not None else None


def _termination_report(sim: Simulation) -> dict[str, Any]:
    term = sim.termination
    assert term is not None
    paid: dict[str, int] = {}
    for entry in sim.store.money.entries():
        if entry.kind is EntryKind.COMPENSATION and entry.tournament_id == sim.tournament_id:
            for leg in entry.legs:
                if leg.account.kind.value == "player":
                    paid[leg.account.owner] = paid.get(leg.account.owner, 0) + leg.amount
    outcome = "restarted"
    if not term.restarted:
        outcome = compensation_outcome(sim) or "unknown"
        term.remaining = sim._remaining()
    terminated = sim.store.tournaments.get(sim.tournament_id).terminated_at
    return {
        "at_minute": term.minute,
        "at": _iso(terminated),
        "outcome": outcome,
        "remaining": term.remaining,
        "paid": [{"player": p, "amount": a} for p, a in paid.items()],
    }


def _iso(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z") if moment else None
