"""Play: actions at a player's own seat, rebuys, add-ons, away and back (RULES.md, rules 9, 16; Rebuys)."""

from __future__ import annotations

from tourney.services.deps import Deps
from tourney.services.views import ActionOutcome, PresenceView, PurchaseView


class PlayService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    def act(
        self, tid: str, table: str, player: str, hand: int, seq: int, action: str, amount: int | None = None
    ) -> ActionOutcome:
        raise NotImplementedError

    def rebuy(self, tid: str, player: str) -> PurchaseView:
        raise NotImplementedError

    def add_on(self, tid: str, player: str) -> PurchaseView:
        raise NotImplementedError

    def away(self, tid: str, player: str) -> PresenceView:
        raise NotImplementedError

    def back(self, tid: str, player: str) -> PresenceView:
        raise NotImplementedError
