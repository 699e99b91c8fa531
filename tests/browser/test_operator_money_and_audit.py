"""The console's money and audit, at a phone's and a desktop's size (docs/rules.md, rule 19): deposits only to
accounts that exist, amounts refused for the API's own reason said in dollars, and the audit's latest acts with
their amounts and what they changed, before and after."""

from __future__ import annotations

from typing import Any

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import Pages
from tests.e2e.seeding import call

OPERATOR = "otto"


def open_console(pages: Pages, viewport: dict[str, int]) -> Any:
    page = pages.signed_in(OPERATOR, operator=True, viewport=viewport)
    page.get_by_role("link", name="Operator").click()
    page.get_by_role("heading", name="Players").wait_for()
    return page


def money_act(page: Any, player: str, amount: str, button: str, reason: str = "") -> None:
    tools = page.get_by_role("region", name="Players")
    tools.get_by_label("Player", exact=True).fill(player)
    tools.get_by_label("Amount in dollars").fill(amount)
    tools.get_by_label("Reason", exact=True).fill(reason)
    tools.get_by_role("button", name=button).click()


def said(page: Any, text: str) -> None:
    page.get_by_role("region", name="Players").get_by_role("status").filter(has_text=text).wait_for()


def test_rule_19_the_console_lists_the_latest_acts_with_amounts_and_before_and_after(
    stack: LocalRuntime, pages: Pages, viewport: dict[str, int]
) -> None:
    # Given a player who has signed in (their account is open, empty)
    player = f"ava-{viewport['width']}"
    assert call(stack, "GET", "/me/account", stack.token(player))[0] == 200
    page = open_console(pages, viewport)
    # When the operator deposits $25.50, then takes $5.00 back with a reason
    money_act(page, player, "25.50", "Deposit")
    said(page, f"Deposited $25.50: {player} now has $25.50.")
    money_act(page, player, "-5", "Adjust balance", "a duplicate deposit")
    said(page, "Balance adjusted.")
    # Then the latest acts, with no filter, show each act's amount and the balance before and after, newest first
    latest = page.get_by_role("region", name="Latest acts")
    rows = latest.get_by_role("row").filter(has_text=player)
    rows.filter(has_text="balance adjustment").filter(has_text="−$5.00").filter(
        has_text="balance: $25.50 → $20.50"
    ).filter(has_text="a duplicate deposit").wait_for()
    deposit = rows.filter(has_text="deposit").filter(has_text="+$25.50").filter(has_text="balance: $0.00 → $25.50")
    deposit.wait_for()
    assert "balance adjustment" in rows.first.inner_text(), "the newest act comes first"
    # And neither the ledger entry's key (an internal id) nor the amount again is shown among the changes
    assert "entry" not in deposit.inner_text() and "amount" not in deposit.inner_text()
    latest.get_by_role("columnheader", name="Before → after").wait_for()


def test_rule_19_deposits_go_only_to_accounts_that_exist_and_amounts_are_refused_in_dollars(
    stack: LocalRuntime, pages: Pages, viewport: dict[str, int]
) -> None:
    size = viewport["width"]
    stranger = f"nobody-{size}"
    player = f"bea-{size}"
    assert call(stack, "GET", "/me/account", stack.token(player))[0] == 200
    page = open_console(pages, viewport)
    # Given a player who never signed in: the API's 404 is shown as it says it, and nothing is audited
    money_act(page, stranger, "10.00", "Deposit")
    said(page, f"Deposit refused: {stranger} has no account: a player's account opens when they first sign in.")
    _, audit = call(stack, "GET", f"/admin/audit?player={stranger}", stack.token(OPERATOR, True))
    assert audit["records"] == []
    # When the amount breaks the API's bounds, its 422 is said in dollars
    money_act(page, player, "0", "Deposit")
    said(page, "Deposit refused: the amount must be more than $0.00.")
    money_act(page, player, "20000000", "Deposit")
    said(page, "Deposit refused: the amount must be at most $10,000,000.00.")
    money_act(page, player, "0.00", "Adjust balance", "a test")
    said(page, "Adjustment refused: the amount must be something other than $0.00 (zero changes nothing).")
    money_act(page, player, "-1.00", "Adjust balance", "a test")
    said(page, "Adjustment refused: the balance cannot go below $0.00.")
    # And what is not dollars and cents is not sent
    money_act(page, player, "12.345", "Deposit")
    said(page, "Deposit: give an amount in dollars and cents, like 25.00 (−25.00 takes money back).")
    # Then nothing moved
    assert call(stack, "GET", "/me/account", stack.token(player))[1]["balance"] == 0
