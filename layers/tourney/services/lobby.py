"""The lobby: tournaments, my registration, standings, a table as its viewer sees it, hand histories."""

from __future__ import annotations

from tourney.services.deps import Deps
from tourney.services.views import (
    HandHistoryView,
    MyRegistration,
    Standings,
    TableView,
    TournamentDetails,
    TournamentSummary,
)


class LobbyService:
    def __init__(self, deps: Deps) -> None:
        self._d = deps

    def list_tournaments(self) -> tuple[TournamentSummary, ...]:
        raise NotImplementedError

    def tournament(self, tid: str) -> TournamentDetails:
        raise NotImplementedError

    def my_registration(self, tid: str, player: str) -> MyRegistration:
        raise NotImplementedError

    def standings(self, tid: str) -> Standings:
        raise NotImplementedError

    def table_view(self, tid: str, table: str, viewer: str | None) -> TableView:
        raise NotImplementedError

    def hand_history(self, tid: str, table: str, hand: int, viewer: str | None) -> HandHistoryView:
        raise NotImplementedError
