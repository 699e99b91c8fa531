"""A terminated tournament's recovery as the operators' API tells it (docs/rules.md, rule 17; docs/interfaces.md,
``GET /admin/tournaments/{id}/recovery``): the restart window left, and the outcome, so a console never guesses it.

Read only. Before the compensation plan is fixed, rule 17.3's outcome is the one the facts give now (the format, the
time since ``started_at``, the rebuy period, the pool collected against the guarantee); once fixed, the plan's own,
with its amounts read from the plan's stored batches (``CompensationBatch``), never from balances.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Final

from tourney.domain.errors import Conflict
from tourney.domain.ledger import pool_account
from tourney.domain.life import RESTART_WINDOW
from tourney.domain.recovery import FrozenPlan, MovementKind, outcome_of
from tourney.services.deps import Deps
from tourney.services.names import names_of
from tourney.services.ports import Clock, Store
from tourney.services.records import TournamentRecord
from tourney.services.views import PaymentLine, RecoveryReport

PAYMENTS_SHOWN: Final = 100
"""The largest payments listed; the totals count every one (a field of 250,000 is paid in 250,000 entries)."""


class RecoveryReportService:
    def __init__(self, *, store: Store, clock: Clock) -> None:
        self._d = Deps(store=store, clock=clock)

    def report(self, tid: str) -> RecoveryReport:
        """The recovery of ``tid`` (``NotFound``: no such tournament; ``Conflict``: never terminated)."""
        d = self._d
        t = d.store.tournaments.get(tid)
        if t.terminated_at is None:
            raise Conflict(f"{tid} is {t.status} and was never terminated: it has no recovery")
        now = d.clock.now()
        deadline = t.terminated_at + RESTART_WINDOW
        left = max(timedelta(0), t.life.window_left(now))
        restarted = t.restarted_at is not None and t.restarted_at >= t.terminated_at
        base = RecoveryReport(
            tournament_id=tid,
            status=str(t.status),
            outcome="pending",
            terminated_at=t.terminated_at,
            terminated_by=t.terminated_by,
            reason=t.termination_reason,
            restart_deadline=deadline,
            window_seconds_left=-(-left // timedelta(seconds=1)) if t.life.terminated else 0,
        )
        if restarted and not t.life.terminated:
            return replace(base, outcome="restarted", restarted_at=t.restarted_at)
        coordinator = d.store.coordinators.get(tid)
        frozen = None if coordinator is None else coordinator.state.compensation
        outcome = "compensated" if t.ended_at is not None else "pending"
        if frozen is not None:
            return self._with_plan(replace(base, outcome=outcome, compensated_at=t.ended_at), frozen)
        return replace(base, outcome=outcome, compensated_at=t.ended_at, rule=self._rule_now(t))

    def _rule_now(self, t: TournamentRecord) -> str:
        """Rule 17.3's outcome as the facts stand (before the plan is fixed): no hand dealt, a full refund."""
        coordinator = self._d.store.coordinators.get(t.tournament_id)
        assert t.terminated_at is not None
        started_at = None if coordinator is None else coordinator.state.started_at
        if coordinator is None or started_at is None:
            return "rollback"  # rule 17.6: everyone paid back in full, as a rollback pays
        state = coordinator.state
        collected = state.collected
        if collected is None:  # the prizes not fixed yet: the pool holds what the entrants paid in, no more
            collected = self._d.store.ledger.balance(pool_account(t.tournament_id))
        elapsed = t.terminated_at - started_at
        ended = state.rebuy_period_over(t.terminated_at)
        return str(outcome_of(state.config.format, elapsed, ended, state.config.guarantee, collected))

    def _with_plan(self, report: RecoveryReport, frozen: FrozenPlan) -> RecoveryReport:
        """The fixed plan's outcome and amounts, from its stored batches."""
        paid: dict[str, int] = {}
        overlay = 0
        for index in range(frozen.batches):
            batch = self._d.store.compensation.batch(report.tournament_id, index)
            for move in batch.movements if batch is not None else ():
                if move.kind is MovementKind.PAYMENT:
                    paid[move.player] = paid.get(move.player, 0) + move.from_house + move.from_pool
                elif move.kind is MovementKind.OVERLAY_IN:
                    overlay += move.from_pool
        largest = sorted(paid.items(), key=lambda item: (-item[1], item[0]))[:PAYMENTS_SHOWN]
        names = names_of(self._d, [player for player, _ in largest])
        return replace(
            report,
            rule=str(frozen.outcome),
            plan_fixed=True,
            paid_total=sum(paid.values()),
            players_paid=len(paid),
            overlay=overlay,
            payments=tuple(PaymentLine(player, names[player], amount) for player, amount in largest),
        )
