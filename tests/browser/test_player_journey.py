"""A player's evening in the browser: sign in, register (the balance falls by buy-in +
fee), unregister, register again, the tournament starts on its schedule, play at the table by clicking (fold,
check, call, bet or raise with an amount), only one's own hole cards, an observer who sees none before the
showdown, and the winner and the prize at the end. The other seat is a bot playing over HTTP: it checks or
calls, never raises, so each of the player's decisions comes round.
"""

from __future__ import annotations

import re
import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import Pages
from tests.e2e.seeding import PATIENCE, call, create, fund, register

OPERATOR, PLAYER, BOT, WATCHER = "olga", "ann", "bob", "wanda"
BUY_IN, FEE = 1_000, 100


class CallingBot(threading.Thread):
    """Plays ``player``'s seat at table 1 over HTTP: check when it may, else call; stops with the tournament."""

    def __init__(self, stack: LocalRuntime, tid: str, player: str) -> None:
        super().__init__(daemon=True, name=f"bot-{player}")
        self.stack, self.tid, self.player = stack, tid, player
        self.stopping = threading.Event()

    def run(self) -> None:
        token = self.stack.token(self.player)
        while not self.stopping.is_set():
            status, view = call(self.stack, "GET", f"/tournaments/{self.tid}/tables/1", token)
            to_act = view.get("to_act") if status == 200 else None
            if to_act and to_act["player"] == self.player:
                action = "check" if to_act["can_check"] else "call"
                body = {"hand": view["hand"], "seq": to_act["seq"], "action": action}
                call(self.stack, "POST", f"/tournaments/{self.tid}/tables/1/actions", token, body)
            self.stopping.wait(0.3)


def balance_shown(page: Any) -> int:
    link = page.locator("#balance[data-balance]")
    link.wait_for()
    return int(link.get_attribute("data-balance"))


def wait_balance(page: Any, expected: int) -> None:
    page.wait_for_function(
        "expected => document.querySelector('#balance')?.dataset.balance === String(expected)", arg=expected
    )


def test_a_player_registers_plays_by_clicking_and_sees_the_winner_and_the_prize(
    stack: LocalRuntime, pages: Pages
) -> None:
    # Given funded players and a freezeout starting shortly (the window doubles if the machine was too slow)
    fund(stack, OPERATOR, PLAYER, BOT, amount=50_000)
    page = pages.signed_in(PLAYER)
    window = 15
    for attempt in range(3):
        tid = f"evening-{attempt}"
        start = (datetime.now(UTC) + timedelta(seconds=window)).replace(microsecond=0)
        create(stack, OPERATOR, tid, start, decision_seconds=120, starting_stack=3_000)
        # When the player registers, unregisters and registers again in the browser
        page.goto(f"{stack.urls['app']}#/t/{tid}")
        before = balance_shown(page)
        page.get_by_role("button", name="Register").click()
        page.get_by_role("button", name="Unregister").wait_for()
        # Then the balance shown fell by the buy-in and the fee
        wait_balance(page, before - BUY_IN - FEE)
        page.get_by_role("button", name="Unregister").click()
        page.get_by_role("button", name="Register").wait_for()
        wait_balance(page, before)
        page.get_by_role("button", name="Register").click()
        page.get_by_role("button", name="Unregister").wait_for()
        if register(stack, tid, BOT) and datetime.now(UTC) < start:
            break
        window *= 2
    else:
        raise AssertionError("the player and the bot could not register before the start, three times")
    wait_balance(page, before - BUY_IN - FEE)

    # And the tournament starts on its schedule: the page offers the table
    page.get_by_role("link", name="Open table").click(timeout=(window + PATIENCE) * 1000)
    assert datetime.now(UTC) >= start
    bot = CallingBot(stack, tid, BOT)
    bot.start()
    try:
        play_to_the_end(stack, pages, page, tid)
    finally:
        bot.stopping.set()
        bot.join(timeout=10)

    # And the tournament's page names the winner and the prize the API reports
    _, standings = call(stack, "GET", f"/tournaments/{tid}/standings", stack.token(PLAYER))
    winner = next(p for p in standings["places"] if p["place"] == 1)
    assert winner["prize"] == 2 * BUY_IN
    page.goto(f"{stack.urls['app']}#/t/{tid}")
    first = page.locator(".places li.winner")
    first.wait_for()
    assert winner["player"] in first.inner_text() and "$20.00" in first.inner_text()
    # And the places are numbered, and no level clock runs on after the finish
    assert first.inner_text().startswith("1st"), first.inner_text()
    assert page.locator(".places li").nth(1).inner_text().startswith("2nd")
    assert page.get_by_text("Next level").count() == 0
    if winner["player"] == PLAYER:
        wait_balance(page, before - BUY_IN - FEE + winner["prize"])


def play_to_the_end(stack: LocalRuntime, pages: Pages, page: Any, tid: str) -> None:
    """Act at every decision of the player by clicking, each kind once, then all in until someone has won."""
    done: list[str] = []
    watched = False
    deadline = time.monotonic() + 6 * PATIENCE
    while time.monotonic() < deadline:
        banner = page.locator(".winner-banner")
        turn = page.locator(".your-turn")
        page.wait_for_function(
            "() => document.querySelector('.your-turn') || document.querySelector('.winner-banner')",
            timeout=2 * PATIENCE * 1000,
        )
        if banner.count():
            break
        assert turn.count()
        # Only the player's own hole cards: two faces at their seat, none at the other
        mine = page.locator(f".seat[data-player='{PLAYER}'] [data-card]")
        theirs = page.locator(f".seat[data-player='{BOT}'] [data-card]")
        assert mine.count() == 2 and page.locator(".my-hand [data-card]").count() == 2
        assert theirs.count() == 0
        if not watched:
            observer_sees_no_hole_card(pages, tid)
            watched = True
        done.append(act_once(page, done))
    else:
        raise AssertionError(f"the tournament did not end; the player did {done}")
    assert {"fold", "check", "call"} <= set(done) and {"bet", "raise"} & set(done), done
    # Then the table names the winner and the prize; the loser is told their place
    text = page.locator(".winner-banner").inner_text()
    assert re.search(rf"({PLAYER}|{BOT}) won the tournament and \$20\.00\.", text), text
    # And the table's tournament bar stops the level clock at the finish
    page.wait_for_function("() => !document.querySelector('#level-clock')")


def act_once(page: Any, done: list[str]) -> str:
    """Click one decision: the first of raise/bet (with an amount), call, check, fold not yet done; else check or
    call; all in once every kind was clicked."""
    buttons = {
        name: page.get_by_role("button", name=name, exact=True)
        for name in ("Fold", "Check", "Call", "Bet", "Raise", "All in")
    }
    available = {name.lower() for name, button in buttons.items() if button.count()}
    for kind in ("raise", "bet", "call", "check", "fold"):
        wager_done = kind in ("raise", "bet") and {"raise", "bet"} & set(done)
        if kind in available and kind not in done and not wager_done:
            if kind in ("raise", "bet"):
                amount = page.get_by_role("spinbutton", name="Amount")
                low = int(amount.get_attribute("min"))
                high = int(amount.get_attribute("max"))
                amount.fill(str(min(high, low + 100)))
            decided = page.locator(".your-turn").get_attribute("data-decision")
            buttons[kind.capitalize()].click()
            accepted(page, kind, decided)
            return kind
    kinds = {"raise", "bet", "call", "check", "fold"}
    if ({"call", "check", "fold"} <= set(done) and {"raise", "bet"} & set(done)) or not available & kinds:
        decided = page.locator(".your-turn").get_attribute("data-decision")
        buttons["All in"].click()  # every kind clicked: all in until someone has won
        accepted(page, "all in", decided)
        return "all in"
    neutral = "check" if "check" in available else "call"  # keep the hand going until a new kind comes round
    decided = page.locator(".your-turn").get_attribute("data-decision")
    buttons[neutral.capitalize()].click()
    accepted(page, neutral, decided)
    return neutral


def accepted(page: Any, kind: str, decision: str | None) -> None:
    """The decision left the page (the server took it); a refusal shown instead fails with its message."""
    page.wait_for_function(
        """decision => document.querySelector('.your-turn')?.dataset.decision !== decision
                       || document.querySelector('.play .notice.error')""",
        arg=decision,
    )
    refused = page.locator(".play .notice.error")
    assert not refused.count(), f"{kind} refused: {refused.inner_text()}"


def observer_sees_no_hole_card(pages: Pages, tid: str) -> None:
    """Someone else watching the table during the hand sees both seats and no hole card."""
    watcher = pages.signed_in(WATCHER)
    watcher.goto(f"{pages.stack.urls['app']}#/t/{tid}/table/1")
    watcher.locator(f".seat[data-player='{PLAYER}']").wait_for()
    watcher.locator(f".seat[data-player='{BOT}']").wait_for()
    assert watcher.get_by_text("You are watching this table.").count() == 1
    assert watcher.locator(".seat [data-card]").count() == 0
    assert watcher.locator(".seat .card.back").count() == 4  # two hands held, face down
    watcher.context.close()
    pages.contexts.remove(watcher.context)
