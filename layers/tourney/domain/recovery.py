"""Compensation when a terminated tournament cannot restart (docs/rules.md, 'Termination and recovery', rule 17).

When restarting fails for 20 minutes (the recovery workflow's concern), the
first rule that applies decides (rule 17.3):

a. a Sit&Go: prize-pool payout;
b. terminated at most 30 minutes after ``started_at`` (30:00.000 included):
   rollback. Every entrant, eliminated or not, gets back every fee and every
   prize-pool contribution (buy-in, rebuys, add-ons); prizes paid are kept;
c. a freezeout, or the last rebuy period had ended, or the pool collected is
   strictly more than 85 % of the guarantee (no guarantee: always): payout;
d. otherwise: each remaining player gets back their fees and pool
   contributions plus a share, in proportion to chips, of the eliminated
   players' pool contributions not paid out as prizes. No guarantee.

Prize-pool payout (rule 17.4): the whole pool, ``max(collected, guarantee)``,
less the prizes already paid, goes to the remaining players: each first gets
the prize of the place they are all sure to reach (the ``n``-th place when ``n``
remain; zero outside the money), and the rest is shared in proportion to chips.
Wherever chips share money, amounts are rounded down and the cents left over
go one each to the largest stacks (equal stacks: in the order given). Prizes
already paid are kept (rule 17.5). A disqualified player (rule 19) is paid
nothing by any outcome: no refund in a rollback, no share, and their chips,
were they still seated, count for nobody (``Termination.disqualified``); what
they paid stays with the pool (shared by the others) or the house. A crash
before the start (rule 17.6) is a
cancellation, not a termination: everyone is refunded buy-in and fee in full
(``services/start.py``, ``cancel_before_start``).

:func:`compensate` decides and computes; :func:`plan_compensation` turns the
result into a :class:`CompensationPlan`: its ledger entries (fees back from
the player's house shard, the rest from the pool, the house's overlay account
covering what the pool lacks and taking back an overlay the outcome does not
pay), computed from facts that no longer change once the tournament is
terminated, never from a balance read. The same facts give the same plan, the
same entries and the same chunks at every retry, so a plan posted in part
and then posted again from the start pays nobody twice (each entry's key is
its idempotency key) and never meets an ``IdempotencyConflict``.
:func:`compensation_entries` is the older form, given the pool's balance.

>>> from datetime import UTC, datetime, timedelta
>>> t0 = datetime(2025, 1, 1, tzinfo=UTC)
>>> facts = Termination(
...     TournamentFormat.FREEZEOUT, t0, t0 + timedelta(minutes=30), False, 2_000, 0,
...     (PaidIn("ann", 100, 1_000), PaidIn("bob", 100, 1_000)), 0,
...     (Stack("ann", 15_000), Stack("bob", 5_000)),
... )
>>> [(p.player_id, p.amount) for p in compensate(facts).payments]
[('ann', 1100), ('bob', 1100)]
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, Final

from tourney.domain.fees import Purchase, split_payment
from tourney.domain.formats import TournamentFormat
from tourney.domain.ledger import (
    AccountKind,
    Entry,
    EntryKind,
    house_account_for,
    make_entry,
    overlay_account,
    player_account,
    pool_account,
    transfer,
)
from tourney.domain.prizes import Payout, payout_for, prize_amounts, prize_for_place

ROLLBACK_WINDOW: Final = timedelta(minutes=30)
"""Terminated at most this long after ``started_at``: rollback (rule 17.3.b)."""
PAYOUT_THRESHOLD_PERCENT: Final = 85
"""Collected strictly above this share of the guarantee: payout (rule 17.3.c)."""
ENTRIES_PER_UNIT: Final = 20
"""Entries of a plan posted in one unit of work (one DynamoDB transaction of at most 100 items)."""
MOVEMENTS_PER_BATCH: Final = 25 * ENTRIES_PER_UNIT
"""Movements of a frozen plan stored together: one step's worth (about 20 KB)."""


class CompensationOutcome(StrEnum):
    ROLLBACK = "rollback"
    PAYOUT = "payout"
    REFUND_SHARE = "refund_share"


@dataclass(frozen=True)
class PaidIn:
    """What one entrant paid in all: ``fees`` to the house, ``pool`` to the prize pool."""

    player_id: str
    fees: int
    pool: int

    @classmethod
    def from_purchases(cls, player_id: str, buy_in: int, entry_fee: int, rebuys: int = 0, add_ons: int = 0) -> PaidIn:
        """The totals of one buy-in plus ``rebuys`` and ``add_ons`` (docs/rules.md, Money; Rebuys).

        >>> PaidIn.from_purchases("ann", 1_050, 0, rebuys=2)
        PaidIn(player_id='ann', fees=179, pool=2971)
        """
        splits = [split_payment(Purchase.BUY_IN, buy_in, entry_fee)]
        splits += [split_payment(Purchase.REBUY, buy_in, entry_fee)] * rebuys
        splits += [split_payment(Purchase.ADD_ON, buy_in, entry_fee)] * add_ons
        return cls(player_id, sum(s.house for s in splits), sum(s.pool for s in splits))

    @property
    def total(self) -> int:
        return self.fees + self.pool


@dataclass(frozen=True)
class Stack:
    """A remaining player's chips (as they were at the start of any cancelled hand, rule 17.1)."""

    player_id: str
    chips: int


@dataclass(frozen=True)
class Termination:
    """The facts rule 17 decides on.

    ``contributions`` lists every entrant; ``remaining`` the players still
    holding chips, in the order that settles equal stacks for leftover cents;
    ``prizes_paid`` the prizes already credited; ``payout`` the tournament's
    payout (default: the table for the number of entrants); ``disqualified``
    the entrants disqualified (rule 19), who are paid nothing and are not
    among the players remaining, whatever chips they were left with.
    """

    format: TournamentFormat
    started_at: datetime
    terminated_at: datetime
    last_rebuy_period_ended: bool
    collected: int
    guarantee: int
    contributions: tuple[PaidIn, ...]
    prizes_paid: int
    remaining: tuple[Stack, ...]
    payout: Payout | None = None
    disqualified: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.disqualified:
            kept = tuple(s for s in self.remaining if s.player_id not in self.disqualified)
            object.__setattr__(self, "remaining", kept)
        entrants = [c.player_id for c in self.contributions]
        if len(set(entrants)) != len(entrants):
            raise ValueError("an entrant is listed once")
        if self.collected != sum(c.pool for c in self.contributions):
            raise ValueError("collected must be the entrants' pool contributions")
        remaining = [s.player_id for s in self.remaining]
        if len(set(remaining)) != len(remaining) or not set(remaining) <= set(entrants):
            raise ValueError("remaining players are distinct entrants")
        if not remaining or any(s.chips <= 0 for s in self.remaining):
            raise ValueError("remaining players hold chips")
        if min(self.collected, self.guarantee, self.prizes_paid) < 0:
            raise ValueError("amounts are non-negative cents")
        if self.prizes_paid > max(self.collected, self.guarantee):
            raise ValueError("more prizes paid than the pool")

    @property
    def elapsed(self) -> timedelta:
        return self.terminated_at - self.started_at


@dataclass(frozen=True)
class Payment:
    """One player's compensation: ``from_house`` (fees given back) plus ``from_pool``."""

    player_id: str
    from_house: int
    from_pool: int

    @classmethod
    def in_full(cls, paid: PaidIn) -> Payment:
        """All that ``paid`` paid in, given back: the fees from the house, the rest from the pool."""
        return cls(paid.player_id, paid.fees, paid.pool)

    @property
    def amount(self) -> int:
        return self.from_house + self.from_pool


@dataclass(frozen=True)
class Compensation:
    outcome: CompensationOutcome
    payments: tuple[Payment, ...] = field(default=())

    @property
    def total(self) -> int:
        return sum(p.amount for p in self.payments)

    @property
    def from_pool(self) -> int:
        return sum(p.from_pool for p in self.payments)

    def paid_report(self) -> list[dict[str, str | int]]:
        """The report's ``termination.paid`` (docs/interfaces.md)."""
        return [{"player": p.player_id, "amount": p.amount} for p in self.payments]


def compensation_outcome(facts: Termination) -> CompensationOutcome:
    """Which of rule 17.3 a-d applies: the first that does."""
    return outcome_of(facts.format, facts.elapsed, facts.last_rebuy_period_ended, facts.guarantee, facts.collected)


def outcome_of(
    format: TournamentFormat, elapsed: timedelta, last_rebuy_period_ended: bool, guarantee: int, collected: int
) -> CompensationOutcome:
    """Rule 17.3's choice from the few facts it reads (``elapsed``: from ``started_at`` to the termination).

    >>> outcome_of(TournamentFormat.REBUY, timedelta(minutes=31), False, 10_000, 8_500)
    <CompensationOutcome.REFUND_SHARE: 'refund_share'>
    """
    if format is TournamentFormat.SNG:
        return CompensationOutcome.PAYOUT
    if elapsed <= ROLLBACK_WINDOW:
        return CompensationOutcome.ROLLBACK
    if (
        format is TournamentFormat.FREEZEOUT
        or last_rebuy_period_ended
        or guarantee == 0
        or collected * 100 > guarantee * PAYOUT_THRESHOLD_PERCENT
    ):
        return CompensationOutcome.PAYOUT
    return CompensationOutcome.REFUND_SHARE


def compensate(facts: Termination) -> Compensation:
    """The outcome of rule 17.3 and every player's amount, adding up exactly."""
    outcome = compensation_outcome(facts)
    if outcome is CompensationOutcome.ROLLBACK:
        refunded = (c for c in facts.contributions if c.player_id not in facts.disqualified)
        return Compensation(outcome, tuple(Payment.in_full(c) for c in refunded))
    if outcome is CompensationOutcome.PAYOUT:
        return Compensation(outcome, _payout(facts))
    return Compensation(outcome, _refund_share(facts))


def share_by_chips(amount: int, stacks: Sequence[Stack]) -> list[int]:
    """``amount`` split in proportion to chips, rounded down; cents left one each to the largest stacks.

    Equal stacks take the leftover cents in the order given (rule 17.4).

    >>> share_by_chips(1_000, [Stack("a", 1), Stack("b", 3), Stack("c", 3)])
    [142, 429, 429]
    """
    total_chips = sum(s.chips for s in stacks)
    shares = [amount * s.chips // total_chips for s in stacks]
    leftover = amount - sum(shares)
    largest_first = sorted(range(len(stacks)), key=lambda i: (-stacks[i].chips, i))
    for i in largest_first[:leftover]:
        shares[i] += 1
    return shares


def _payout(facts: Termination) -> tuple[Payment, ...]:
    pool_total = max(facts.collected, facts.guarantee)
    left = pool_total - facts.prizes_paid
    payout = facts.payout or payout_for(len(facts.contributions))
    players = len(facts.remaining)
    # Everyone is sure to reach place n; the guard only matters for prizes paid off the table.
    sure = min(prize_for_place(prize_amounts(pool_total, payout), players), left // players)
    shares = share_by_chips(left - players * sure, facts.remaining)
    return tuple(Payment(s.player_id, 0, sure + share) for s, share in zip(facts.remaining, shares, strict=True))


def _refund_share(facts: Termination) -> tuple[Payment, ...]:
    by_player = {c.player_id: c for c in facts.contributions}
    remaining = {s.player_id for s in facts.remaining}
    eliminated_pool = sum(c.pool for c in facts.contributions if c.player_id not in remaining)
    unpaid = max(0, eliminated_pool - facts.prizes_paid)
    shares = share_by_chips(unpaid, facts.remaining)
    return tuple(
        Payment(s.player_id, by_player[s.player_id].fees, by_player[s.player_id].pool + share)
        for s, share in zip(facts.remaining, shares, strict=True)
    )


def compensation_entries(
    tournament_id: str, compensation: Compensation, pool_held: int, at: datetime, house_shards: int = 1
) -> tuple[Entry, ...]:
    """The ledger entries that pay ``compensation``, to be posted as one batch.

    ``pool_held`` is the pool's balance now. Fees come back from the player's
    house revenue shard, the rest from the pool. When the pool holds less than
    it must pay (an overlay not yet posted, or a rollback after prizes), the
    house's overlay account adds the difference first; when it holds more (an
    overlay the outcome does not pay), the excess goes back to the house's
    overlay account. Keys: ``compensation:<tournament>:<player>``,
    ``compensation:<tournament>:overlay`` and ``...:overlay_return``.
    """
    needed = compensation.from_pool
    returned = pool_held - needed if compensation.outcome is not CompensationOutcome.PAYOUT else 0
    plan = CompensationPlan(
        tournament_id, compensation, max(0, needed - pool_held), max(0, returned), house_shards=house_shards
    )
    return plan.entries(at)


@dataclass(frozen=True)
class CompensationPlan:
    """Rule 17's compensation as the ledger pays it: the same facts give the same entries, in the same chunks.

    ``overlay_in`` is what the house's overlay account adds to the pool before
    any payment (a guarantee not yet posted, or prizes a rollback lets
    players keep); ``overlay_out`` is what goes back to it after the last
    payment (an overlay the outcome does not pay). Both follow from the facts:
    the pool holds ``collected + overlay_posted - prizes_paid`` once
    terminated, whatever has been posted of the plan since.

    Keys (unchanged): ``compensation:<t>:overlay``, ``compensation:<t>:<player>``,
    ``compensation:<t>:overlay_return``.
    """

    tournament_id: str
    compensation: Compensation
    overlay_in: int = 0
    overlay_out: int = 0
    house_shards: int = 1

    def __post_init__(self) -> None:
        if min(self.overlay_in, self.overlay_out) < 0 or (self.overlay_in and self.overlay_out):
            raise ValueError("the overlay either tops the pool up or is given back, by a non-negative amount")

    @property
    def outcome(self) -> CompensationOutcome:
        return self.compensation.outcome

    @functools.cached_property
    def digest(self) -> str:
        """A fingerprint of every amount of the plan: equal digests, equal entries.

        >>> plan = CompensationPlan("t1", Compensation(CompensationOutcome.ROLLBACK, (Payment("ann", 100, 1_000),)))
        >>> plan.digest == CompensationPlan("t1", plan.compensation).digest, len(plan.digest)
        (True, 32)
        """
        body = [
            self.tournament_id,
            str(self.outcome),
            self.overlay_in,
            self.overlay_out,
            self.house_shards,
            [[p.player_id, p.from_house, p.from_pool] for p in self.compensation.payments],
        ]
        return hashlib.sha256(json.dumps(body, separators=(",", ":")).encode()).hexdigest()[:32]

    @functools.cached_property
    def movements(self) -> tuple[Movement, ...]:
        """What moves money, in posting order: the overlay in, each payment that is not zero, the overlay back."""
        moves = [Movement(MovementKind.OVERLAY_IN, "", 0, self.overlay_in)] if self.overlay_in else []
        moves.extend(
            Movement(MovementKind.PAYMENT, p.player_id, p.from_house, p.from_pool)
            for p in self.compensation.payments
            if p.from_house or p.from_pool
        )
        if self.overlay_out:
            moves.append(Movement(MovementKind.OVERLAY_OUT, "", 0, self.overlay_out))
        return tuple(moves)

    def entries(self, at: datetime) -> tuple[Entry, ...]:
        """Every entry, in the order they are posted: the overlay in, each payment, the overlay back."""
        return tuple(movement_entry(self.tournament_id, m, at, self.house_shards) for m in self.movements)

    def unit_count(self, size: int = ENTRIES_PER_UNIT) -> int:
        """How many units of ``size`` entries the plan is posted in."""
        if size < 1:
            raise ValueError("a unit holds at least one entry")
        return -(-len(self.movements) // size)


class MovementKind(StrEnum):
    OVERLAY_IN = "overlay_in"
    PAYMENT = "payment"
    OVERLAY_OUT = "overlay_out"


@dataclass(frozen=True, slots=True)
class Movement:
    """One entry of a compensation plan as plain values (a frozen batch stores these): a payment to ``player``,
    or the overlay in or back (``from_pool``: the amount)."""

    kind: MovementKind
    player: str
    from_house: int
    from_pool: int

    def to_list(self) -> list[Any]:
        return [str(self.kind), self.player, self.from_house, self.from_pool]

    @classmethod
    def from_list(cls, raw: Sequence[Any]) -> Movement:
        kind, player, house, pool = raw
        return cls(MovementKind(kind), str(player), int(house), int(pool))


def movement_entry(tournament_id: str, move: Movement, at: datetime, house_shards: int = 1) -> Entry:
    """The ledger entry of one movement.

    Keys: ``compensation:<t>:overlay``, ``compensation:<t>:<player>``, ``compensation:<t>:overlay_return``.
    """
    t = tournament_id
    pool, overlay = pool_account(t), overlay_account(t)
    if move.kind is MovementKind.OVERLAY_IN:
        entry = transfer(f"compensation:{t}:overlay", EntryKind.OVERLAY, t, overlay, pool, move.from_pool, at)
    elif move.kind is MovementKind.OVERLAY_OUT:
        entry = transfer(f"compensation:{t}:overlay_return", EntryKind.OVERLAY, t, pool, overlay, move.from_pool, at)
    else:
        legs = (
            (player_account(move.player), move.from_house + move.from_pool),
            (pool, -move.from_pool),
            (house_account_for(t, move.player, house_shards), -move.from_house),
        )
        entry = make_entry(f"compensation:{t}:{move.player}", EntryKind.COMPENSATION, t, legs, at)
    if entry is None:
        raise ValueError(f"a movement moves money: {move}")
    return entry


def plan_compensation(
    tournament_id: str, facts: Termination, *, overlay_posted: int = 0, house_shards: int = 1
) -> CompensationPlan:
    """The plan that pays rule 17.3 from the facts alone (``overlay_posted``: the overlay already in the pool).

    >>> from datetime import UTC, datetime, timedelta
    >>> t0 = datetime(2025, 1, 1, tzinfo=UTC)
    >>> facts = Termination(
    ...     TournamentFormat.FREEZEOUT, t0, t0 + timedelta(minutes=45), False, 2_000, 5_000,
    ...     (PaidIn("ann", 100, 1_000), PaidIn("bob", 100, 1_000)), 0,
    ...     (Stack("ann", 15_000), Stack("bob", 5_000)),
    ... )
    >>> plan = plan_compensation("t1", facts)
    >>> plan.outcome, plan.overlay_in, plan.overlay_out, plan.compensation.from_pool
    (<CompensationOutcome.PAYOUT: 'payout'>, 3000, 0, 5000)
    >>> plan_compensation("t1", facts, overlay_posted=3_000).overlay_in
    0
    """
    if overlay_posted < 0:
        raise ValueError("the overlay posted is non-negative cents")
    compensation = compensate(facts)
    held = facts.collected + overlay_posted - facts.prizes_paid
    if held < 0:
        raise ValueError("more prizes paid than the pool held")
    needed = compensation.from_pool
    return CompensationPlan(
        tournament_id,
        compensation,
        overlay_in=max(0, needed - held),
        overlay_out=max(0, held - needed),
        house_shards=house_shards,
    )


def plan_full_refund(
    tournament_id: str, contributions: Sequence[PaidIn], *, overlay_posted: int = 0, house_shards: int = 1
) -> CompensationPlan:
    """The plan of a tournament terminated before it dealt a hand (rule 17.6): everyone paid back in full.

    A rollback (17.3.b: no time has passed since a start that never came)
    that needs no tables, stacks or entrants: ``contributions`` are what each
    registered player paid (buy-in and fee); no prize was paid.

    >>> plan = plan_full_refund("t1", [PaidIn("ann", 100, 1_000), PaidIn("bob", 100, 1_000)])
    >>> plan.outcome, [(p.player_id, p.amount) for p in plan.compensation.payments], plan.overlay_out
    (<CompensationOutcome.ROLLBACK: 'rollback'>, [('ann', 1100), ('bob', 1100)], 0)
    """
    if overlay_posted < 0:
        raise ValueError("the overlay posted is non-negative cents")
    compensation = Compensation(CompensationOutcome.ROLLBACK, tuple(Payment.in_full(c) for c in contributions))
    held = sum(c.pool for c in contributions) + overlay_posted
    needed = compensation.from_pool
    return CompensationPlan(
        tournament_id,
        compensation,
        overlay_in=max(0, needed - held),
        overlay_out=max(0, held - needed),
        house_shards=house_shards,
    )


def paid_by(entries: Sequence[Entry]) -> tuple[tuple[str, int], ...]:
    """``(player, amount)`` of each compensation entry among ``entries`` (the overlay legs left out)."""
    return tuple(
        (leg.account.owner, leg.amount)
        for entry in entries
        if entry.kind is EntryKind.COMPENSATION
        for leg in entry.legs
        if leg.account.kind is AccountKind.PLAYER
    )


@dataclass(frozen=True)
class FrozenPlan:
    """A compensation plan once fixed (kept with the coordinator's state): what every later step must pay again.

    ``digest`` is the plan's (:attr:`CompensationPlan.digest`): a step that
    computes another plan from the facts refuses to pay it. ``units``: how
    many chunks of entries it has; ``posted``: how many are known to be
    posted (a hint, only ever raised: posting a chunk again changes nothing).
    ``at``: when it was fixed, the timestamp of its entries.
    """

    outcome: CompensationOutcome
    digest: str
    units: int
    at: datetime
    posted: int = 0
    batches: int = 0
    """How many batches of movements the plan was frozen in (``MOVEMENTS_PER_BATCH`` each, stored apart)."""
    house_shards: int = 1
    tables: int = 0
    """The open tables when it was frozen (closed after the last payment)."""

    def __post_init__(self) -> None:
        if not 0 <= self.posted <= self.units:
            raise ValueError("posted counts chunks of the plan")

    @property
    def entries_done(self) -> bool:
        return self.posted >= self.units

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": str(self.outcome),
            "digest": self.digest,
            "units": self.units,
            "at": self.at.isoformat(),
            "posted": self.posted,
            "batches": self.batches,
            "house_shards": self.house_shards,
            "tables": self.tables,
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> FrozenPlan:
        return cls(
            outcome=CompensationOutcome(raw["outcome"]),
            digest=str(raw["digest"]),
            units=int(raw["units"]),
            at=datetime.fromisoformat(raw["at"]),
            posted=int(raw.get("posted", 0)),
            batches=int(raw.get("batches", 0)),
            house_shards=int(raw.get("house_shards", 1)),
            tables=int(raw.get("tables", 0)),
        )
