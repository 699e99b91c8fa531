"""Registration and unregistration (RULES.md, rules 2, 3, 4), sharded for 1,000 registrations a second."""

from __future__ import annotations

from tourney.services.deps import Deps
from tourney.services.views import RegistrationView, UnregistrationView


class RegistrationService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    def register(self, tid: str, player: str, key: str = "") -> RegistrationView:
        raise NotImplementedError

    def unregister(self, tid: str, player: str) -> UnregistrationView:
        raise NotImplementedError
