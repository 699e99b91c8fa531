"""``tourney chaos``: many small seeded tournaments through the services, each under a fault plan (docs/interfaces.md).

In the way TigerBeetle's simulator tests its ledger: every run is one seed.
The seed draws the tournament from the whole space the API accepts (format,
field, fee, guarantee, 2 to 10 seats, level length, rebuy period, payout
table, decision time up to the maximum, tiny starting stacks), sent through
the API's own validation (``entrypoints/models.py``, then the admin service),
and a bad configuration beside it that must be refused at creation; a fault
plan (invocations dying at a commit or past their timeout, messages delivered
twice or late, workflow tasks failing, and lasting faults: a step or a
function failing every time for hours); and the operators' acts at any
instant, from the whole set the API offers (disqualify, among them the button's
player during a first hand and the last players; stack adjustments; deposits
and balance adjustments, sent again with their key and with the key and
another amount; mutes; cancel, terminate, restart), each through the service
the API calls, its answer checked (a refusal is a 4xx; anything else that
raises is a 5xx: a defect). The run plays through the simulated cloud, which
recovers as AWS would (redelivery, the workflows' retries, the watchdog, the
sweeper); then :func:`violations` checks what must hold: money, payments,
liveness (an end within the rules' times, no message dropped without a
record), nobody disqualified paid. A failing run prints its seed;
``--replay SEED`` plays it again, alone.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tourney.domain.errors import IGNORED_BY_TRIGGERS, Conflict, TourneyError
from tourney.domain.formats import TournamentFormat
from tourney.domain.hand.actions import SeatStatus
from tourney.domain.ledger import AccountKind, Entry, EntryKind, Ledger, player_account
from tourney.domain.structure import rebuy_period_for_minutes
from tourney.entrypoints.creation import CreateTournamentRequest
from tourney.services.admin import config_from
from tourney.services.commands import CreateTournament
from tourney.services.messages import HandEnded, RebuyClosed
from tourney.services.records import EntrantRecord, HandRecord, Record, TournamentRecord
from tourney.services.views import Coordinated
from tourney.simulation.faults import FaultCounts, FaultPlan, Lasting
from tourney.simulation.memory import EPOCH, OPERATOR, Simulation, SimulationOptions, compensation_outcome

RESTART_WINDOW = timedelta(minutes=20)
"""docs/rules.md, rule 17.2: compensation never starts before the termination plus exactly this."""
COMPENSATION_GRACE = timedelta(minutes=10)
"""How late after the window compensation may still be paid when its steps fail and are retried."""
REFUND_WITHIN = timedelta(hours=24)
"""docs/rules.md, rule 17.6: a tournament that should have started and did not refunds within this."""
QUIET_BEFORE_TERMINATION = timedelta(minutes=30)
"""A watchdog's termination with no fault that stops play (a death, a failed task, a lasting fault) this long
before it terminated a healthy tournament."""
TRIGGERED = ("last", "final_button")
"""Acts timed from an event of the run (the last two players left, the final table formed), not a clock."""
MANAGEMENT_ACTS = ("stack", "disqualify")
"""Operator acts of rule 19 at a player's table."""
ACT_KINDS = ("disqualify", "stack", "deposit", "adjustment", "mute", "cancel", "terminate", "restart")
"""Every operator act the API offers (``faults.operator_acts``, docs/performance.md)."""
LASTING_TARGETS = ("seat_batch", "deal_first_hands", "compensate", "try_restart", "coordinator", "watchdog")
"""Steps (``simulation/cloud.py``'s workflows) and functions (``infra/wiring.py``) a lasting fault takes down."""
RECOVERY_STEPS = ("try_restart", "compensate", "watchdog")
"""What refunds a tournament that never dealt (rule 17.6): while one is down, its 24 hours wait for the repair."""
DEFAULT_PLAYERS_MAX = 40
"""Fields of 2 to this many players (``--players-max``, docs/interfaces.md)."""
LONG_DECISION_SECONDS = 60
"""From this decision time on, bots often let their time (and their time bank) run out."""

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
TERMINATING = ("terminate_early", "terminate_late", "terminate_restart", "terminate_in_compensation", "refund_share")


@dataclass(frozen=True)
class Act:
    """An operator's act at ``minute`` (after ``started_at`` when ``after_start``, else after the start time).

    ``target``: whom a disqualification aims at (``random``; ``button``: the player who drew a first hand's
    button; ``last``: one of the last two players, ``minute`` after they are heads-up), or how a deposit or an
    adjustment is sent again (``same``: with its key, ``other``: with its key and another amount).
    """

    kind: str
    minute: float
    after_start: bool = True
    target: str = "random"
    race: bool = False
    """Sent while another request is in flight: it runs inside the next commit of any (``MemoryStore.before_commit``),
    so that commit finds what it read changed, as two requests racing on DynamoDB do."""


@dataclass(frozen=True)
class RunPlan:
    seed: int
    scenario: str
    options: SimulationOptions
    acts: tuple[Act, ...]
    body: dict[str, Any] = field(default_factory=dict)
    """The creation request (``POST /admin/tournaments``) the API accepted: what the run plays."""
    bad_body: dict[str, Any] | None = None
    """A creation request with a bad configuration (``bad_kind`` names how), sent first: it must be refused."""
    bad_kind: str = ""
    lasting: tuple[Lasting, ...] = ()


def plan_run(seed: int, players_max: int = DEFAULT_PLAYERS_MAX, *, wide: bool = True) -> RunPlan:
    """Everything one run does, drawn from its seed alone.

    ``wide``: also from the whole space the API accepts (configurations, every operator act, a bad
    configuration, lasting faults), drawn from generators of their own after the narrow plan, so that
    ``wide=False`` is the plan the seed drew before the widening.
    """
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
    acts = _operator_acts(scenario, rng)
    restart = scenario == "terminate_restart"
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
    narrow = RunPlan(seed, scenario, options, tuple(acts), body=_narrow_body(options, seed))
    return _widened(narrow) if wide else narrow


def _operator_acts(scenario: str, rng: random.Random) -> list[Act]:
    """What the operator does in ``scenario``, and when (seconds from the start; negative: before it)."""
    acts: list[Act] = []
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
    elif scenario == "terminate_in_compensation":
        at = rng.uniform(0, 90)
        acts += [
            Act("terminate", at),
            Act(rng.choice(("restart", "terminate", "cancel")), at + 20 + rng.uniform(0, 1.2)),
        ]
    elif scenario == "refund_share":
        acts.append(Act("terminate", rng.uniform(30.5, 45)))
    return acts


def _racing_first(acts: Sequence[Act]) -> list[Act]:
    """Acts that race scheduled before the others of their instant: armed first, they run inside the others'."""
    return sorted(acts, key=lambda act: not act.race)


def _narrow_body(o: SimulationOptions, seed: int) -> dict[str, Any]:
    """The creation request of the narrow plan: what ``Simulation`` sends for these options."""
    sng = o.format is TournamentFormat.SNG
    body: dict[str, Any] = {
        "name": f"simulated {o.format} of {o.players}",
        "format": str(o.format),
        "buy_in": o.buy_in,
        "entry_fee": o.entry_fee,
        "guarantee": o.guarantee,
        "max_players": o.players if sng else (o.max_players or max(o.players, 2)),
        "seats_per_table": o.seats,
        "level_minutes": o.level_minutes,
        "tournament_id": f"sim-{o.format}-{o.players}-{seed}",
    }
    if not sng:
        body["start_at"] = EPOCH.isoformat()
    if o.format is TournamentFormat.REBUY and o.rebuy_minutes:
        period = rebuy_period_for_minutes(o.rebuy_minutes, o.level_minutes or 10)
        body["rebuy_levels"] = [period.first_level, period.last_level]
    if o.add_on_chips is not None:
        body["add_on_chips"] = o.add_on_chips
    return body


def create_command(body: dict[str, Any]) -> CreateTournament:
    """The command ``POST /admin/tournaments`` sends the admin service for ``body`` (``functions/admin/app.py``).

    The body is read as the API reads it, from JSON, by its model: a body the model refuses raises
    ``ValidationError`` (a 422).
    """
    request = CreateTournamentRequest.model_validate_json(json.dumps(body))
    return CreateTournament(**request.model_dump(exclude_none=True), operator=OPERATOR)


def _accepted(body: dict[str, Any]) -> bool:
    """The API's model and the domain's configuration accept ``body`` (what creation checks before it writes)."""
    try:
        config_from(create_command(body))
    except (ValidationError, TourneyError):
        return False
    return True


def _payout_table(rng: random.Random, places: int) -> list[int]:
    """Percentages per place adding to 100, never paying a worse place more."""
    cuts = sorted(rng.sample(range(1, 100), places - 1)) if places > 1 else []
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, 100], strict=True)]
    return sorted(parts, reverse=True)


WIDENED_FIELDS = ("min_players", "payout_percent", "starting_stack", "decision_seconds", "rebuy_levels", "guarantee")
"""Drawn beyond the narrow plan; dropped in this order while the API would refuse the body."""


def _wide_body(plan: RunPlan, rng: random.Random) -> dict[str, Any]:
    o = plan.options
    body = dict(plan.body)
    body["seats_per_table"] = rng.randint(2, 10)
    decision = rng.choice((None, None, 1, 5, 30, 120, 300, 300))
    if decision is not None:
        body["decision_seconds"] = decision
    stack = rng.choice((None, None, None, None, 1, 20, 50, 150, 1_000))
    if stack is not None and plan.scenario != "refund_share":
        body["starting_stack"] = stack
    if rng.random() < 0.5:
        body["payout_percent"] = _payout_table(rng, rng.randint(1, min(10, o.players + 2)))
    if o.format is TournamentFormat.REBUY and plan.scenario != "refund_share":
        first = rng.randint(1, 3)
        body["rebuy_levels"] = [first, first + rng.randint(0, 4)]
    if rng.random() < 0.25:
        body["guarantee"] = rng.choice((0, o.buy_in * o.players * 10, 1))
    if rng.random() < 0.2 and o.format is not TournamentFormat.SNG:
        body["min_players"] = rng.randint(2, o.players + 2)
    if rng.random() < 0.1 and plan.scenario != "refund_share":  # a freeroll, the house's guarantee its only pool
        body.update(buy_in=0, entry_fee=0, guarantee=rng.choice((0, 10_000)))
    for name in WIDENED_FIELDS:
        if _accepted(body):
            break
        body.pop(name, None)
        if name in plan.body:
            body[name] = plan.body[name]
    return body if _accepted(body) else dict(plan.body)


BAD_CONFIGURATIONS = (
    "payout_worse_place_more",
    "payout_not_100",
    "payout_zero",
    "rebuy_period_reversed",
    "rebuys_without_rebuy_format",
    "seats_out_of_range",
    "decision_out_of_range",
    "min_above_max",
    "start_time_of_a_sng",
    "start_time_not_iso",
    "starting_stack_zero",
)


def _bad_body(body: dict[str, Any], kind: str, rng: random.Random) -> dict[str, Any]:
    """``body`` made bad in the way ``kind`` names (every one of them the API must refuse at creation)."""
    bad = dict(body, tournament_id=f"{body['tournament_id']}-bad")
    if kind == "payout_worse_place_more":
        table = _payout_table(rng, rng.randint(2, 5))
        while len(set(table)) == 1:
            table = _payout_table(rng, len(table))
        bad["payout_percent"] = sorted(table) if rng.random() < 0.5 else [*table[1:], table[0]]
    elif kind == "payout_not_100":
        table = _payout_table(rng, rng.randint(1, 5))
        table[-1] += rng.choice((-1, 1, 10)) if table[-1] > 1 else 1
        bad["payout_percent"] = table
    elif kind == "payout_zero":
        bad["payout_percent"] = [*_payout_table(rng, rng.randint(1, 3)), 0]
    elif kind == "rebuy_period_reversed":
        bad.update(format="rebuy", rebuy_levels=[3, rng.randint(1, 2)])
    elif kind == "rebuys_without_rebuy_format":
        bad.update(format=rng.choice(("freezeout", "sng")), rebuy_levels=[1, 2])
    elif kind == "seats_out_of_range":
        bad["seats_per_table"] = rng.choice((0, 1, 11, 12))
    elif kind == "decision_out_of_range":
        bad["decision_seconds"] = rng.choice((0, 301, 3_600))
    elif kind == "min_above_max":
        bad["max_players"] = bad.get("max_players") or 9
        bad["min_players"] = bad["max_players"] + rng.randint(1, 5)
    elif kind == "start_time_of_a_sng":
        bad.update(format="sng", start_at=EPOCH.isoformat())
        bad.pop("rebuy_levels", None)
        bad.pop("add_on_chips", None)
    elif kind == "start_time_not_iso":
        bad["start_at"] = int(EPOCH.timestamp())
    elif kind == "starting_stack_zero":
        bad["starting_stack"] = 0
    return bad


def _wide_acts(plan: RunPlan, rng: random.Random) -> list[Act]:
    """The operators' acts of a run, beside its scenario's: every kind the API offers, at any instant."""
    acts = list(plan.acts)
    scenario = plan.scenario
    for _ in range(rng.randint(1, 2)):
        acts.append(Act("disqualify", rng.uniform(0.5, 40)))
    if rng.random() < 0.4:
        at = rng.uniform(0.001, 0.05)
        acts.append(Act("disqualify", at, target="button"))
        if scenario == "finish" and rng.random() < 0.7:  # the restart then deals with the button's seat empty
            terminated = at + rng.uniform(0.001, 0.05)
            acts += [Act("terminate", terminated), Act("restart", terminated + rng.uniform(0.3, 10))]
    if rng.random() < 0.6:
        acts.append(Act("disqualify", rng.uniform(0, 1.5), target="last"))
        if rng.random() < 0.6:  # both of the last two, one after the other or racing
            acts.append(Act("disqualify", rng.uniform(0, 1.5), target="last", race=rng.random() < 0.5))
    if rng.random() < 0.4:  # the button's player of the final table's first hand after its redraw
        acts.append(Act("disqualify", rng.uniform(0.001, 0.05), target="final_button"))
        if rng.random() < 0.5:
            acts += [
                Act("terminate", 0.06, target="final_button"),
                Act("restart", rng.uniform(0.5, 5), target="final_button"),
            ]
    for _ in range(rng.randint(2, 3)):
        acts.append(Act("stack", rng.uniform(0.2, 40)))
    for kind in ("deposit", "adjustment"):
        for _ in range(rng.randint(2, 4)):
            acts.append(Act(kind, rng.uniform(-110, 20), after_start=False, target=rng.choice(("same", "other"))))
    for _ in range(rng.randint(2, 4)):
        acts.append(Act("mute", rng.uniform(-110, 20), after_start=False, target=rng.choice(("mute", "unmute"))))
    for _ in range(rng.randint(1, 2)):
        acts.append(Act("cancel", rng.uniform(0, 30)))
    terminations = [a for a in plan.acts if a.kind == "terminate"]
    running_until = terminations[0].minute if terminations else 30
    for _ in range(rng.randint(2, 3)):  # while it runs: refused (a restart of the scenario's termination is its own)
        acts.append(Act("restart", rng.uniform(0, running_until)))
    if terminations:
        first = terminations[0]
        acts.append(Act("terminate", first.minute, race=True))  # sent twice at once: a double click
        acts.append(Act("terminate", first.minute + rng.uniform(0.1, 19)))
        if rng.random() < 0.5:  # while it is compensated
            acts.append(Act("terminate", first.minute + 20 + rng.uniform(0.01, 1)))
        for restart in [a for a in plan.acts if a.kind == "restart"]:
            acts.append(Act("restart", restart.minute, race=True))  # two restarts at once
    elif scenario in ("cancel_registering", "cancel_at_start"):
        cancel = plan.acts[0]
        acts.append(Act("terminate", cancel.minute + rng.uniform(0, 0.5), after_start=False))
        acts.append(Act("cancel", cancel.minute + rng.uniform(0, 0.5), after_start=False))
    return acts


def _lasting_faults(plan: RunPlan, rng: random.Random) -> tuple[Lasting, ...]:
    """At most one lasting fault: a step or function down for hours, from about the start on (the recovery's
    steps in runs that terminate, where they run)."""
    if rng.random() >= 0.4:
        return ()
    targets = LASTING_TARGETS if plan.scenario in TERMINATING else LASTING_TARGETS[:2] + LASTING_TARGETS[4:]
    target = rng.choice(targets)
    begins = rng.uniform(-10, 0)
    hours = rng.choice((0.5, 1, 2, 4, 8, 30))
    start = EPOCH + timedelta(minutes=begins)
    if plan.options.format is TournamentFormat.SNG:
        start -= timedelta(hours=2)  # a Sit&Go starts when full, during registration
    return (Lasting(target, start, start + timedelta(hours=hours)),)


def _widened(plan: RunPlan) -> RunPlan:
    seed = plan.seed
    body = _wide_body(plan, random.Random(f"wide:{seed}"))
    plan = RunPlan(seed, plan.scenario, plan.options, plan.acts, body=body)
    bad_rng = random.Random(f"bad:{seed}")
    kind = bad_rng.choice(BAD_CONFIGURATIONS) if bad_rng.random() < 0.6 else ""
    bad = _bad_body(body, kind, bad_rng) if kind else None
    acts = _wide_acts(plan, random.Random(f"acts:{seed}"))
    lasting = _lasting_faults(plan, random.Random(f"lasting:{seed}"))
    return RunPlan(seed, plan.scenario, plan.options, tuple(acts), body, bad, kind, lasting)


Answer = tuple[str, Any]
"""What an API request came to: ("ok", its answer), ("refused", the 4xx error), ("died", None: a 5xx of an
injected death, retried), or ("error", the exception: a 5xx no fault explains)."""


class ChaosSimulation(Simulation):
    """A simulation whose operator acts by the run's plan instead of ``--terminate-at``."""

    def __init__(self, plan: RunPlan) -> None:
        super().__init__(plan.options, faults=FaultPlan.drawn(plan.seed, plan.lasting))
        self.faults.clock = self.cloud.now
        self.refusals_fail = False  # a call AWS refused is reported as a permission violation (``violations``)
        self.crowd.eager_rebuys = 0.05
        self.deadline = timedelta(days=2)  # rule 17.6's 24 hours, and the longest small tournament, fit in it
        self.plan = plan
        self._scheduled_after_start = False
        self.found: list[str] = []
        """Violations seen while the run played (an act's answer, a message dropped, a bad configuration)."""
        self.acts: Counter[str] = Counter()
        self._heads_up: list[Act] = [a for a in plan.acts if a.target == "last" and a.kind == "disqualify"]
        self._final_table: list[Act] = [a for a in plan.acts if a.target == "final_button"]
        self._act_rng = random.Random(f"operator:{plan.seed}")
        self._patience = random.Random(f"patience:{plan.seed}")
        self.terminations: list[tuple[datetime, str]] = []
        """When the tournament was terminated, and by whom."""
        self.stopping_faults: list[datetime] = []
        """When a fault that stops play struck (an invocation died, a task failed, a lasting fault)."""
        self._watch_coordinator()
        self._watch_rebuys()
        self._watch_stopping_faults()
        self._bots_let_time_run_out()

    # -- set-up: the configuration through the API's validation --------------------------

    def _create(self) -> None:
        if self.plan.bad_body is not None:
            self._create_bad(self.plan.bad_kind, self.plan.bad_body)
        command = create_command(self.plan.body)
        self.cloud.run_as("admin", lambda: self.services.admin.create_tournament(command))

    def _create_bad(self, kind: str, body: dict[str, Any]) -> None:
        self.faults.log.append(f"operator creates a bad configuration ({kind}) {json.dumps(body, sort_keys=True)}")
        try:
            command = create_command(body)
        except ValidationError:
            return  # a 422 at the edge
        answer = self._request("create", lambda: self.services.admin.create_tournament(command), attempts=3)
        if answer[0] == "ok":
            self.found.append(f"bad_configuration_accepted: {kind} {json.dumps(body, sort_keys=True)} answered 201")

    def read_pages(self) -> None:
        """The lobby, the tournament's page and its standings, as a player's app reads them: never a 500."""
        lobby = self.services.lobby
        self._request("the lobby", lobby.list_tournaments, function="api", what="pages")
        for tid in (self.tournament_id, f"{self.tournament_id}-bad"):
            self._request(f"{tid}'s page", functools.partial(lobby.tournament, tid), function="api", what="pages")
            self._request(f"{tid}'s standings", functools.partial(lobby.standings, tid), function="api", what="pages")

    def register_again(self) -> None:
        """A player leaves before the start and their app registers again with the key of the first registration:
        never answered as registered while the player is not (a key names one request)."""
        rng, tid = random.Random(f"register:{self.plan.seed}"), self.tournament_id
        player = rng.choice(self.players)
        registration, lobby = self.services.registration, self.services.lobby
        left = self._request("unregister", lambda: registration.unregister(tid, player), 3, "api", "registration")
        if left[0] != "ok":
            return
        self.faults.log.append(f"player {player} unregisters and registers again with the same key")
        again = self._request(
            "register", lambda: registration.register(tid, player, f"{tid}:{player}"), 3, "api", "registration"
        )
        if again[0] == "ok" and again[1].status in ("registered", "waitlisted"):
            mine = self._request("registration", lambda: lobby.my_registration(tid, player), 3, "api", "pages")
            if mine[0] == "ok" and mine[1].status != again[1].status:
                self.found.append(
                    f"idempotency: {player}'s key reused after unregistering answered {again[1].status}, "
                    f"the registration is {mine[1].status}"
                )
        if again[0] != "ok":  # the key is spent: the app registers with a new one
            self._request("register", lambda: registration.register(tid, player, f"{tid}:{player}:again"), 3, "api")

    def run_plan(self) -> None:
        if self.plan.options.format is not TournamentFormat.SNG:
            at = random.Random(f"register:{self.plan.seed}").uniform(-50, -5)
            self.cloud.at(EPOCH + timedelta(minutes=at), self.register_again, "player")
        for minutes in (-60, 2, 30):
            self.cloud.at(EPOCH + timedelta(minutes=minutes), self.read_pages, "player")
        for act in _racing_first(self.plan.acts):
            if not act.after_start and act.target not in TRIGGERED:
                self.cloud.at(
                    EPOCH + timedelta(minutes=act.minute), functools.partial(self._scheduled, act), "operator"
                )
        self.run()

    def _maybe_schedule_termination(self) -> None:
        if self._scheduled_after_start:
            return
        started = self.store.tournaments.get(self.tournament_id).started_at
        if started is None:
            return
        self._scheduled_after_start = True
        for act in _racing_first(self.plan.acts):
            if act.after_start and act.target not in TRIGGERED:
                self.cloud.at(
                    started + timedelta(minutes=act.minute), functools.partial(self._scheduled, act), "operator"
                )

    def _after_hand(self, record: HandRecord) -> None:
        super()._after_hand(record)
        if not (self._heads_up or self._final_table):
            return
        coordinator = self.store.coordinators.get(self.tournament_id)
        if coordinator is None:
            return
        acts: list[Act] = []
        if self._heads_up and coordinator.state.remaining <= 2:
            acts, self._heads_up = self._heads_up, []
        if self._final_table and coordinator.state.final_table_formed:
            acts, self._final_table = acts + self._final_table, []
        for act in _racing_first(acts):
            self.cloud.after(act.minute * 60, functools.partial(self._scheduled, act), "operator")

    def _saved(self, record: Record) -> None:
        super()._saved(record)
        if not isinstance(record, TournamentRecord) or record.tournament_id != self.tournament_id:
            return
        terminated = record.terminated_at
        new = not self.terminations or self.terminations[-1][0] != terminated
        if record.status == "terminated" and terminated is not None and new:
            self.terminations.append((terminated, record.terminated_by))

    # -- what the run watches --------------------------------------------------------------

    def _watch_coordinator(self) -> None:
        """Record every hand end the coordinator ignored: a trigger may ignore only what is stale or a duplicate."""
        coordinator = self.services.coordinator
        original = coordinator.on_hand_ended

        def on_hand_ended(message: HandEnded | RebuyClosed) -> Coordinated:
            try:
                return original(message)
            except IGNORED_BY_TRIGGERS as error:
                self._ignored(message, error)
                raise

        coordinator.on_hand_ended = on_hand_ended  # type: ignore[method-assign]

    def _ignored(self, message: HandEnded | RebuyClosed, error: TourneyError) -> None:
        try:
            record = self.store.tables.get(message.tournament_id, message.table)
        except TourneyError:
            return  # the table is gone: stale
        table = record.table
        stale = record.closed or record.coordinated_hand >= message.hand or table.hand_number != message.hand
        if isinstance(message, RebuyClosed):
            stale = stale or not record.rebuy_pending
        if not stale:
            self.found.append(
                f"liveness: the coordinator dropped {message.kind} of hand {message.hand} at table {message.table} "
                f"at {self.cloud.now()} ({type(error).__name__}: {error}), neither stale nor a duplicate"
            )

    def _watch_rebuys(self) -> None:
        """After a player's decision, now and then, they try to rebuy twice at once (an attacker's client): accepted
        only at or below the starting stack by the chips they own (the stack they started the hand with, chips
        bought in it), never by the chips behind after going all in."""
        if self.plan.options.format is not TournamentFormat.REBUY:
            return
        play, rng = self.services.play, random.Random(f"rebuys:{self.plan.seed}")
        act = play.act

        def acting(tid: str, table: str, player: str, *decision: Any) -> Any:
            answer = act(tid, table, player, *decision)
            if rng.random() < 0.3:
                self.cloud.after(0.2, functools.partial(self._rebuy_all_in, table, player), "attacker")
            return answer

        play.act = acting  # type: ignore[method-assign, assignment]

    def _rebuy_all_in(self, table_id: str, player: str) -> None:
        tid, play = self.tournament_id, self.services.play
        starting = self.store.tournaments.get(tid).config.starting_stack
        for _ in range(2):
            record = self.store.stored_table(tid, table_id)
            table, hand = record.table, record.table.hand
            if hand is None or hand.is_over or player not in table.players.values():
                return
            seat = table.seat_of(player)
            if seat not in hand.seats or hand.status(seat) is not SeatStatus.ALL_IN:
                return
            # A lower bound of the chips owned (a big blind's ante is not counted in what the hand says it paid)
            owned = hand.stack(seat) + hand.committed(seat) + sum(c for p, c in record.pending_chips if p == player)
            answer = self._request("rebuy", lambda: play.rebuy(tid, player), function="api")
            if answer[0] == "ok" and owned > starting:
                self.found.append(
                    f"rebuy_eligibility: {player} all in at table {table_id} owning {owned} chips "
                    f"(starting stack {starting}) rebought at {self.cloud.now()}"
                )

    def _watch_stopping_faults(self) -> None:
        faults, now = self.faults, self.cloud.now
        crash_point, task_fails = faults.crash_point, faults.task_fails

        def crashing(function: str) -> Any:
            point = crash_point(function)
            if point is not None:
                self.stopping_faults.append(now())
            return point

        def failing(step: str) -> bool:
            fails = task_fails(step)
            if fails:
                self.stopping_faults.append(now())
            return fails

        faults.crash_point = crashing  # type: ignore[method-assign]
        faults.task_fails = failing  # type: ignore[method-assign]

    def _bots_let_time_run_out(self) -> None:
        """With long decision times, a bot often lets its whole time and time bank run out (rule 16)."""
        decision = int(self.plan.body.get("decision_seconds") or 0)
        if decision < LONG_DECISION_SECONDS:
            return
        armed = self.cloud.on_armed
        rng = self._patience

        def on_armed(due: Any, seconds: float) -> None:
            if rng.random() >= 0.08:
                armed(due, seconds)

        self.cloud.on_armed = on_armed

    # -- the operators' acts -----------------------------------------------------------------

    def _request(
        self, name: str, call: Callable[[], Any], attempts: int = 1, function: str = "admin", what: str = "operator_act"
    ) -> Answer:
        """An operator's HTTP request through the API function, sent again after a 5xx up to ``attempts`` times."""

        def answered() -> Answer:
            try:
                return "ok", call()
            except TourneyError as refused:  # a 4xx with the contract's error body
                return "refused", refused

        for _ in range(attempts):
            try:
                ok, answer = self.cloud.invoke_api(answered, function)
            except Exception as error:  # a 5xx that no injected fault explains: a defect
                self.found.append(
                    f"operator_act: {name} answered 500 {type(error).__name__}: {error} | {_where(error)}"
                )
                return "error", error
            if ok and answer is not None:
                return answer
        return "died", None

    def _scheduled(self, act: Act) -> None:
        self._act(act)

    def _act(self, act: Act) -> Answer | None:
        self.faults.counts.operator_acts += 1
        self.acts[act.kind] += 1
        self.faults.log.append(f"operator {act.kind} ({act.target}) at {self.cloud.now().isoformat()}")
        if act.race:
            self._race(act)
            return None
        answer: Answer | None = getattr(self, f"_act_{act.kind}")(act)
        return answer

    def _race(self, act: Act) -> None:
        """``act`` inside the next commit, whatever commits next; sent alone if nothing commits meanwhile."""
        store, before = self.store, self.store.before_commit
        sent = False

        def send() -> None:
            nonlocal sent
            if sent:
                return
            sent = True
            store.before_commit = before
            getattr(self, f"_act_{act.kind}")(act)

        store.before_commit = send
        self.cloud.after(0.001, send, "operator")

    def acts_after_the_end(self) -> None:
        """Once the tournament ended, every act on it is refused: nothing is terminated, restarted, cancelled,
        disqualified or adjusted again (the acts a late or repeated click sends)."""
        for kind in ("terminate", "restart", "cancel", "disqualify", "stack"):
            before = self._ended_state()
            self._act(Act(kind, 0.0, target="anyone"))
            if self._ended_state() != before:
                self.found.append(f"operator_act: {kind} changed a tournament that ended: {before[:2]}")

    def _ended_state(self) -> tuple[object, ...]:
        t = self.store.tournaments.get(self.tournament_id)
        return (
            str(t.status),
            t.ended_at,
            len(self.store.money.entries()),
            len(self.store.stored_tables(t.tournament_id)),
        )

    def _act_terminate(self, act: Act) -> Answer:
        admin, tid = self.services.admin, self.tournament_id
        return self._request("terminate", lambda: admin.terminate(tid, OPERATOR, "chaos"))

    def _act_restart(self, act: Act) -> Answer:
        admin, tid = self.services.admin, self.tournament_id
        return self._request("restart", lambda: admin.restart(tid, OPERATOR, "chaos"))

    def _act_cancel(self, act: Act) -> Answer:
        admin, tid = self.services.admin, self.tournament_id
        return self._request("cancel", lambda: admin.cancel(tid, OPERATOR, "chaos"))

    def _seated(self) -> list[str]:
        return sorted(
            e.player_id
            for e in self.store.entrants.list(self.tournament_id)
            if e.table_id is not None and not e.eliminated and e.disqualified_at is None
        )

    def _button_player(self) -> str | None:
        """The player who drew the button at a table playing its first hand after a draw (rule 6)."""
        for record in sorted(self.store.stored_tables(self.tournament_id), key=lambda r: r.table_id):
            table, draw = record.table, record.table.button_draw
            first = table.hand_number == 1 or (draw is not None and draw.hand == table.hand_number)
            if first and table.hand_in_progress and table.button_seat is not None:
                player = table.player_at(table.button_seat)
                if player is not None:
                    return player
        return None

    def _act_disqualify(self, act: Act) -> None:
        seated = self._seated()
        player = self._button_player() if act.target in ("button", "final_button") else None
        if player is None and seated:
            player = self._act_rng.choice(seated)
        if player is None:
            return
        tid, management = self.tournament_id, self.services.management
        self._request(f"disqualify {player}", lambda: management.disqualify(tid, player, OPERATOR, "chaos"), attempts=3)
        self._request(f"disqualify {player}", lambda: management.disqualify(tid, player, OPERATOR, "chaos"))

    def _act_stack(self, act: Act) -> Answer | None:
        """A stack adjustment sent as an operator would: again with its key while it died, then as a duplicate."""
        seated = self.players if act.target == "anyone" else self._seated()
        if not seated:
            return None
        tid, management = self.tournament_id, self.services.management
        player = self._act_rng.choice(seated)
        key = f"chaos:{act.minute}"
        delta = self._act_rng.choice((500, 2_000, -100))

        def call() -> object:
            return management.adjust_stack(tid, player, delta, OPERATOR, "chaos", key)

        answer = self._request("stack adjustment", call, attempts=3)
        self._request("stack adjustment", call)  # a duplicate delivery of the same request: it changes nothing
        if answer[0] == "ok" and act.target != "anyone":
            other = delta + self._act_rng.choice((1, 1_000))
            again = self._request(
                "stack adjustment", lambda: management.adjust_stack(tid, player, other, OPERATOR, "chaos", key)
            )
            self._reused("stack adjustment", f"{delta} chips", f"{other}", again)
        return answer

    def _reused(self, name: str, first: str, other: str, again: Answer) -> None:
        """A request re-sent under its key with another body: a 409 that changes nothing (a key names one request)."""
        if again[0] == "ok":
            self.found.append(f"idempotency: {name} of {first} re-sent with its key and {other} answered 2xx")
        elif again[0] == "refused" and not isinstance(again[1], Conflict):
            self.found.append(
                f"idempotency: {name} re-sent with its key and another body refused with "
                f"{type(again[1]).__name__}, not a conflict"
            )

    def _money_target(self) -> str:
        rng = self._act_rng
        return rng.choice(self.players) if rng.random() < 0.8 else f"x{rng.randrange(1_000):03d}"

    def _act_deposit(self, act: Act) -> None:
        management = self.services.management

        def send(player: str, amount: int, key: str) -> Callable[[], object]:
            return lambda: management.deposit(player, amount, OPERATOR, key, "chaos")

        self._money_act("deposit", act, lambda rng: rng.choice((500, 2_500, 10_000)), send)

    def _act_adjustment(self, act: Act) -> None:
        management = self.services.management

        def send(player: str, amount: int, key: str) -> Callable[[], object]:
            return lambda: management.adjust_balance(player, amount, OPERATOR, "chaos", key)

        self._money_act("adjustment", act, lambda rng: rng.choice((300, 1_000, -200, -50_000)), send)

    def _money_act(
        self,
        name: str,
        act: Act,
        amount_of: Callable[[random.Random], int],
        send: Callable[[str, int, str], Callable[[], object]],
    ) -> None:
        """A deposit or an adjustment, sent again with its key (it changes nothing) and, for ``other``, with its
        key and another amount: refused with a conflict, never credited twice nor at the other amount."""
        rng = self._act_rng
        player, amount = self._money_target(), amount_of(rng)
        key = f"chaos-{name}-{self.acts[name]}-{rng.randrange(10**6)}"
        account = player_account(player)
        before = self.store.money.balance(account)
        first = self._request(name, send(player, amount, key), attempts=3)
        self._request(name, send(player, amount, key))
        if act.target == "other" and first[0] == "ok":
            other = amount + rng.choice((1, 100, 5_000))
            again = self._request(name, send(player, other, key))
            self._reused(name, str(amount), str(other), again)
        moved = self.store.money.balance(account) - before
        allowed = {amount} if first[0] == "ok" else {0} if first[0] == "refused" else {0, amount}
        if moved not in allowed:
            self.found.append(f"idempotency: {name} of {amount} to {player} with key {key} moved {moved}")

    def _act_mute(self, act: Act) -> None:
        management, rng = self.services.management, self._act_rng
        player = rng.choice(self.players)
        key = f"chaos-mute-{self.acts['mute']}-{rng.randrange(10**6)}"
        minutes = rng.choice((None, 5, 60))
        mute = functools.partial(management.mute, player, OPERATOR, "chaos", minutes, key)
        first = self._request("mute", mute, attempts=3)
        self._request("mute", mute)
        if first[0] == "ok" and rng.random() < 0.5:
            longer = (minutes or 0) + 30
            again = self._request("mute", functools.partial(management.mute, player, OPERATOR, "chaos", longer, key))
            self._reused("mute", f"{minutes} minutes", f"{longer} minutes", again)
        if act.target == "unmute":
            unmute = functools.partial(management.unmute, player, OPERATOR, "chaos", f"{key}-lift")
            self._request("unmute", unmute, attempts=3)


def run_one(plan: RunPlan) -> tuple[dict[str, Any], list[dict[str, str]]]:
    """Play one run; its details and its violations."""
    sim = ChaosSimulation(plan)
    found: list[str] = []
    try:
        sim.run_plan()
        sim.acts_after_the_end()
        sim.read_pages()
    except Exception as error:  # a defect: report it with the run's seed, go on with the next run
        found.append(_raised(error))
    found += violations(sim)
    details = _details(sim)
    return details, [{"run_seed": str(plan.seed), "invariant": v.split(":")[0], "detail": v} for v in found]


def _raised(error: BaseException) -> str:
    """A run that raised: a tournament that never ended is a liveness violation, a configuration refused after
    its creation is one of its own, anything else a defect that raised."""
    text = f"{type(error).__name__}: {error} | {_where(error)}"
    if "did not end" in str(error):
        return f"liveness: {text}"
    chain: list[BaseException] = []
    cause: BaseException | None = error
    while cause is not None and len(chain) < 10:
        chain.append(cause)
        cause = cause.__cause__ or cause.__context__
    if any(type(c).__name__ == "InvalidConfiguration" for c in chain):
        return f"refused_after_creation: {text}"
    return f"raised {text}"


def _where(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)[-3:]
    return " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in reversed(frames))


def violations(sim: Simulation) -> list[str]:
    """What must hold after every run: money, payments, chips, liveness, nobody disqualified paid."""
    found: list[str] = list(getattr(sim, "found", []))
    found += [f"permission: {refusal}" for refusal in sim.cloud.refused()]
    found += [f"watch_failed: {failure}" for failure in sim.check_failures]
    store, tid = sim.store, sim.tournament_id
    found += _money_not_conserved(store.money, tid)
    s = store.money.summary(tid)
    entrants = {e.player_id: e for e in store.entrants.list(tid)}
    payments = _Payments(entrants)
    for entry in store.money.entries(tournament_id=tid):
        payments.read(entry)
    found += payments.found
    found += payments.paid_twice()
    found += payments.charged_without_an_entry()
    for e in entrants.values():
        if e.disqualified_at is not None and e.placing is not None and e.placing.prize:
            found.append(f"disqualified_paid: {e.player_id} placed {e.placing.place} for {e.placing.prize}")
    t = store.tournaments.get(tid)
    if t.status == "finished" and s.prize_pool_held != 0:
        found.append(f"money conserved: a finished tournament's pool holds {s.prize_pool_held}")
    found += _liveness(sim, t, s.prize_pool_held, s.house_revenue, payments.net, entrants)
    return found


def _money_not_conserved(money: Ledger, tid: str) -> list[str]:
    """The ledger's invariants, and every cent accounted for: balances, pool, house and refunds owed against
    deposits, overlay and adjustments."""
    found: list[str] = []
    try:
        money.verify_invariants()
    except Exception as error:
        found.append(f"money conserved: {error}")
    s = money.summary(tid)
    whole = money.summary()
    pool_left = s.prize_pool_held
    adjusted = -sum(amount for account, amount in money.balance_items() if account.kind is AccountKind.ADJUSTMENTS)
    if whole.player_balances + pool_left + s.house_revenue + s.refunds_owed != whole.deposits + s.overlay + adjusted:
        found.append(
            f"money conserved: balances {whole.player_balances} + pool {pool_left} + house {s.house_revenue} "
            f"!= deposits {whole.deposits} + overlay {s.overlay} + adjustments {adjusted}"
        )
    return found


class _Payments:
    """What the tournament's ledger entries paid each player and took from them, read entry by entry."""

    def __init__(self, entrants: dict[str, EntrantRecord]) -> None:
        self.entrants = entrants
        self.found: list[str] = []
        self.prizes: Counter[str] = Counter()
        self.compensations: Counter[str] = Counter()
        self.net: Counter[str] = Counter()
        self.paid_in: Counter[str] = Counter()
        self.refunded: Counter[str] = Counter()
        self.compensated: Counter[str] = Counter()

    def read(self, entry: Entry) -> None:
        """Count the entry's player legs; no disqualified player paid, no prize taken back, no purchase credited."""
        for leg in entry.legs:
            if leg.account.kind is not AccountKind.PLAYER:
                continue
            player = leg.account.owner
            self.net[player] += leg.amount
            disqualified = self.entrants[player].disqualified_at if player in self.entrants else None
            if disqualified is not None and leg.amount > 0 and entry.at >= disqualified:
                self.found.append(
                    f"disqualified_paid: {player}, disqualified at {disqualified}, paid {entry.kind} {entry.key}"
                )
            if entry.kind is EntryKind.PRIZE:
                self.prizes[player] += 1
                if leg.amount < 0:
                    self.found.append(f"no prize taken back: {entry.key} debits {player}")
            elif entry.kind is EntryKind.COMPENSATION:
                self.compensations[player] += 1
                self.compensated[player] += leg.amount
                if leg.amount < 0:
                    self.found.append(f"no prize taken back: compensation {entry.key} debits {player}")
            elif entry.kind is EntryKind.REFUND:
                self.refunded[player] += leg.amount
            elif leg.amount < 0:
                self.paid_in[player] -= leg.amount
            elif entry.kind is not EntryKind.ADJUSTMENT:
                self.found.append(f"nobody paid twice: {entry.kind} {entry.key} credits {player}")

    def paid_twice(self) -> list[str]:
        """Players given more than one prize, or more than one compensation."""
        prizes = self.prizes
        return [
            f"nobody paid twice: {player} has {prizes[player]} prizes and {n - prizes[player]} compensations"
            for player, n in (prizes + self.compensations).items()
            if prizes[player] > 1 or self.compensations[player] > 1
        ]

    def charged_without_an_entry(self) -> list[str]:
        """Players whose payments no entry records, and no refund or compensation gave back."""
        found: list[str] = []
        refunded, entrants = self.refunded, self.entrants
        for player, amount in self.paid_in.items():
            if player in entrants:
                # An entry records what was paid; one refunded (a start that never dealt, rule 17.6) may keep it
                paid = entrants[player].contribution.total_paid
                if paid != amount - refunded[player] and not (refunded[player] and paid <= amount):
                    found.append(
                        f"charged without an entry: {player} paid {amount - refunded[player]}, "
                        f"entry records {entrants[player].contribution.total_paid}"
                    )
            elif refunded[player] + self.compensated[player] != amount:
                # Seated by no step (a start that never seated them), a rollback pays them back as compensation
                found.append(
                    f"charged without an entry or a refund: {player} paid {amount}, refunded {refunded[player]}, "
                    f"compensated {self.compensated[player]}"
                )
        return found


def _repaired(sim: Simulation) -> datetime | None:
    """When the last lasting fault of the run ended (the rules' times run from then on)."""
    return max((f.end for f in sim.faults.lasting), default=None)


def _liveness(
    sim: Simulation, t: TournamentRecord, pool_left: int, house: int, net: Counter[str], entrants: dict[str, Any]
) -> list[str]:
    """Every tournament reaches finished, compensated or cancelled and refunded within the rules' times
    (rule 17: compensation once the 20 minutes are over, a refund within 24 hours of a start that dealt no
    hand), once any lasting fault is repaired; and a watchdog never terminates a tournament whose play went on."""
    found: list[str] = []
    money, tid = sim.store.money, sim.tournament_id
    ended = t.ended_at
    repaired = _repaired(sim)
    if t.status == "terminated":
        if ended is None:
            found.append("liveness: terminated and never compensated")
        elif t.terminated_at is not None:
            first = min(
                (e.at for e in money.entries(tournament_id=tid) if e.kind is EntryKind.COMPENSATION), default=None
            )
            if first is not None and first < t.terminated_at + RESTART_WINDOW:
                found.append(f"the 20-minute window: compensation at {first}, terminated at {t.terminated_at}")
            due = max(t.terminated_at + RESTART_WINDOW, repaired or t.terminated_at) + COMPENSATION_GRACE
            if ended > due:
                found.append(f"liveness: compensated at {ended}, terminated at {t.terminated_at}")
            if pool_left != 0:
                found.append(f"money conserved: a compensated tournament's pool holds {pool_left}")
    elif t.status == "cancelled":
        if ended is None:
            found.append("liveness: cancelled and never refunded")
        if any(e.contribution.total_paid for e in entrants.values()) and sum(net.values()) != 0:
            found.append("refunded: a cancelled tournament kept players' money")
        if t.start_at is not None and ended is not None and ended > t.start_at + REFUND_WITHIN:
            found.append(f"refunded in time: cancelled at {ended}")
        if pool_left != 0 or house != 0:
            found.append(f"refunded: a cancelled tournament holds pool {pool_left}, house {house}")
    elif t.status != "finished":
        found.append(f"liveness: {t.status} at the end of the run")
    should_start = t.start_at or t.started_at
    refund_due = should_start + REFUND_WITHIN if should_start is not None else None
    recovery_down = max((f.end for f in sim.faults.lasting if f.target in RECOVERY_STEPS), default=None)
    if refund_due is not None and recovery_down is not None:
        refund_due = max(refund_due, recovery_down + COMPENSATION_GRACE)  # the refund's own steps were down
    late = ended is None or (refund_due is not None and ended > refund_due)
    if not sim.dealt and should_start is not None and t.status != "finished" and late:
        found.append(f"liveness: dealt no hand and not refunded within 24 hours of {should_start} (ended {ended})")
    for record in sim.hands_dealt_while_terminated():
        found.append(f"nothing moves while terminated: {record}")
    for at, by in getattr(sim, "terminations", []):
        stopped = [m for m in getattr(sim, "stopping_faults", []) if at - QUIET_BEFORE_TERMINATION <= m <= at]
        lasting = any(f.start - QUIET_BEFORE_TERMINATION <= at for f in sim.faults.lasting)
        if by != OPERATOR and not stopped and not lasting:
            found.append(f"liveness: {by or 'the system'} terminated at {at} a tournament whose play had not stopped")
    return found


def _details(sim: ChaosSimulation) -> dict[str, Any]:
    store, tid = sim.store, sim.tournament_id
    plan = sim.plan
    s = store.money.summary(tid)
    whole = store.money.summary()
    t = store.tournaments.get(tid)
    entrants = store.entrants.list(tid)
    players = sorted({p for p in sim.players})
    # A balance adjustment is money into players' accounts from outside them, as a deposit is: the contract's
    # player_balances + pool_left + house_revenue = deposits + overlay holds with it counted there.
    adjusted = -sum(a for account, a in store.money.balance_items() if account.kind is AccountKind.ADJUSTMENTS)
    return {
        "run_seed": plan.seed,
        "scenario": plan.scenario,
        "format": str(plan.options.format),
        "players": plan.options.players,
        "guarantee": plan.body.get("guarantee", plan.options.guarantee),
        "configuration": plan.body,
        "faults": list(sim.faults.log),
        "outcome": outcome_of(sim),
        "ledger": {
            "deposits": whole.deposits + adjusted,
            "adjustments": adjusted,
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
        "_acts": sim.acts,
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
    acts: Counter[str] = Counter({kind: 0 for kind in ACT_KINDS})
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
        acts.update(detail.pop("_acts"))
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
        "acts": dict(acts),
        "outcomes": dict(outcomes),
        "violations": found,
        "details": details,
    }


def _counts_of(detail: dict[str, Any]) -> FaultCounts:
    counts: FaultCounts = detail.pop("_counts")
    return counts


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", type=int, default=100, help="tournaments to play under faults (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="the seed the runs' own seeds are drawn from (default 1)")
    parser.add_argument(
        "--players-max",
        type=int,
        default=DEFAULT_PLAYERS_MAX,
        help=f"each run's field is 2 to this many players (default {DEFAULT_PLAYERS_MAX})",
    )
    parser.add_argument("--report", type=Path, default=None, help="write the JSON report here")
    parser.add_argument("--replay", type=int, default=None, help="play one run again, by its run seed")
    parser.add_argument("--no-progress", action="store_true", help="no progress line on the terminal")


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
        f"chaos: {report['runs']} runs, {sum(faults.values())} faults injected {faults}, "
        f"operator acts {report['acts']}, outcomes {report['outcomes']}"
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
