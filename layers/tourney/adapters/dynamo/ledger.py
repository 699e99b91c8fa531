"""The money ledger on DynamoDB: entries posted atomically with conditions (docs/rules.md, Money; docs/data-model.md).

:class:`DynamoLedger` keeps the rules of the in-memory ``tourney.domain.ledger.Ledger``
(it implements ``LedgerPort``) with one ``TransactWriteItems`` per batch:

* each touched balance item is updated once with ``ADD`` (legs of the batch
  merged per item, since a transaction may not touch an item twice), with the
  condition ``balance >= :debit`` on accounts that hold money (players, pools,
  house revenue, refunds owed), so none goes below zero;
* one idempotency-key item per entry, ``attribute_not_exists(pk)``, holding the entry;
* one leg item per entry and player account, under the account's partition, so a
  player's history (``GET /me/ledger``) is one Query.

A key already used for the same movement is a no-op that returns the stored
entry (seen in the cancellation reason, ``ReturnValuesOnConditionCheckFailure``);
for another movement it raises ``IdempotencyConflict``; a short balance raises
``InsufficientFunds``. Nothing moves on failure.

Hot items. A prize pool, an unsharded house account and the external account
are split in storage over :class:`LedgerShards` items (``account#pool:t1~3``):
a credit goes to one shard chosen by the entry's player (or key), so 1,000
registrations a second spread over the shards; a debit (a refund, a prize) is
taken from the player's own shard first, then from the fullest others, each
with its own ``balance >= :take`` condition. A balance is the sum of the shards.
House accounts the domain already shards (``house:t1#3``) are stored as they are.

The batch check must run inside the same transaction as the rest of a use case
(a registration writes money, the registration and the counter shard at once):
:meth:`DynamoLedger.prepare` adds a batch to a :class:`Transaction` and returns a
:class:`Posting` that explains a cancellation; :meth:`DynamoLedger.post_all` does
both for a batch alone.
"""

from __future__ import annotations

import json
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pynamodb.attributes import NumberAttribute

from tourney.adapters.dynamo.models.ledger import (
    BALANCE_SK,
    ENTRY_SK,
    LEG_PREFIX,
    BalanceItem,
    EntryItem,
    LegItem,
    account_pk,
    entry_pk,
    leg_sk,
)
from tourney.adapters.dynamo.transaction import CONDITION_FAILED, RETRYABLE, Transaction, TransactionCancelled
from tourney.domain.errors import IdempotencyConflict, InsufficientFunds, StaleVersion
from tourney.domain.ledger import Account, AccountKind, Entry, EntryKind, Leg, new_entries

EXPLAINED = frozenset({CONDITION_FAILED, *RETRYABLE})
"""Cancellation codes that are a lost condition or race; any other (a malformed request) is raised as it is."""

HISTORY_KINDS = frozenset({AccountKind.PLAYER})
"""Accounts whose entries are listed (``GET /me/ledger``): each leg of theirs is an item under their partition.

Pools, house revenue and the other tournament accounts keep no leg items: a refund of the waiting list
then fits 15 refunds in one transaction (DynamoDB's limit is 100 items), and an audit reads the entry items.
"""

ATTEMPTS = 4
"""How often a batch is sent again after duplicates are dropped or a shard ran short under a concurrent debit."""


@dataclass(frozen=True)
class LedgerShards:
    """How many storage items hold the balance of each kind of hot account."""

    pool: int = 64
    """Every registration credits the pool: at 1,000 a second, 16 a second a shard (two transactions on one item
    at once conflict, and DynamoDB cancels one)."""
    house: int = 16
    """For house accounts the domain did not shard itself (``house:<t>``)."""
    external: int = 16

    def of(self, account: Account) -> int:
        if account.kind is AccountKind.POOL:
            return self.pool
        if account.kind is AccountKind.HOUSE and account.shard is None:
            return self.house
        if account.kind is AccountKind.EXTERNAL:
            return self.external
        return 1


# -- how entries are stored -------------------------------------------------------------------------------------------


def legs_json(entry: Entry) -> str:
    return json.dumps([[str(leg.account), leg.amount] for leg in entry.legs], separators=(",", ":"))


def entry_from_attributes(key: str, kind: str, tournament_id: str | None, at: str, legs: str) -> Entry:
    return Entry(
        key=key,
        kind=EntryKind(kind),
        tournament_id=tournament_id,
        legs=tuple(Leg(Account.parse(name), int(amount)) for name, amount in json.loads(legs)),
        at=datetime.fromisoformat(at),
    )


def entry_from_raw(raw: dict[str, Any]) -> Entry:
    """The entry stored in an ``EntryItem``, from DynamoDB JSON (a cancellation reason's item)."""
    tournament = raw.get("tournament_id", {})
    return entry_from_attributes(
        raw["key"]["S"],
        raw["kind"]["S"],
        tournament.get("S") if isinstance(tournament, dict) else None,
        raw["at"]["S"],
        raw["legs"]["S"],
    )


def _entry_item(entry: Entry) -> EntryItem:
    return EntryItem(
        entry_pk(entry.key),
        ENTRY_SK,
        key=entry.key,
        kind=entry.kind.value,
        tournament_id=entry.tournament_id,
        at=entry.at.isoformat(),
        legs=legs_json(entry),
    )


# -- the tags of a posting's items ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class KeyTag:
    key: str


@dataclass(frozen=True)
class BalanceTag:
    account: Account
    shard: int | None
    debit: int


# -- a batch in a transaction -----------------------------------------------------------------------------------------


@dataclass
class Posting:
    """A batch of entries added to a transaction: what the caller returns, and what a cancellation means."""

    requested: tuple[Entry, ...]
    fresh: tuple[Entry, ...]
    known: dict[str, Entry] = field(default_factory=dict)
    """Entries found already stored under their key (same movement): returned as stored."""

    def result(self) -> tuple[Entry, ...]:
        """For each requested entry, the entry stored under its key."""
        return tuple(self.known.get(entry.key, entry) for entry in self.requested)

    def explain(self, cancelled: TransactionCancelled) -> dict[str, Entry]:
        """Turn a cancellation into our error, or return the entries found already posted (to drop and retry).

        Raises ``IdempotencyConflict`` when a key holds another movement and
        ``InsufficientFunds`` when an account that holds money would go below
        zero; returns ``{}`` when the cancellation is not the ledger's doing.
        """
        by_key = {entry.key: entry for entry in self.fresh}
        duplicates: dict[str, Entry] = {}
        for failure in cancelled.failures:
            if isinstance(failure.tag, KeyTag) and failure.condition_failed:
                stored = entry_from_raw(failure.old) if failure.old else None
                wanted = by_key[failure.tag.key]
                if stored is None or not stored.same_movement(wanted):
                    raise IdempotencyConflict(f"idempotency key {failure.tag.key!r} was used for another movement")
                duplicates[failure.tag.key] = stored
        if duplicates:
            return duplicates
        short = [f.tag for f in cancelled.failures if isinstance(f.tag, BalanceTag) and f.condition_failed]
        unsplit = [tag for tag in short if tag.shard is None]
        if unsplit:
            raise InsufficientFunds(f"{unsplit[0].account} cannot pay {unsplit[0].debit} cents")
        return {}

    def short_split_accounts(self, cancelled: TransactionCancelled) -> bool:
        """Whether only shards of split accounts ran short (a concurrent debit: worth reading them again)."""
        short = [f.tag for f in cancelled.failures if isinstance(f.tag, BalanceTag) and f.condition_failed]
        return bool(short) and all(tag.shard is not None for tag in short)


class DynamoLedger:
    """The ledger on DynamoDB (``LedgerPort``): balances, entries, atomic conditional posting."""

    def __init__(
        self, shards: LedgerShards | None = None, history_kinds: Iterable[AccountKind] = HISTORY_KINDS
    ) -> None:
        self.shards = shards or LedgerShards()
        self.history_kinds = frozenset(history_kinds)

    # -- reads ---------------------------------------------------------------------------------------------------

    def balance(self, account: Account) -> int:
        """The balance (the sum of its shards), strongly consistent."""
        return sum(self.shard_balances(account).values())

    def shard_balances(self, account: Account) -> dict[int | None, int]:
        count = self.shards.of(account)
        name = str(account)
        if count == 1:
            try:
                item = BalanceItem.get(account_pk(name), BALANCE_SK, consistent_read=True)
            except BalanceItem.DoesNotExist:
                return {None: 0}
            return {None: int(item.balance)}
        found = {
            item.pk: int(item.balance)
            for item in BalanceItem.batch_get(
                [(account_pk(name, shard), BALANCE_SK) for shard in range(count)], consistent_read=True
            )
        }
        return {shard: found.get(account_pk(name, shard), 0) for shard in range(count)}

    def entry(self, key: str) -> Entry | None:
        try:
            item = EntryItem.get(entry_pk(key), ENTRY_SK, consistent_read=True)
        except EntryItem.DoesNotExist:
            return None
        return entry_from_attributes(item.key, item.kind, item.tournament_id, item.at, item.legs)

    def stored(self, entries: Iterable[Entry]) -> dict[str, Entry]:
        """Those of ``entries`` already posted under their key, as stored (strongly consistent reads).

        Raises ``IdempotencyConflict`` when a key holds another movement.
        """
        wanted = {entry.key: entry for entry in entries}
        found: dict[str, Entry] = {}
        keys = [(entry_pk(key), ENTRY_SK) for key in wanted]
        for item in EntryItem.batch_get(keys, consistent_read=True):
            entry = entry_from_attributes(item.key, item.kind, item.tournament_id, item.at, item.legs)
            if not entry.same_movement(wanted[entry.key]):
                raise IdempotencyConflict(f"idempotency key {entry.key!r} was used for another movement")
            found[entry.key] = entry
        return found

    def entries(self, account: Account, *, newest_first: bool = False, limit: int | None = None) -> tuple[Entry, ...]:
        """The entries touching ``account``, in time order: one Query (one per shard for a split account).

        Only accounts of :attr:`history_kinds` (players, by default) keep leg items; asking for another
        raises ``ValueError`` rather than answer an empty history.
        """
        if account.kind not in self.history_kinds:
            raise ValueError(f"{account.kind} accounts keep no history here: read their entries by key")
        count = self.shards.of(account)
        pks = [account_pk(str(account))] if count == 1 else [account_pk(str(account), s) for s in range(count)]
        found: list[tuple[str, Entry]] = []
        for pk in pks:
            for item in LegItem.query(
                pk, LegItem.sk.startswith(LEG_PREFIX), scan_index_forward=not newest_first, limit=limit
            ):
                found.append(
                    (item.sk, entry_from_attributes(item.key, item.kind, item.tournament_id, item.at, item.legs))
                )
        found.sort(key=lambda pair: pair[0], reverse=newest_first)
        entries = tuple(entry for _, entry in found)
        return entries[:limit] if limit is not None else entries

    # -- writes --------------------------------------------------------------------------------------------------

    def post(self, entry: Entry) -> Entry:
        return self.post_all((entry,))[0]

    def post_all(self, entries: Sequence[Entry]) -> tuple[Entry, ...]:
        """Post a batch atomically in one transaction; return, for each entry, the entry stored under its key."""
        return self.run(entries, lambda tx: None)

    def run(
        self,
        entries: Sequence[Entry],
        more: Callable[[Transaction], Any],
        on_cancel: Callable[[TransactionCancelled], None] | None = None,
    ) -> tuple[Entry, ...]:
        """Post ``entries`` in one transaction with whatever ``more`` adds to it; retry as :class:`Posting` says.

        ``more`` is called again for every attempt, on a fresh transaction.
        ``on_cancel`` sees a cancellation first and raises for the items that
        ``more`` added; what it lets through is explained by the ledger, and a
        cancellation nobody explains is raised as it is.
        """
        known: dict[str, Entry] = {}
        for _attempt in range(ATTEMPTS):
            tx = Transaction()
            try:
                posting = self.prepare(entries, tx, known=known)
            except InsufficientFunds:
                # A split account's shards read short: maybe because these very entries were posted already
                # (a retry after a crash, a racing worker). Those are no-ops, as the in-memory ledger skips them.
                stored = self.stored(entry for entry in entries if entry.key not in known)
                if not stored:
                    raise
                known.update(stored)
                continue
            more(tx)
            try:
                tx.commit()
            except TransactionCancelled as cancelled:
                if not all(f.code in EXPLAINED for f in cancelled.failures):
                    raise
                if on_cancel is not None:
                    on_cancel(cancelled)
                duplicates = posting.explain(cancelled)
                if duplicates:
                    known.update(duplicates)
                    continue
                if posting.short_split_accounts(cancelled):
                    continue
                if all(f.code in RETRYABLE for f in cancelled.failures):
                    raise StaleVersion(f"the transaction lost a race: {cancelled}") from cancelled
                raise
            return posting.result()
        raise InsufficientFunds("the batch could not be posted: a split account kept running short")

    def prepare(self, entries: Sequence[Entry], tx: Transaction, *, known: dict[str, Entry] | None = None) -> Posting:
        """Add the batch's items to ``tx``; entries in ``known`` (already stored) are left out.

        Raises ``IdempotencyConflict`` at once when one key is given two movements in
        the batch, and ``InsufficientFunds`` when a split account is short in total.
        """
        known = dict(known or {})
        fresh = new_entries(entries, known)
        posting = Posting(tuple(entries), tuple(fresh), known)
        if not fresh:
            return posting
        changes, leg_homes = self._balance_changes(fresh)
        for entry in fresh:
            tx.put(_entry_item(entry), condition=EntryItem.pk.does_not_exist(), tag=KeyTag(entry.key), return_old=True)
            for leg in entry.legs:
                if leg.account.kind not in self.history_kinds:
                    continue
                home = leg_homes[(entry.key, leg.account)]
                tx.put(
                    LegItem(
                        account_pk(str(leg.account), home),
                        leg_sk(entry.at.isoformat(), entry.key),
                        key=entry.key,
                        kind=entry.kind.value,
                        tournament_id=entry.tournament_id,
                        at=entry.at.isoformat(),
                        amount=leg.amount,
                        legs=legs_json(entry),
                    ),
                    tag=None,
                )
        for (account, shard), delta in sorted(changes.items(), key=lambda kv: (str(kv[0][0]), kv[0][1] or 0)):
            if delta == 0:
                continue
            item = BalanceItem(account_pk(str(account), shard), BALANCE_SK)
            actions = [BalanceItem.balance.add(delta), BalanceItem.account.set(str(account))]
            if shard is not None:
                actions.append(BalanceItem.shard.set(shard))
            condition = None
            if delta < 0 and account.holds_money:
                condition = _balance_attr() >= -delta
            tx.update(item, actions, condition=condition, tag=BalanceTag(account, shard, -delta if delta < 0 else 0))
        return posting

    def _balance_changes(
        self, fresh: Iterable[Entry]
    ) -> tuple[dict[tuple[Account, int | None], int], dict[tuple[str, Account], int | None]]:
        """Net change per balance item, and the shard under which each leg item is written."""
        changes: dict[tuple[Account, int | None], int] = defaultdict(int)
        leg_homes: dict[tuple[str, Account], int | None] = {}
        net: dict[Account, int] = defaultdict(int)
        homes: dict[Account, int] = {}
        for entry in fresh:
            anchor = _anchor(entry)
            for leg in entry.legs:
                count = self.shards.of(leg.account)
                if count == 1:
                    changes[(leg.account, None)] += leg.amount
                    leg_homes[(entry.key, leg.account)] = None
                    continue
                home = zlib.crc32(anchor.encode()) % count
                homes.setdefault(leg.account, home)
                leg_homes[(entry.key, leg.account)] = home
                net[leg.account] += leg.amount
        for account, delta in net.items():
            home = homes[account]
            if delta >= 0 or not account.holds_money:
                changes[(account, home)] += delta
                continue
            for shard, take in self._allocate(account, -delta, home).items():
                changes[(account, shard)] -= take
        return changes, leg_homes

    def _allocate(self, account: Account, amount: int, home: int) -> dict[int, int]:
        """Which shards pay a debit of ``amount``: the home shard first, then the fullest (consistent reads)."""
        balances = self.shard_balances(account)
        total = sum(balances.values())
        if total < amount:
            raise InsufficientFunds(f"{account} holds {total} cents; {amount} needed")
        order = [home, *sorted((s for s in balances if s != home), key=lambda s: (-balances[s], s or 0))]
        taken: dict[int, int] = {}
        left = amount
        for shard in order:
            assert shard is not None
            take = min(left, balances[shard])
            if take > 0:
                taken[shard] = take
                left -= take
            if left == 0:
                break
        return taken


def _anchor(entry: Entry) -> str:
    """What picks an entry's shards: its player (so a refund finds the shard the buy-in went to), else its key."""
    for leg in entry.legs:
        if leg.account.kind is AccountKind.PLAYER:
            return leg.account.owner
    return entry.key


def _balance_attr() -> NumberAttribute:
    return BalanceItem.balance
