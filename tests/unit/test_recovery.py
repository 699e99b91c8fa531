"""Compensation of a terminated tournament (docs/rules.md, 'Termination and recovery', rule 17)."""

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from tourney.domain.fees import Purchase, PurchasePayment
from tourney.domain.formats import TournamentFormat
from tourney.domain.ledger import (
    Ledger,
    deposit,
    house_account,
    overlay_account,
    player_account,
    pool_account,
)
from tourney.domain.prizes import PrizePool, overlay_entry, payout_for, prize_entry
from tourney.domain.recovery import (
    Compensation,
    CompensationOutcome,
    PaidIn,
    Payment,
    Stack,
    Termination,
    compensate,
    compensation_entries,
    compensation_outcome,
    share_by_chips,
)

STARTED = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
ROLLBACK = CompensationOutcome.ROLLBACK
PAYOUT = CompensationOutcome.PAYOUT
REFUND_SHARE = CompensationOutcome.REFUND_SHARE


def ten_entrants() -> tuple[PaidIn, ...]:
    return tuple(PaidIn(f"p{i}", 100, 1_000) for i in range(1, 11))


def facts(
    *,
    format: TournamentFormat = TournamentFormat.FREEZEOUT,
    after: timedelta = timedelta(hours=1),
    rebuys_over: bool = False,
    guarantee: int = 0,
    contributions: tuple[PaidIn, ...] | None = None,
    prizes_paid: int = 0,
    remaining: tuple[Stack, ...] = (Stack("p1", 50_000), Stack("p2", 30_000), Stack("p3", 20_000)),
) -> Termination:
    contributions = contributions if contributions is not None else ten_entrants()
    return Termination(
        format=format,
        started_at=STARTED,
        terminated_at=STARTED + after,
        last_rebuy_period_ended=rebuys_over,
        collected=sum(c.pool for c in contributions),
        guarantee=guarantee,
        contributions=contributions,
        prizes_paid=prizes_paid,
        remaining=remaining,
    )


def amounts(compensation: Compensation) -> dict[str, int]:
    return {p.player_id: p.amount for p in compensation.payments}


# -- which rule applies (17.3 a-d) --------------------------------------------


def test_rule_17_3a_a_sit_and_go_is_always_paid_out_even_in_its_first_minutes() -> None:
    assert compensation_outcome(facts(format=TournamentFormat.SNG, after=timedelta(minutes=2))) is PAYOUT


def test_rule_17_3b_terminated_at_exactly_30_minutes_is_still_a_rollback() -> None:
    # Given a freezeout terminated 30:00.000 after its first hand
    exactly = facts(after=timedelta(minutes=30))
    # Then it is rolled back; one millisecond later it is paid out
    assert compensation_outcome(exactly) is ROLLBACK
    assert compensation_outcome(facts(after=timedelta(minutes=30, milliseconds=1))) is PAYOUT


def test_rule_17_3b_a_rebuy_tournament_in_its_first_30_minutes_is_rolled_back_whatever_the_pool() -> None:
    early = facts(format=TournamentFormat.REBUY, after=timedelta(minutes=29), rebuys_over=True)
    assert compensation_outcome(early) is ROLLBACK


def test_rule_17_3c_a_freezeout_after_30_minutes_is_paid_out_whatever_the_pool() -> None:
    assert compensation_outcome(facts(guarantee=1_000_000)) is PAYOUT


def test_rule_17_3c_a_rebuy_tournament_whose_last_rebuy_period_ended_is_paid_out() -> None:
    ended = facts(format=TournamentFormat.REBUY, rebuys_over=True, guarantee=1_000_000)
    assert compensation_outcome(ended) is PAYOUT


def test_rule_17_3c_pool_strictly_above_85_percent_of_the_guarantee_is_paid_out() -> None:
    # Given a rebuy tournament in its rebuy period, 10,000 collected
    def rebuy(guarantee: int, contributions: tuple[PaidIn, ...] | None = None) -> Termination:
        return facts(format=TournamentFormat.REBUY, guarantee=guarantee, contributions=contributions)

    # Then: guarantee 11,764 -> 85 % is 9,999.4, exceeded: payout
    assert compensation_outcome(rebuy(11_764)) is PAYOUT
    # And: guarantee 11,765 -> 85 % is 10,000.25, not exceeded: refund and share
    assert compensation_outcome(rebuy(11_765)) is REFUND_SHARE
    # And exactly 85 % (guarantee 200,000, collected 170,000) is not strictly more
    big = tuple(PaidIn(f"p{i}", 0, 17_000) for i in range(1, 11))
    assert compensation_outcome(rebuy(200_000, big)) is REFUND_SHARE
    # And without a guarantee the pool always exceeds it
    assert compensation_outcome(rebuy(0)) is PAYOUT


# -- rollback (17.3 b) ----------------------------------------------------------


def test_rule_17_3b_rollback_returns_every_fee_and_contribution_to_every_entrant() -> None:
    # Given 4 entrants: ann rebought twice, bob once with an add-on, cy and dee eliminated
    contributions = (
        PaidIn.from_purchases("ann", 1_000, 100, rebuys=2),
        PaidIn.from_purchases("bob", 1_000, 100, rebuys=1, add_ons=1),
        PaidIn.from_purchases("cy", 1_000, 100),
        PaidIn.from_purchases("dee", 1_000, 100, rebuys=1),
    )
    early = facts(
        after=timedelta(minutes=25),
        contributions=contributions,
        remaining=(Stack("ann", 30_000), Stack("bob", 40_000)),
    )
    # When it is compensated
    compensation = compensate(early)
    # Then everyone, eliminated or not, gets back all they paid
    assert compensation.outcome is ROLLBACK
    assert amounts(compensation) == {"ann": 3_300, "bob": 3_300, "cy": 1_100, "dee": 2_200}
    assert compensation.payments[0] == Payment("ann", 300, 3_000)
    assert compensation.total == 9_900


def test_rule_17_3b_rollback_with_no_fee_returns_commission_and_pool_parts() -> None:
    # Given a 1,050 buy-in without fee and one rebuy: 95 + 42 commission, 955 + 1,008 pool
    ann = PaidIn.from_purchases("ann", 1_050, 0, rebuys=1)
    assert (ann.fees, ann.pool) == (137, 1_963)
    bob = PaidIn.from_purchases("bob", 1_050, 0)
    early = facts(after=timedelta(minutes=5), contributions=(ann, bob), remaining=(Stack("ann", 1), Stack("bob", 1)))
    # Then each gets back exactly what they paid
    assert amounts(compensate(early)) == {"ann": 2_100, "bob": 1_050}


# -- prize-pool payout (17.3 a, c and 17.4) -----------------------------------


def test_rule_17_4_outside_the_money_the_whole_pool_is_shared_by_chips() -> None:
    # Given 10 entrants, pool 10,000 paying 3 places, and 4 players left
    remaining = (Stack("p1", 40_000), Stack("p2", 30_000), Stack("p3", 20_000), Stack("p4", 10_000))
    compensation = compensate(facts(remaining=remaining))
    # Then nobody is sure of a prize, and 10,000 is shared 40/30/20/10 %
    assert compensation.outcome is PAYOUT
    assert amounts(compensation) == {"p1": 4_000, "p2": 3_000, "p3": 2_000, "p4": 1_000}


def test_rule_17_4_in_the_money_each_gets_the_prize_all_are_sure_to_reach_then_a_chip_share() -> None:
    # Given pool 10,000 paying 5,000 / 3,000 / 2,000 and 3 players left
    compensation = compensate(facts())
    # Then each first gets 2,000 (3rd place), and the other 4,000 goes 50/30/20 % by chips
    assert amounts(compensation) == {"p1": 4_000, "p2": 3_200, "p3": 2_800}
    assert compensation.total == 10_000


def test_rule_17_4_the_guarantee_is_paid_and_prizes_already_paid_are_kept() -> None:
    # Given 8,000 collected under a 10,000 guarantee; 3rd place already paid 2,000; 2 left
    eight = tuple(PaidIn(f"p{i}", 100, 1_000) for i in range(1, 9))
    late = facts(
        guarantee=10_000,
        contributions=eight,
        prizes_paid=2_000,
        remaining=(Stack("p1", 60_000), Stack("p2", 20_000)),
    )
    late = replace(late, payout=payout_for(9))
    # When it is paid out
    compensation = compensate(late)
    # Then 8,000 remains: each gets 3,000 (2nd place) and 2,000 is shared 75/25
    assert amounts(compensation) == {"p1": 4_500, "p2": 3_500}
    assert compensation.total == 10_000 - 2_000


def test_rule_17_4_leftover_cents_go_one_each_to_the_largest_stacks() -> None:
    # Given 1,000 to share among stacks 3, 3 and 1 (428.57, 428.57, 142.86)
    shares = share_by_chips(1_000, [Stack("small", 1), Stack("big1", 3), Stack("big2", 3)])
    # Then the 2 cents left go to the two largest stacks
    assert shares == [142, 429, 429]
    # And between equal stacks the order given decides
    assert share_by_chips(2, [Stack("a", 5), Stack("b", 5), Stack("c", 5)]) == [1, 1, 0]


def test_rule_17_3a_sit_and_go_payout_uses_its_50_30_20() -> None:
    # Given a 9-player Sit&Go, pool 9,000, terminated with 3 left after 4 minutes
    nine = tuple(PaidIn(f"p{i}", 100, 1_000) for i in range(1, 10))
    sng = facts(format=TournamentFormat.SNG, after=timedelta(minutes=4), contributions=nine)
    # Then each gets 1,800 (3rd place) and 3,600 is shared 50/30/20 %
    assert amounts(compensate(sng)) == {"p1": 3_600, "p2": 2_880, "p3": 2_520}


# -- refund and share (17.3 d) -------------------------------------------------


def test_rule_17_3d_remaining_players_get_their_money_back_and_share_the_eliminated_contributions() -> None:
    # Given a rebuy tournament in its rebuy period, 40 minutes in, 7,000 collected under 20,000
    contributions = (
        PaidIn.from_purchases("ann", 1_000, 100, rebuys=1),  # 200 fees, 2,000 pool
        PaidIn.from_purchases("bob", 1_000, 100),  # 100, 1,000
        PaidIn.from_purchases("cy", 1_000, 100, rebuys=2),  # eliminated: 3,000 pool
        PaidIn.from_purchases("dee", 1_000, 100),  # eliminated: 1,000 pool
    )
    terminated = facts(
        format=TournamentFormat.REBUY,
        after=timedelta(minutes=40),
        guarantee=20_000,
        contributions=contributions,
        remaining=(Stack("ann", 30_000), Stack("bob", 10_000)),
    )
    # When it is compensated
    compensation = compensate(terminated)
    # Then ann gets 200 + 2,000 + 3,000 (75 % of 4,000) and bob 100 + 1,000 + 1,000
    assert compensation.outcome is REFUND_SHARE
    assert compensation.payments == (Payment("ann", 200, 5_000), Payment("bob", 100, 2_000))
    assert compensation.total == 7_300


def test_rule_17_3d_prizes_paid_are_taken_from_the_eliminated_share() -> None:
    # Given the same shape but 1,500 already paid as prizes to eliminated players
    contributions = (
        PaidIn("ann", 100, 1_000),
        PaidIn("bob", 100, 1_000),
        PaidIn("cy", 100, 1_000),
        PaidIn("dee", 100, 1_000),
    )
    terminated = facts(
        format=TournamentFormat.REBUY,
        guarantee=100_000,
        contributions=contributions,
        prizes_paid=1_500,
        remaining=(Stack("ann", 1), Stack("bob", 2)),
    )
    # Then only 500 of the eliminated 2,000 is shared: 166.67 -> 167 (largest: bob gets 334)
    assert amounts(compensate(terminated)) == {"ann": 1_100 + 166, "bob": 1_100 + 334}


# -- consistency of the facts ------------------------------------------------


def test_termination_facts_must_be_consistent() -> None:
    with pytest.raises(ValueError, match="collected"):
        replace(facts(), collected=1)
    with pytest.raises(ValueError, match="remaining"):
        facts(remaining=(Stack("stranger", 10),))
    with pytest.raises(ValueError, match="chips"):
        facts(remaining=(Stack("p1", 0),))


# -- ledger entries ------------------------------------------------------------


def test_rollback_entries_refund_fees_from_the_house_and_cover_paid_prizes_with_the_house() -> None:
    # Given 3 players bought in for 1,000 + 100 under a 5,000 guarantee, the overlay posted,
    # and cy paid 1,500 as a prize already
    t, at = "t1", STARTED
    ledger = Ledger()
    for p in ("ann", "bob", "cy"):
        ledger.post(deposit(f"d:{p}", p, 1_100, at))
        ledger.post_all(PurchasePayment(Purchase.BUY_IN, t, p, 1_000, 100).entries(f"register:{t}:{p}:1", at))
    overlay = overlay_entry(t, PrizePool(3_000, 5_000), at)
    prize = prize_entry(t, "cy", 1_500, at)
    assert overlay is not None and prize is not None
    ledger.post_all([overlay, prize])
    contributions = tuple(PaidIn(p, 100, 1_000) for p in ("ann", "bob", "cy"))
    early = facts(
        after=timedelta(minutes=10),
        guarantee=5_000,
        contributions=contributions,
        prizes_paid=1_500,
        remaining=(Stack("ann", 10), Stack("bob", 20)),
    )
    # When the rollback is posted (pool holds 3,500 and must give back 3,000)
    compensation = compensate(early)
    entries = compensation_entries(t, compensation, ledger.balance(pool_account(t)), at)
    ledger.post_all(entries)
    # Then everyone has 1,100 back, cy keeps the prize, pool and house revenue are empty
    assert [ledger.balance(player_account(p)) for p in ("ann", "bob", "cy")] == [1_100, 1_100, 2_600]
    assert ledger.balance(pool_account(t)) == 0
    assert ledger.balance(house_account(t)) == 0
    # And the house's overlay account paid for cy's prize only: 1,500 net
    assert ledger.balance(overlay_account(t)) == -1_500
    assert [e.key for e in entries][-1] == "compensation:t1:overlay_return"
    assert ledger.summary(t).compensation == 3_300
    ledger.verify_invariants()


def test_payout_entries_add_the_overlay_the_pool_lacks() -> None:
    # Given 2 players in a pool of 2,000 under a 3,000 guarantee, no overlay posted yet
    t, at = "t1", STARTED
    ledger = Ledger()
    for p in ("ann", "bob"):
        ledger.post(deposit(f"d:{p}", p, 1_100, at))
        ledger.post_all(PurchasePayment(Purchase.BUY_IN, t, p, 1_000, 100).entries(f"register:{t}:{p}:1", at))
    two = (PaidIn("ann", 100, 1_000), PaidIn("bob", 100, 1_000))
    late = facts(guarantee=3_000, contributions=two, remaining=(Stack("ann", 3), Stack("bob", 1)))
    compensation = compensate(late)
    # When the payout is posted
    ledger.post_all(compensation_entries(t, compensation, ledger.balance(pool_account(t)), at))
    # Then 3,000 is paid 75/25 by chips, 1,000 of it by the house
    assert amounts(compensation) == {"ann": 2_250, "bob": 750}
    assert ledger.balance(overlay_account(t)) == -1_000
    assert ledger.balance(pool_account(t)) == 0
    assert ledger.balance(house_account(t)) == 200
    assert compensation.paid_report() == [{"player": "ann", "amount": 2_250}, {"player": "bob", "amount": 750}]
    ledger.verify_invariants()
