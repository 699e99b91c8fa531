"""Operators: create and announce a tournament, terminate one (RULES.md, rules 2, 17, 19)."""

from __future__ import annotations

from tourney.services.commands import CreateTournament
from tourney.services.deps import Deps
from tourney.services.views import Created, Terminated


class AdminService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    def create_tournament(self, command: CreateTournament) -> Created:
        raise NotImplementedError

    def terminate(self, tid: str, operator: str, reason: str) -> Terminated:
        raise NotImplementedError
