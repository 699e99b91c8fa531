"""Entry fees, commission and the split of every payment (docs/rules.md, Money; rule 2; Rebuys and add-ons).

A buy-in, a rebuy and an add-on each cost ``buy_in + entry_fee``:

* with an entry fee, the buy-in goes to the prize pool and the fee to the house;
* with no entry fee, the house takes a commission of 9 % of the buy-in, or 4 %
  of a rebuy or an add-on, rounded half up to the cent, and the pool gets the
  rest, so the split always adds up to the amount paid.

Only integer arithmetic: rates are basis points (1/100 of a percent).

>>> split_payment(Purchase.BUY_IN, 1_050, 0)
Split(paid=1050, pool=955, house=95)
>>> split_payment(Purchase.REBUY, 1_050, 0)
Split(paid=1050, pool=1008, house=42)
>>> split_payment(Purchase.BUY_IN, 1_000, 100)
Split(paid=1100, pool=1000, house=100)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Final

from tourney.domain.ledger import (
    Account,
    Entry,
    EntryKind,
    house_account_for,
    make_entry,
    player_account,
    pool_account,
    transfer,
)

BASIS_POINTS: Final = 10_000
BUY_IN_COMMISSION_BP: Final = 900
"""9 % of the buy-in when there is no entry fee (rule 2)."""
REBUY_COMMISSION_BP: Final = 400
"""4 % of every rebuy and add-on when there is no entry fee (rule 2)."""


class Purchase(StrEnum):
    """What a player pays for: each costs ``buy_in + entry_fee``."""

    BUY_IN = "buy_in"
    REBUY = "rebuy"
    ADD_ON = "add_on"

    @property
    def entry_kind(self) -> EntryKind:
        return EntryKind(self.value)

    @property
    def commission_bp(self) -> int:
        return BUY_IN_COMMISSION_BP if self is Purchase.BUY_IN else REBUY_COMMISSION_BP


@dataclass(frozen=True)
class Split:
    """A payment and where it goes: ``paid == pool + house`` always."""

    paid: int
    pool: int
    house: int


def commission(amount: int, rate_bp: int) -> int:
    """``amount * rate`` rounded half up to the cent (docs/rules.md, Money).

    >>> commission(1_050, 900), commission(1_000, 900), commission(50, 900)
    (95, 90, 5)
    """
    if amount < 0 or rate_bp < 0:
        raise ValueError("amount and rate are non-negative")
    return (amount * rate_bp + BASIS_POINTS // 2) // BASIS_POINTS


def split_payment(purchase: Purchase, buy_in: int, entry_fee: int) -> Split:
    """How a buy-in, rebuy or add-on splits between pool and house (rule 2)."""
    if buy_in < 0 or entry_fee < 0:
        raise ValueError("buy-in and entry fee are non-negative cents")
    if entry_fee:
        return Split(paid=buy_in + entry_fee, pool=buy_in, house=entry_fee)
    taken = commission(buy_in, purchase.commission_bp)
    return Split(paid=buy_in, pool=buy_in - taken, house=taken)


@dataclass(frozen=True)
class PurchasePayment:
    """One player's payment for a purchase in a tournament; its fee or commission goes to the player's house shard."""

    purchase: Purchase
    tournament_id: str
    player_id: str
    buy_in: int
    entry_fee: int
    house_shards: int = 1
    """How many house accounts the tournament's revenue spreads over (``ledger.house_account_for``)."""

    def entries(self, key: str, at: datetime) -> tuple[Entry, ...]:
        """The ledger entries of the payment, to be posted together (atomically).

        * ``<key>:<purchase>``: the buy-in (or rebuy, add-on) from the wallet to the pool;
        * ``<key>:entry_fee``: the fee from the wallet to the house, or
          ``<key>:commission``: the commission from the pool to the house.

        Zero movements are left out (a freeroll posts nothing).
        """
        tid, purchase, house = self.tournament_id, self.purchase, self._house
        wallet, pool = player_account(self.player_id), pool_account(tid)
        entries = [transfer(f"{key}:{purchase}", purchase.entry_kind, tid, wallet, pool, self.buy_in, at)]
        if self.entry_fee:
            entries.append(transfer(f"{key}:entry_fee", EntryKind.ENTRY_FEE, tid, wallet, house, self.entry_fee, at))
        else:
            entries.append(transfer(f"{key}:commission", EntryKind.COMMISSION, tid, pool, house, self.split.house, at))
        return tuple(e for e in entries if e is not None)

    def refund(self, key: str, at: datetime) -> Entry | None:
        """Give back the payment in full: the pool's part and the house's part (rules 3, 4).

        One entry, so a payment is refunded at most once per key.
        """
        split, tid = self.split, self.tournament_id
        movements = (
            (player_account(self.player_id), split.paid),
            (pool_account(tid), -split.pool),
            (self._house, -split.house),
        )
        return make_entry(key, EntryKind.REFUND, tid, movements, at)

    @property
    def split(self) -> Split:
        return split_payment(self.purchase, self.buy_in, self.entry_fee)

    @property
    def _house(self) -> Account:
        return house_account_for(self.tournament_id, self.player_id, self.house_shards)
