"""Time-outs (RULES.md, rule 16): check or fold when a decision's time runs out; stale ones are no-ops."""

from __future__ import annotations

from tourney.services.deps import Deps
from tourney.services.messages import RebuyDue, TimeoutDue
from tourney.services.views import ActionOutcome


class TimeoutService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    def on_timeout(self, message: TimeoutDue | RebuyDue) -> ActionOutcome | None:
        raise NotImplementedError
