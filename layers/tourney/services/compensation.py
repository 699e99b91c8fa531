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
   posting changes. It writes the plan's movements in batches
   (``CompensationBatch``, ``MOVEMENTS_PER_BATCH`` each: one step's worth),
   then keeps the plan's outcome, fingerprint (digest), number of chunks and
   of batches and timestamp in the coordinator's state (``FrozenPlan``), with
   a write conditional on that state's version: of two racing steps one
   freezes, the other reads the plan frozen.
2. **Post.** Each step reads only the batch of the chunks it posts, never the
   field again (so a field of any size costs the same per player), and posts
   the next chunks
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

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Final, Literal

from tourney.domain.ledger import Entry
from tourney.domain.recovery import (
    ENTRIES_PER_UNIT,
    MOVEMENTS_PER_BATCH,
    CompensationPlan,
    FrozenPlan,
    Movement,
    PaidIn,
    Stack,
    Termination,
    movement_entry,
    paid_by,
    plan_compensation,
    plan_full_refund,
)
from tourney.domain.tournament import TournamentState, entry_contribution
from tourney.services.deps import Deps
from tourney.services.messages import HandEnded, RebuyClosed
from tourney.services.records import (
    CompensationBatch,
    EntrantRecord,
    RegistrationState,
    TableRecord,
    TournamentRecord,
)
from tourney.services.tables import retrying
from tourney.services.views import RecoveryStep

UNITS_PER_STEP = MOVEMENTS_PER_BATCH // ENTRIES_PER_UNIT
"""Units of work (chunks of entries, batches of tables closed) one step commits.

On DynamoDB a chunk is one transaction of at most 96 items plus a consistent
read of the pool's shards: well under a second, so 25 chunks (500 players, one
batch of the frozen plan) fit the task function's timeout with room to spare."""
TABLES_PER_UNIT = 25
"""Tables closed in one unit of work (each a conditional write)."""
BATCHES_PER_WRITE = 25
"""Batches of a frozen plan written in one unit of work (one transaction of at most 100 items)."""


class CompensationChanged(RuntimeError):
    """The plan cannot be frozen or paid as frozen: a hand still in play, a batch missing (a defect)."""


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
    frozen = _freeze(d, t, cancel_hands)
    if isinstance(frozen, str):  # UNSETTLED
        return RecoveryStep(tid, "retry", seconds_left=SETTLING_WAIT_SECONDS)
    if frozen is None:
        return RecoveryStep(tid, "nothing")
    budget = units
    paid: list[tuple[str, int]] = []
    tables_left = 0
    if not frozen.entries_done:
        batches: dict[int, CompensationBatch] = {}
        end = frozen.posted
        while end < frozen.units and budget > 0:
            chunk = _chunk(d, tid, frozen, end, batches)
            if retrying(d, functools.partial(_post, d, chunk)):
                paid.extend(paid_by(chunk))
                budget -= 1
            end += 1
        frozen = _advance(d, tid, end)
        tables_left = -(-frozen.tables // TABLES_PER_UNIT)
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
    contributions = tuple(PaidIn(e.player_id, e.contribution.house_paid, e.contribution.pool_paid) for e in entrants)
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
    contributions = [PaidIn(c.player_id, c.house_paid, c.pool_paid) for c in paid]
    return plan_full_refund(tid, contributions, house_shards=t.house_shards)


def _frozen(d: Deps, tid: str) -> FrozenPlan | None:
    coordinator = d.store.coordinators.get(tid)
    return None if coordinator is None else coordinator.state.compensation


UNSETTLED: Final = "unsettled"
"""The plan cannot be frozen yet: a hand that ended before the termination is not settled (places, prizes)."""
SETTLE_AGAIN_AFTER = timedelta(minutes=5)
"""A hand end quiet this long is asked for again (its message lost); sooner, it is most likely still queued."""
SETTLING_WAIT_SECONDS = 60
"""How long the recovery waits for the coordinator to settle the hands that ended before the termination."""
Frozen = FrozenPlan | Literal["unsettled"] | None


def _freeze(d: Deps, t: TournamentRecord, cancel_hands: Callable[[str], object]) -> Frozen:
    """The plan frozen by the first step: its batches written, then the plan (conditional on the coordinator's
    version)."""
    tid = t.tournament_id

    def attempt() -> Frozen:
        coordinator = d.store.coordinators.get(tid)
        if coordinator is None or coordinator.state.compensation is not None:
            return None if coordinator is None else coordinator.state.compensation
        tables = _open_tables(d, tid)
        if any(r.table.hand_in_progress for r in tables):
            cancel_hands(tid)  # rule 17.1 first: stacks as at the start of the hands in progress
            tables = _open_tables(d, tid)
            if any(r.table.hand_in_progress for r in tables):
                raise CompensationChanged(f"{tid}: a hand is still in progress at a terminated tournament")
            coordinator = d.store.coordinators.get(tid)
            assert coordinator is not None
        unsettled = [r for r in tables if _unsettled(r)]
        if unsettled:
            _settle_again(d, unsettled)
            return UNSETTLED  # their places and prizes first: the plan is fixed from them
        plan = _plan(d, t, coordinator.state, tables)
        batches = _write_batches(d, tid, plan.movements)
        at = d.clock.now()
        frozen = FrozenPlan(
            plan.outcome,
            plan.digest,
            units=plan.unit_count(),
            at=at,
            batches=batches,
            house_shards=plan.house_shards,
            tables=len(tables),
        )
        coordinator.state.compensation = frozen
        uow = d.store.unit_of_work()
        uow.save(coordinator)
        uow.commit()
        return frozen

    return retrying(d, attempt)


def _post(d: Deps, chunk: tuple[Entry, ...]) -> bool:
    """Post one chunk (True), unless it was: a chunk is all or nothing, so one of its keys found, it was posted
    (by a step that died since, or one racing). A race lost on the pool's or the house's balances is tried again."""
    if d.store.ledger.entry(chunk[-1].key) is not None:
        return False
    uow = d.store.unit_of_work()
    uow.post(chunk)
    uow.commit()
    return True


def _unsettled(record: TableRecord) -> bool:
    """A hand that ended (not cancelled) whose end the coordinator has not settled yet."""
    hand = record.table.hand
    return (
        hand is not None
        and hand.is_over
        and not hand.is_cancelled
        and record.coordinated_hand < record.table.hand_number
    )


def _settle_again(d: Deps, tables: Sequence[TableRecord]) -> None:
    """Ask the coordinator again for the ends of hands quiet ``SETTLE_AGAIN_AFTER`` (a lost message; a duplicate is a
    no-op)."""
    now = d.clock.now()
    for record in tables:
        if now - (record.updated_at or now) < SETTLE_AGAIN_AFTER:
            continue
        tid, table, hand = record.tournament_id, record.table_id, record.table.hand_number
        if record.rebuy_pending:
            d.coordination.rebuy_closed(RebuyClosed(tournament_id=tid, table=table, hand=hand))
        else:
            d.coordination.hand_ended(HandEnded(tournament_id=tid, table=table, hand=hand))


def _write_batches(d: Deps, tid: str, movements: Sequence[Movement]) -> int:
    """The plan's movements stored in batches, ``BATCHES_PER_WRITE`` to a unit of work; a batch already written
    (by a step that died before freezing the plan, or one racing) is the same, and kept. How many there are."""
    count = -(-len(movements) // MOVEMENTS_PER_BATCH)
    for first in range(0, count, BATCHES_PER_WRITE):

        def write(first: int = first) -> None:
            missing = [
                i
                for i in range(first, min(first + BATCHES_PER_WRITE, count))
                if d.store.compensation.batch(tid, i) is None
            ]
            if not missing:
                return
            uow = d.store.unit_of_work()
            for index in missing:
                moves = tuple(movements[index * MOVEMENTS_PER_BATCH : (index + 1) * MOVEMENTS_PER_BATCH])
                uow.save(CompensationBatch(tid, index, moves))
            uow.commit()

        retrying(d, write)
    return count


def _chunk(d: Deps, tid: str, frozen: FrozenPlan, index: int, read: dict[int, CompensationBatch]) -> tuple[Entry, ...]:
    """The ``index``-th chunk of the frozen plan, from its batch (each batch read once a step, into ``read``)."""
    first = index * ENTRIES_PER_UNIT
    number, offset = divmod(first, MOVEMENTS_PER_BATCH)
    if number not in read:
        found = d.store.compensation.batch(tid, number)
        if found is None:
            raise CompensationChanged(f"{tid}: batch {number} of the frozen plan is missing")
        read[number] = found
    moves = read[number].movements[offset : offset + ENTRIES_PER_UNIT]
    return tuple(movement_entry(tid, m, frozen.at, frozen.house_shards) for m in moves)


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
    """Close open tables, ``TABLES_PER_UNIT`` per unit of work, at most ``budget`` units; the units still to do.

    The open tables are listed once a step; each unit reads its own tables again as it closes them."""
    open_tables = _open_tables(d, tid)
    for unit in range(budget):
        batch = open_tables[unit * TABLES_PER_UNIT : (unit + 1) * TABLES_PER_UNIT]
        if not batch:
            return 0

        def close(batch: list[TableRecord] = batch) -> None:
            uow = d.store.unit_of_work()
            for record in batch:
                current = d.store.tables.get(tid, record.table_id)
                if not current.closed:
                    uow.save(replace(current, closed=True))
            uow.commit()

        retrying(d, close)
    return -(-max(0, len(open_tables) - budget * TABLES_PER_UNIT) // TABLES_PER_UNIT)


def _end(d: Deps, tid: str) -> None:
    """The last unit: the tournament ended (``ended_at``), on its record and the coordinator's state."""

    def attempt() -> None:
        t = d.store.tournaments.get(tid)
        if t.ended_at is not None:
            return
        compensated = t.lived(t.life.compensate(d.clock.now()))
        uow = d.store.unit_of_work()
        coordinator = d.store.coordinators.get(tid)
        if coordinator is not None:
            coordinator.state.status = compensated.status
            coordinator.state.ended_at = compensated.ended_at
            uow.save(coordinator)
        uow.save(compensated)
        uow.commit()

    retrying(d, attempt)
