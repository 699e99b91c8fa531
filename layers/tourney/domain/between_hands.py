"""A table between two hands: chips bought in a hand, bust-outs deciding on a rebuy, players disqualified.

Beside its seats a table holds three kinds of work that wait for its hand to
end (docs/rules.md, 'Rebuys and add-ons'; rules 17.1 and 19):

* ``pending_chips``: chips bought (a rebuy, an add-on, an operator's
  adjustment) by a player dealt in the hand in progress. Nobody's stack
  changes in a hand: they are added once it is over, or at once to a player
  not in it. A buyer who lost every chip of the stack they played the hand
  with keeps the seat the hand emptied, with the chips bought: they are not
  out. A cancelled hand (rule 17.1) gives them to their buyers still seated.
* ``rebuy_pending``: in a rebuy period the players a hand left without chips
  keep their seats while their rebuy window runs; the window closes early
  once every one of them has rebought.
* ``disqualified``: players disqualified while seated; their chips leave play
  when the hand ends (or at once, if the hand is cancelled), with no place.

``BetweenHands`` is the value a table record carries; every rule about these
three lives here, the services only store what it answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tourney.domain.errors import NotSeated
from tourney.domain.prizes import BustOut
from tourney.domain.seating import PlayerId
from tourney.domain.table import Table


@dataclass(frozen=True, slots=True)
class BetweenHands:
    """What a table holds for the end of its hand (module docstring)."""

    pending_chips: tuple[tuple[PlayerId, int], ...] = ()
    rebuy_pending: tuple[PlayerId, ...] = ()
    disqualified: tuple[PlayerId, ...] = ()

    @property
    def idle(self) -> bool:
        """Nothing waits for the hand's end: the table may settle it on its own."""
        return not (self.pending_chips or self.rebuy_pending or self.disqualified)

    def pending_for(self, player: PlayerId) -> int:
        """The chips ``player`` bought during the hand in progress, not yet on their stack."""
        return sum(chips for buyer, chips in self.pending_chips if buyer == player)

    def add(self, table: Table, player: PlayerId, chips: int) -> BetweenHands:
        """``chips`` bought by ``player``: on their stack now, or when the hand they are dealt in ends."""
        if table.in_hand(player):
            return replace(self, pending_chips=(*self.pending_chips, (player, chips)))
        table.add_chips(player, chips)
        return self

    def hand_over(self, table: Table) -> BetweenHands:
        """The chips bought during the hand that ended, on their buyers' stacks (a busted buyer keeps the seat)."""
        if not self.pending_chips:
            return self
        ended = table.last_hand_ended
        vacated = {o.player: o.seat for o in ended.busted if o.seat in ended.vacated} if ended else {}
        return self._paid_out(table, vacated)

    def hand_cancelled(self, table: Table) -> BetweenHands:
        """The chips bought during a cancelled hand, on the stacks of their buyers still seated (rule 17.1)."""
        return self._paid_out(table, {})

    def _paid_out(self, table: Table, vacated: dict[PlayerId, int]) -> BetweenHands:
        """The chips bought on their buyers' stacks, a buyer the hand emptied seated again in ``vacated``; the
        chips of a buyer who is neither stay pending."""
        kept: list[tuple[PlayerId, int]] = []
        for player, chips in self.pending_chips:
            if player in table.players.values():
                table.add_chips(player, chips)
            elif player in vacated and vacated[player] not in table.players:
                table.seat_player(player, vacated[player], chips)
            else:
                kept.append((player, chips))
        return replace(self, pending_chips=tuple(kept))

    @staticmethod
    def without_chips(table: Table) -> tuple[PlayerId, ...]:
        """The players seated with no chips: the hand's bust-outs, before anyone takes them off."""
        return tuple(sp.player for sp in table.seats.values() if sp.stack == 0)

    def open_rebuy_window(self, bust_outs: Sequence[PlayerId]) -> BetweenHands:
        """The hand's bust-outs keep their seats while they decide on a rebuy."""
        return replace(self, rebuy_pending=tuple(bust_outs))

    def settled(self) -> BetweenHands:
        """The hand's end settled: the rebuy window closed, the disqualified gone; chips still pending stay."""
        return replace(self, rebuy_pending=(), disqualified=())

    def rebuy_window_done(self, table: Table) -> bool:
        """Every bust-out waiting at the table has rebought: the window may close early."""
        return bool(self.rebuy_pending) and all(
            table.stack(table.seat_of(p)) > 0 for p in self.rebuy_pending if p in table.players.values()
        )

    def disqualify(self, player: PlayerId) -> BetweenHands:
        return replace(self, disqualified=(*self.disqualified, player))

    def leave_play(self, table: Table, busted: Sequence[BustOut]) -> tuple[list[BustOut], dict[PlayerId, int]]:
        """The disqualified players off the table with their chips, and out of ``busted`` (they take no place).

        Answers the bust-outs left and the chips each disqualified player took out of play (rule 19).
        """
        gone: dict[PlayerId, int] = {}
        for player in self.disqualified:
            try:
                seat = table.seat_of(player)
            except NotSeated:
                gone[player] = 0  # busted in the hand: the seat was emptied with no chips
                continue
            gone[player] = table.stack(seat)
            table.remove_player(player)
        return [b for b in busted if b.player_id not in gone], gone


def players_out(table: Table) -> list[BustOut]:
    """The hand's bust-outs still out of chips, taken off the table, each with the chips they started it with."""
    ended = table.last_hand_ended
    assert ended is not None
    busted = []
    for occupant in ended.busted:
        if table.players.get(occupant.seat) == occupant.player:
            if table.stack(occupant.seat) > 0:
                continue  # rebought
            table.remove_player(occupant.player)
        busted.append(BustOut(occupant.player, ended.starting_stacks[occupant.seat]))
    return busted
