"""PokerStars-style hand histories (tourney.domain.histories.pokerstars): exact lines for scripted hands."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime

import pytest
from tourney.domain.cards import Card, parse_cards
from tourney.domain.hand import Hand
from tourney.domain.histories.pokerstars import HandHeader, dumps, dumps_all, eastern, money, roman
from tourney.simulation.random_hands import play_random_hand

from tests.support.decks import heads_up
from tests.support.random_play import play_randomly, random_setup

SUMMER = datetime(2026, 7, 4, 16, 5, 9, tzinfo=UTC)


def _deck(holes: list[str], rest: str) -> list[Card]:
    """A deck dealing ``holes[i]`` to the i-th player after the button; ``rest``: burn flop burn turn burn river."""
    n = len(holes)
    cards: list[Card] = [0] * (2 * n)
    for i, hole in enumerate(holes):
        cards[i], cards[n + i] = parse_cards(hole)
    cards += parse_cards(rest)
    return cards + [c for c in range(52) if c not in cards]


def _header(**overrides: object) -> HandHeader:
    fields: dict[str, object] = {
        "hand_number": 1001,
        "tournament_id": 42,
        "buy_in": 1000,
        "entry_fee": 100,
        "level": 2,
        "table": "42 7",
        "started_at": SUMMER,
    }
    return HandHeader(**(fields | overrides))  # type: ignore[arg-type]


def _side_pot_hand() -> Hand:
    """Four players with antes; the big blind moves all in, a side pot, an uncalled bet on the turn."""
    deck = _deck(["8c4d", "AhAs", "KcKd", "QhJc"], "5s 2c7d9h 6s Js Tc 3h")
    hand = Hand.deal(
        {1: 10_000, 3: 1_500, 5: 10_000, 8: 10_000},
        button=8, small_blind_seat=1, big_blind_seat=3, small_blind=50, big_blind=100, ante=10, deck=deck,
    )  # fmt: skip
    hand.bet_or_raise_to(5, 300)
    hand.call(8)
    hand.fold(1)
    hand.bet_or_raise_to(3, 1490)
    hand.call(5)
    hand.call(8)
    hand.bet_or_raise_to(5, 1000)  # flop
    hand.call(8)
    hand.bet_or_raise_to(5, 2000)  # turn
    hand.fold(8)
    return hand


def test_a_hand_with_antes_an_all_in_and_a_side_pot_reads_as_pokerstars_writes_it() -> None:
    # Given a finished hand seen by Carol (seat 5)
    hand = _side_pot_hand()
    # When it is written
    text = dumps(hand, {1: "Alice", 3: "Bob", 5: "Carol", 8: "Dave"}, _header(), hero=5)
    # Then every line is PokerStars' (a trailing newline ends the hand)
    assert text.splitlines() == [
        "PokerStars Hand #1001: Tournament #42, $10.00+$1.00 USD Hold'em No Limit - Level II (50/100)"
        " - 2026/07/04 16:05:09 UTC [2026/07/04 12:05:09 ET]",
        "Table '42 7' 9-max Seat #8 is the button",
        "Seat 1: Alice (10000 in chips)",
        "Seat 3: Bob (1500 in chips)",
        "Seat 5: Carol (10000 in chips)",
        "Seat 8: Dave (10000 in chips)",
        "Alice: posts the ante 10",
        "Bob: posts the ante 10",
        "Carol: posts the ante 10",
        "Dave: posts the ante 10",
        "Alice: posts small blind 50",
        "Bob: posts big blind 100",
        "*** HOLE CARDS ***",
        "Dealt to Carol [Kc Kd]",
        "Carol: raises 200 to 300",
        "Dave: calls 300",
        "Alice: folds",
        "Bob: raises 1190 to 1490 and is all-in",
        "Carol: calls 1190",
        "Dave: calls 1190",
        "*** FLOP *** [2c 7d 9h]",
        "Carol: bets 1000",
        "Dave: calls 1000",
        "*** TURN *** [2c 7d 9h] [Js]",
        "Carol: bets 2000",
        "Dave: folds",
        "Uncalled bet (2000) returned to Carol",
        "*** RIVER *** [2c 7d 9h Js] [3h]",
        "*** SHOW DOWN ***",
        "Carol: shows [Kc Kd] (a pair of Kings)",
        "Bob: shows [Ah As] (a pair of Aces)",
        "Carol collected 2000 from side pot",
        "Bob collected 4560 from main pot",
        "*** SUMMARY ***",
        "Total pot 6560 Main pot 4560. Side pot 2000. | Rake 0",
        "Board [2c 7d 9h Js 3h]",
        "Seat 1: Alice (small blind) folded before Flop",
        "Seat 3: Bob (big blind) showed [Ah As] and won (4560) with a pair of Aces",
        "Seat 5: Carol showed [Kc Kd] and won (2000) with a pair of Kings",
        "Seat 8: Dave (button) folded on the Turn",
    ]
    assert text.endswith("Dave (button) folded on the Turn\n")


def test_an_observer_sees_no_hole_cards_and_an_uncontested_pot_is_collected_unshown() -> None:
    # Given a heads-up hand (the button posts the small blind) won on the flop when the big blind times out
    deck = _deck(["Ks9s", "Qd2h"], "5s 2c7d9h 6s Js Tc 3h")
    hand = heads_up({2: 5_000, 6: 5_000}, 6, deck)
    hand.bet_or_raise_to(6, 300)
    hand.call(2)
    hand.check(2)
    hand.bet_or_raise_to(6, 400)
    hand.timeout(2)
    # When it is written for an observer, for a freeroll at a 6-max table, level 14, in winter
    header = _header(hand_number=7, buy_in=0, entry_fee=0, level=14, table="42 1", seats_per_table=6,
                     started_at=datetime(2026, 1, 15, 3, 4, 5, tzinfo=UTC))  # fmt: skip
    text = dumps(hand, {2: "Eve", 6: "Finn"}, header)
    # Then
    assert text.splitlines() == [
        "PokerStars Hand #7: Tournament #42, Freeroll Hold'em No Limit - Level XIV (50/100)"
        " - 2026/01/15 3:04:05 UTC [2026/01/14 22:04:05 ET]",
        "Table '42 1' 6-max Seat #6 is the button",
        "Seat 2: Eve (5000 in chips)",
        "Seat 6: Finn (5000 in chips)",
        "Finn: posts small blind 50",
        "Eve: posts big blind 100",
        "*** HOLE CARDS ***",
        "Finn: raises 200 to 300",
        "Eve: calls 200",
        "*** FLOP *** [2c 7d 9h]",
        "Eve: checks",
        "Finn: bets 400",
        "Eve has timed out",
        "Eve: folds",
        "Uncalled bet (400) returned to Finn",
        "Finn collected 600 from pot",
        "Finn: doesn't show hand",
        "*** SUMMARY ***",
        "Total pot 600 | Rake 0",
        "Board [2c 7d 9h]",
        "Seat 2: Eve (big blind) folded on the Flop",
        "Seat 6: Finn (button) (small blind) collected (600)",
    ]
    # And no card of either player appears anywhere
    assert "Ks" not in text and "Qd" not in text and "Dealt to" not in text


def _river_showdown() -> Hand:
    """Three players; the big blind bets the river, the small blind calls and loses."""
    deck = _deck(["AhKh", "QcQs", "7c2d"], "5s Qh8d3c 6s Kd Tc 4h")
    hand = Hand.deal(
        {1: 3_000, 2: 3_000, 4: 3_000}, button=4, small_blind_seat=1, big_blind_seat=2,
        small_blind=50, big_blind=100, deck=deck,
    )  # fmt: skip
    for act in ("call 4", "call 1", "check 2", "check 1", "bet 2 100", "fold 4", "call 1",
                "check 1", "check 2", "check 1", "bet 2 200", "call 1"):  # fmt: skip
        kind, seat, *amount = act.split()
        if kind == "bet":
            hand.bet_or_raise_to(int(seat), int(amount[0]))
        else:
            getattr(hand, kind)(int(seat))
    return hand


def test_a_beaten_hand_is_mucked_and_only_the_hero_sees_their_own_mucked_cards() -> None:
    # Given a river showdown where the last bettor shows first and the caller cannot win
    hand = _river_showdown()
    names = {1: "Gus", 2: "Hal", 4: "Ida"}
    # When it is written for the loser (the hero) and for an observer
    mine = dumps(hand, names, _header(level=1), hero=1).splitlines()
    theirs = dumps(hand, names, _header(level=1)).splitlines()
    # Then the hero's view has the deal and the hero's mucked cards in the summary
    assert mine[mine.index("*** HOLE CARDS ***") + 1] == "Dealt to Gus [Ah Kh]"
    assert mine[mine.index("*** RIVER *** [Qh 8d 3c Kd] [4h]") :] == [
        "*** RIVER *** [Qh 8d 3c Kd] [4h]",
        "Gus: checks",
        "Hal: bets 200",
        "Gus: calls 200",
        "*** SHOW DOWN ***",
        "Hal: shows [Qc Qs] (three of a kind, Queens)",
        "Gus: mucks hand",
        "Hal collected 900 from pot",
        "*** SUMMARY ***",
        "Total pot 900 | Rake 0",
        "Board [Qh 8d 3c Kd 4h]",
        "Seat 1: Gus (small blind) mucked [Ah Kh]",
        "Seat 2: Hal (big blind) showed [Qc Qs] and won (900) with three of a kind, Queens",
        "Seat 4: Ida (button) folded on the Flop",
    ]
    # And the observer sees the same hand without the hero's cards
    assert "Seat 1: Gus (small blind) mucked" in theirs
    assert not any("Ah Kh" in line for line in theirs)
    assert [line for line in mine if "Gus [Ah Kh]" not in line and "mucked" not in line] == [
        line for line in theirs if "mucked" not in line
    ]


def test_a_player_who_folds_without_putting_chips_in_did_not_bet() -> None:
    # Given a hand the button wins before the flop after the blinds fold
    hand = Hand.deal(
        {1: 1_000, 2: 1_000, 3: 1_000}, button=1, small_blind_seat=2, big_blind_seat=3,
        small_blind=50, big_blind=100, ante=10, deck=list(range(52)),
    )  # fmt: skip
    hand.fold(1)
    hand.fold(2)
    # When it is written
    lines = dumps(hand, {1: "Ann", 2: "Ben", 3: "Cy"}, _header()).splitlines()
    # Then the button folded without betting (an ante is not a bet), the blinds just folded
    assert "Seat 1: Ann (button) folded before Flop (didn't bet)" in lines
    assert "Seat 2: Ben (small blind) folded before Flop" in lines
    assert "Seat 3: Cy (big blind) collected (130)" in lines
    assert "Uncalled bet (50) returned to Cy" in lines
    assert "Board" not in "\n".join(lines)


_AMOUNT_LINES = [
    (re.compile(r"^(.+): posts (?:the ante|small blind|big blind) (\d+)"), -1),
    (re.compile(r"^(.+): calls (\d+)"), -1),
    (re.compile(r"^Uncalled bet \((\d+)\) returned to (.+)$"), +1),
    (re.compile(r"^(.+) collected (\d+) from"), +1),
]


def _stacks_read_back(text: str) -> dict[str, int]:
    """What a tracker computes from the text alone: each player's chips at the end."""
    stacks = {m[1]: int(m[2]) for m in re.finditer(r"^Seat \d+: (.+) \((\d+) in chips\)$", text, re.M)}
    street_bets = dict.fromkeys(stacks, 0)
    for line in text.splitlines():
        if line.startswith(("*** FLOP", "*** TURN", "*** RIVER")):
            street_bets = dict.fromkeys(stacks, 0)
        if m := re.match(r"^(.+): (?:bets (\d+)|raises \d+ to (\d+))", line):
            to = int(m[2] or m[3])
            stacks[m[1]] -= to - street_bets[m[1]]
            street_bets[m[1]] = to
            continue
        for pattern, sign in _AMOUNT_LINES:
            if m := pattern.match(line):
                name, amount = (m[2], int(m[1])) if pattern.pattern.startswith("^Uncalled") else (m[1], int(m[2]))
                stacks[name] += sign * amount
                if "posts small" in line or "posts big" in line or "calls" in line:
                    street_bets[name] += amount
                break
    return stacks


@pytest.mark.parametrize("players", [2, 3, 9])
def test_the_text_alone_accounts_for_every_chip_of_random_hands(players: int) -> None:
    for seed in range(60):
        # Given a random hand
        hand = play_random_hand(players, random.Random(seed))
        names = {seat: f"Player {seat}" for seat in hand.seats}
        # When it is written
        text = dumps(hand, names, _header())
        # Then reading the amounts back gives the hand's finishing stacks
        assert hand.result is not None
        expected = {names[seat]: chips for seat, chips in hand.result.finishing_stacks.items()}
        assert _stacks_read_back(text) == expected, text
        # And the total pot is what was collected
        total = int(re.search(r"^Total pot (\d+)", text, re.M)[1])  # type: ignore[index]
        assert total == sum(int(x) for x in re.findall(r"^.+ collected (\d+) from", text, re.M))
        # And there is one summary line per player
        assert len(text.split("*** SUMMARY ***")[1].split("\nSeat ")) == players + 1


def test_a_hand_in_play_has_no_history_yet() -> None:
    hand = heads_up({1: 1_000, 2: 1_000}, 1)
    with pytest.raises(ValueError, match="finished"):
        dumps(hand, {1: "A", 2: "B"}, _header())


def test_small_helpers_write_levels_money_and_eastern_time_as_pokerstars_does() -> None:
    assert [roman(n) for n in (1, 2, 9, 14, 40)] == ["I", "II", "IX", "XIV", "XL"]
    assert money(98) == "$0.98" and money(110_000) == "$1100.00"
    # Daylight saving starts on the second Sunday of March at 2:00 (7:00 UTC) and ends on the first Sunday
    # of November at 2:00 (6:00 UTC)
    assert eastern(datetime(2026, 3, 8, 6, 59, tzinfo=UTC)).hour == 1
    assert eastern(datetime(2026, 3, 8, 7, 0, tzinfo=UTC)).hour == 3
    assert eastern(datetime(2026, 11, 1, 5, 59, tzinfo=UTC)).hour == 1
    assert eastern(datetime(2026, 11, 1, 6, 0, tzinfo=UTC)).hour == 1
    # And several hands are separated by two blank lines
    assert dumps_all(["a\n", "b\n"]) == "a\n\n\nb\n"


def _check_random_setups(seeds: range) -> None:
    for seed in seeds:
        # Given a random deal: antes or a big-blind ante, short stacks, no small blind, newcomers, time-outs
        rng = random.Random(seed)
        hand = play_randomly(random_setup(rng).deal(), rng, timeouts=0.05)
        names = {seat: f"Player {seat}" for seat in hand.seats}
        # When it is written for the first player after the button
        text = dumps(hand, names, _header(), hero=hand.seats[0])
        # Then reading the amounts back gives the hand's finishing stacks
        assert hand.result is not None
        expected = {names[seat]: chips for seat, chips in hand.result.finishing_stacks.items()}
        assert _stacks_read_back(text) == expected, text


def test_the_text_accounts_for_every_chip_with_antes_short_stacks_and_missing_blinds() -> None:
    _check_random_setups(range(300))


@pytest.mark.slow
def test_the_text_accounts_for_every_chip_over_many_random_setups() -> None:
    _check_random_setups(range(300, 10_300))
