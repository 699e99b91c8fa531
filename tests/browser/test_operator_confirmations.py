"""The console's confirmations at a phone's and a desktop's size (docs/interfaces.md, the web client): Disqualify,
Terminate and Cancel tournament each open a dialog, found by role, that asks for a reason; going back changes
nothing, an empty reason is refused in the dialog, and the act is done once it is confirmed with one."""

from __future__ import annotations

import time

from infra.local.runtime import LocalRuntime
from tests.browser.conftest import Pages, confirm_with_a_reason
from tests.e2e.seeding import PATIENCE, call, create, fund, later, seed_running

OPERATOR = "oona"


def test_rule_19_disqualify_terminate_and_cancel_are_confirmed_with_a_reason(
    stack: LocalRuntime, pages: Pages, viewport: dict[str, int]
) -> None:
    size = viewport["width"]
    kim, lee = f"kim-{size}", f"lee-{size}"
    fund(stack, OPERATOR, kim, lee, amount=50_000)
    tid, _ = seed_running(stack, OPERATOR, f"confirm-{size}", (kim, lee))
    operator = stack.token(OPERATOR, True)

    def status_of(t: str) -> str:
        return str(call(stack, "GET", f"/tournaments/{t}", operator)[1]["status"])

    def seated() -> list[str]:
        return [p["player"] for p in call(stack, "GET", f"/tournaments/{tid}/standings", operator)[1]["players"]]

    first = tid
    page = pages.signed_in(OPERATOR, operator=True, viewport=viewport)
    page.goto(f"{stack.urls['app']}#/operator/t/{tid}")
    # A disqualification
    page.locator(f"select option[value='{lee}']").wait_for(state="attached")
    page.get_by_role("combobox", name="Player").select_option(lee)
    disqualify = page.get_by_role("button", name="Disqualify")
    confirm_with_a_reason(
        page, disqualify, f"Disqualify {lee}?", "Yes, disqualify", "chip dumping", lambda: lee in seated()
    )
    page.get_by_text("Disqualified", exact=True).wait_for()
    deadline = time.monotonic() + PATIENCE
    while lee in seated():  # out of play once the coordinator settles the hand the disqualification folded
        assert time.monotonic() < deadline, "the disqualified player is still in play"
        time.sleep(0.3)
    # A termination (of another heads-up: the disqualification left this one a winner)
    tid, _ = seed_running(stack, OPERATOR, f"confirm-again-{size}", (kim, lee))
    page.goto(f"{stack.urls['app']}#/operator/t/{tid}")
    terminate = page.get_by_role("button", name="Terminate")
    page.wait_for_function("() => !document.querySelector('.panel button.danger')?.disabled")
    confirm_with_a_reason(page, terminate, "Terminate this tournament?", "Yes, terminate", "a dealer outage",
            lambda: status_of(tid) == "running")  # fmt: skip
    page.get_by_text("Terminated: terminated").wait_for()
    assert status_of(tid) == "terminated"
    # A cancellation, before another tournament's start
    other = f"to-cancel-{size}"
    create(stack, OPERATOR, other, later())
    page.goto(f"{stack.urls['app']}#/operator/t/{other}")
    cancel = page.get_by_role("button", name="Cancel tournament")
    confirm_with_a_reason(page, cancel, "Cancel this tournament?", "Yes, cancel it", "no dealers tonight",
            lambda: status_of(other) == "registering")  # fmt: skip
    page.get_by_text("Cancelled: cancelled").wait_for()
    # And each reason is in the audit
    for t, act, reason in ((first, "disqualify", "chip dumping"), (tid, "terminate", "a dealer outage"),
                           (other, "cancel", "no dealers tonight")):  # fmt: skip
        records = call(stack, "GET", f"/admin/audit?tournament={t}", operator)[1]["records"]
        assert reason in [r["reason"] for r in records if r["act"] == act], (act, records)
