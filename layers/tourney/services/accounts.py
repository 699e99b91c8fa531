"""Accounts: deposits by operators, a player's balance and ledger entries (docs/rules.md, Money)."""

from __future__ import annotations

import contextlib

from tourney.domain.errors import IllegalAction, NotFound, StaleVersion
from tourney.domain.ledger import deposit, player_account
from tourney.services.deps import Deps
from tourney.services.records import AccountRecord
from tourney.services.views import AccountView, DepositView, LedgerLine, LedgerView


class AccountsService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    def account(self, player: str) -> AccountView:
        return AccountView(player, self._d.store.ledger.balance(player_account(player)))

    def sign_in(self, player: str) -> AccountView:
        """The signed-in player's account, opened at their first sign-in (``GET /me/account``); then only read."""
        self.open(player)
        return self.account(player)

    def open(self, player: str) -> None:
        """Open ``player``'s account if it is not yet: one put, once (a racing second finds it opened)."""
        store = self._d.store
        if store.accounts.get(player) is not None:
            return
        uow = store.unit_of_work()
        uow.save(AccountRecord(player, self._d.clock.now()))
        with contextlib.suppress(StaleVersion):  # opened meanwhile by another request of the same player
            uow.commit()

    def require_account(self, player: str) -> None:
        """``NotFound`` unless ``player`` has an account: opened at a sign-in, or holding ledger entries (an
        account funded before accounts were opened, or by the house's own paths)."""
        store = self._d.store
        if store.accounts.get(player) is not None:
            return
        account = player_account(player)
        if store.ledger.balance(account) != 0 or store.ledger.entries(account):
            return
        raise NotFound(f"{player} has no account: a player's account opens when they first sign in")

    def ledger(self, player: str) -> LedgerView:
        account = player_account(player)
        lines = tuple(
            LedgerLine(e.key, str(e.kind), e.tournament_id, e.amount_for(account), e.at)
            for e in self._d.store.ledger.entries(account)
        )
        return LedgerView(player, self._d.store.ledger.balance(account), lines)

    def deposit(self, player: str, amount: int, key: str) -> DepositView:
        """Credit ``amount`` cents from outside (an operator's deposit); the same ``key`` again moves nothing."""
        if type(amount) is not int or amount <= 0:
            raise IllegalAction(f"a deposit is a positive number of cents, not {amount!r}")
        if not key:
            raise IllegalAction("a deposit needs an idempotency key")
        uow = self._d.store.unit_of_work()
        uow.post([deposit(f"deposit:{player}:{key}", player, amount, self._d.clock.now())])
        uow.commit()
        return DepositView(player, amount, self._d.store.ledger.balance(player_account(player)), key)
