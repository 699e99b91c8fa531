import random

import pytest
from tourney.domain.button_draw import ButtonDraw, DrawnCard, draw_for_button
from tourney.domain.cards import parse_card, parse_cards, shuffled_deck
from tourney.domain.errors import NotEnoughPlayers


def test_rule_6_highest_rank_wins_the_button() -> None:
    # Given four seated players and a deck whose top cards are 7h Kc 2s Qd
    deck = parse_cards("7h Kc 2s Qd 9c")
    # When they draw for the button
    draw = draw_for_button([8, 1, 5, 3], deck=deck)
    # Then each seat, in seat order, got the next card and the king wins
    assert [(d.seat, d.card) for d in draw.cards] == [
        (1, parse_card("7h")),
        (3, parse_card("Kc")),
        (5, parse_card("2s")),
        (8, parse_card("Qd")),
    ]
    assert draw.button == 3


def test_rule_6_equal_ranks_are_settled_spades_hearts_diamonds_clubs() -> None:
    # Given four aces dealt to seats 1..4
    # When the spade is among them, it wins whatever its seat
    assert draw_for_button([1, 2, 3, 4], deck=parse_cards("As Ac Ah Ad")).button == 1
    assert draw_for_button([1, 2, 3, 4], deck=parse_cards("Ac Ad Ah As")).button == 4
    # Then without the spade the heart wins, without the heart the diamond
    assert draw_for_button([1, 2, 3], deck=parse_cards("Ac Ah Ad")).button == 2
    assert draw_for_button([1, 2], deck=parse_cards("Kc Kd")).button == 2


def test_rule_6_a_higher_rank_beats_any_suit() -> None:
    # Given the three of clubs against the deuce of spades
    draw = draw_for_button([2, 6], deck=parse_cards("2s 3c"))
    # Then the three wins
    assert draw.button == 6


def test_rule_6_draw_uses_a_freshly_shuffled_deck_from_the_injected_rng() -> None:
    # Given two identically seeded generators
    # When one draws and the other only shuffles a deck
    draw = draw_for_button([1, 2, 3, 4, 5, 6, 7, 8, 9], rng=random.Random(42))
    deck = shuffled_deck(random.Random(42))
    # Then the draw dealt that deck's top nine cards in seat order
    assert [d.card for d in draw.cards] == deck[:9]
    assert draw.button == 1 + deck[:9].index(max(deck[:9]))


def test_rule_6_draw_record_round_trips_for_the_table_history() -> None:
    # Given a draw
    draw = draw_for_button([4, 9], deck=parse_cards("Td Th"))
    # When it is written as plain data and read back
    raw = draw.to_dict()
    # Then the record names every card and the winner, and reads back equal
    assert raw == {"cards": {"4": "Td", "9": "Th"}, "button": 9}
    assert ButtonDraw.from_dict(raw) == draw
    assert draw.card_of(4) == parse_card("Td")
    assert draw.cards[1] == DrawnCard(9, parse_card("Th"))


def test_rule_6_a_lone_player_does_not_draw() -> None:
    # Given one seated player
    # When the table draws for the button
    # Then it is refused: a lone player is moved, not dealt to
    with pytest.raises(NotEnoughPlayers):
        draw_for_button([3], deck=parse_cards("As"))


def test_rule_6_a_deck_with_repeated_cards_is_refused() -> None:
    # Given a deck whose top two cards are the same card
    # When two seats draw from it
    # Then the draw is refused
    with pytest.raises(ValueError):
        draw_for_button([1, 2], deck=parse_cards("As As"))
