"""Paying rule 17.3's compensation in steps that any retry, at any point, brings to the same ledger.

The recovery workflow calls ``RecoveryService.compensate`` until it answers
``more: false``; each call is one step of bounded work (``UNITS_PER_STEP``
units of work), so a field of any size is paid within the task function's
timeout, over as many steps as it needs:

1. **Freeze.** The first step computes the plan (``domain.recovery.plan_compensation``)
   from facts that do not change once the tournament is terminated and its
   hands cancelled: every entrant's contributions, the stacks at the open
   tables, the prizes paid, the pool collected and the overlay already posted
   (the coordinator's state). Never from a balance read, which partial
   posting changes. It keeps the plan's outcome, fingerprint (digest), number
   of chunks and timestamp in the coordinator's state (``FrozenPlan``), with
   a write conditional on that state's version: of two racing steps one
   freezes, the other reads the plan frozen.
2. **Post.** Each step computes the plan again from the same facts, refuses
   it if its digest is not the frozen one (``CompensationChanged``: something
   moved at a terminated tournament), and posts the next chunks
   (``domain.recovery.ENTRIES_PER_UNIT`` entries each, one unit of work each). Every entry is
   idempotent by its key and the same at every retry, so a chunk posted again
   (after a crash, by a second execution racing) changes nothing. The count of
   chunks posted is a hint saved at the end of each step, only ever raised; a
   chunk whose last entry is found in the ledger is skipped without posting
   (so a step that dies before saving the count costs its successor a read).
3. **Close.** Once every chunk is posted, the open tables are closed
   (``TABLES_PER_UNIT`` per unit of work), then the last unit marks the
   tournament ended (``ended_at``, on the tournament and the coordinator's
   state). Only then does a step answer ``more: false``; a step after that
   answers ``nothing``.

If an execution fails for good (its retries spent), the watchdog requests
the recovery workflow again for a tournament that is terminated and not
ended; the new execution's compensation steps continue from what is posted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from tourney.domain.recovery import (
    CompensationPlan,
    Contribution,
    FrozenPlan,
    Stack,
    Termination,
    paid_by,
    plan_compensation,
    plan_full_refund,
)
from tourney.domain.registration import TournamentStatus
from tourney.domain.tournament import TournamentState, entry_contribution
from tourney.services.deps import Deps
from tourney.services.records import EntrantRecord, RegistrationState, TableRecord, TournamentRecord
from tourney.services.tables import retrying
from tourney.services.views import RecoveryStep

UNITS_PER_STEP = 25
"""Units of work (chunks of entries, batches of tables closed) one step commits.

On DynamoDB a chunk is one transaction of at most 96 items plus a consistent
read of the pool's shards: well under a second, so 25 chunks (500 players) and
the step's reads of the entrants and tables fit the task function's timeout
with room to spare."""
TABLES_PER_UNIT = 25
"""Tables closed in one unit of work (each a conditional write)."""


class CompensationChanged(RuntimeError):
    """The facts give another plan than the one frozen: something moved at a terminated tournament (a defect)."""


@dataclass(frozen=True)
class CompensationStep(RecoveryStep):
    """One step of compensation: ``outcome`` is the plan's (rollback, payout, refund_share).

    ``more``: call again, it is not done. ``remaining``: units of work left
    after this step (chunks, batches of tables, the last unit). ``paid``:
    what this step credited, ``(player, amount)``.
    """

    more: bool = False
    remaining: int = 0


def pay_step(
    d: Deps, t: TournamentRecord, *, units: int = UNITS_PER_STEP, cancel_hands: Callable[[str], object]
) -> RecoveryStep:
    """One step of compensating ``t`` (terminated, its window over, not ended): see the module's docstring."""
    if units < 1:
        raise ValueError("a step commits at least one unit of work")
    tid = t.tournament_id
    frozen, plan, tables = _freeze(d, t, cancel_hands)
    if frozen is None:
        return RecoveryStep(tid, "nothing")
    budget = units
    paid: list[tuple[str, int]] = []
    tables_left = 0
    if not frozen.entries_done:
        if plan is None:
            plan, tables = _plan_now(d, t)
        if plan is None or plan.digest != frozen.digest:
            # A racing step may have posted every chunk and begun closing the tables: then the plan is paid.
            frozen = _frozen(d, tid)
            if frozen is None:
                return RecoveryStep(tid, "nothing")
            if not frozen.entries_done:
                raise CompensationChanged(f"{tid}: the facts no longer give the compensation plan frozen")
        else:
            count = plan.unit_count()
            if count != frozen.units:
                raise CompensationChanged(f"{tid}: the plan has {count} chunks, not {frozen.units}")
            end = frozen.posted
            while end < count and budget > 0:
                chunk = plan.unit(end, frozen.at)
                # A chunk is posted all or nothing: one of its keys found, it was (by a step that died since).
                if d.store.ledger.entry(chunk[-1].key) is None:
                    uow = d.store.unit_of_work()
                    uow.post(chunk)
                    uow.commit()
                    paid.extend(paid_by(chunk))
                    budget -= 1
                end += 1
            frozen = _advance(d, tid, end)
            tables_left = -(-len(tables) // TABLES_PER_UNIT)
    if frozen.entries_done and budget > 0:
        tables_left = _close_tables(d, tid, budget)
        if tables_left == 0:
            _end(d, tid)
            return CompensationStep(tid, str(frozen.outcome), paid=tuple(paid))
    remaining = frozen.units - frozen.posted + tables_left + 1
    return CompensationStep(tid, str(frozen.outcome), paid=tuple(paid), more=True, remaining=remaining)


def _open_tables(d: Deps, tid: str) -> list[TableRecord]:
    return sorted(
        (r for r in d.store.tables.list(tid) if not r.closed),
        key=lambda r: (len(r.table_id), r.table_id),
    )


def plan_from(
    t: TournamentRecord, state: TournamentState, entrants: Sequence[EntrantRecord], tables: Sequence[TableRecord]
) -> CompensationPlan:
    """The plan the facts give: contributions, stacks at the open tables (in table and seat order), the state.

    A disqualified entrant (rule 19) is paid nothing: not refunded, and not among the players remaining even
    when still seated with chips (a hand's end not settled yet would have taken them out of play).
    """
    assert t.terminated_at is not None
    contributions = tuple(
        Contribution(e.player_id, e.contribution.house_paid, e.contribution.pool_paid) for e in entrants
    )
    stacks = tuple(Stack(sp.player, sp.stack) for r in tables for sp in r.table.seats.values() if sp.stack > 0)
    facts = Termination(
        format=state.config.format,
        started_at=state.started_at or t.terminated_at,
        terminated_at=t.terminated_at,
        last_rebuy_period_ended=state.rebuy_period_over(t.terminated_at),
        collected=sum(c.pool for c in contributions),
        guarantee=state.config.guarantee,
        contributions=contributions,
        prizes_paid=state.prizes_paid,
        remaining=stacks,
        payout=state.payout(),
        disqualified=frozenset(e.player_id for e in entrants if e.disqualified_at is not None)
        | frozenset(p for r in tables for p in r.disqualified),
    )
    posted = 0
    if state.prize_pool is not None and state.collected is not None:
        posted = state.prize_pool - state.collected  # ``overlay:<t>``, posted when the prizes were fixed
    return plan_compensation(t.tournament_id, facts, overlay_posted=posted, house_shards=t.house_shards)


def _plan(d: Deps, t: TournamentRecord, state: TournamentState, tables: Sequence[TableRecord]) -> CompensationPlan:
    """The plan the stored facts give (``plan_from``); a tournament that dealt no hand is refunded in full (17.6).

    Its start may have failed before it seated anyone (no tables, entrants or
    stacks): what each registered player paid is one buy-in and its fee.
    """
    tid = t.tournament_id
    if state.started_at is not None and any(r.table.hand_number > 0 for r in tables):
        return plan_from(t, state, d.store.entrants.list(tid), tables)
    disqualified = {e.player_id for e in d.store.entrants.list(tid) if e.disqualified_at is not None}
    registered = sorted(r.player_id for r in d.store.registrations.list(tid, RegistrationState.REGISTERED))
    paid = (entry_contribution(p, t.config) for p in registered if p not in disqualified)
    contributions = [Contribution(c.player_id, c.house_paid, c.pool_paid) for c in paid]
    return plan_full_refund(tid, contributions, house_shards=t.house_shards)


def _plan_now(d: Deps, t: TournamentRecord) -> tuple[CompensationPlan | None, list[TableRecord]]:
    """The plan from the stored facts now (None when they no longer make one: every table closed, say)."""
    coordinator = d.store.coordinators.get(t.tournament_id)
    if coordinator is None:
        return None, []
    tables = _open_tables(d, t.tournament_id)
    try:
        plan = _plan(d, t, coordinator.state, tables)
    except ValueError:
        return None, tables
    return plan, tables


def _frozen(d: Deps, tid: str) -> FrozenPlan | None:
    coordinator = d.store.coordinators.get(tid)
    return None if coordinator is None else coordinator.state.compensation


Frozen = tuple[FrozenPlan | None, CompensationPlan | None, list[TableRecord]]


def _freeze(d: Deps, t: TournamentRecord, cancel_hands: Callable[[str], object]) -> Frozen:
    """The plan frozen by the first step (written once: conditional on the coordinator's version).

    Also the plan itself and the open tables when this step froze it (None and [] when it was frozen before).
    """
    tid = t.tournament_id

    def attempt() -> Frozen:
        coordinator = d.store.coordinators.get(tid)
        if coordinator is None or coordinator.state.compensation is not None:
            return (None if coordinator is None else coordinator.state.compensation), None, []
        tables = _open_tables(d, tid)
        if any(r.table.hand_in_progress for r in tables):
            cancel_hands(tid)  # rule 17.1 first: stacks as at the start of the hands in progress
            tables = _open_tables(d, tid)
            if any(r.table.hand_in_progress for r in tables):
                raise CompensationChanged(f"{tid}: a hand is still in progress at a terminated tournament")
            coordinator = d.store.coordinators.get(tid)
            assert coordinator is not None
        plan = _plan(d, t, coordinator.state, tables)
        at = d.clock.now()
        frozen = FrozenPlan(plan.outcome, plan.digest, units=plan.unit_count(), at=at)
        coordinator.state.compensation = frozen
        uow = d.store.unit_of_work()
        uow.save(coordinator)
        uow.commit()
        return frozen, plan, tables

    return retrying(d, attempt)


def _advance(d: Deps, tid: str, posted: int) -> FrozenPlan:
    """Save that the first ``posted`` chunks are posted (never lowering what another step saved)."""

    def attempt() -> FrozenPlan:
        coordinator = d.store.coordinators.get(tid)
        assert coordinator is not None and coordinator.state.compensation is not None
        frozen = coordinator.state.compensation
        if frozen.posted >= posted:
            return frozen
        coordinator.state.compensation = replace(frozen, posted=posted)
        uow = d.store.unit_of_work()
        uow.save(coordinator)
        uow.commit()
        return coordinator.state.compensation

    return retrying(d, attempt)


def _close_tables(d: Deps, tid: str, budget: int) -> int:
    """Close open tables, ``TABLES_PER_UNIT`` per unit of work, at most ``budget`` units; the units still to do."""
    for _ in range(budget):

        def close_some() -> int:
            tables = _open_tables(d, tid)
            batch = tables[:TABLES_PER_UNIT]
            if not batch:
                return 0
            uow = d.store.unit_of_work()
            for record in batch:
                uow.save(replace(record, closed=True))
            uow.commit()
            return len(tables) - len(batch)

        if retrying(d, close_some) == 0:
            return 0
    return -(-len(_open_tables(d, tid)) // TABLES_PER_UNIT)


def _end(d: Deps, tid: str) -> None:
    """The last unit: the tournament ended (``ended_at``), on its record and the coordinator's state."""

    def attempt() -> None:
        t = d.store.tournaments.get(tid)
        if t.ended_at is not None:
            return
        now: datetime = d.clock.now()
        uow = d.store.unit_of_work()
        coordinator = d.store.coordinators.get(tid)
        if coordinator is not None:
            coordinator.state.status = TournamentStatus.TERMINATED
            coordinator.state.ended_at = now
            uow.save(coordinator)
        uow.save(replace(t, ended_at=now))
        uow.commit()

    retrying(d, attempt)
