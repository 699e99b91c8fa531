"""What must hold while a simulated tournament plays: checks over what the services stored, not rules.

After every hand (its ``HandRecord``): chips conserved in the hand; its deck
and secret (the salts' source) are those the table committed to when it dealt the hand (docs/interfaces.md,
'Provably fair deals'); the big blind moved to the next active seat when the
table's players did not change and no button was drawn again (docs/rules.md, rules 7, 12). Tournament-wide, after every
hand in small fields and every ``check_every`` hands in large ones, and at the end: the ledger's money
invariant, every chip bought is in play (starting stacks, rebuys, add-ons,
operators' adjustments), and the tables within one player of each other
wherever a hand is being played (docs/rules.md, rule 11).
"""

from __future__ import annotations

from typing import Any

from tourney.adapters.memory import MemoryStore
from tourney.domain.blinds import first_active_after
from tourney.domain.cards import cards_str
from tourney.domain.ledger import NON_NEGATIVE_KINDS, AccountKind
from tourney.services.records import HandRecord, TableRecord


class SimulationError(AssertionError):
    """An invariant failed: a defect, never a player's mistake."""


class Checks:
    def __init__(self, store: MemoryStore, tournament_id: str, full_check_players: int, check_every: int) -> None:
        self._store = store
        self._tid = tournament_id
        self._full = full_check_players
        self._every = check_every
        self._last: dict[str, tuple[dict[int, str], int]] = {}
        self._dealt: dict[str, int] = {}
        self._drawn: dict[str, int] = {}
        """Table -> the hand dealt from its latest button draw: its button comes from the cards, not rule 7."""
        self._commitments: dict[tuple[str, int], tuple[tuple[int, ...], bytes | None]] = {}
        """(table, hand) -> the deck and secret the table committed to when it dealt the hand."""
        self.hands = 0
        self.commitments_checked = 0
        self.count = 0

    def after_table_saved(self, record: TableRecord) -> None:
        """A table was written: a hand just dealt has the deck and secret of its commitment taken, and a hand
        dealt from a new button draw (the final table's redraw) is remembered."""
        table = record.table
        number = table.hand_number
        if self._dealt.get(record.table_id) == number or table.hand is None:
            return
        self._dealt[record.table_id] = number
        draw = table.button_draw
        if draw is not None and getattr(draw, "hand", 0) == number:
            self._drawn[record.table_id] = number
        hand = table.hand
        self._commitments[(record.table_id, number)] = (hand.deck, hand.secret)

    def after_hand(self, record: HandRecord) -> None:
        raw: dict[str, Any] = record.hand
        self.hands += 1
        self._big_blind_moved(record, raw)
        self._deck_committed(record, raw)
        entrants = self._store.coordinators.get(self._tid)
        players = entrants.state.entrants if entrants is not None else 0
        if players <= self._full or self.hands % self._every == 0:
            self.tournament_wide()

    def _deck_committed(self, record: HandRecord, raw: dict[str, Any]) -> None:
        """The history's deck and salts hash to the commitment published when the hand was dealt."""
        dealt = self._commitments.pop((record.table_id, record.hand_number), None)
        where = f"table {record.table_id} hand {record.hand_number}"
        deck, secret = dealt if dealt is not None else ((), None)
        if secret is None or raw.get("secret") is None:
            raise SimulationError(f"{where}: dealt without a commitment")
        # The commitment published is the hash of the deck and the salts its secret gives (``Hand.commitment``,
        # the recipe proven in test_fairness.py): the same deck and secret in the history prove it verifies.
        if raw["deck"] != cards_str(deck) or raw["secret"] != secret.hex():
            raise SimulationError(f"{where}: the deck played is not the deck committed to at the deal")
        self.commitments_checked += 1

    def _big_blind_moved(self, record: HandRecord, raw: dict[str, Any]) -> None:
        dealt = {int(seat): record.players[int(seat)] for seat in raw["seats"]}
        big_blind = int(raw["big_blind_seat"])
        previous = self._last.get(record.table_id)
        self._last[record.table_id] = (dealt, big_blind)
        if previous is None or previous[0] != dealt or self._drawn.get(record.table_id) == record.hand_number:
            return  # other players, or the button drawn again (the final table's redraw may keep every seat)
        expected = first_active_after(previous[1], dealt)
        if big_blind != expected:
            raise SimulationError(
                f"table {record.table_id} hand {record.hand_number}: big blind at seat {big_blind}, expected {expected}"
            )

    def tournament_wide(self, *, full: bool = False) -> None:
        self.count += 1
        store, tid = self._store, self._tid
        if full or self.count % self._every == 0:
            store.money.verify_invariants()  # every balance recomputed from the entries
        else:
            _money_held(store)
        t = store.tournaments.get(tid)
        tables = [r for r in store.stored_tables(tid) if not r.closed]
        if not tables:
            return
        coordinator = store.coordinators.get(tid)
        if coordinator is not None and coordinator.state.compensation is not None:
            return  # compensating: the chips are being paid out as money, table by table (money is checked above)
        config = t.config
        chips = sum(sp.stack for r in tables for sp in r.table.seats.values())
        chips += sum(c for r in tables for _, c in r.pending_chips)
        # A disqualified player still seated (their hand ends first) keeps the chips in play until then (rule 19).
        leaving = {player for r in tables for player in r.disqualified}
        add_on = config.add_on.chips if config.add_on else 0
        starting, per_rebuy = config.starting_stack, config.chips_per_rebuy  # read once, not per entrant
        bought = sum(
            starting
            + e.contribution.rebuys * per_rebuy
            + e.contribution.addons * add_on
            + e.chips_adjusted
            - (0 if e.player_id in leaving else e.chips_removed)
            for e in store.stored_entrants(tid)
        )
        if chips != bought:
            raise SimulationError(f"{chips} chips in play, {bought} bought")
        if coordinator is None:
            return
        sizes = coordinator.state.balancing.sizes()
        for r in tables:
            if r.table.hand_in_progress and r.table_id in sizes and len(r.table.seats) != sizes[r.table_id]:
                raise SimulationError(
                    f"table {r.table_id} seats {len(r.table.seats)}; balancing counts {sizes[r.table_id]}"
                )
        playing = [len(r.table.seats) for r in tables if r.table.hand_in_progress]
        # Terminated, nothing is dealt until the restart: a table between hands keeps its gap until then (rule 17).
        dealing = t.status == "running"
        if dealing and playing and max(sizes.values(), default=0) - min(sizes.values(), default=0) > 1:
            largest, smallest = max(sizes.values()), min(sizes.values())
            # A gap is legal only while the largest tables are in a hand (they give a player when it ends).
            for r in tables:
                between = not r.table.hand_in_progress and not r.halted  # a halted table deals when it resumes
                if sizes.get(r.table_id) == largest and between and not _waiting(r, sizes):
                    raise SimulationError(
                        f"table {r.table_id} has {largest} players between hands; the smallest has {smallest}"
                    )

    def at_end(self) -> None:
        self.tournament_wide(full=True)


def _money_held(store: MemoryStore) -> None:
    """docs/rules.md's money invariant on the balances (``Ledger.verify_invariants`` also re-derives them).

    One pass over the balances as the ledger holds them: a large field has tens of thousands of accounts.
    """
    held = external = overlay = 0
    negative: list[str] = []
    for account, amount in store.money.balance_items():
        kind = account.kind
        if kind in NON_NEGATIVE_KINDS:  # Account.holds_money
            held += amount
            if amount < 0:
                negative.append(str(account))
        elif kind is AccountKind.EXTERNAL:
            external -= amount
        elif kind is AccountKind.OVERLAY or kind is AccountKind.ADJUSTMENTS:
            overlay -= amount
    if negative or held != external + overlay:
        raise SimulationError(f"money held {held} != deposits {external} + overlay {overlay}; below zero: {negative}")


def _waiting(record: Any, sizes: dict[str, int]) -> bool:
    """A table between hands whose end is still on its way to the coordinator (it balances then)."""
    table = record.table
    return bool(record.coordinated_hand < table.hand_number or record.rebuy_pending)
