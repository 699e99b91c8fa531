"""Accounts: deposits by operators, balances and ledger entries of a player (RULES.md, Money)."""

from __future__ import annotations

from tourney.services.deps import Deps
from tourney.services.views import AccountView, DepositView, LedgerView


class AccountsService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    def account(self, player: str) -> AccountView:
        raise NotImplementedError

    def ledger(self, player: str) -> LedgerView:
        raise NotImplementedError

    def deposit(self, player: str, amount: int, key: str) -> DepositView:
        raise NotImplementedError
