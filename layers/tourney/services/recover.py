"""Termination and recovery (RULES.md, rule 17): cancel hands, restart, compensate; the sweeper and the watchdog."""

from __future__ import annotations

from datetime import datetime

from tourney.services.deps import Deps
from tourney.services.views import RecoveryStep, SweepReport, WatchReport


class RecoveryService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    def cancel_hands(self, tid: str) -> RecoveryStep:
        raise NotImplementedError

    def try_restart(self, tid: str) -> RecoveryStep:
        raise NotImplementedError

    def compensate(self, tid: str) -> RecoveryStep:
        raise NotImplementedError

    def sweep(self, now: datetime | None = None) -> SweepReport:
        raise NotImplementedError

    def watch(self, now: datetime | None = None) -> WatchReport:
        raise NotImplementedError
