"""Entry fees and commission (docs/rules.md, Money; rule 2; Rebuys and add-ons)."""

from datetime import UTC, datetime

import pytest
from tourney.domain.fees import Purchase, PurchasePayment, Split, commission, split_payment
from tourney.domain.ledger import EntryKind, Ledger, deposit, house_account, player_account, pool_account

AT = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def test_rule_2_no_fee_commission_is_9_percent_rounded_half_up() -> None:
    # Given a buy-in of 1,050 cents and no entry fee
    # When the payment is split
    split = split_payment(Purchase.BUY_IN, 1_050, 0)
    # Then the house takes 95 (94.5 rounds up) and the pool 955
    assert split == Split(paid=1_050, pool=955, house=95)


def test_rule_2_no_fee_commission_rounds_down_below_half_a_cent() -> None:
    # 1,049 * 9 % = 94.41 -> 94
    assert split_payment(Purchase.BUY_IN, 1_049, 0) == Split(paid=1_049, pool=955, house=94)


def test_rule_2_no_fee_rebuy_and_add_on_commission_is_4_percent_rounded_half_up() -> None:
    # 1,050 * 4 % = 42 exactly; 1,037 * 4 % = 41.48 -> 41; 1,025 * 4 % = 41 exactly; 1,013 * 4 % = 40.52 -> 41
    assert split_payment(Purchase.REBUY, 1_050, 0) == Split(paid=1_050, pool=1_008, house=42)
    assert split_payment(Purchase.ADD_ON, 1_037, 0) == Split(paid=1_037, pool=996, house=41)
    assert split_payment(Purchase.REBUY, 1_013, 0) == Split(paid=1_013, pool=972, house=41)
    # And an exact half cent rounds up: 9 % of 150 is 13.5 -> 14
    assert commission(150, 900) == 14
    assert commission(50, 400) == 2  # 4 % of 50 = 2 exactly
    assert commission(1_012, 400) == 40  # 40.48 -> 40


def test_rule_2_with_an_entry_fee_the_buy_in_goes_to_the_pool_and_the_fee_to_the_house() -> None:
    # Given buy-in 1,000 and fee 100: for the buy-in and for a rebuy alike
    for purchase in Purchase:
        assert split_payment(purchase, 1_000, 100) == Split(paid=1_100, pool=1_000, house=100)


def test_commission_of_a_freeroll_is_zero() -> None:
    assert split_payment(Purchase.BUY_IN, 0, 0) == Split(0, 0, 0)


def test_negative_amounts_are_refused() -> None:
    with pytest.raises(ValueError):
        split_payment(Purchase.BUY_IN, -1, 0)


def test_a_purchase_paid_with_no_fee_moves_the_buy_in_to_the_pool_then_commission_to_the_house() -> None:
    # Given ann holds 2,000
    ledger = Ledger()
    ledger.post(deposit("d", "ann", 2_000, AT))
    # When she buys in for 1,050 with no fee
    entries = PurchasePayment(Purchase.BUY_IN, "t1", "ann", 1_050, 0).entries("register:t1:ann:1", AT)
    ledger.post_all(entries)
    # Then two entries: the buy-in and the commission
    assert [(e.key, e.kind) for e in entries] == [
        ("register:t1:ann:1:buy_in", EntryKind.BUY_IN),
        ("register:t1:ann:1:commission", EntryKind.COMMISSION),
    ]
    assert ledger.balance(player_account("ann")) == 950
    assert ledger.balance(pool_account("t1")) == 955
    assert ledger.balance(house_account("t1")) == 95
    assert ledger.summary("t1").prize_pool_collected == 955


def test_a_purchase_paid_with_a_fee_and_its_refund_restore_everything() -> None:
    # Given ann bought in for 1,000 + 100
    ledger = Ledger()
    ledger.post(deposit("d", "ann", 2_000, AT))
    ledger.post_all(PurchasePayment(Purchase.BUY_IN, "t1", "ann", 1_000, 100).entries("k", AT))
    assert [e.kind for e in ledger.entries(tournament_id="t1")] == [EntryKind.BUY_IN, EntryKind.ENTRY_FEE]
    # When the payment is refunded in full
    refund = PurchasePayment(Purchase.BUY_IN, "t1", "ann", 1_000, 100).refund("refund:k", AT)
    assert refund is not None
    ledger.post(refund)
    # Then her wallet is whole again and pool and house are empty
    assert ledger.balance(player_account("ann")) == 2_000
    assert ledger.balance(pool_account("t1")) == 0
    assert ledger.balance(house_account("t1")) == 0
    assert ledger.summary("t1").refunds == 1_100
    ledger.verify_invariants()


def test_a_freeroll_purchase_moves_nothing() -> None:
    assert PurchasePayment(Purchase.BUY_IN, "t1", "ann", 0, 0).entries("k", AT) == ()
    assert PurchasePayment(Purchase.BUY_IN, "t1", "ann", 0, 0).refund("r", AT) is None
