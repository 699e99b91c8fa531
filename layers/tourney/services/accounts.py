"""Accounts: deposits by operators, a player's balance and ledger entries (docs/rules.md, Money)."""

from __future__ import annotations

import contextlib
from dataclasses import replace

from tourney.domain.errors import IllegalAction, NameTaken, NotFound, StaleVersion
from tourney.domain.ledger import deposit, player_account
from tourney.domain.profile import display_name, name_key
from tourney.services.deps import Deps, no_wait
from tourney.services.names import forget
from tourney.services.ports import Backoff, Clock, Store
from tourney.services.records import AccountRecord, NameRecord
from tourney.services.tables import retrying
from tourney.services.views import AccountView, DepositView, LedgerLine, LedgerView, ProfileView


class AccountsService:
    def __init__(self, *, store: Store, clock: Clock, backoff: Backoff = no_wait) -> None:
        self._d = Deps(store=store, clock=clock, backoff=backoff)

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

    def profile(self, player: str) -> ProfileView:
        """``GET /me/profile``: the caller's display name (None until they choose one)."""
        account = self._d.store.accounts.get(player)
        return ProfileView(player, account.display_name if account is not None else None)

    def set_profile(self, player: str, name: object) -> ProfileView:
        """``PUT /me/profile``: choose a display name, unique regardless of case (``NameTaken``, 409, when another
        player holds it); the name given up is free for others. The same name again changes nothing."""
        chosen = display_name(name)
        key = name_key(chosen)

        def attempt() -> ProfileView:
            store = self._d.store
            account = store.accounts.get(player) or AccountRecord(player, self._d.clock.now())
            if account.display_name == chosen:
                return ProfileView(player, chosen)
            claim = store.names.get(key)
            if claim is not None and claim.holder not in (None, player):
                raise NameTaken(f"the display name {chosen!r} is taken")
            uow = store.unit_of_work()
            uow.save(NameRecord(key, player, claim.version if claim is not None else 0))
            if account.display_name is not None and name_key(account.display_name) != key:
                old = store.names.get(name_key(account.display_name))
                if old is not None and old.holder == player:
                    uow.save(replace(old, holder=None))
            uow.save(replace(account, display_name=chosen))
            uow.commit()
            return ProfileView(player, chosen)

        view = retrying(self._d, attempt)
        forget(self._d, player)
        return view

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
