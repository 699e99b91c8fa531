"""``tourney chaos``: many small seeded tournaments through the services, each under a fault plan (CONTRACT.md).

In the way TigerBeetle's simulator tests its ledger: every run is one seed.
The seed draws the tournament (format, field, fee, guarantee, seats, level
length), a fault plan (invocations dying at a commit or past their timeout,
messages delivered twice or late, workflow tasks failing) and the operator's
acts (cancel, terminate, restart, at any instant: during registration, the
start, play and compensation). The run plays through the simulated cloud,
which recovers as AWS would (redelivery, the workflows' retries, the
watchdog, the sweeper); then :func:`violations` checks what must hold. A
failing run prints its seed; ``--replay SEED`` plays it again, alone.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
import traceback
from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from tourney.domain.ledger import AccountKind, EntryKind, player_account
from tourney.domain.structure import TournamentFormat
from tourney.simulation.faults import FaultCounts, FaultPlan
from tourney.simulation.memory import EPOCH, OPERATOR, Simulation, SimulationOptions, compensation_outcome

RESTART_WINDOW = timedelta(minutes=20)
"""RULES.md, rule 17.2: compensation never starts before the termination plus exactly this."""
COMPENSATION_GRACE = timedelta(minutes=10)
"""How late after the window compensation may still be paid when its steps fail and are retried."""
REFUND_WITHIN = timedelta(hours=24)
"""RULES.md, rule 17.6: a tournament that should have started and did not refunds within this."""
MANAGEMENT_ACTS = ("stack", "disqualify")
"""Operator acts of rule 19 a run may carry (``plan_run`` draws none: a run's seed keeps its meaning)."""
DEFAULT_PLAYERS_MAX = 40
"""Fields of 2 to this many players (``--players-max``, CONTRACT.md)."""

SCENARIOS = (
    "finish",
    "cancel_registering",
    "cancel_at_start",
    "terminate_early",
    "terminate_late",
    "terminate_restart",
    "terminate_in_compensation",
    "refund_share",
)


@dataclass(frozen=True)
class Act:
    """An operator's act at ``minute`` (after ``started_at`` when ``after_start``, else after the start time)."""

    kind: str
    minute: float
    after_start: bool = True


@dataclass(frozen=True)
class RunPlan:
    seed: int
    scenario: str
    options: SimulationOptions
    acts: tuple[Act, ...]


def plan_run(seed: int, players_max: int = DEFAULT_PLAYERS_MAX) -> RunPlan:
    """Everything one run does, drawn from its seed alone."""
    rng = random.Random(f"run:{seed}")
    scenario = SCENARIOS[seed % len(SCENARIOS)]
    fmt = rng.choice(list(TournamentFormat))
    if scenario == "refund_share":
        fmt = TournamentFormat.REBUY
    players = rng.randint(2, max(2, players_max))
    if fmt is TournamentFormat.SNG:
        players = min(players, 9)
    fee = rng.choice((0, 100))
    buy_in = rng.choice((1_000, 1_050, 2_500))
    guarantee = rng.choice((0, 0, buy_in * players // 2, buy_in * players * 2))
    level = rng.choice((2, 3, 5))
    rebuy_minutes = rng.choice((10, 20, 60))
    if scenario == "refund_share":
        players = max(players, min(players_max, 20))
        guarantee, rebuy_minutes = buy_in * players * 3, 120
    acts: list[Act] = []
    restart = False
    if scenario == "cancel_registering":
        acts.append(Act("cancel", -rng.uniform(1, 90), after_start=False))
    elif scenario == "cancel_at_start":
        acts.append(Act("cancel", rng.choice((0.0, 0.0001, 0.001, 0.002, 0.01)), after_start=False))
    elif scenario == "terminate_early":
        acts.append(Act("terminate", rng.uniform(0, 30)))
    elif scenario == "terminate_late":
        acts.append(Act("terminate", rng.uniform(30.001, 90)))
    elif scenario == "terminate_restart":
        at = rng.uniform(0, 60)
        acts += [Act("terminate", at), Act("restart", at + rng.uniform(0.5, 19.5))]
        restart = True
    elif scenario == "terminate_in_compensation":
        at = rng.uniform(0, 90)
        acts += [
            Act("terminate", at),
            Act(rng.choice(("restart", "terminate", "cancel")), at + 20 + rng.uniform(0, 1.2)),
        ]
    elif scenario == "refund_share":
        acts.append(Act("terminate", rng.uniform(30.5, 45)))
    if fmt is TournamentFormat.SNG and scenario in ("cancel_registering", "cancel_at_start"):
        # A Sit&Go starts when full, during the registrations that begin two hours before EPOCH.
        acts = [Act("cancel", -120 + rng.uniform(0, players / 60), after_start=False)]
    options = SimulationOptions(
        players=players,
        seed=seed,
        format=fmt,
        buy_in=buy_in,
        entry_fee=fee,
        guarantee=guarantee,
        seats=rng.choice((2, 3, 6, 9)),
        level_minutes=level,
        rebuy_minutes=rebuy_minutes if fmt is TournamentFormat.REBUY else None,
        add_on_chips=rng.choice((None, 5_000)) if fmt is TournamentFormat.REBUY else None,
        max_players=None if fmt is TournamentFormat.SNG else rng.choice((None, max(2, players - 3))),
        restart=restart,
        fast=False,
    )
    return RunPlan(seed, scenario, options, tuple(acts))


class ChaosSimulation(Simulation):
    """A simulation whose operator acts by the run's plan instead of ``--terminate-at``."""

    def __init__(self, plan: RunPlan) -> None:
        super().__init__(plan.options, faults=FaultPlan.drawn(plan.seed))
        self.crowd.eager_rebuys = 0.05
        self.deadline = timedelta(days=2)  # rule 17.6's 24 hours, and the longest small tournament, fit in it
        self.plan = plan
        self._scheduled_after_start = False
        self.refusals_fail = False  # a call AWS refused is reported as a permission violation (``violations``)

    def run_plan(self) -> None:
        for act in self.plan.acts:
            if not act.after_start:
                self.cloud.at(EPOCH + timedelta(minutes=act.minute), functools.partial(self._act, act), "operator")
        self.run()

    def _maybe_schedule_termination(self) -> None:
        if self._scheduled_after_start:
            return
        started = self.store.tournaments.get(self.tournament_id).started_at
        if started is None:
            return
        self._scheduled_after_start = True
        for act in self.plan.acts:
            if act.after_start:
                self.cloud.at(started + timedelta(minutes=act.minute), functools.partial(self._act, act), "operator")

    def _act(self, act: Act) -> None:
        admin, tid = self.services.admin, self.tournament_id
        self.faults.counts.operator_acts += 1
        self.faults.log.append(f"operator {act.kind} at {self.cloud.now().isoformat()}")
        if act.kind == "terminate":
            self.cloud.invoke_api(lambda: admin.terminate(tid, OPERATOR, "chaos"), "admin")
        elif act.kind == "restart":
            restart = getattr(admin, "restart", None)
            if restart is not None:
                self.cloud.invoke_api(lambda: restart(tid, OPERATOR, "chaos"), "admin")
        elif act.kind in MANAGEMENT_ACTS:
            self._manage(act)
        else:
            cancel = getattr(admin, "cancel", None) or admin.terminate
            self.cloud.invoke_api(lambda: cancel(tid, OPERATOR, "chaos"), "admin")

    def _manage(self, act: Act) -> None:
        """A stack adjustment or a disqualification (rule 19) of a player drawn from the act, sent as an operator
        would: again, with the same key, while the invocation died, and once more as a duplicate."""
        tid, management = self.tournament_id, self.services.management
        rng = random.Random(f"act:{self.plan.seed}:{act.kind}:{act.minute}")
        seated = sorted(
            e.player_id for e in self.store.entrants.list(tid) if e.table_id is not None and not e.eliminated
        )
        if not seated:
            return
        player = rng.choice(seated)
        key = f"chaos:{act.minute}"
        delta = rng.choice((500, 2_000, -100))

        def call() -> object:
            if act.kind == "disqualify":
                return management.disqualify(tid, player, OPERATOR, "chaos")
            return management.adjust_stack(tid, player, delta, OPERATOR, "chaos", key)

        for _ in range(3):
            ok, _answer = self.cloud.invoke_api(call, "admin")
            if ok:
                break
        self.cloud.invoke_api(call, "admin")  # a duplicate delivery of the same request: it changes nothing


def run_one(plan: RunPlan) -> tuple[dict[str, Any], list[dict[str, str]]]:
    """Play one run; its details and its violations."""
    sim = ChaosSimulation(plan)
    found: list[str] = []
    try:
        sim.run_plan()
    except Exception as error:  # a defect: report it with the run's seed, go on with the next run
        found.append(f"raised {type(error).__name__}: {error} | {_where(error)}")
    found += violations(sim)
    details = _details(sim)
    return details, [{"run_seed": str(plan.seed), "invariant": v.split(":")[0], "detail": v} for v in found]


def _where(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)[-3:]
    return " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in reversed(frames))


def violations(sim: Simulation) -> list[str]:
    """What must hold after every run (issue 8): money, payments, chips, and an end within the rules' times."""
    found: list[str] = [f"permission: {refusal}" for refusal in sim.cloud.refused()]
    store, tid = sim.store, sim.tournament_id
    money = store.money
    try:
        money.verify_invariants()
    except Exception as error:
        found.append(f"money conserved: {error}")
    s = money.summary(tid)
    whole = money.summary()
    pool_left = s.prize_pool_held
    if whole.player_balances + pool_left + s.house_revenue + s.refunds_owed != whole.deposits + s.overlay:
        found.append(
            f"money conserved: balances {whole.player_balances} + pool {pool_left} + house {s.house_revenue} "
            f"!= deposits {whole.deposits} + overlay {s.overlay}"
        )
    prizes: Counter[str] = Counter()
    compensations: Counter[str] = Counter()
    net: Counter[str] = Counter()
    paid_in: Counter[str] = Counter()
    refunded: Counter[str] = Counter()
    for entry in money.entries(tournament_id=tid):
        for leg in entry.legs:
            if leg.account.kind is not AccountKind.PLAYER:
                continue
            player = leg.account.owner
            net[player] += leg.amount
            if entry.kind is EntryKind.PRIZE:
                prizes[player] += 1
                if leg.amount < 0:
                    found.append(f"no prize taken back: {entry.key} debits {player}")
            elif entry.kind is EntryKind.COMPENSATION:
                compensations[player] += 1
                if leg.amount < 0:
                    found.append(f"no prize taken back: compensation {entry.key} debits {player}")
            elif entry.kind is EntryKind.REFUND:
                refunded[player] += leg.amount
            elif leg.amount < 0:
                paid_in[player] -= leg.amount
            elif entry.kind is not EntryKind.ADJUSTMENT:
                found.append(f"nobody paid twice: {entry.kind} {entry.key} credits {player}")
    for player, n in (prizes + compensations).items():
        if prizes[player] > 1 or compensations[player] > 1:
            found.append(
                f"nobody paid twice: {player} has {prizes[player]} prizes and {n - prizes[player]} compensations"
            )
    entrants = {e.player_id: e for e in store.entrants.list(tid)}
    for player, amount in paid_in.items():
        if player in entrants:
            if entrants[player].contribution.total_paid != amount - refunded[player]:
                found.append(
                    f"charged without an entry: {player} paid {amount - refunded[player]}, "
                    f"entry records {entrants[player].contribution.total_paid}"
                )
        elif refunded[player] != amount:
            found.append(f"charged without an entry or a refund: {player} paid {amount}, refunded {refunded[player]}")
    t = store.tournaments.get(tid)
    if t.status == "finished" and pool_left != 0:
        found.append(f"money conserved: a finished tournament's pool holds {pool_left}")
    ended = t.ended_at
    if t.status == "terminated":
        if ended is None:
            found.append("reaches an end state: terminated and never compensated")
        elif t.terminated_at is not None:
            first = min(
                (e.at for e in money.entries(tournament_id=tid) if e.kind is EntryKind.COMPENSATION), default=None
            )
            if first is not None and first < t.terminated_at + RESTART_WINDOW:
                found.append(f"the 20-minute window: compensation at {first}, terminated at {t.terminated_at}")
            if ended > t.terminated_at + RESTART_WINDOW + COMPENSATION_GRACE:
                found.append(f"reaches an end state in time: compensated at {ended}, terminated at {t.terminated_at}")
            if pool_left != 0:
                found.append(f"money conserved: a compensated tournament's pool holds {pool_left}")
    elif t.status == "cancelled":
        if ended is None:
            found.append("reaches an end state: cancelled and never refunded")
        if any(e.contribution.total_paid for e in entrants.values()) and sum(net.values()) != 0:
            found.append("refunded: a cancelled tournament kept players' money")
        if t.start_at is not None and ended is not None and ended > t.start_at + REFUND_WITHIN:
            found.append(f"refunded in time: cancelled at {ended}")
        if pool_left != 0 or s.house_revenue != 0:
            found.append(f"refunded: a cancelled tournament holds pool {pool_left}, house {s.house_revenue}")
    elif t.status != "finished":
        found.append(f"reaches an end state: {t.status}")
    for record in sim.hands_dealt_while_terminated():
        found.append(f"nothing moves while terminated: {record}")
    return found


def _details(sim: Simulation) -> dict[str, Any]:
    store, tid = sim.store, sim.tournament_id
    plan: RunPlan = sim.plan  # type: ignore[attr-defined]
    s = store.money.summary(tid)
    whole = store.money.summary()
    t = store.tournaments.get(tid)
    entrants = store.entrants.list(tid)
    players = sorted({p for p in sim.players})
    return {
        "run_seed": plan.seed,
        "scenario": plan.scenario,
        "format": str(plan.options.format),
        "players": plan.options.players,
        "guarantee": plan.options.guarantee,
        "faults": list(sim.faults.log),
        "outcome": outcome_of(sim),
        "ledger": {
            "deposits": whole.deposits,
            "player_balances": whole.player_balances,
            "prize_pool_collected": s.prize_pool_collected,
            "overlay": s.overlay,
            "prizes_paid": s.prizes_paid,
            "house_revenue": s.house_revenue,
            "refunds": s.refunds,
            "pool_left": s.prize_pool_held,
        },
        "entries": [{"player": e.player_id, "total_paid": e.contribution.total_paid} for e in entrants],
        "places": sorted(
            (
                {"player": e.player_id, "place": e.placing.place, "prize": e.placing.prize}
                for e in entrants
                if e.placing
            ),
            key=lambda row: (row["place"], row["player"]),
        ),
        "balances": {p: store.money.balance(player_account(p)) for p in players},
        "status": str(t.status),
        "_counts": sim.faults.counts,
    }


def outcome_of(sim: Simulation) -> str:
    t = sim.store.tournaments.get(sim.tournament_id)
    if t.status == "cancelled":
        return "cancelled"
    if t.status == "terminated":
        return compensation_outcome(sim) or "terminated"
    if sim.restarts:
        return "restarted"
    return "finished" if t.status == "finished" else str(t.status)


def run_many(runs: int, seed: int, players_max: int = DEFAULT_PLAYERS_MAX, progress: bool = False) -> dict[str, Any]:
    master = random.Random(f"chaos:{seed}")
    seeds = [master.randrange(1, 2**31) // len(SCENARIOS) * len(SCENARIOS) + i % len(SCENARIOS) for i in range(runs)]
    return _report(seeds, seed, players_max, progress)


def _report(seeds: list[int], seed: int | None, players_max: int, progress: bool) -> dict[str, Any]:
    faults = FaultCounts()
    outcomes: Counter[str] = Counter(
        {k: 0 for k in ("finished", "restarted", "rollback", "payout", "refund_share", "cancelled")}
    )
    details: list[dict[str, Any]] = []
    found: list[dict[str, str]] = []
    for n, run_seed in enumerate(seeds, 1):
        plan = plan_run(run_seed, players_max)
        detail, bad = run_one(plan)
        outcomes[detail["outcome"]] += 1
        faults.add(_counts_of(detail))
        details.append(detail)
        found += bad
        if progress:
            sys.stderr.write(f"\rrun {n}/{len(seeds)}: {len(found)} violations")
            sys.stderr.flush()
    if progress:
        sys.stderr.write("\n")
    return {
        "runs": len(seeds),
        "seed": seed,
        "faults": faults.to_dict(),
        "outcomes": dict(outcomes),
        "violations": found,
        "details": details,
    }


def _counts_of(detail: dict[str, Any]) -> FaultCounts:
    counts: FaultCounts = detail.pop("_counts")
    return counts


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players-max", type=int, default=DEFAULT_PLAYERS_MAX)
    parser.add_argument("--report", type=Path, default=None)
    parser.add_argument("--replay", type=int, default=None, help="play one run again, by its run seed")
    parser.add_argument("--no-progress", action="store_true")


def run(args: argparse.Namespace) -> int:
    if args.replay is not None:
        report = _report([args.replay], None, args.players_max, False)
    else:
        report = run_many(args.runs, args.seed, args.players_max, progress=not args.no_progress and sys.stderr.isatty())
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(json.dumps(report, indent=2) + "\n")
    faults = report["faults"]
    print(
        f"chaos: {report['runs']} runs, {sum(faults.values())} faults injected {faults}, outcomes {report['outcomes']}"
    )
    for v in report["violations"]:
        print(
            f"VIOLATION run {v['run_seed']}: {v['detail']}  (replay: {replay_command(v['run_seed'], args.players_max)})"
        )
    return 1 if report["violations"] else 0


def replay_command(run_seed: str, players_max: int) -> str:
    """The command that plays one run again: a run's plan depends on its seed and on ``--players-max``."""
    command = f"tourney chaos --replay {run_seed}"
    return command if players_max == DEFAULT_PLAYERS_MAX else f"{command} --players-max {players_max}"
