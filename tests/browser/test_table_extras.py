"""What the table and the console offer beyond playing a hand, clicked in the browser and checked through the
API: away and back, a rebuy and an add-on, chat (refused in the hand, muted and unmuted by an operator, heard by
the table once the hand is void), and the operator's player acts (stack, deposit, balance adjustment, the player
audit, disqualification). The other seats are driven over HTTP; nobody waits for a clock but the start.
"""

from __future__ import annotations

from typing import Any

import pytest

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import Pages
from tests.e2e.seeding import call, fund, seed_running, terminate_voiding_the_hand

OPERATOR, ANN, BOB, CY, DEE = "oona", "arlo", "bea", "cyra", "dov"
STARTING = 100_000
COST = 1_000 + 100  # buy-in + fee of seeding.create: a rebuy and an add-on cost the same


@pytest.fixture(scope="module")
def rebuy_table(stack: LocalRuntime) -> tuple[str, dict[str, Any]]:
    """A rebuy tournament (rebuys over levels 1 to 6, then an add-on) of ANN and BOB, its second hand awaiting a
    decision of 300 seconds; its id and ANN's view."""
    fund(stack, OPERATOR, ANN, BOB, amount=50_000)
    return seed_running(stack, OPERATOR, "extras", (ANN, BOB), format="rebuy", rebuy_levels=[1, 6], add_on_chips=5_000)


def seat_of(stack: LocalRuntime, tid: str, player: str) -> dict[str, Any]:
    status, view = call(stack, "GET", f"/tournaments/{tid}/tables/1", stack.token(player))
    assert status == 200, view
    return dict(next(s for s in view["seats"] if s["player"] == player))


def balance(stack: LocalRuntime, player: str) -> int:
    status, account = call(stack, "GET", "/me/account", stack.token(player))
    assert status == 200, account
    return int(account["balance"])


def ledger_kinds(stack: LocalRuntime, player: str, tid: str) -> list[str]:
    _, ledger = call(stack, "GET", "/me/ledger", stack.token(player))
    return [e["kind"] for e in ledger["entries"] if e["tournament_id"] == tid]


def test_away_and_back_a_rebuy_and_an_add_on_out_of_its_level(
    stack: LocalRuntime, pages: Pages, rebuy_table: tuple[str, dict[str, Any]]
) -> None:
    tid, view = rebuy_table
    # Given the player who lost the first hand's blind: below the starting stack, so a rebuy is allowed
    short = next(s["player"] for s in view["seats"] if s["stack"] + s["bet"] < STARTING)
    page = pages.at_table(short, tid)
    # When they click Away, then the API has them away and the page offers Back
    page.get_by_role("button", name="Away", exact=True).click()
    page.get_by_role("button", name="Back", exact=True).wait_for()
    assert seat_of(stack, tid, short)["away"] is True
    # And when they click Back, they are back
    page.get_by_role("button", name="Back", exact=True).click()
    page.get_by_role("button", name="Away", exact=True).wait_for()
    assert seat_of(stack, tid, short)["away"] is False
    # When they click Rebuy during the hand, the starting stack is bought, to be added when the hand ends
    before = balance(stack, short)
    page.get_by_role("button", name="Rebuy", exact=True).click()
    page.get_by_text(f"Rebuy: {STARTING:,} chips for $11.00, added when this hand ends").wait_for()
    assert balance(stack, short) == before - COST
    assert ledger_kinds(stack, short, tid).count("rebuy") == 1
    # And the add-on, offered in the level after the last rebuy level only, is refused now with the API's words
    page.get_by_role("button", name="Add-on", exact=True).click()
    refusal = page.locator(".play .notice.error")
    refusal.wait_for()
    assert "add-on" in refusal.inner_text().lower(), refusal.inner_text()
    assert balance(stack, short) == before - COST and "add_on" not in ledger_kinds(stack, short, tid)


def test_chat_is_refused_in_the_hand_muted_and_unmuted_by_an_operator_and_heard_once_the_hand_is_void(
    stack: LocalRuntime, pages: Pages, rebuy_table: tuple[str, dict[str, Any]]
) -> None:
    tid, _ = rebuy_table
    ann, bob = pages.at_table(ANN, tid), pages.at_table(BOB, tid)
    chat_status = ann.locator(".chat-status")

    def say(text: str, expected: str) -> None:
        ann.get_by_label("Chat message").fill(text)
        ann.get_by_role("button", name="Send").click()
        ann.locator(".chat-status", has_text=expected).wait_for()
        # a refused line stays in the input, to be sent again later
        assert ann.get_by_label("Chat message").input_value() == text

    # Given both players dealt in the hand: a line is refused, the refusal shown to its sender
    say("hello table", "players in the hand in progress cannot chat until it ends")
    # When an operator mutes the player from the console, the line is refused for the mute
    console = pages.signed_in(OPERATOR, operator=True)
    console.goto(f"{stack.urls['app']}#/operator")
    console.get_by_label("Player", exact=True).fill(ANN)
    console.get_by_label("Reason", exact=True).fill("a test of the mute")
    console.get_by_role("button", name="Mute", exact=True).click()
    console.get_by_text("Muted", exact=True).wait_for()
    say("hello again", "you are muted in chat")
    # And once unmuted, the refusal is the hand's again
    console.get_by_role("button", name="Unmute", exact=True).click()
    console.get_by_text("Unmuted", exact=True).wait_for()
    say("one more time", "players in the hand in progress cannot chat until it ends")
    # When the hand is void (the tournament terminated), the line reaches the table: both pages show it
    terminate_voiding_the_hand(stack, OPERATOR, tid, "chat test", BOB)
    ann.get_by_label("Chat message").fill("good game all")
    ann.get_by_role("button", name="Send").click()
    for page in (ann, bob):
        page.locator(".chat-log li", has_text="good game all").wait_for()
    assert ann.get_by_label("Chat message").input_value() == ""  # heard by the table: the input is emptied
    assert not chat_status.inner_text().strip(), chat_status.inner_text()
    # And the operator's log of the table has every line, each refused one with its reason
    _, log = call(stack, "GET", f"/admin/tournaments/{tid}/tables/1/chat", stack.token(OPERATOR, True))
    lines = [(line["text"], line["accepted"], line["reason"] or "") for line in log["lines"] if line["player"] == ANN]
    assert lines == [
        ("hello table", False, "in_hand"),
        ("hello again", False, "muted"),
        ("one more time", False, "in_hand"),
        ("good game all", True, ""),
    ]
    _, audit = call(stack, "GET", f"/admin/audit?player={ANN}", stack.token(OPERATOR, True))
    assert [r["act"] for r in audit["records"] if r["act"] in ("mute", "unmute")] == ["mute", "unmute"]


def test_an_operator_adjusts_a_stack_and_a_balance_deposits_reads_the_audit_and_disqualifies(
    stack: LocalRuntime, pages: Pages
) -> None:
    fund(stack, OPERATOR, CY, DEE, amount=50_000)
    tid, _ = seed_running(stack, OPERATOR, "console-acts", (CY, DEE))
    operator = stack.token(OPERATOR, True)
    console = pages.signed_in(OPERATOR, operator=True)
    # When the operator adds 500 chips to a player's stack from the tournament's page
    console.goto(f"{stack.urls['app']}#/operator/t/{tid}")
    pick = console.get_by_label("Player", exact=True)
    console.locator(f"select option[value='{CY}']").wait_for(state="attached")
    pick.select_option(CY)
    console.get_by_label("Chips", exact=True).fill("500")
    console.get_by_label("Reason for the player act").fill("a dealer's mistake")
    console.get_by_role("button", name="Adjust stack").click()
    console.get_by_text("Stack adjusted (between hands)").wait_for()
    # Then the audit has it, in the API and on the page
    _, audit = call(stack, "GET", f"/admin/audit?tournament={tid}", operator)
    (adjusted,) = [r for r in audit["records"] if r["act"] == "stack_adjustment"]
    assert (adjusted["player"], adjusted["reason"], adjusted["operator"]) == (CY, "a dealer's mistake", OPERATOR)
    console.locator("table.grid td", has_text="stack adjustment").wait_for()  # the act in words

    # When the operator deposits 5.00 and takes 1.50 back from the console's player tools
    console.goto(f"{stack.urls['app']}#/operator")
    before = balance(stack, CY)
    console.get_by_label("Player", exact=True).fill(CY)
    console.get_by_label("Amount in dollars").fill("5.00")
    console.get_by_role("button", name="Deposit").click()
    console.get_by_text(f"Deposited $5.00: {CY} now has ${(before + 500) / 100:,.2f}.").wait_for()
    console.get_by_label("Amount in dollars").fill("-1.50")
    console.get_by_label("Reason", exact=True).fill("a goodwill correction")
    console.get_by_role("button", name="Adjust balance").click()
    console.get_by_text("Balance adjusted.").wait_for()
    # Then the account moved by both, and the player's audit lists both acts
    assert balance(stack, CY) == before + 500 - 150
    console.get_by_role("button", name="Player audit").click()
    for act in ("deposit", "balance adjustment"):
        console.locator("table.grid td", has_text=act).first.wait_for()

    # When the operator disqualifies the other player from the tournament's page
    console.goto(f"{stack.urls['app']}#/operator/t/{tid}")
    console.locator(f"select option[value='{DEE}']").wait_for(state="attached")
    console.get_by_label("Player", exact=True).select_option(DEE)
    console.get_by_role("button", name="Disqualify").click()
    # Then a confirmation asks for the reason first; with it given, the player is disqualified
    dialog = console.get_by_role("dialog", name=f"Disqualify {DEE}?")
    dialog.get_by_role("button", name="Yes, disqualify").click()
    dialog.get_by_text("Give a reason: it is kept in the audit.").wait_for()
    dialog.get_by_label("Reason").fill("collusion")
    dialog.get_by_role("button", name="Yes, disqualify").click()
    console.get_by_text("Disqualified", exact=True).wait_for()
    # Then the API has them out of the tournament, and the audit has the act
    _, audit = call(stack, "GET", f"/admin/audit?tournament={tid}", operator)
    assert [(r["player"], r["reason"]) for r in audit["records"] if r["act"] == "disqualify"] == [(DEE, "collusion")]
    _, standings = call(stack, "GET", f"/tournaments/{tid}/standings", stack.token(CY))
    assert DEE not in [p["player"] for p in standings["players"]]
