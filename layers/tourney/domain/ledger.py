"""The money ledger: double entry in integer cents (docs/rules.md, Money; rules 2, 3, 4, 17).

Every movement of money is an :class:`Entry`: an idempotency key, a kind, the
tournament it belongs to, a timestamp given by the caller, and two or more
legs whose amounts add up to zero. A leg's amount is what it adds to its
account's balance (a debit of 1,050 cents from a wallet is ``-1050``).

Accounts (:class:`Account`, written ``kind:owner`` or ``kind:owner#shard``):

==============================  =====================================================
``player:<id>``                 a player's wallet; never below zero
``pool:<tournament>``           the prize pool held; never below zero
``house:<tournament>[#shard]``  house revenue (entry fees, commission); never below
                                zero. Per tournament, optionally split into shards
                                (:func:`house_account`, :func:`house_shard`) so that
                                no single stored item is written by every registration
``overlay:<tournament>``        the house funding a guarantee's overlay; runs negative
                                by the overlay paid
``refunds:<tournament>``        refunds decided but not yet credited (rule 17.6: a
                                crash before the start is refunded within 24 hours)
``external``                    the outside world; runs negative by the net deposits
``adjustments:house``           the house's adjustments account (docs/rules.md, rule 19):
                                the other side of operators' balance adjustments;
                                runs negative by what the house paid out
==============================  =====================================================

Because each entry sums to zero, the money invariant of docs/rules.md holds by
construction and :meth:`Ledger.verify_invariants` checks it from the entries::

    players + pools + house revenue + refunds owed
        == deposits - withdrawals + overlay + adjustments paid by the house

Posting is idempotent: the same key with the same content is a no-op that
returns the entry first posted; the same key with other content raises
:class:`~tourney.domain.errors.IdempotencyConflict`. A batch is atomic: if one
entry fails (an account would go below zero, a key conflicts) nothing moves.

>>> from datetime import UTC, datetime
>>> at = datetime(2025, 1, 1, tzinfo=UTC)
>>> ledger = Ledger()
>>> _ = ledger.post(deposit("dep-1", "ann", 5_000, at))
>>> ledger.balance(player_account("ann"))
5000
>>> ledger.post(deposit("dep-1", "ann", 5_000, at)) is ledger.entry("dep-1")
True
>>> ledger.balance(player_account("ann"))
5000
"""

from __future__ import annotations

import zlib
from collections import defaultdict
from collections.abc import ItemsView, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Final, Protocol

from tourney.domain.errors import IdempotencyConflict, InsufficientFunds


class AccountKind(StrEnum):
    PLAYER = "player"
    POOL = "pool"
    HOUSE = "house"
    OVERLAY = "overlay"
    REFUNDS = "refunds"
    EXTERNAL = "external"
    ADJUSTMENTS = "adjustments"


NON_NEGATIVE_KINDS: Final = frozenset({AccountKind.PLAYER, AccountKind.POOL, AccountKind.HOUSE, AccountKind.REFUNDS})
"""Accounts that hold money and can never go below zero; the others are sources."""


@dataclass(frozen=True, order=True)
class Account:
    """One account of the ledger; ``str(account)`` is its stable name."""

    kind: AccountKind
    owner: str = ""
    shard: int | None = None

    def __post_init__(self) -> None:
        if self.kind is AccountKind.EXTERNAL:
            if self.owner or self.shard is not None:
                raise ValueError("the external account has no owner")
        elif not self.owner:
            raise ValueError(f"a {self.kind} account needs an owner")
        if self.shard is not None and (self.kind is not AccountKind.HOUSE or self.shard < 0):
            raise ValueError("only house revenue accounts are sharded, by a shard number >= 0")

    def __str__(self) -> str:
        if self.kind is AccountKind.EXTERNAL:
            return "external"
        name = f"{self.kind}:{self.owner}"
        return name if self.shard is None else f"{name}#{self.shard}"

    @classmethod
    def parse(cls, name: str) -> Account:
        """The account named ``name`` (the inverse of ``str``).

        >>> Account.parse("house:t1#3") == house_account("t1", 3)
        True
        """
        if name == "external":
            return EXTERNAL
        kind, sep, rest = name.partition(":")
        if not sep:
            raise ValueError(f"not an account name: {name!r}")
        owner, hashmark, shard = rest.rpartition("#") if kind == AccountKind.HOUSE and "#" in rest else (rest, "", "")
        return cls(AccountKind(kind), owner, int(shard) if hashmark else None)

    @property
    def holds_money(self) -> bool:
        return self.kind in NON_NEGATIVE_KINDS


EXTERNAL: Final = Account(AccountKind.EXTERNAL)
HOUSE_ADJUSTMENTS: Final = Account(AccountKind.ADJUSTMENTS, "house")
"""The house's adjustments account: the other side of every balance adjustment (docs/rules.md, rule 19)."""

MAX_ADJUSTMENT_CENTS: Final = 1_000_000_000
"""The largest balance adjustment (or deposit), either way: 10,000,000.00 in cents, as the edge bounds money."""


def player_account(player_id: str) -> Account:
    return Account(AccountKind.PLAYER, player_id)


def pool_account(tournament_id: str) -> Account:
    return Account(AccountKind.POOL, tournament_id)


def house_account(tournament_id: str, shard: int | None = None) -> Account:
    """House revenue of one tournament, or of one shard of it (see :func:`house_shard`)."""
    return Account(AccountKind.HOUSE, tournament_id, shard)


def overlay_account(tournament_id: str) -> Account:
    return Account(AccountKind.OVERLAY, tournament_id)


def refunds_account(tournament_id: str) -> Account:
    return Account(AccountKind.REFUNDS, tournament_id)


def house_shard(player_id: str, shards: int) -> int | None:
    """The house revenue shard a player's fees go to: stable across processes (CRC-32).

    With one shard there is no shard number, and the account is ``house:<tournament>``.
    A player's fees always land in the same shard, so refunding them never
    takes money from a shard that did not receive it.

    >>> house_shard("ann", 1) is None, house_shard("ann", 8) == house_shard("ann", 8)
    (True, True)
    """
    if shards < 1:
        raise ValueError("shards must be at least 1")
    return None if shards == 1 else zlib.crc32(player_id.encode()) % shards


def house_account_for(tournament_id: str, player_id: str, shards: int = 1) -> Account:
    return house_account(tournament_id, house_shard(player_id, shards))


class EntryKind(StrEnum):
    DEPOSIT = "deposit"
    WITHDRAWAL = "withdrawal"
    BUY_IN = "buy_in"
    ENTRY_FEE = "entry_fee"
    COMMISSION = "commission"
    REBUY = "rebuy"
    ADD_ON = "add_on"
    REFUND = "refund"
    PRIZE = "prize"
    OVERLAY = "overlay"
    COMPENSATION = "compensation"
    ADJUSTMENT = "adjustment"
    FORFEIT = "forfeit"


CONTRIBUTION_KINDS: Final = frozenset({EntryKind.BUY_IN, EntryKind.REBUY, EntryKind.ADD_ON})


@dataclass(frozen=True, order=True)
class Leg:
    account: Account
    amount: int


@dataclass(frozen=True)
class Entry:
    """One balanced movement of money, identified by its idempotency key."""

    key: str
    kind: EntryKind
    tournament_id: str | None
    legs: tuple[Leg, ...]
    at: datetime

    def __post_init__(self) -> None:
        if not self.key:
            raise ValueError("an entry needs an idempotency key")
        if len(self.legs) < 2:
            raise ValueError(f"entry {self.key}: double entry needs at least two legs")
        if any(type(leg.amount) is not int or leg.amount == 0 for leg in self.legs):
            raise ValueError(f"entry {self.key}: leg amounts are non-zero integer cents")
        if len({leg.account for leg in self.legs}) != len(self.legs):
            raise ValueError(f"entry {self.key}: an account appears in two legs")
        if sum(leg.amount for leg in self.legs) != 0:
            raise ValueError(f"entry {self.key}: legs do not sum to zero")
        if self.at.tzinfo is None:
            raise ValueError(f"entry {self.key}: the timestamp must be timezone-aware")

    def same_movement(self, other: Entry) -> bool:
        """Whether ``other`` moves the same money (the timestamp of a retry may differ)."""
        return (self.key, self.kind, self.tournament_id, sorted(self.legs)) == (
            other.key,
            other.kind,
            other.tournament_id,
            sorted(other.legs),
        )

    def amount_for(self, account: Account) -> int:
        return sum(leg.amount for leg in self.legs if leg.account == account)


def make_entry(
    key: str,
    kind: EntryKind,
    tournament_id: str | None,
    amounts: Iterable[tuple[Account, int]],
    at: datetime,
) -> Entry | None:
    """An entry from ``(account, amount)`` pairs, merging repeated accounts and dropping zeros.

    Returns ``None`` when nothing moves (a freeroll's buy-in, a commission
    that rounds to zero), so callers post only real movements.
    """
    merged: dict[Account, int] = defaultdict(int)
    for account, amount in amounts:
        merged[account] += amount
    legs = tuple(Leg(account, amount) for account, amount in merged.items() if amount)
    return Entry(key, kind, tournament_id, legs, at) if legs else None


def transfer(
    key: str, kind: EntryKind, tournament_id: str | None, source: Account, target: Account, amount: int, at: datetime
) -> Entry | None:
    """Move ``amount`` cents from ``source`` to ``target`` (``None`` when the amount is zero)."""
    if amount < 0:
        raise ValueError(f"entry {key}: a transfer moves a non-negative amount")
    return make_entry(key, kind, tournament_id, ((source, -amount), (target, amount)), at)


def deposit(key: str, player_id: str, amount: int, at: datetime) -> Entry:
    """Money from outside credited to a wallet (an operator's deposit, docs/interfaces.md)."""
    entry = transfer(key, EntryKind.DEPOSIT, None, EXTERNAL, player_account(player_id), amount, at)
    if entry is None:
        raise ValueError("a deposit moves a positive amount")
    return entry


def withdrawal(key: str, player_id: str, amount: int, at: datetime) -> Entry:
    entry = transfer(key, EntryKind.WITHDRAWAL, None, player_account(player_id), EXTERNAL, amount, at)
    if entry is None:
        raise ValueError("a withdrawal moves a positive amount")
    return entry


def balance_adjustment(key: str, player_id: str, amount: int, at: datetime) -> Entry:
    """An operator's adjustment (docs/rules.md, rule 19): ``amount`` cents to the player (negative: from them),
    the other leg on the house's adjustments account.

    >>> from datetime import UTC, datetime
    >>> e = balance_adjustment("adj-1", "ann", -250, datetime(2025, 1, 1, tzinfo=UTC))
    >>> e.amount_for(player_account("ann")), e.amount_for(HOUSE_ADJUSTMENTS)
    (-250, 250)
    """
    if type(amount) is not int or amount == 0 or abs(amount) > MAX_ADJUSTMENT_CENTS:
        raise ValueError(f"an adjustment is a non-zero int of cents up to {MAX_ADJUSTMENT_CENTS}, not {amount!r}")
    return Entry(
        key,
        EntryKind.ADJUSTMENT,
        None,
        (Leg(player_account(player_id), amount), Leg(HOUSE_ADJUSTMENTS, -amount)),
        at,
    )


def new_entries(entries: Sequence[Entry], stored: Mapping[str, Entry]) -> list[Entry]:
    """The entries of a batch that are not ``stored`` yet under their keys, each key once, in the batch's order.

    Raises ``IdempotencyConflict`` when a key, stored or earlier in the batch, was used for another movement.
    """
    fresh: list[Entry] = []
    batch: dict[str, Entry] = {}
    for entry in entries:
        earlier = stored.get(entry.key) or batch.get(entry.key)
        if earlier is not None:
            if not earlier.same_movement(entry):
                raise IdempotencyConflict(f"idempotency key {entry.key!r} was used for another movement")
            continue
        batch[entry.key] = entry
        fresh.append(entry)
    return fresh


class LedgerPort(Protocol):
    """What domain operations need from a ledger: read a balance, post atomically."""

    def balance(self, account: Account) -> int: ...

    def post_all(self, entries: Sequence[Entry]) -> tuple[Entry, ...]: ...


class LedgerInconsistent(RuntimeError):
    """The ledger's derived figures disagree: a defect, never a player's mistake."""


@dataclass(frozen=True)
class LedgerSummary:
    """The report's ``ledger`` block (docs/interfaces.md), in cents, plus a few more figures.

    ``prize_pool_collected`` is the players' contributions to the pool
    (buy-ins, rebuys, add-ons, after commission) less what was refunded, without
    overlay; ``refunds`` is what unregistering, the waiting list and cancellation
    gave back (or owe); termination's compensation is ``compensation``.
    """

    deposits: int
    withdrawals: int
    player_balances: int
    prize_pool_collected: int
    prize_pool_held: int
    overlay: int
    prizes_paid: int
    house_revenue: int
    refunds: int
    refunds_owed: int
    compensation: int

    def as_report(self) -> dict[str, int]:
        return {
            "deposits": self.deposits,
            "player_balances": self.player_balances,
            "prize_pool_collected": self.prize_pool_collected,
            "overlay": self.overlay,
            "prizes_paid": self.prizes_paid,
            "house_revenue": self.house_revenue,
            "refunds": self.refunds,
            "withdrawals": self.withdrawals,
            "prize_pool_held": self.prize_pool_held,
            "refunds_owed": self.refunds_owed,
            "compensation": self.compensation,
        }


class Ledger:
    """An in-memory ledger: the entries, in order, and balances kept in lock-step.

    The DynamoDB adapter keeps the same rules with conditional transactions;
    this one serves the domain, the in-memory simulation and the tests.
    """

    def __init__(self) -> None:
        self._entries: list[Entry] = []
        self._by_key: dict[str, Entry] = {}
        self._balances: dict[Account, int] = defaultdict(int)

    def __len__(self) -> int:
        return len(self._entries)

    def balance(self, account: Account) -> int:
        return self._balances.get(account, 0)

    def balances(self) -> dict[Account, int]:
        return {account: amount for account, amount in self._balances.items() if amount}

    def balance_items(self) -> ItemsView[Account, int]:
        """Every account's balance, zeros included, as a view and not a copy (checks over a large ledger)."""
        return self._balances.items()

    def entry(self, key: str) -> Entry | None:
        return self._by_key.get(key)

    def entries(self, *, account: Account | None = None, tournament_id: str | None = None) -> tuple[Entry, ...]:
        """Entries in posting order, optionally those touching ``account`` or of one tournament."""
        return tuple(
            e
            for e in self._entries
            if (account is None or any(leg.account == account for leg in e.legs))
            and (tournament_id is None or e.tournament_id == tournament_id)
        )

    def verify_post_all(self, entries: Sequence[Entry]) -> list[Entry]:
        """Raise what :meth:`post_all` would raise; return the entries that are new.

        Funds are checked on each account's net change over the batch, as one
        transaction with one condition per account (a store would write it so).
        """
        fresh = new_entries(entries, self._by_key)
        net: dict[Account, int] = defaultdict(int)
        for entry in fresh:
            for leg in entry.legs:
                net[leg.account] += leg.amount
        for account, change in net.items():
            if account.holds_money and self.balance(account) + change < 0:
                keys = ", ".join(e.key for e in fresh if e.amount_for(account) < 0)
                raise InsufficientFunds(f"{account} holds {self.balance(account)} cents; {keys} needs {-change}")
        return fresh

    def can_post_all(self, entries: Sequence[Entry]) -> bool:
        try:
            self.verify_post_all(entries)
        except (IdempotencyConflict, InsufficientFunds):
            return False
        return True

    def post_all(self, entries: Sequence[Entry]) -> tuple[Entry, ...]:
        """Post a batch atomically; return, for each entry, the entry stored under its key."""
        for entry in self.verify_post_all(entries):
            self._entries.append(entry)
            self._by_key[entry.key] = entry
            for leg in entry.legs:
                self._balances[leg.account] += leg.amount
        return tuple(self._by_key[e.key] for e in entries)

    def post(self, entry: Entry) -> Entry:
        return self.post_all((entry,))[0]

    def derived_balances(self) -> dict[Account, int]:
        """Balances recomputed from the entries alone."""
        derived: dict[Account, int] = defaultdict(int)
        for entry in self._entries:
            for leg in entry.legs:
                derived[leg.account] += leg.amount
        return {account: amount for account, amount in derived.items() if amount}

    def verify_invariants(self) -> None:
        """Check docs/rules.md's money invariant and the ledger's own consistency.

        Raises :class:`LedgerInconsistent` when the cached balances differ from
        the entries, an account that holds money is below zero, or
        ``players + pools + house + refunds owed != deposits - withdrawals + overlay + adjustments``.
        """
        derived = self.derived_balances()
        if derived != self.balances():
            raise LedgerInconsistent("cached balances differ from the entries")
        negative = sorted(str(a) for a, amount in derived.items() if amount < 0 and a.holds_money)
        if negative:
            raise LedgerInconsistent(f"accounts below zero: {negative}")
        held = sum(amount for a, amount in derived.items() if a.holds_money)
        net_deposits = -derived.get(EXTERNAL, 0)
        overlay = -sum(amount for a, amount in derived.items() if a.kind is AccountKind.OVERLAY)
        adjustments = -sum(amount for a, amount in derived.items() if a.kind is AccountKind.ADJUSTMENTS)
        if held != net_deposits + overlay + adjustments:
            raise LedgerInconsistent(
                f"money held {held} != net deposits {net_deposits} + overlay {overlay} + adjustments {adjustments}"
            )

    def summary(self, tournament_id: str | None = None) -> LedgerSummary:
        """The report's figures; tournament figures restricted to ``tournament_id`` when given.

        Deposits, withdrawals and player balances are always ledger-wide.
        """

        def in_scope(account: Account) -> bool:
            return tournament_id is None or account.owner == tournament_id

        deposits = withdrawals = collected = prizes = refunds = compensation = 0
        for entry in self._entries:
            for leg in entry.legs:
                kind = leg.account.kind
                if kind is AccountKind.EXTERNAL:
                    if entry.kind is EntryKind.DEPOSIT:
                        deposits -= leg.amount
                    elif entry.kind is EntryKind.WITHDRAWAL:
                        withdrawals += leg.amount
                    continue
                if not in_scope(leg.account) or kind is AccountKind.PLAYER:
                    continue
                if kind is AccountKind.POOL and (
                    entry.kind in CONTRIBUTION_KINDS or entry.kind in (EntryKind.COMMISSION, EntryKind.REFUND)
                ):
                    collected += leg.amount
                if kind in (AccountKind.POOL, AccountKind.HOUSE) and entry.kind is EntryKind.REFUND:
                    refunds -= leg.amount
                if kind is AccountKind.POOL and entry.kind is EntryKind.PRIZE:
                    prizes -= leg.amount
                if kind in (AccountKind.POOL, AccountKind.HOUSE) and entry.kind is EntryKind.COMPENSATION:
                    compensation -= leg.amount
        balances = self._balances

        def total(kind: AccountKind) -> int:
            return sum(amount for a, amount in balances.items() if a.kind is kind and in_scope(a))

        return LedgerSummary(
            deposits=deposits,
            withdrawals=withdrawals,
            player_balances=sum(amount for a, amount in balances.items() if a.kind is AccountKind.PLAYER),
            prize_pool_collected=collected,
            prize_pool_held=total(AccountKind.POOL),
            overlay=-total(AccountKind.OVERLAY),
            prizes_paid=prizes,
            house_revenue=total(AccountKind.HOUSE),
            refunds=refunds,
            refunds_owed=total(AccountKind.REFUNDS),
            compensation=compensation,
        )
