"""``TableView.pots``: the main and side pots as gathered, the same for every viewer (``services.tables``)."""

from __future__ import annotations

from tourney.domain.hand import ActionKind, Street
from tourney.domain.structure import BlindLevel
from tourney.domain.table import Table
from tourney.services.records import TableRecord
from tourney.services.tables import table_view
from tourney.services.views import TableView

DECK = list(range(52))
PLAYERS = {1: "ann", 2: "bob", 3: "cy"}


def seated(stacks: dict[int, int], *, ante: int = 0) -> TableRecord:
    table = Table(1, 6)
    for seat, stack in stacks.items():
        table.seat_player(PLAYERS[seat], seat, stack)
    table.draw_button(deck=list(range(51, -1, -1)))
    table.start_hand(BlindLevel(1, 50, 100, ante), DECK)
    return TableRecord(tournament_id="t", table_id="1", table=table)


def act(record: TableRecord, kind: ActionKind, amount: int | None = None) -> None:
    awaiting = record.table.awaiting()
    assert awaiting is not None
    record.table.act(awaiting.player, kind, amount)


def pots(view: TableView) -> list[tuple[int, tuple[int, ...]]]:
    return [(p.amount, p.seats) for p in view.pots]


def identity_holds(view: TableView) -> bool:
    return sum(p.amount for p in view.pots) + sum(s.bet for s in view.seats) == view.pot


def all_in_raise_call(record: TableRecord) -> None:
    """Before the flop: ann (seat 1) all in, bob (seat 2) raises to 600, cy (seat 3) calls, in turn."""
    hand = record.table.hand
    assert hand is not None
    while hand.street is Street.PREFLOP:
        options = hand.options()
        assert options is not None
        if options.seat == 1 and options.max_raise_to is not None:
            act(record, ActionKind.RAISE, options.max_raise_to)
        elif options.seat == 2 and options.bet + options.to_call < 600:
            act(record, ActionKind.RAISE, 600)
        else:
            act(record, ActionKind.CALL)


def side_pot_on_the_flop() -> TableView:
    """Ann (300 chips) all in, bob (1000) raises to 600 and cy (2000) calls: an observer's view on the flop."""
    record = seated({1: 300, 2: 1_000, 3: 2_000})
    all_in_raise_call(record)
    return table_view(record, None)


def test_a_three_way_all_in_for_different_stacks_gives_a_main_pot_and_a_side_pot() -> None:
    # Given three players with 300 (ann), 1000 (bob) and 2000 (cy) chips, in whatever positions the draw gave
    record = seated({1: 300, 2: 1_000, 3: 2_000})
    hand = record.table.hand
    assert hand is not None
    # Before the flop nothing is gathered yet: the blinds are bets in front of their seats
    view = table_view(record, None)
    assert pots(view) == [] and view.pot == 150 and identity_holds(view)
    # When ann moves all in for 300, bob raises to 600 and cy calls 600
    all_in_raise_call(record)
    # Then the flop is dealt (bob and cy still have chips), ann's 300 from each make the main pot all three
    # may win, and the 300 more each of bob and cy put in is a side pot only they may win
    assert record.table.hand_in_progress and len(hand.board) == 3
    view = table_view(record, None)
    assert [hand.committed(seat) for seat in (1, 2, 3)] == [300, 600, 600]
    deep = tuple(seat for seat in hand.seats if seat != 1)
    assert pots(view) == [(900, hand.seats), (600, deep)], "the main pot first, then the side pot"
    assert view.pot == 1_500 and identity_holds(view)
    # And every player sees the same pots as an observer
    for player in PLAYERS.values():
        assert table_view(record, player).pots == view.pots
    assert view.to_dict()["pots"][1] == {"amount": 600, "seats": list(deep)}


def test_a_bet_of_the_current_street_stays_out_of_the_pots_until_the_street_ends() -> None:
    # Given three players with 10 antes who limp to the flop
    record = seated({1: 5_000, 2: 5_000, 3: 5_000}, ante=10)
    hand = record.table.hand
    assert hand is not None
    view = table_view(record, None)
    assert pots(view) == [(30, hand.seats)] and identity_holds(view), "the antes are gathered at once"
    act(record, ActionKind.CALL)
    act(record, ActionKind.CALL)
    act(record, ActionKind.CHECK)
    assert len(hand.board) == 3
    gathered = pots(table_view(record, None))
    assert gathered == [(330, hand.seats)]
    # When the first to act on the flop bets 200
    act(record, ActionKind.BET, 200)
    # Then the pots are as they were, the bet is in front of its seat, and the identity holds
    view = table_view(record, None)
    assert pots(view) == gathered and view.pot == 530 and identity_holds(view)
    assert sorted(s.bet for s in view.seats) == [0, 0, 200]
    # When one folds and one calls, then the street's bets are gathered and the folded seat may win nothing
    act(record, ActionKind.FOLD)
    folded = next(s.seat for s in table_view(record, None).seats if s.status == "folded")
    act(record, ActionKind.CALL)
    view = table_view(record, None)
    assert pots(view) == [(730, tuple(seat for seat in hand.seats if seat != folded))]
    assert identity_holds(view) and all(s.bet == 0 for s in view.seats)


def test_no_pots_between_hands() -> None:
    record = seated({1: 1_000, 2: 1_000})
    act(record, ActionKind.FOLD)
    view = table_view(record, "ann")
    assert not view.hand_in_progress and view.pots == () and view.pot == 0
