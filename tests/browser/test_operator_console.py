"""The operators' console in the browser: create a tournament with the form (the API's refusal shown as it
says it), watch it start on its schedule, terminate and restart it; cancel another before its start."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import PATIENCE_MS, Pages, confirm_with_a_reason
from tests.e2e.seeding import call, create, fund, later, register

OPERATOR = "otto"


def local_input(moment: datetime) -> str:
    """A datetime-local value in the browser's zone (the test's browser runs in UTC)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S")


def status_of(stack: LocalRuntime, tid: str) -> str:
    """The tournament's status as the API says it."""
    return str(call(stack, "GET", f"/tournaments/{tid}", stack.token("x"))[1]["status"])


def test_an_operator_creates_terminates_and_restarts_a_tournament(stack: LocalRuntime, pages: Pages) -> None:
    fund(stack, OPERATOR, "cyd", "dee")
    page = pages.signed_in(OPERATOR, operator=True)
    page.get_by_role("link", name="Operator").click()
    # Given the form with a start in the past: the API's own message is shown
    page.get_by_label("Tournament name").fill("Console cup")
    page.get_by_label("Start", exact=True).fill(local_input(datetime.now(UTC) - timedelta(hours=1)))
    page.get_by_role("button", name="Create tournament").click()
    page.get_by_text("a scheduled tournament needs a start time after its announcement").wait_for()
    # And a payout that does not add to 100 is refused before it is sent
    page.get_by_label("Payout percents").fill("60, 30")
    page.get_by_role("button", name="Create tournament").click()
    page.get_by_text("Payout: the percents add up to 100.").wait_for()
    # When the operator creates it to start in a few seconds, with options
    page.get_by_label("Payout percents").fill("")
    start = datetime.now(UTC) + timedelta(seconds=12)
    page.get_by_label("Start", exact=True).fill(local_input(start))
    page.get_by_label("Tournament id").fill("console-cup")
    page.get_by_label("Fewest players").fill("2")
    page.get_by_label("Decision seconds").fill("120")
    page.get_by_role("button", name="Create tournament").click()
    page.get_by_text("(console-cup)").wait_for()
    # Then the API has it as the form said
    _, details = call(stack, "GET", "/tournaments/console-cup", stack.token("cyd"))
    assert (details["name"], details["buy_in"], details["entry_fee"], details["decision_seconds"]) == (
        "Console cup", 1_000, 100, 120,
    )  # fmt: skip
    assert register(stack, "console-cup", "cyd", "dee"), "two players register before the start"
    # When it runs, the operator terminates it from its page, then restarts it
    page.get_by_role("listitem").get_by_role("link", name="Console cup").click()
    terminate = page.get_by_role("button", name="Terminate")
    page.wait_for_function(
        "() => !document.querySelector('.panel button.danger')?.disabled", timeout=PATIENCE_MS + 30_000
    )
    # Then it asks for a confirmation and a reason first: going back, or confirming without one, changes nothing
    confirm_with_a_reason(page, terminate, "Terminate this tournament?", "Yes, terminate", "a test of the console",
                          lambda: status_of(stack, "console-cup") == "running")  # fmt: skip
    page.get_by_text("Terminated: terminated").wait_for()
    assert status_of(stack, "console-cup") == "terminated"
    page.get_by_role("button", name="Restart").click()
    page.get_by_text("Restarted: running").wait_for()
    # And every act is in the audit shown
    page.locator("table.grid td", has_text="terminate").first.wait_for()


def test_an_operator_cancels_a_tournament_before_its_start(stack: LocalRuntime, pages: Pages) -> None:
    create(stack, OPERATOR, "to-cancel", later())
    page = pages.signed_in(OPERATOR, operator=True)
    page.goto(f"{stack.urls['app']}#/operator/t/to-cancel")
    # When the operator clicks Cancel tournament, a confirmation asks for the reason (the API refuses an empty one)
    cancel = page.get_by_role("button", name="Cancel tournament")
    confirm_with_a_reason(page, cancel, "Cancel this tournament?", "Yes, cancel it", "no dealers tonight",
                          lambda: status_of(stack, "to-cancel") == "registering")  # fmt: skip
    # Then it is cancelled with that reason, in the API and its audit
    page.get_by_text("Cancelled: cancelled").wait_for()
    assert status_of(stack, "to-cancel") == "cancelled"
    _, audit = call(stack, "GET", "/admin/audit?tournament=to-cancel", stack.token(OPERATOR, True))
    assert [r["reason"] for r in audit["records"] if r["act"] == "cancel"] == ["no dealers tonight"]
