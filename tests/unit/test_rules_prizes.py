"""docs/rules.md, 'Eliminations and prizes' (rules 9, 10, 15) and the guarantee: scenario tests with exact cents.

``test_prizes.py`` proves the pure pieces (the payout table, rounding,
``place_bust_outs``); these tests play them through the tournament in play
(``TournamentState`` in ``tournament.py``, with each entrant's record held by
the test: ``tests/support/in_play.py``) and the ledger: places in the order of
elimination, a prize credited the moment its place is decided, the end of the
tournament, and when the prizes are fixed (the readings of ``TournamentState``).
"""

from datetime import UTC, datetime, timedelta

import pytest
from tourney.domain.errors import Conflict, RegistrationClosed
from tourney.domain.formats import TournamentFormat
from tourney.domain.ledger import (
    EntryKind,
    Ledger,
    deposit,
    house_account,
    overlay_account,
    player_account,
    pool_account,
)
from tourney.domain.prizes import BustOut, Placing, clockwise_from_button
from tourney.domain.registration import TournamentStatus, buy_in_payment
from tourney.domain.structure import AddOn, RebuyPeriod, TournamentConfig

from tests.support.in_play import InPlay

ANNOUNCE = datetime(2025, 6, 1, 18, 0, tzinfo=UTC)
START = datetime(2025, 6, 1, 20, 0, tzinfo=UTC)
FIRST_HAND = START + timedelta(seconds=20)


def at_minute(minutes: float) -> datetime:
    return FIRST_HAND + timedelta(minutes=minutes)


def names(count: int, prefix: str = "p") -> list[str]:
    return [f"{prefix}{i}" for i in range(1, count + 1)]


def registered(config: TournamentConfig, players: list[str]) -> Ledger:
    """Each player deposits five times the entry cost and pays the buy-in and fee of a registration."""
    ledger = Ledger()
    for player in players:
        ledger.post(deposit(f"dep:{player}", player, 5 * config.entry_cost, ANNOUNCE))
        ledger.post_all(buy_in_payment("t1", player, 1, config, ANNOUNCE))
    return ledger


def wallet(ledger: Ledger, player: str) -> int:
    return ledger.balance(player_account(player))


def test_rule_9_and_10_places_in_order_of_elimination_prizes_credited_at_once_and_shared() -> None:
    # Given a 9-player freezeout at 10.01 + 1.00 on one table, seats 1-9 (p1 in seat 1 ...):
    # the pool is 90.09 and the payout 50/30/20: 45.04 + 27.02 + 18.01, the cent left over to 1st
    players = names(9)
    config = TournamentConfig.for_format(TournamentFormat.FREEZEOUT, buy_in=1_001, entry_fee=100)
    ledger = registered(config, players)
    deposited = 5 * 1_101
    tournament = InPlay.start("t1", config, {"1": players})
    tournament.state.first_hand_dealt(FIRST_HAND)
    seats = {player: seat for seat, player in enumerate(players, start=1)}

    def hand(minute: float, busted: list[tuple[str, int]], button: int) -> tuple[Placing, ...]:
        """One hand ends: ``busted`` are (player, chips at the start of the hand), ordered clockwise from the button."""
        order = clockwise_from_button({p: seats[p] for p, _ in busted}, button, 9)
        start_stacks = dict(busted)
        out = [BustOut(p, start_stacks[p]) for p in order]
        gone = {p for p, _ in busted} | {pl.player_id for pl in tournament.placings}
        ended = tournament.hand_ended("1", out, [p for p in players if p not in gone], at_minute(minute))
        ledger.post_all(ended.entries)
        return ended.placings

    # When p1, p2 and p3 bust one per hand
    # Then they take the last places, 9th, 8th and 7th, in that order, with no prize
    assert hand(3, [("p1", 10_000)], button=1) == (Placing("p1", 9, 9, 0),)
    assert tournament.state.prizes == (4_506, 2_702, 1_801)
    assert hand(6, [("p2", 10_000)], button=2) == (Placing("p2", 8, 8, 0),)
    assert hand(9, [("p3", 10_000)], button=3) == (Placing("p3", 7, 7, 0),)
    # When p4 (3,000 chips at the start of the hand) and p5 (8,000) bust in the same hand
    # Then p5, who started it with more, takes the better place
    assert hand(12, [("p4", 3_000), ("p5", 8_000)], button=3) == (Placing("p5", 5, 5, 0), Placing("p4", 6, 6, 0))
    # When p6 and p7 both started a hand with 20,000 and bust in it, the button in seat 6
    placings = hand(15, [("p6", 20_000), ("p7", 20_000)], button=6)
    # Then they share 3rd and 4th: 18.01 + 0, split 9.01 / 9.00, the odd cent to p7,
    # the first clockwise from the button (p6 holds the button: last)
    assert placings == (Placing("p7", 3, 4, 901), Placing("p6", 3, 4, 900))
    # And the prizes are in their wallets the moment the places are decided
    assert (wallet(ledger, "p7"), wallet(ledger, "p6")) == (deposited - 1_101 + 901, deposited - 1_101 + 900)
    assert ledger.balance(pool_account("t1")) == 9_009 - 1_801
    # When p8 busts heads-up
    placings = hand(18, [("p8", 30_000)], button=8)
    # Then p8 is 2nd and p9, holding every chip, is 1st: the tournament is over (rule 15)
    assert placings == (Placing("p8", 2, 2, 2_702), Placing("p9", 1, 1, 4_506))
    assert tournament.state.status is TournamentStatus.FINISHED
    assert tournament.state.ended_at == at_minute(18)
    assert tournament.state.remaining == 0
    assert [p.player_id for p in tournament.placings] == ["p1", "p2", "p3", "p5", "p4", "p7", "p6", "p8", "p9"]
    # And the pool is paid out to the cent: 9,009 in prizes, 900 of fees kept by the house
    assert ledger.balance(pool_account("t1")) == 0
    assert ledger.balance(house_account("t1")) == 900
    assert sum(wallet(ledger, p) - (deposited - 1_101) for p in players) == 9_009
    assert [e.key for e in ledger.entries(tournament_id="t1") if e.kind is EntryKind.PRIZE][-1] == "prize:t1:p9"
    ledger.verify_invariants()
    # And no later hand can be reported
    with pytest.raises(Conflict):
        tournament.hand_ended("1", [], ["p9"], at_minute(19))


def test_rule_10_eliminations_at_different_tables_are_ordered_by_when_their_hands_ended() -> None:
    # Given 12 players on two tables of 6
    config = TournamentConfig.for_format(TournamentFormat.FREEZEOUT, buy_in=1_000, entry_fee=100, seats_per_table=6)
    a, b = names(6, "a"), names(6, "b")
    tournament = InPlay.start("t1", config, {"A": a, "B": b})
    tournament.state.first_hand_dealt(FIRST_HAND)
    # When B's hand ends first with b1 out (25,000 chips at its start), then A's 10 seconds later with a1 out (400)
    first = tournament.hand_ended("B", [BustOut("b1", 25_000)], b[1:], at_minute(5))
    second = tournament.hand_ended("A", [BustOut("a1", 400)], a[1:], at_minute(5) + timedelta(seconds=10))
    # Then b1, out first, is 12th, and a1 is 11th: chips only order eliminations of the same hand
    assert first.placings == (Placing("b1", 12, 12, 0),)
    assert second.placings == (Placing("a1", 11, 11, 0),)
    assert tournament.state.remaining == 10


def test_money_guarantee_the_house_pays_the_overlay_when_the_prizes_are_fixed() -> None:
    # Given 12 players at 10.00 + 1.00 under a 200.00 guarantee: 120.00 collected
    players = names(12)
    config = TournamentConfig.for_format(TournamentFormat.FREEZEOUT, buy_in=1_000, entry_fee=100, guarantee=20_000)
    ledger = registered(config, players)
    tournament = InPlay.start("t1", config, {"1": players[:6], "2": players[6:]})
    tournament.state.first_hand_dealt(FIRST_HAND)
    assert tournament.state.prizes is None
    # When the first hand ends (a freezeout's pool can no longer grow)
    ended = tournament.hand_ended("1", [], players[:6], at_minute(1))
    ledger.post_all(ended.entries)
    # Then the prizes are fixed from max(120.00, 200.00) = 200.00, 50/30/20
    assert tournament.state.prizes == (10_000, 6_000, 4_000)
    # And the house's 80.00 overlay is in the pool, shown by the ledger
    assert [(e.key, e.amount_for(overlay_account("t1"))) for e in ended.entries] == [("overlay:t1", -8_000)]
    assert ledger.balance(pool_account("t1")) == 20_000
    summary = ledger.summary("t1")
    assert (summary.prize_pool_collected, summary.overlay, summary.house_revenue) == (12_000, 8_000, 1_200)
    ledger.verify_invariants()
    # And the overlay is posted once only
    assert tournament.hand_ended("2", [], players[6:], at_minute(2)).entries == ()


def rebuy_config(**changes: object) -> TournamentConfig:
    """No fee (9 % / 4 % commission), rebuys in levels 1-3, an add-on in level 4 (the add-on level)."""
    return TournamentConfig.for_format(
        TournamentFormat.REBUY,
        buy_in=1_000,
        entry_fee=0,
        rebuy_periods=(RebuyPeriod(1, 3),),
        add_on=AddOn(15_000),
        **changes,
    )


def test_reading_rebuy_prizes_are_fixed_once_the_add_on_was_offered_to_every_remaining_player() -> None:
    """``TournamentState``'s reading: the add-on is offered to every remaining player during the add-on level.

    So the prizes are fixed at the first hand end after that level (level 4,
    minutes 30-40), not once each remaining player has bought or declined it: a player who has not
    bought it may still do so until the level ends, so the pool may grow.
    """
    # Given 5 players at 10.00 with no fee: 9.10 each to the pool; rebuys and add-ons put 9.60 in
    players = names(5)
    tournament = InPlay.start("t1", rebuy_config(), {"1": players})
    tournament.state.first_hand_dealt(FIRST_HAND)
    tournament.rebuy("p1", 0, at_minute(4))
    # When hands end during the rebuy period and in the add-on level
    tournament.hand_ended("1", [], players, at_minute(5))
    tournament.hand_ended("1", [], players, at_minute(30.5))
    # Then the prizes are not fixed: the pool may still grow
    assert tournament.state.prizes is None
    # When p1 and p3 take the add-on and a hand ends later in the add-on level
    for player in ("p1", "p3"):
        tournament.add_on(player, at_minute(31))
    tournament.hand_ended("1", [], players, at_minute(32))
    # Then the prizes are still not fixed: p2, p4 and p5 may still buy it
    assert tournament.state.prizes is None
    assert tournament.can_add_on("p2", at_minute(32))
    # When the first hand after the add-on level ends (level 5)
    tournament.hand_ended("1", [], players, at_minute(40.5))
    # Then the prizes are fixed from 5 x 9.10 + 3 x 9.60 = 74.30, paid 65/35: 48.29 + 26.00, the odd cent to 1st
    assert tournament.state.collected == tournament.pool_collected == 7_430
    assert tournament.state.prizes == (4_830, 2_600)
    # And no rebuy or add-on is sold from then on
    assert not tournament.state.rebuys_open(at_minute(41))
    assert not tournament.can_add_on("p2", at_minute(41))


def test_reading_a_paid_place_decided_in_the_rebuy_period_fixes_the_prizes_and_closes_rebuys() -> None:
    # Given 9 players at 10.00 with no fee (pool 81.90) and p9 rebuying once (9.60 more): 91.50
    players = names(9)
    tournament = InPlay.start("t1", rebuy_config(), {"1": players})
    tournament.state.first_hand_dealt(FIRST_HAND)
    tournament.rebuy("p9", 0, at_minute(1))
    # When p1 to p6 are eliminated in level 1, one per hand (9th to 4th: outside the money)
    for minute, player in enumerate(players[:6], start=2):
        left = players[players.index(player) + 1 :]
        tournament.hand_ended("1", [BustOut(player, 10_000)], left, at_minute(minute))
    assert tournament.state.prizes is None
    # And p7 is eliminated 3rd, a paid place, still in level 1
    ended = tournament.hand_ended("1", [BustOut("p7", 10_000)], ["p8", "p9"], at_minute(9))
    # Then the prizes are fixed at that moment from 91.50, 50/30/20, and p7 is paid 18.30
    assert tournament.state.prizes == (4_575, 2_745, 1_830)
    assert ended.placings == (Placing("p7", 3, 3, 1_830),)
    # And rebuys close with them, though level 1 is still being played
    assert tournament.state.level_number(at_minute(9.5)) == 1
    assert not tournament.state.rebuys_open(at_minute(9.5))
    with pytest.raises(RegistrationClosed):
        tournament.rebuy("p8", 0, at_minute(9.5))
    assert tournament.state.rebuy_period_over(at_minute(9.5))
