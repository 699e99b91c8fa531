"""The table as a player uses it, at a phone's size and a desktop's (docs/interfaces.md, the web client): the action
bar on screen with its sizes and slider, the server's decision clock surviving a reload, pre-actions while waiting,
each seat's last action and the hand's log, the tournament's bar, what an away player sees, a termination and a
restart shown at the table. The other seat acts over HTTP or in its own page; nobody waits for a clock.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime
from typing import Any

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import Pages
from tests.e2e.seeding import PATIENCE, call, fund, seed_running

OPERATOR = "otto"


def view_of(stack: LocalRuntime, tid: str, player: str) -> dict[str, Any]:
    status, view = call(stack, "GET", f"/tournaments/{tid}/tables/1", stack.token(player))
    assert status == 200, view
    return dict(view)


def on_screen(page: Any, locator: Any) -> bool:
    """The whole of the element inside the viewport, as the page is scrolled now."""
    box = locator.bounding_box()
    size = page.viewport_size
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5 and box["x"] >= 0


def clock_seconds(page: Any) -> int:
    """The seconds of the decision's own time the action bar shows ("Your turn · 283 s + bank 30 s")."""
    text = page.locator("#my-clock").inner_text()
    match = re.search(r"(\d+) s", text)
    assert match, text
    return int(match.group(1))


def seconds_left(deadline: str) -> float:
    return (datetime.fromisoformat(deadline.replace("Z", "+00:00")) - datetime.now(UTC)).total_seconds()


def test_the_action_bar_the_server_clock_pre_actions_last_actions_and_the_hand_log(
    stack: LocalRuntime, pages: Pages, size: str, viewport: dict[str, int]
) -> None:
    ann, bob = f"ann-{size}", f"bob-{size}"
    fund(stack, OPERATOR, ann, bob, amount=50_000)
    tid, view = seed_running(stack, OPERATOR, f"bar-{size}", (ann, bob))
    actor = view["to_act"]["player"]
    waiter = bob if actor == ann else ann
    # Given the player to act at the table, and the other player waiting at theirs
    page = pages.at_table(actor, tid, viewport)
    other = pages.at_table(waiter, tid, viewport)
    page.locator(".your-turn").wait_for()

    # Then the action bar is on screen whole: Fold, Call, Raise, All in, the slider, the amount and the presets
    for name in ("Fold", "Call", "Raise", "All in"):
        assert on_screen(page, page.get_by_role("button", name=name, exact=True)), name
    slider = page.get_by_role("slider", name="Raise size")
    amount = page.get_by_role("spinbutton", name="Amount")
    assert on_screen(page, slider) and on_screen(page, amount)
    sizes = page.get_by_role("group", name="Bet sizes")
    for name in ("Min", "2.5x", "Half pot", "Pot", "Max"):
        assert on_screen(page, sizes.get_by_role("button", name=name, exact=True)), name
    # And a preset sets the amount and the slider: Pot is the pot after the call, on top of the call
    to_act = view_of(stack, tid, actor)["to_act"]
    facing = max(s["bet"] for s in view["seats"])
    mine = next(s for s in view["seats"] if s["player"] == actor)
    pot_raise = mine["bet"] + to_act["to_call"] + view["pot"] + to_act["to_call"]
    sizes.get_by_role("button", name="Pot", exact=True).click()
    assert amount.input_value() == str(pot_raise) and slider.input_value() == str(pot_raise)
    sizes.get_by_role("button", name="2.5x", exact=True).click()
    assert amount.input_value() == str(max(to_act["min_raise_to"], round(2.5 * facing)))
    sizes.get_by_role("button", name="Max", exact=True).click()
    assert amount.input_value() == str(to_act["max_raise_to"])
    slider.fill(str(to_act["min_raise_to"]))
    assert amount.input_value() == str(to_act["min_raise_to"])

    # And the clock counts down to the server's deadline, the same after a reload (it does not start again)
    assert to_act["deadline"], to_act
    while seconds_left(to_act["deadline"]) > to_act["seconds"] - 6:
        time.sleep(0.5)  # some of the decision's time gone, so that a clock started afresh would show more
    page.reload()
    page.locator(".your-turn").wait_for()
    page.wait_for_function("() => /\\d+ s/.test(document.querySelector('#my-clock')?.textContent || '')")
    expected = seconds_left(to_act["deadline"])
    assert abs(clock_seconds(page) - expected) <= 3, (clock_seconds(page), expected)
    bar = page.get_by_role("progressbar", name="Decision clock")
    assert on_screen(page, bar) and int(bar.get_attribute("aria-valuenow")) < 100

    # And the tournament's bar: the level, the next blinds, the players left, the average, the rank, the pool
    tourney = page.get_by_role("region", name="Tournament")
    tourney.get_by_text("Your rank").wait_for()
    text = tourney.inner_text()
    for part in ("Level", "Next level in", "Next blinds", "Players left", "Average stack", "Prize pool", "$20.00"):
        assert part.lower() in text.lower(), (part, text)
    assert re.search(r"(1st|2nd) of 2", text), text
    # And the last hand's panel names its winner once; the deck commitment covers no bet
    collected = page.locator(".last-hand li", has_text="collected")
    collected.first.wait_for()
    assert collected.count() == 1, page.locator(".last-hand").inner_text()
    commitment = page.locator(".commitment").bounding_box()
    for bet in page.locator(".bet").all():
        box = bet.bounding_box()
        assert commitment is not None and box is not None
        assert box["y"] + box["height"] <= commitment["y"] or box["y"] >= commitment["y"] + commitment["height"]

    # When the waiting player chooses "Call any" before their turn, and the player to act raises to the minimum
    pre = other.get_by_role("checkbox", name="Call any")
    assert on_screen(other, pre)
    for name in ("Check/Fold", "Fold to any bet"):
        assert other.get_by_role("checkbox", name=name).count() == 1
    pre.check()
    page.get_by_role("button", name="Raise", exact=True).click()
    # Then the waiting player's page called for them: the flop is dealt, and both logs tell the hand so far
    deadline = time.monotonic() + PATIENCE
    while view_of(stack, tid, actor)["street"] == "preflop":
        assert time.monotonic() < deadline, "the pre-action did not call"
        time.sleep(0.3)
    raised = f"{actor} raises to {to_act['min_raise_to']:,}"
    for p in (page, other):
        log = p.get_by_role("list", name="Hand log")
        log.get_by_text(raised).wait_for()
        log.get_by_text(f"{waiter} calls").wait_for()
        log.get_by_text(re.compile(r"^Flop: ")).wait_for()
    # When the waiting player, first to act on the flop, checks in their own bar
    other.get_by_role("button", name="Check", exact=True).click()
    # Then the player's page shows that seat's last action of the street, and the log has it
    page.locator(f".seat[data-player='{waiter}'] .last-action", has_text="Check").wait_for()
    page.get_by_role("list", name="Hand log").get_by_text(f"{waiter} checks").wait_for()
    assert page.locator(".your-turn").count() == 1


def test_an_away_player_has_no_live_buttons_and_the_table_shows_a_termination_and_a_restart(
    stack: LocalRuntime, pages: Pages, size: str, viewport: dict[str, int]
) -> None:
    cy, dee = f"cy-{size}", f"dee-{size}"
    fund(stack, OPERATOR, cy, dee, amount=50_000)
    tid, view = seed_running(stack, OPERATOR, f"away-{size}", (cy, dee))
    actor = view["to_act"]["player"]
    # Given the first hand's fairness check: verified, and nothing in the panel but what it says
    page = pages.signed_in(actor, viewport=viewport)
    page.goto(f"{stack.urls['app']}#/t/{tid}/table/1/hand/1")
    fairness = page.get_by_role("region", name="Fairness")
    fairness.get_by_text("Verified").wait_for()
    assert "null" not in fairness.inner_text(), fairness.inner_text()
    page.goto(f"{stack.urls['app']}#/t/{tid}/table/1")
    page.locator(".your-turn").wait_for()
    # When the player to act goes away
    page.get_by_role("button", name="Away", exact=True).click()
    page.get_by_role("button", name="Back", exact=True).wait_for()
    # Then, whatever the table does next, no decision is offered to click while away: no clock at 0 s, no buttons
    for _ in range(10):
        offered = page.evaluate(
            """() => [...document.querySelectorAll('.actions button')].map((b) => b.textContent)
                     .concat(document.querySelector('.your-turn') ? ['your turn'] : [])"""
        )
        assert offered == [], offered
        time.sleep(0.3)
    to_act = view_of(stack, tid, actor).get("to_act")
    if to_act and to_act["player"] == actor:
        page.locator(".away-turn", has_text="You are away").wait_for()

    # When an operator terminates the tournament, the table says so
    operator = stack.token(OPERATOR, True)
    status, answer = call(stack, "POST", f"/admin/tournaments/{tid}/terminate", operator, {"reason": "a test"})
    assert status == 200, answer
    page.locator(".banner.terminated", has_text="terminated").wait_for()
    # And when the operator restarts it, the table says play resumes
    status, answer = call(stack, "POST", f"/admin/tournaments/{tid}/restart", operator, {"reason": "a test"})
    assert status == 200, answer
    page.locator(".banner.restarted", has_text="restarted").wait_for()
    assert page.locator(".banner.terminated").count() == 0
