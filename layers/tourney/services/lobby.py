"""The lobby: tournaments, my registration, standings, a table as its viewer sees it, hand histories.

Reads only. Counts come from the counter shards and the waiting list (no
item holds the whole field). A table view and a hand history are built for
one viewer: their own hole cards, and cards shown at showdown; an observer
(``viewer`` None) sees no hole card before it is shown (docs/interfaces.md).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from tourney.domain import fairness
from tourney.domain.errors import NotFound
from tourney.domain.hand import Hand
from tourney.domain.histories import phh, pokerstars
from tourney.domain.ledger import pool_account
from tourney.domain.prizes import PERCENT, payout_for
from tourney.domain.registration import ENTERED, RegistrationState, TournamentStatus, waiting_position
from tourney.services.deps import Deps
from tourney.services.names import names_of
from tourney.services.ports import Clock, Store
from tourney.services.records import TournamentRecord
from tourney.services.tables import table_view
from tourney.services.views import (
    DrawnCardView,
    HandHistoryView,
    LevelView,
    MyRegistration,
    PlaceView,
    StandingRow,
    Standings,
    TableView,
    TournamentDetails,
    TournamentSummary,
)


class LobbyService:
    def __init__(self, *, store: Store, clock: Clock) -> None:
        self._d = Deps(store=store, clock=clock)

    def _counts(self, t: TournamentRecord) -> tuple[int, int]:
        regs = self._d.store.registrations
        if t.life.seated_its_field:
            return t.players_at_start, 0
        return sum(s.count for s in regs.shards(t.tournament_id, t.registration_shards)), len(
            regs.waiting_list(t.tournament_id).players
        )

    def list_tournaments(self) -> tuple[TournamentSummary, ...]:
        now = self._d.clock.now()
        rows = []
        for t in self._d.store.tournaments.list():
            if t.status_at(now) is TournamentStatus.SCHEDULED:
                continue  # not announced yet: not visible
            registered, waitlisted = self._counts(t)
            c = t.config
            rows.append(
                TournamentSummary(
                    t.tournament_id,
                    t.name,
                    str(c.format),
                    str(t.status_at(now)),
                    c.buy_in,
                    c.entry_fee,
                    c.guarantee,
                    c.max_players,
                    t.start_at,
                    registered,
                    waitlisted,
                )
            )
        return tuple(rows)

    def tournament(self, tid: str) -> TournamentDetails:
        t = self._d.store.tournaments.get(tid)
        now = self._d.clock.now()
        c = t.config
        registered, waitlisted = self._counts(t)
        payout = payout_for(max(registered, c.min_players), c.payout_percent)
        percent = tuple(_percent(payout.parts_for(place)) for place in range(1, payout.places_paid + 1))
        return TournamentDetails(
            id=tid, name=t.name, format=str(c.format), status=str(t.status_at(now)), buy_in=c.buy_in,
            entry_fee=c.entry_fee, guarantee=c.guarantee, min_players=c.min_players, max_players=c.max_players,
            seats_per_table=c.seats_per_table, starting_stack=c.starting_stack, decision_seconds=c.decision_seconds,
            announce_at=t.announce_at, start_at=t.start_at, started_at=t.started_at, ended_at=t.ended_at,
            registered=registered, waitlisted=waitlisted,
            levels=tuple(
                LevelView(lv.number, lv.small_blind, lv.big_blind, lv.ante, lv.big_blind_ante, lv.minutes)
                for lv in c.levels
            ),
            payout_percent=percent,
            rebuy_levels=tuple((p.first_level, p.last_level) for p in c.rebuy_periods),
            add_on_chips=c.add_on.chips if c.add_on else None,
        )  # fmt: skip

    def my_registration(self, tid: str, player: str) -> MyRegistration:
        self._d.store.tournaments.get(tid)
        record = self._d.store.registrations.get(tid, player)
        if record is None or record.state not in ENTERED:
            return MyRegistration(tid, player, "not_registered")
        position = None
        if record.state is RegistrationState.WAITLISTED:
            position = waiting_position(self._d.store.registrations.waiting_list(tid).players, player)
        return MyRegistration(tid, player, str(record.state), position)

    def standings(self, tid: str) -> Standings:
        """Players left, average stack, level and time to the next, every remaining player largest first."""
        d = self._d
        t = d.store.tournaments.get(tid)
        coordinator = d.store.coordinators.get(tid)
        if coordinator is None:
            raise NotFound(f"{tid} has not started")
        state = coordinator.state
        now = d.clock.now()
        rows: list[StandingRow] = []
        for record in d.store.tables.list(tid):
            if record.closed and state.status is TournamentStatus.RUNNING:
                continue
            for sp in record.table.seats.values():
                if sp.player in record.disqualified:
                    continue  # out of the tournament now; their chips leave play when the hand ends
                # A seat's stack is the one it started the hand in progress with: the pot is nobody's yet,
                # so the standings always add up to every chip in play.
                chips = sp.stack
                if chips > 0 or sp.player in record.rebuy_pending:
                    rows.append(StandingRow(sp.player, chips, record.table_id))
        rows.sort(key=lambda r: (-r.chips, r.player))
        level = state.level(now)
        next_at = state.clock.next_level_at(state.config.levels, now) if state.clock else None
        seconds = None if next_at is None else max(0, int((next_at - now) / timedelta(seconds=1)))
        places = tuple(
            PlaceView(e.player_id, e.placing.place, e.placing.prize)
            for e in sorted(d.store.entrants.list(tid), key=lambda e: e.placing.place if e.placing else 0)
            if e.placing is not None
        )
        names = names_of(d, [*(r.player for r in rows), *(p.player for p in places)])
        rows = [replace(r, name=names[r.player]) for r in rows]
        places = tuple(replace(p, name=names[p.player]) for p in places)
        total = sum(r.chips for r in rows)
        pool = state.prize_pool
        if pool is None:
            pool = max(d.store.ledger.balance(pool_account(tid)), state.config.guarantee)
        return Standings(
            tid, str(t.status), len(rows), total // len(rows) if rows else 0, level.number, level.small_blind,
            level.big_blind, level.ante, seconds, tuple(rows), places, pool,
        )  # fmt: skip

    def table_view(self, tid: str, table: str, viewer: str | None) -> TableView:
        record = self._d.store.tables.get(tid, table)
        names = names_of(self._d, record.table.players.values())
        coordinator = self._d.store.coordinators.get(tid)
        if coordinator is None:
            return table_view(record, viewer, names=names)
        c = coordinator.state.config
        return table_view(
            record, viewer, decision_seconds=c.decision_seconds, away_seconds=c.away_decision_seconds, names=names
        )

    def hand_history(self, tid: str, table: str, hand: int, viewer: str | None) -> HandHistoryView:
        """A finished hand as PHH and PokerStars text: cards shown at showdown, plus the viewer's own."""
        d = self._d
        t = d.store.tournaments.get(tid)
        record = d.store.hands.get(tid, table, hand)
        played = Hand.from_dict(record.hand)
        hero = next((seat for seat, player in record.players.items() if player == viewer), None)
        seats = list(played.seats)
        fields: dict[str, phh.FieldValue] = {
            "event": tid,
            "table": int(table) if table.isdigit() else table,
            "hand": hand,
            "seat_count": record.seat_count,
            "seats": seats,
            "players": [record.players[s] for s in seats],
            "_level": record.level,
        }
        if played.commitment is not None:
            fields["_commitment"] = played.commitment
        text = phh.dumps(played, fields, hole_cards=False)
        header = pokerstars.HandHeader(
            hand_number=f"{tid}-{table}-{hand}",
            tournament_id=tid,
            buy_in=t.config.buy_in,
            entry_fee=t.config.entry_fee,
            level=record.level,
            table=f"{tid} {table}",
            started_at=record.dealt_at,
            seats_per_table=record.seat_count,
        )
        stars = pokerstars.dumps(played, record.players, header, hero=hero)
        shown = None
        if played.salts is not None:
            shown = fairness.reveal(played.deck, played.salts, played.positions_seen_by(hero)).to_dict()
        drawn = tuple(DrawnCardView(seat, player or None, card) for seat, player, card in record.button_draw)
        return HandHistoryView(tid, table, hand, text, stars, shown, button_draw=drawn or None)


def _percent(parts: int) -> str:
    """Parts of the pool as a percentage with four decimals, in integers only."""
    scaled = parts * 10**4 // PERCENT
    return f"{scaled // 10**4}.{scaled % 10**4:04d}"
