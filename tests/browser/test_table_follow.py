"""A player who busts while the tournament runs is told their place at the table, and a player moved to another
table follows there by themselves and is told why (the ``moved`` push, docs/interfaces.md; docs/rules.md, rules 12
and 13).

Four players at two tables of three seats: the two at table 1 go all in against each other over HTTP until one
busts; the three left fit on one table, so table 1 is broken and the other, alone there, moves to table 2. Each of
the two watches table 1 in a browser, both at a phone's size, then both at a desktop's.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import Pages
from tests.e2e.seeding import PATIENCE, call, create, fund, register

OPERATOR = "opal"
NAMES = ("fay", "gus", "hal", "ivy")


def seed_two_tables(stack: LocalRuntime, size: str) -> str:
    """A freezeout of four players of this size's run at two tables of two (three seats each), dealing: its id."""
    players = [f"{name}-{size}" for name in NAMES]
    fund(stack, OPERATOR, *players, amount=50_000)
    window = 8
    for attempt in range(4):
        tid = f"follow-{size}-{attempt}"
        start = (datetime.now(UTC) + timedelta(seconds=window)).replace(microsecond=0)
        create(stack, OPERATOR, tid, start, decision_seconds=300, starting_stack=10_000, seats_per_table=3)
        if register(stack, tid, *players) and datetime.now(UTC) < start:
            break
        window *= 2
    else:
        raise AssertionError("four players could not register before the start, four times")
    deadline = time.monotonic() + window + PATIENCE
    while True:
        status, view = call(stack, "GET", f"/tournaments/{tid}/tables/1", stack.token(players[0]))
        if status == 200 and view.get("to_act"):
            return tid
        assert time.monotonic() < deadline, f"table 1 of {tid} did not deal: {status} {view}"
        time.sleep(0.3)


def table_view(stack: LocalRuntime, tid: str, table: str = "1") -> dict[str, Any]:
    status, view = call(stack, "GET", f"/tournaments/{tid}/tables/{table}", stack.token(OPERATOR))
    assert status == 200, view
    return dict(view)


def decision(view: dict[str, Any], all_in: bool) -> dict[str, Any]:
    """The body of an act for the view's decision: all in (bet or raise the most, else call), or check or fold."""
    to_act = view["to_act"]
    body = {"hand": view["hand"], "seq": to_act["seq"]}
    if not all_in:
        return {**body, "action": "check" if to_act["can_check"] else "fold"}
    if to_act["max_raise_to"] is not None:
        kind = "bet" if all(not s["bet"] for s in view["seats"]) else "raise"
        return {**body, "action": kind, "amount": to_act["max_raise_to"]}
    return {**body, "action": "check" if to_act["can_check"] else "call"}


def all_in_until_one_busts(stack: LocalRuntime, tid: str, players: list[str]) -> str:
    """Table 1's two players go all in against each other, hand after hand, until one is out (table 2 checks or
    folds meanwhile, so that a hand-for-hand round never waits for it): the one out."""
    deadline = time.monotonic() + 4 * PATIENCE
    while time.monotonic() < deadline:
        _, standings = call(stack, "GET", f"/tournaments/{tid}/standings", stack.token(OPERATOR))
        out = [p["player"] for p in standings["places"] if p["player"] in players]
        if out:
            return str(out[0])
        for table in ("1", "2"):
            view = table_view(stack, tid, table)
            to_act = view.get("to_act")
            if to_act and not view["closed"]:
                body = decision(view, all_in=to_act["player"] in players)
                call(stack, "POST", f"/tournaments/{tid}/tables/{table}/actions", stack.token(to_act["player"]), body)
        time.sleep(0.3)
    raise AssertionError("nobody busted at table 1")


def test_a_player_who_busts_is_told_their_place_and_the_one_left_alone_follows_to_the_other_table_told_it_broke(
    stack: LocalRuntime, pages: Pages, size: str, viewport: dict[str, int]
) -> None:
    # Given four players at two tables, the two at table 1 each watching it at the same size (a phone's, a desktop's)
    tid = seed_two_tables(stack, size)
    here = [s["player"] for s in table_view(stack, tid)["seats"]]
    assert len(here) == 2, here
    page_of = {}
    for player in here:
        page = pages.signed_in(player, viewport=viewport)
        page.goto(f"{stack.urls['app']}#/t/{tid}/table/1")
        page.locator(f".seat[data-player='{player}']").wait_for()
        page_of[player] = page
    # When they go all in against each other until one of them is out
    out = all_in_until_one_busts(stack, tid, here)
    left = next(p for p in here if p != out)
    # Then the one out is told their place while the tournament runs on (four players: fourth)
    page_of[out].get_by_role("alert").filter(has_text="You finished 4th").wait_for()
    _, details = call(stack, "GET", f"/tournaments/{tid}", stack.token(OPERATOR))
    assert details["status"] == "running"
    # And table 1 is broken (the three left fit on one table): the one left there is moved to table 2, and their
    # page opens it and says at the new table that they moved there because table 1 was broken
    follower = page_of[left]
    follower.wait_for_url(f"**#/t/{tid}/table/2")
    follower.locator(f".seat[data-player='{left}']").wait_for()
    follower.get_by_role("status").filter(has_text="You moved to table 2 (table 1 was broken).").wait_for()
    assert follower.get_by_text("You are watching this table.").count() == 0
