"""The coordinator (one ordered stream per tournament): places, prizes, balancing, breaking, the next deal."""

from __future__ import annotations

from tourney.services.deps import Deps
from tourney.services.messages import HandEnded, RebuyClosed
from tourney.services.views import Coordinated


class CoordinatorService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    def on_hand_ended(self, message: HandEnded | RebuyClosed) -> Coordinated:
        raise NotImplementedError
