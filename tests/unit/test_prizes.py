"""The prize pool, the payout table and shared places (docs/rules.md, rules 9, 10; Money; Defaults)."""

from datetime import UTC, datetime

import pytest
import tourney.domain.prizes as prizes_module
from tourney.domain.fees import Purchase, split_payment
from tourney.domain.ledger import EntryKind, Ledger, overlay_account, player_account, pool_account, transfer
from tourney.domain.prizes import (
    PARTS,
    BustOut,
    Payout,
    PayoutGroup,
    Placing,
    PrizePool,
    clockwise_from_button,
    overlay_entry,
    payout_for,
    payout_summary,
    place_bust_outs,
    prize_amounts,
    prize_entry,
    prizes_for,
)

AT = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
SAMPLE_FIELDS = (2, 3, 4, 5, 8, 9, 10, 23, 24, 29, 30, 54, 71, 72, 100, 161, 162, 215, 500, 1_000, 5_000, 25_000)


def test_sit_and_go_of_nine_pays_50_30_20() -> None:
    # Given 9 entrants and a pool of 9,000
    # When the prizes are computed
    amounts = prize_amounts(9_000, payout_for(9))
    # Then three places are paid 4,500 / 2,700 / 1,800
    assert amounts == (4_500, 2_700, 1_800)


def test_rule_10_prizes_round_down_and_leftover_cents_go_to_first_place() -> None:
    # Given a pool of 1,001 split 50/30/20: 500.5, 300.3, 200.2
    amounts = prize_amounts(1_001, payout_for(9))
    # Then each is rounded down and the 1 cent left goes to the winner
    assert amounts == (501, 300, 200)
    assert sum(amounts) == 1_001


def test_guarantee_pool_paid_is_max_of_collected_and_guarantee_and_house_pays_the_overlay() -> None:
    # Given 80,000 collected under a 100,000 guarantee
    short = PrizePool(collected=80_000, guarantee=100_000)
    # Then 100,000 is paid, 20,000 of it by the house
    assert (short.total, short.overlay) == (100_000, 20_000)
    # And when the players collected 120,000 there is no overlay
    assert (PrizePool(120_000, 100_000).total, PrizePool(120_000, 100_000).overlay) == (120_000, 0)
    # And with no guarantee the pool is what was collected
    assert PrizePool(5_000).total == 5_000


def test_the_overlay_and_every_prize_empty_the_pool_exactly_through_the_ledger() -> None:
    # Given 30 entrants paid 955 each into the pool under a 50,000 guarantee
    ledger = Ledger()
    collected = 30 * 955
    seed = transfer("seed", EntryKind.BUY_IN, "t1", overlay_account("x"), pool_account("t1"), collected, AT)
    assert seed is not None
    ledger.post(seed)
    pool = PrizePool(collected, 50_000)
    # When the house posts the overlay and every place is paid
    overlay = overlay_entry("t1", pool, AT)
    assert overlay is not None
    ledger.post(overlay)
    amounts = prize_amounts(pool.total, payout_for(30))
    for place, amount in enumerate(amounts, start=1):
        entry = prize_entry("t1", f"p{place}", amount, AT)
        assert entry is not None
        ledger.post(entry)
    # Then the pool is empty and the house paid 21,350
    assert ledger.balance(pool_account("t1")) == 0
    assert ledger.balance(overlay_account("t1")) == -21_350
    # And the shares 43.07 / 20.61 / 14.44 / 11.70 / 10.19 % of 50,000 round down to
    # 21,533 / 10,304 / 7,219 / 5,848 / 5,094 = 49,998, the 2 cents left going to first
    assert amounts == (21_535, 10_304, 7_219, 5_848, 5_094)
    assert ledger.balance(player_account("p1")) == 21_535
    assert ledger.summary("t1").prizes_paid == 50_000


def test_payout_table_pays_about_15_percent_of_the_field() -> None:
    for entrants in (24, 29, 54, 71, 100, 161, 215, 1_000, 9_999, 60_000, 250_000):
        paid = payout_for(entrants).places_paid
        assert 0.11 * entrants <= paid <= entrants / 6, entrants
    assert [payout_for(n).places_paid for n in (2, 4, 5, 8, 9, 23, 24, 30)] == [1, 1, 2, 2, 3, 3, 4, 5]
    assert payout_for(250_000).places_paid == 38_475


def test_smallest_prize_is_at_least_one_and_a_half_buy_ins_even_after_9_percent_commission() -> None:
    # Given a buy-in of 10,000 with no fee: each entrant adds 9,100 to the pool
    contribution = split_payment(Purchase.BUY_IN, 10_000, 0).pool
    for entrants in SAMPLE_FIELDS:
        # When the pool of that field is paid out
        amounts = prize_amounts(entrants * contribution, payout_for(entrants))
        # Then the last prize is at least 15,000
        assert amounts[-1] >= 15_000, entrants


def test_winner_gets_20_to_25_percent_of_the_pool_in_large_fields() -> None:
    for entrants in (432, 1_000, 10_000, 100_000, 250_000):
        first = payout_for(entrants).parts_for(1)
        assert 20 * PARTS // 100 <= first <= 25 * PARTS // 100, entrants
    assert payout_for(250_000).parts_for(1) == 201_712_693


def test_payout_shares_add_up_to_the_whole_pool_and_never_rise() -> None:
    for entrants in SAMPLE_FIELDS:
        payout = payout_for(entrants)
        assert sum(g.size * g.parts for g in payout.groups) == PARTS
        assert all(a.parts >= b.parts for a, b in zip(payout.groups, payout.groups[1:], strict=False))


def test_places_below_the_final_table_are_paid_in_groups() -> None:
    payout = payout_for(1_000)
    spans = [(g.first, g.last) for g in payout.groups[9:16]]
    assert spans == [(10, 12), (13, 15), (16, 18), (19, 21), (22, 24), (25, 27), (28, 36)]
    assert payout.parts_for(11) == payout.parts_for(12)
    assert payout.parts_for(154) == 0


def test_the_docstring_table_is_the_table_the_code_pays() -> None:
    documented = "\n".join("    " + line for line in payout_summary())
    assert documented in (prizes_module.__doc__ or "")


def test_payout_table_markdown_lists_every_group() -> None:
    text = prizes_module.payout_table_markdown(100)
    assert "| 9-23 | 3 | 1 | 50.0000000 |" in text
    assert "| 90-107 | 15 | 1 |" in text


def test_a_fixed_payout_overrides_the_table_unless_it_pays_more_places_than_entrants() -> None:
    assert prize_amounts(10_000, payout_for(20, (60, 40))) == (6_000, 4_000)
    assert payout_for(2, (50, 30, 20)).places_paid == 1


def test_a_payout_whose_shares_do_not_add_up_is_refused() -> None:
    with pytest.raises(ValueError):
        Payout((PayoutGroup(1, 1, PARTS - 1),))
    with pytest.raises(ValueError):
        Payout((PayoutGroup(1, 1, PARTS // 4), PayoutGroup(2, 2, 3 * PARTS // 4)))


PRIZES = (5_000, 3_000, 2_000, 1_000, 500)


def test_rule_10_the_bigger_starting_stack_takes_the_better_place() -> None:
    # Given 5 players left and two busted in one hand, ann started with 800, bob with 300
    busted = [BustOut("bob", 300), BustOut("ann", 800)]
    # When they are placed
    placings = place_bust_outs(busted, remaining_before=5, prizes=PRIZES)
    # Then ann is 4th and bob 5th
    assert placings == (Placing("ann", 4, 4, 1_000), Placing("bob", 5, 5, 500))


def test_rule_10_equal_starting_stacks_share_their_places_prizes_equally() -> None:
    # Given two busted in one hand, both with 600 at its start, places 4 and 5 at stake
    placings = place_bust_outs([BustOut("ann", 600), BustOut("bob", 600)], 5, PRIZES)
    # Then each gets (1,000 + 500) / 2
    assert placings == (Placing("ann", 4, 5, 750), Placing("bob", 4, 5, 750))


def test_rule_10_indivisible_cents_go_one_each_in_seat_order_from_the_button() -> None:
    # Given three tied for places 3-5, worth 1,000 + 701 + 302 = 2,003
    prizes = (5_000, 3_000, 1_000, 701, 302)
    seat_order = [BustOut("cy", 50), BustOut("ann", 50), BustOut("bob", 50)]
    # When they are placed
    placings = place_bust_outs(seat_order, 5, prizes)
    # Then 2,003 / 3 = 667 rest 2: cy and ann, first in seat order, get 668
    assert [(p.player_id, p.place, p.last_place, p.prize) for p in placings] == [
        ("cy", 3, 5, 668),
        ("ann", 3, 5, 668),
        ("bob", 3, 5, 667),
    ]
    assert sum(p.prize for p in placings) == 1_000 + 701 + 302


def test_rule_10_a_bigger_stack_above_a_tie() -> None:
    # Given four busted at 6 left: dee 900, two at 400, eve 100
    busted = [BustOut("ann", 400), BustOut("dee", 900), BustOut("bob", 400), BustOut("eve", 100)]
    prizes = (10_000, 6_000, 4_000, 3_000, 2_001, 1_000)
    placings = place_bust_outs(busted, 6, prizes)
    # Then dee is 3rd, ann and bob share 4th-5th, eve is 6th
    assert placings == (
        Placing("dee", 3, 3, 4_000),
        Placing("ann", 4, 5, 2_501),
        Placing("bob", 4, 5, 2_500),
        Placing("eve", 6, 6, 1_000),
    )


def test_rule_10_a_tie_on_the_bubble_shares_the_last_prize() -> None:
    # Given 3 places paid and two tied busting at 4 left: places 3 and 4
    placings = place_bust_outs([BustOut("ann", 200), BustOut("bob", 200)], 4, (600, 300, 101))
    # Then they share 101 + 0: 51 and 50
    assert [p.prize for p in placings] == [51, 50]


def test_outside_the_money_places_pay_nothing() -> None:
    assert place_bust_outs([BustOut("ann", 5)], 50, PRIZES) == (Placing("ann", 50, 50, 0),)


def test_someone_must_survive_the_hand() -> None:
    with pytest.raises(ValueError):
        place_bust_outs([BustOut("a", 1), BustOut("b", 2)], 2, PRIZES)


def test_seat_order_clockwise_from_the_button_starts_after_the_button() -> None:
    seats = {"btn": 5, "sb": 6, "far": 2, "bb": 8}
    assert clockwise_from_button(seats, button_seat=5, seat_count=9) == ["sb", "bb", "far", "btn"]


@pytest.mark.parametrize("entrants", SAMPLE_FIELDS)
def test_rule_10_the_kept_prizes_are_the_prizes_the_payout_pays(entrants: int) -> None:
    pool = 1_234_567 * entrants + 89
    assert prizes_for(pool, entrants) == prize_amounts(pool, payout_for(entrants))
    assert prizes_for(pool, entrants, (60, 40)) == prize_amounts(pool, payout_for(entrants, (60, 40)))
    assert sum(prizes_for(pool, entrants)) == pool
