"""The forward-moving big blind and the button (docs/rules.md, 'Blinds and the button each hand'; seed rules 7, 8, 14).

Seats are numbered clockwise (1, 2, ... up to the table's seat count, then
back to 1). "Active" means seated with chips; a player who has just arrived
at the table (balancing, breaking) is active at once and is dealt in whatever
position their seat gives, blinds included (rule 8).

First hand of a table (after the button draw):
  the button is the drawn seat, the small blind (SB) the next active seat
  clockwise, the big blind (BB) the next after that. Heads-up, the button is
  the SB and the other player the BB (rule 14).

Every later hand, from the previous hand's positions and *players*:
  * BB: the first active seat clockwise strictly after the previous BB seat.
    With two or more active players this is never the previous BB's seat, so
    nobody posts the BB twice in a row; and since no active seat is passed
    over, nobody is skipped (rule 7).
  * SB: the previous hand's BB player, if still active; otherwise no SB.
    Identity matters: if the previous BB busted and a moved player took their
    seat, the newcomer is not the previous BB player, so there is no SB.
  * Button: the previous hand's SB player, if still active; otherwise the
    nearest active player counter-clockwise from the new SB seat (from the new
    BB seat when there is no SB). So one player can hold the button twice.

Readings this module fixes where the text leaves a choice:
  1. The button is never the BB player when three or more play. The previous
     SB player can only come round to the new BB when a newcomer sat down
     between the old SB and BB seats (the only way three players can hold
     seats with nobody active between the old BB and the old SB clockwise).
     Then the previous-SB clause cannot apply, and the fallback does: the
     nearest active player counter-clockwise from the new SB (or BB) seat.
  2. Heads-up (exactly two active players) the BB is found as always, and the
     other player holds the button *and* posts the SB (rule 14, and the TDA
     practice of adjusting the button when play becomes heads-up). This
     overrides "no SB" and "button = previous SB player" for two players: a
     heads-up hand always has both blinds, and the button never posts the BB.
     When the previous BB player is still active this agrees with the general
     rule (they are the only other player, so they post the SB). It differs
     only going from three players to two when the previous BB player was
     eliminated: e.g. button A (seat 1), SB B (2), BB C (3), C busts; the BB
     moves forward to A, and B becomes button and SB (posting the SB in two
     hands in a row, but never the BB twice).
  3. A hand that is cancelled (rule 17) does not count: the next hand is
     computed from the positions of the last hand that was played out (the
     Table keeps them; this module is stateless).

>>> first = first_hand_positions(2, {1: "ann", 2: "bob", 5: "cy"})
>>> first.seats()
(2, 5, 1)
>>> nxt = next_positions(first, {1: "ann", 2: "bob", 4: "dee", 5: "cy"})
>>> nxt.seats()
(5, 1, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tourney.domain.errors import NotEnoughPlayers


@dataclass(frozen=True)
class Occupant:
    """A seat and the player who sat there when the hand was dealt."""

    seat: int
    player: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "player": self.player}

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Occupant:
        return cls(seat=int(raw["seat"]), player=str(raw["player"]))


@dataclass(frozen=True)
class Positions:
    """Who holds the button and who posts the blinds in one hand (docs/rules.md, rule 7)."""

    button: Occupant
    small_blind: Occupant | None
    big_blind: Occupant

    def seats(self) -> tuple[int, int | None, int]:
        """``(button seat, SB seat or None, BB seat)``."""
        sb = self.small_blind.seat if self.small_blind is not None else None
        return (self.button.seat, sb, self.big_blind.seat)

    def to_dict(self) -> dict[str, Any]:
        return {
            "button": self.button.to_dict(),
            "small_blind": self.small_blind.to_dict() if self.small_blind is not None else None,
            "big_blind": self.big_blind.to_dict(),
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Positions:
        sb = raw.get("small_blind")
        return cls(
            button=Occupant.from_dict(raw["button"]),
            small_blind=Occupant.from_dict(sb) if sb is not None else None,
            big_blind=Occupant.from_dict(raw["big_blind"]),
        )


def first_active_after(seat: int, active: Mapping[int, str]) -> int:
    """The first active seat clockwise strictly after ``seat`` (``seat`` itself comes last).

    >>> first_active_after(3, {1: "a", 3: "b", 6: "c"}), first_active_after(6, {1: "a", 3: "b", 6: "c"})
    (6, 1)
    """
    later = [s for s in active if s > seat]
    return min(later) if later else min(active)


def first_active_before(seat: int, active: Mapping[int, str]) -> int:
    """The nearest active seat counter-clockwise strictly before ``seat`` (``seat`` itself comes last).

    >>> first_active_before(3, {1: "a", 3: "b", 6: "c"}), first_active_before(1, {1: "a", 3: "b", 6: "c"})
    (1, 6)
    """
    earlier = [s for s in active if s < seat]
    return max(earlier) if earlier else max(active)


def _require_two(active: Mapping[int, str]) -> None:
    if len(active) < 2:
        raise NotEnoughPlayers(f"a hand needs two active players, the table has {len(active)}")


def _occupant(seat: int, active: Mapping[int, str]) -> Occupant:
    return Occupant(seat, active[seat])


def _still_active(occupant: Occupant | None, active: Mapping[int, str]) -> bool:
    return occupant is not None and active.get(occupant.seat) == occupant.player


def first_hand_positions(button_seat: int, active: Mapping[int, str]) -> Positions:
    """Positions of a table's first hand, from the button draw (docs/rules.md, rules 6, 7 and 14).

    ``active`` maps each active seat (seated with chips) to its player. The
    SB is the next active seat clockwise after the button, the BB the next
    after that; heads-up, the button posts the SB.
    """
    _require_two(active)
    if button_seat not in active:
        raise ValueError(f"the drawn button seat {button_seat} is not active")
    button = _occupant(button_seat, active)
    if len(active) == 2:
        big_blind = _occupant(first_active_after(button_seat, active), active)
        return Positions(button=button, small_blind=button, big_blind=big_blind)
    sb_seat = first_active_after(button_seat, active)
    bb_seat = first_active_after(sb_seat, active)
    return Positions(button=button, small_blind=_occupant(sb_seat, active), big_blind=_occupant(bb_seat, active))


def drawn_button_positions(button_seat: int, active: Mapping[int, str]) -> Positions:
    """Positions of a table's first hand from its draw, its drawn button seat emptied or not (rules 6, 7, 14).

    The drawn player may leave before the table's first hand is played out
    (disqualified during it, the hand then cancelled by rule 17). The empty
    seat keeps the draw's place: the SB is the first active seat clockwise
    after it and the BB the next, and the button moves as rule 7 moves it when
    its player is gone: to the nearest active player counter-clockwise from
    the SB. Heads-up, that is the SB's own seat (rule 14).

    >>> drawn_button_positions(2, {1: "a", 3: "c", 4: "d"}).seats()
    (1, 3, 4)
    >>> drawn_button_positions(5, {2: "a", 7: "c"}).seats()
    (7, 7, 2)
    """
    if button_seat in active:
        return first_hand_positions(button_seat, active)
    _require_two(active)
    small_blind = _occupant(first_active_after(button_seat, active), active)
    big_blind = _occupant(first_active_after(small_blind.seat, active), active)
    button = _occupant(first_active_before(small_blind.seat, active), active)
    if len(active) == 2:
        button = small_blind
    return Positions(button=button, small_blind=small_blind, big_blind=big_blind)


def next_positions(previous: Positions, active: Mapping[int, str]) -> Positions:
    """Positions of the next hand: the big blind moves forward (docs/rules.md, rules 7, 8 and 14).

    ``previous`` holds the seats and players of the last hand played at the
    table; ``active`` maps each seat that is active now (after eliminations,
    departures and arrivals) to its player. See the module docstring for the
    readings of the heads-up and newcomer cases.
    """
    _require_two(active)
    big_blind = _occupant(first_active_after(previous.big_blind.seat, active), active)
    if len(active) == 2:
        (other_seat,) = (s for s in active if s != big_blind.seat)
        other = _occupant(other_seat, active)
        return Positions(button=other, small_blind=other, big_blind=big_blind)
    small_blind = previous.big_blind if _still_active(previous.big_blind, active) else None
    if (
        previous.small_blind is not None
        and _still_active(previous.small_blind, active)
        and previous.small_blind.seat != big_blind.seat
    ):
        button = previous.small_blind
    else:
        anchor = small_blind.seat if small_blind is not None else big_blind.seat
        button = _occupant(first_active_before(anchor, active), active)
    return Positions(button=button, small_blind=small_blind, big_blind=big_blind)


def upcoming_big_blind(previous: Positions, active: Mapping[int, str]) -> Occupant:
    """The player who would post the BB in the next hand (docs/rules.md, rule 13: the one moved by balancing).

    >>> last = Positions(Occupant(1, "a"), Occupant(2, "b"), Occupant(3, "c"))
    >>> upcoming_big_blind(last, {1: "a", 2: "b", 3: "c", 7: "d"})
    Occupant(seat=7, player='d')
    """
    return next_positions(previous, active).big_blind
