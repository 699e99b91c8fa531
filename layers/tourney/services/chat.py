"""Table chat (docs/rules.md, rule 18): say a line at a table, and the operators' record of every line.

:meth:`ChatService.say` checks, in this order, what the room enforces
(``domain/chat.py``): who the speaker is at the table (observers read only,
players still in the hand in progress (dealt in, not folded) wait for its
end, operators may always write; the length, rate and language apply to them too), a mute
(``store.mutes``), the length, the rate (5 lines in any 10 seconds per player,
kept in the :class:`ChatLog` so every Lambda shares it: a versioned window
item written conditionally), then the English-only check (loaded at its first
call). Every line is stored with its table and the hand
it was said in, refused ones too with their reason; an accepted line is
pushed to the table's subscribers as docs/interfaces.md's ``chat`` event, and a
refusal raises its ``ChatRefused`` (the edge answers the sender only).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from tourney.domain import chat as rules
from tourney.domain.errors import StaleVersion
from tourney.services.deps import Deps
from tourney.services.names import names_of
from tourney.services.ports import Clock, Pushes, Store
from tourney.services.views import View

LanguageCheck = Callable[[str], "str | None"]
"""A line's language (ISO 639-1), or None when it cannot be placed."""

STORED_TEXT = 1000
"""Characters of a refused line kept for operators (the edge bounds a message to 16 KiB before)."""


@dataclass(frozen=True)
class ChatLine:
    """One line said at a table, accepted or refused (``reason``: the refusal's code)."""

    tournament_id: str
    table_id: str
    line_id: str
    at: datetime
    hand: int
    player: str
    speaker: rules.Speaker
    text: str
    accepted: bool
    reason: str | None = None


class ChatLog(Protocol):
    """The chat's storage port: the lines of each table and each player's rate window."""

    def append(self, line: ChatLine) -> None: ...

    def lines(self, tournament_id: str, table_id: str) -> Sequence[ChatLine]:
        """Every line of the table, oldest first."""
        ...

    def window(self, player: str) -> rules.RateWindow: ...

    def save_window(self, player: str, window: rules.RateWindow) -> None:
        """Store ``window`` if the stored one still has ``window.version - 1`` (else ``StaleVersion``)."""
        ...

    def mark_operator(self, connection: str) -> None:
        """Remember that an operator's token opened ``connection`` (the WebSocket's ``$connect``)."""
        ...

    def is_operator(self, connection: str) -> bool: ...


@dataclass(frozen=True)
class ChatLineView(View):
    """A line as the operators read it (``GET /admin/tournaments/{id}/tables/{table}/chat``)."""

    id: str
    at: datetime
    hand: int
    player: str
    speaker: str
    text: str
    accepted: bool
    reason: str | None

    @classmethod
    def of(cls, line: ChatLine) -> ChatLineView:
        return cls(
            line.line_id, line.at, line.hand, line.player, str(line.speaker), line.text, line.accepted, line.reason
        )


@dataclass(frozen=True)
class ChatLogView(View):
    tournament_id: str
    table: str
    lines: tuple[ChatLineView, ...]


class ChatService:
    def __init__(self, *, store: Store, pushes: Pushes, clock: Clock, log: ChatLog, language_of: LanguageCheck) -> None:
        self._d = Deps(store=store, pushes=pushes, clock=clock)
        self._log = log
        self._language_of = language_of

    @property
    def log(self) -> ChatLog:
        return self._log

    def say(self, tid: str, table: str, player: str, text: str, *, operator: bool = False) -> dict[str, object]:
        """Say ``text`` at the table; the ``chat`` event pushed to its subscribers, or ``ChatRefused``."""
        d = self._d
        record = d.store.tables.get(tid, table)  # NotFound for a table that does not exist
        now = d.clock.now()
        seated = player in record.table.players.values()
        role = rules.speaker_role(seated=seated, in_hand=record.table.still_in_hand(player), operator=operator)
        hand = record.table.hand_number
        said = text.strip()
        try:
            mute = d.store.mutes.get(player)
            rules.verify_may_speak(role, muted=mute is not None and mute.muted_at(now))
            said = rules.verify_length(text)
            self._admit(player, now.timestamp())
            rules.verify_english(self._language_of(said))
        except rules.ChatRefused as refusal:
            self._log.append(self._line(tid, table, now, hand, player, role, said[:STORED_TEXT], refusal.code))
            raise
        self._log.append(self._line(tid, table, now, hand, player, role, said, None))
        event: dict[str, object] = {
            "type": "chat", "tournament_id": tid, "table": table, "hand": hand, "player": player,
            "name": names_of(d, [player])[player], "text": said,
        }  # fmt: skip
        d.pushes.to_table(tid, table, event, {})
        return event

    def lines(self, tid: str, table: str) -> ChatLogView:
        """Every line said at the table, refused ones with their reason, oldest first (operators)."""
        self._d.store.tables.get(tid, table)  # 404 for a table that does not exist
        return ChatLogView(tid, table, tuple(ChatLineView.of(line) for line in self._log.lines(tid, table)))

    def operator_connected(self, connection: str) -> None:
        self._log.mark_operator(connection)

    def is_operator(self, connection: str) -> bool:
        return self._log.is_operator(connection)

    def _admit(self, player: str, now: float) -> None:
        """Count the line in the player's window, shared by every process (retried when another wrote first)."""
        for _ in range(self._d.retries):
            window = self._log.window(player).admit(now)  # RateLimited when full
            try:
                self._log.save_window(player, window)
                return
            except StaleVersion:
                continue
        raise StaleVersion("the chat rate window kept changing; try again")

    @staticmethod
    def _line(
        tid: str, table: str, now: datetime, hand: int, player: str, role: rules.Speaker, text: str, reason: str | None
    ) -> ChatLine:
        line_id = f"{now.strftime('%Y%m%dT%H%M%S.%fZ')}#{secrets.token_hex(4)}"
        return ChatLine(tid, table, line_id, now, hand, player, role, text, reason is None, reason)


__all__ = ["ChatLine", "ChatLineView", "ChatLog", "ChatLogView", "ChatService", "LanguageCheck"]
