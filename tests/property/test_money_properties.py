"""Money is never lost or created (RULES.md, Money; rules 2, 3, 4, 10, 17): properties over random histories."""

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tourney.domain.errors import TourneyError
from tourney.domain.fees import Purchase, purchase_entries, split_payment
from tourney.domain.ledger import (
    EXTERNAL,
    Entry,
    EntryKind,
    Ledger,
    deposit,
    house_account_for,
    overlay_account,
    player_account,
    pool_account,
    transfer,
    withdrawal,
)
from tourney.domain.prizes import BustOut, payout_for, place_bust_outs, prize_amounts, prize_entry, prize_for_place
from tourney.domain.recovery import (
    CompensationOutcome,
    Contribution,
    Stack,
    Termination,
    compensate,
    compensation_entries,
    share_by_chips,
)
from tourney.domain.registration import RegistrationBook, TournamentStatus
from tourney.domain.structure import TournamentConfig, TournamentFormat

T0 = datetime(2025, 3, 1, 10, 0, tzinfo=UTC)
PLAYERS = [f"p{i:02d}" for i in range(20)]
TID = "t1"

KINDS = (
    *["register"] * 6,
    *["unregister"] * 2,
    *["tick"] * 3,
    *["rebuy", "prize"] * 2,
    "deposit",
    "withdraw",
    "start",
    "replay",
    "cancel",
)
"""Operation kinds, repeated to weigh them (registrations dominate, as in a real lobby)."""
operations = st.tuples(st.sampled_from(KINDS), st.sampled_from(PLAYERS), st.integers(0, 6_000))


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[RegistrationBook, int, list[int]]:
    fmt = draw(st.sampled_from([TournamentFormat.FREEZEOUT, TournamentFormat.SNG]))
    buy_in = draw(st.integers(0, 2_000))
    fee = draw(st.sampled_from([0, 0, 50, 200]))
    max_players = draw(st.integers(2, 5))
    shards = draw(st.sampled_from([1, 4]))
    config = TournamentConfig.for_format(fmt, buy_in=buy_in, entry_fee=fee, max_players=max_players)
    start = None if fmt is TournamentFormat.SNG else T0 + timedelta(minutes=draw(st.integers(5, 90)))
    wallets = draw(st.lists(st.integers(0, 9_000), min_size=len(PLAYERS), max_size=len(PLAYERS)))
    return RegistrationBook(TID, config, announce_at=T0, start_at=start, house_shards=shards), shards, wallets


def snapshot(book: RegistrationBook, ledger: Ledger) -> tuple[object, ...]:
    return (
        book.status_at(T0),
        book.players,
        book.waiting_list,
        book.version,
        dict(book._registrations),
        ledger.balances(),
        len(ledger),
    )


def run_history(setup: tuple[RegistrationBook, int, list[int]], history: list[tuple[str, str, int]]) -> None:
    book, shards, wallets = setup
    ledger = Ledger()
    for p, amount in zip(PLAYERS, wallets, strict=True):
        if amount:
            ledger.post(deposit(f"dep:{p}", p, amount, T0))
    config = book.config
    entry = split_payment(Purchase.BUY_IN, config.buy_in, config.entry_fee)
    rebuy = split_payment(Purchase.REBUY, config.buy_in, config.entry_fee)
    now = T0 - timedelta(minutes=1)
    rebuys = prizes = deposits = 0
    last_entries: list[Entry] = []
    for op in history:
        before = snapshot(book, ledger)
        try:
            match op:
                case ("deposit", p, amount) if amount > 0:
                    ledger.post(deposit(f"dep:{deposits}", p, amount, now))
                    deposits += 1
                case ("register", p, _):
                    last_entries = list(book.register(p, now, ledger).entries)
                case ("unregister", p, _):
                    last_entries = list(book.unregister(p, now, ledger).entries)
                case ("start", _, _):
                    last_entries = list(book.start(now, ledger).entries)
                case ("cancel", _, amount) if amount % 10 == 0:
                    last_entries = list(book.cancel(now, ledger).entries)
                case ("rebuy", p, _) if book.status_at(now) is TournamentStatus.RUNNING and p in book.players:
                    key = f"rebuy:{TID}:{p}:{rebuys}"
                    ledger.post_all(
                        purchase_entries(key, Purchase.REBUY, TID, p, config.buy_in, config.entry_fee, now, shards)
                    )
                    rebuys += 1
                case ("prize", p, amount) if book.status_at(now) is TournamentStatus.RUNNING:
                    paid = prize_entry(TID, p, amount, now)
                    if paid is not None:
                        fresh = ledger.entry(paid.key) is None
                        ledger.post(paid)
                        prizes += paid.amount_for(player_account(p)) if fresh else 0
                case ("withdraw", p, amount) if amount > 0:
                    ledger.post(withdrawal(f"wd:{len(ledger)}", p, amount, now))
                case ("replay", _, _):
                    ledger.post_all(last_entries)
                case ("tick", _, amount):
                    now += timedelta(minutes=amount % 16)
        except TourneyError:
            # A refused operation moves nothing and changes nothing.
            assert snapshot(book, ledger) == before
        # The ledger balances and the money invariant holds after every step.
        ledger.verify_invariants()
        in_tournament = len(book.players) + len(book.waiting_list)
        assert ledger.balance(pool_account(TID)) == in_tournament * entry.pool + rebuys * rebuy.pool - prizes
        house = sum(ledger.balance(a) for a in {house_account_for(TID, p, shards) for p in PLAYERS})
        assert house == in_tournament * entry.house + rebuys * rebuy.house
        assert all(ledger.balance(player_account(p)) >= 0 for p in PLAYERS)
        assert len(book.waiting_list) <= config.waiting_list_size
        assert len(book.players) <= config.max_players
    summary = ledger.summary(TID)
    held = summary.player_balances + summary.prize_pool_held + summary.house_revenue + summary.refunds_owed
    assert held == summary.deposits - summary.withdrawals + summary.overlay
    assert summary.deposits == -ledger.balance(EXTERNAL) + summary.withdrawals


@given(tournaments(), st.lists(operations, min_size=20, max_size=80))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_ledger_stays_balanced_and_failed_operations_move_nothing(
    setup: tuple[RegistrationBook, int, list[int]], history: list[tuple[str, str, int]]
) -> None:
    run_history(setup, history)


@pytest.mark.slow
@given(tournaments(), st.lists(operations, min_size=50, max_size=200))
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_ledger_stays_balanced_over_long_histories(
    setup: tuple[RegistrationBook, int, list[int]], history: list[tuple[str, str, int]]
) -> None:
    run_history(setup, history)


# -- prizes ---------------------------------------------------------------------


def check_prizes(entrants: int, pool: int) -> None:
    payout = payout_for(entrants)
    amounts = prize_amounts(pool, payout)
    assert sum(amounts) == pool
    assert len(amounts) == payout.places_paid <= entrants
    assert all(a >= b for a, b in itertools.pairwise(amounts))


@given(st.integers(2, 20_000), st.integers(0, 10**11))
def test_prizes_add_up_to_the_pool_and_never_rise(entrants: int, pool: int) -> None:
    check_prizes(entrants, pool)


@pytest.mark.slow
@given(st.integers(2, 250_000), st.integers(0, 10**13))
@settings(max_examples=400, deadline=None)
def test_prizes_add_up_to_the_pool_for_every_field_size(entrants: int, pool: int) -> None:
    check_prizes(entrants, pool)


@given(
    st.lists(st.integers(1, 5), min_size=1, max_size=8),
    st.integers(0, 20),
    st.integers(0, 10**7),
    st.integers(9, 400),
)
def test_rule_10_bust_outs_in_one_hand_share_exactly_the_prizes_of_their_places(
    stacks: list[int], survivors: int, pool: int, entrants: int
) -> None:
    # Given players busted in one hand with small stacks (many ties) and some survivors
    busted = [BustOut(f"b{i}", s) for i, s in enumerate(stacks)]
    remaining_before = len(busted) + survivors + 1
    prizes = prize_amounts(pool, payout_for(max(entrants, remaining_before)))
    placings = place_bust_outs(busted, remaining_before, prizes)
    # Then they are paid exactly the prizes of the places they take
    places = range(remaining_before - len(busted) + 1, remaining_before + 1)
    assert sum(p.prize for p in placings) == sum(prize_for_place(prizes, q) for q in places)
    # And a bigger starting stack never gets a worse place; equal stacks get equal shares, to the cent
    stack = {b.player_id: b.starting_stack for b in busted}
    for a in placings:
        for b in placings:
            if stack[a.player_id] > stack[b.player_id]:
                assert a.last_place < b.place
            if stack[a.player_id] == stack[b.player_id]:
                assert (a.place, a.last_place) == (b.place, b.last_place)
                assert abs(a.prize - b.prize) <= 1


# -- recovery -------------------------------------------------------------------


@st.composite
def terminations(draw: st.DrawFn) -> tuple[Termination, int]:
    entrants = draw(st.integers(2, 30))
    ids = [f"p{i}" for i in range(entrants)]
    contributions = tuple(Contribution(p, draw(st.integers(0, 500)), draw(st.integers(0, 5_000))) for p in ids)
    left = draw(st.integers(1, entrants))
    remaining_ids = draw(st.permutations(ids))[:left]
    remaining = tuple(Stack(p, draw(st.integers(1, 10**6))) for p in remaining_ids)
    collected = sum(c.pool for c in contributions)
    guarantee = draw(st.one_of(st.just(0), st.integers(0, 200_000)))
    overlay_posted = draw(st.booleans()) * max(0, guarantee - collected)
    prizes_paid = draw(st.integers(0, collected + overlay_posted))
    facts = Termination(
        format=draw(st.sampled_from(list(TournamentFormat))),
        started_at=T0,
        terminated_at=T0 + timedelta(seconds=draw(st.integers(0, 7_200))),
        last_rebuy_period_ended=draw(st.booleans()),
        collected=collected,
        guarantee=guarantee,
        contributions=contributions,
        prizes_paid=prizes_paid,
        remaining=remaining,
    )
    return facts, overlay_posted


@given(terminations())
@settings(max_examples=150, deadline=None)
def test_rule_17_compensation_adds_up_exactly_and_the_ledger_pays_it(case: tuple[Termination, int]) -> None:
    facts, overlay_posted = case
    compensation = compensate(facts)
    # The amounts add up exactly to what the outcome must pay
    remaining = {s.player_id for s in facts.remaining}
    mine = [c for c in facts.contributions if c.player_id in remaining]
    eliminated_pool = sum(c.pool for c in facts.contributions if c.player_id not in remaining)
    expected = {
        CompensationOutcome.ROLLBACK: sum(c.total for c in facts.contributions),
        CompensationOutcome.PAYOUT: max(facts.collected, facts.guarantee) - facts.prizes_paid,
        CompensationOutcome.REFUND_SHARE: sum(c.total for c in mine) + max(0, eliminated_pool - facts.prizes_paid),
    }[compensation.outcome]
    assert compensation.total == expected
    assert all(p.from_house >= 0 and p.from_pool >= 0 for p in compensation.payments)
    # And posted on a ledger holding the tournament's money, it empties the pool and keeps the invariant
    ledger = Ledger()
    for c in facts.contributions:
        if c.total:
            ledger.post(deposit(f"d:{c.player_id}", c.player_id, c.total, T0))
        for kind, target, amount in (
            (EntryKind.ENTRY_FEE, house_account_for(TID, c.player_id, 4), c.fees),
            (EntryKind.BUY_IN, pool_account(TID), c.pool),
        ):
            moved = transfer(f"{kind}:{c.player_id}", kind, TID, player_account(c.player_id), target, amount, T0)
            if moved is not None:
                ledger.post(moved)
    extra = [
        transfer("ov", EntryKind.OVERLAY, TID, overlay_account(TID), pool_account(TID), overlay_posted, T0),
        transfer("pz", EntryKind.PRIZE, TID, pool_account(TID), player_account("winner"), facts.prizes_paid, T0),
    ]
    ledger.post_all([e for e in extra if e is not None])
    entries = compensation_entries(TID, compensation, ledger.balance(pool_account(TID)), T0, house_shards=4)
    ledger.post_all(entries)
    ledger.verify_invariants()
    assert ledger.balance(pool_account(TID)) == 0
    assert ledger.summary(TID).compensation == compensation.total
    house_kept = {
        CompensationOutcome.ROLLBACK: 0,
        CompensationOutcome.PAYOUT: sum(c.fees for c in facts.contributions),
        CompensationOutcome.REFUND_SHARE: sum(c.fees for c in facts.contributions if c.player_id not in remaining),
    }[compensation.outcome]
    assert ledger.summary(TID).house_revenue == house_kept


@given(st.integers(0, 10**9), st.lists(st.integers(1, 10**7), min_size=1, max_size=50))
def test_rule_17_4_chip_shares_add_up_and_differ_from_the_exact_share_by_under_a_cent(
    amount: int, chips: list[int]
) -> None:
    stacks = [Stack(f"p{i}", c) for i, c in enumerate(chips)]
    shares = share_by_chips(amount, stacks)
    assert sum(shares) == amount
    total = sum(chips)
    for share, c in zip(shares, chips, strict=True):
        assert amount * c // total <= share <= amount * c // total + 1
