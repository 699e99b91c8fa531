"""The chat's storage in memory (``services/chat.py``, ``ChatLog``): the same logic as on DynamoDB.

Lines are kept per table in the order said; a player's rate window is one
versioned value, replaced only if the stored version is the one it was read at
(``StaleVersion`` otherwise), as the DynamoDB item's conditional write does.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from tourney.domain.chat import RateWindow
from tourney.domain.errors import StaleVersion
from tourney.services.chat import ChatLine


class MemoryChatLog:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lines: dict[tuple[str, str], list[ChatLine]] = {}
        self._windows: dict[str, RateWindow] = {}
        self._operators: set[str] = set()

    def append(self, line: ChatLine) -> None:
        with self._lock:
            self._lines.setdefault((line.tournament_id, line.table_id), []).append(line)

    def lines(self, tournament_id: str, table_id: str) -> Sequence[ChatLine]:
        with self._lock:
            return tuple(self._lines.get((tournament_id, table_id), ()))

    def window(self, player: str) -> RateWindow:
        with self._lock:
            return self._windows.get(player, RateWindow())

    def save_window(self, player: str, window: RateWindow) -> None:
        with self._lock:
            stored = self._windows.get(player, RateWindow()).version
            if stored != window.version - 1:
                raise StaleVersion(f"{player}'s chat window moved on")
            self._windows[player] = window

    def mark_operator(self, connection: str) -> None:
        with self._lock:
            self._operators.add(connection)

    def is_operator(self, connection: str) -> bool:
        with self._lock:
            return connection in self._operators
