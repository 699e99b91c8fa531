"""Table chat (docs/rules.md, rule 18, 'Conduct and management'): who may speak, the limits, the rate window.

The system enforces what it can of the table's etiquette:

* a line is at most :data:`MAX_LENGTH` characters (after trimming blanks);
* a player says at most :data:`RATE_COUNT` lines in any :data:`RATE_SECONDS`
  seconds (a sliding window: :class:`RateWindow`);
* seated players who are not in the hand in progress (never dealt in, or
  folded) may chat; players still in it cannot until it ends; observers read
  only; operators may always write;
* a muted player is silenced;
* a line the language check places in another language than English is
  refused, and one it cannot place ("gg", "nh") is accepted.

Every line, refused ones too, is kept with its table and hand (the service does).
Pure: the clock's ``now`` and the language check's verdict come in as arguments.

>>> w = RateWindow()
>>> for second in range(5):
...     w = w.admit(second)
>>> w.allows(9.9), w.allows(10.0)
(False, True)
>>> speaker_role(seated=True, in_hand=False, operator=False)
<Speaker.PLAYER: 'player'>
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from tourney.domain.errors import Conflict

MAX_LENGTH = 200
"""Characters a line may have (docs/rules.md, rule 18)."""
RATE_COUNT = 5
RATE_SECONDS = 10.0
"""At most ``RATE_COUNT`` lines in any ``RATE_SECONDS`` seconds per player (docs/rules.md, rule 18)."""


class Speaker(StrEnum):
    """Who is saying a line at a table."""

    OPERATOR = "operator"
    PLAYER = "player"  # seated, not in the hand in progress (never dealt in, or folded)
    IN_HAND = "in_hand"  # seated and still in the hand in progress (dealt in, not folded)
    OBSERVER = "observer"  # not seated at this table


class ChatRefused(Conflict):
    """A line the room does not take; ``code`` is the reason docs/interfaces.md names (and the one stored)."""

    code: ClassVar[str] = "chat_refused"


class TooLong(ChatRefused):
    code: ClassVar[str] = "too_long"


class RateLimited(ChatRefused):
    code: ClassVar[str] = "rate_limited"


class InHand(ChatRefused):
    code: ClassVar[str] = "in_hand"


class Observer(ChatRefused):
    code: ClassVar[str] = "observer"


class Muted(ChatRefused):
    code: ClassVar[str] = "muted"


class NotEnglish(ChatRefused):
    code: ClassVar[str] = "not_english"


def speaker_role(*, seated: bool, in_hand: bool, operator: bool) -> Speaker:
    """The caller's role at the table; an operator is one whether seated or not."""
    if operator:
        return Speaker.OPERATOR
    if not seated:
        return Speaker.OBSERVER
    return Speaker.IN_HAND if in_hand else Speaker.PLAYER


def verify_may_speak(role: Speaker, *, muted: bool) -> None:
    """Raise the refusal for a speaker who may not write now (docs/rules.md, rule 18)."""
    if role is Speaker.OPERATOR:
        return
    if role is Speaker.OBSERVER:
        raise Observer("observers read the chat only")
    if muted:
        raise Muted("you are muted in chat")
    if role is Speaker.IN_HAND:
        raise InHand("players in the hand in progress cannot chat until it ends")


def verify_length(text: str) -> str:
    """The line as said (blanks trimmed), or ``TooLong``."""
    line = text.strip()
    if len(line) > MAX_LENGTH:
        raise TooLong(f"chat lines are at most {MAX_LENGTH} characters")
    return line


def verify_english(language: str | None) -> None:
    """``language``: what the check placed the line in, None when it could not place it (accepted)."""
    if language is not None and language != "en":
        raise NotEnglish("the table chat is in English")


@dataclass(frozen=True)
class RateWindow:
    """A player's accepted lines in the last ``RATE_SECONDS`` (epoch seconds), oldest first; versioned when stored."""

    times: tuple[float, ...] = ()
    version: int = 0

    def recent(self, now: float) -> tuple[float, ...]:
        return tuple(t for t in self.times if now - t < RATE_SECONDS)

    def allows(self, now: float) -> bool:
        return len(self.recent(now)) < RATE_COUNT

    def verify(self, now: float) -> None:
        if not self.allows(now):
            raise RateLimited(f"at most {RATE_COUNT} chat lines in any {RATE_SECONDS:g} seconds")

    def admit(self, now: float) -> RateWindow:
        """The window with a line said at ``now`` (``RateLimited`` if it is full); the version moves on."""
        self.verify(now)
        return RateWindow((*self.recent(now), now), self.version + 1)
