"""The start workflow's steps (RULES.md, rules 2, 3, 5, 6): close registration, seat, deal."""

from __future__ import annotations

from collections.abc import Sequence

from tourney.services.deps import Deps
from tourney.services.messages import StartPlan
from tourney.services.views import BatchSeated, HandsDealt, StartDue


class StartService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    def start_due(self, tid: str) -> StartDue:
        raise NotImplementedError

    def close_registration(self, tid: str) -> StartPlan:
        raise NotImplementedError

    def seat_batch(self, tid: str, batch: int) -> BatchSeated:
        raise NotImplementedError

    def deal_first_hands(self, tid: str, tables: Sequence[str]) -> HandsDealt:
        raise NotImplementedError
