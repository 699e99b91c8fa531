"""Rule 19 and docs/openapi.json at the operators' money routes: ``POST /admin/accounts/{player}/deposits`` and
``/adjustments`` take a player id as tokens name players, and an amount of integer cents; anything else is a 422
whose message says why (``{error: invalid_request, message}``), and no money moves."""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

from typing import Any

import pytest
from tourney.bootstrap import Services

from functions.admin.app import handler as admin
from functions.api.app import handler as api
from tests.support.events import FakeContext, answer_json, http_event
from tests.support.functions import clock, context, fund, memory  # noqa: F401

NOT_PLAYER_IDS = {
    "combining marks": "Ṱ̺̺",
    "a control character": "\x1cZ",
    "a space": "a b",
    "a leading dot": ".ann",
    "too long": "a" * 65,
}


def credit(route: str, amount: int = 100) -> dict[str, Any]:
    """A valid body of the route: a deposit names an amount, an adjustment a reason too."""
    return {"amount": amount} if route == "deposits" else {"amount": amount, "reason": "goodwill"}


def call(context: FakeContext, path: str, body: Any) -> tuple[int, Any]:
    response = admin(http_event("POST", path, body=body, player="olga", operator=True), context)
    return response["statusCode"], answer_json(response)


@pytest.mark.parametrize("route", ["deposits", "adjustments"])
@pytest.mark.parametrize("name", NOT_PLAYER_IDS.values(), ids=NOT_PLAYER_IDS.keys())
def test_rule_19_money_goes_only_to_a_player_id(memory: Services, context: FakeContext, route: str, name: str) -> None:
    # When an operator credits a "player" whose id no token could carry
    status, body = call(context, f"/admin/accounts/{name}/{route}", credit(route))
    # Then it is a 422 naming the player, and no account was credited
    assert (status, body["error"]) == (422, "invalid_request"), body
    assert "player" in body["message"]
    assert memory.accounts.account(name).balance == 0


@pytest.mark.parametrize(
    ("amount", "why"),
    [
        (0, "greater than 0"),
        (-5, "greater than 0"),
        (1.5, "valid integer"),
        ("100", "valid integer"),
        (None, "valid integer"),
        (10**10, "less than or equal to 1000000000"),
    ],
)
def test_rule_19_a_deposit_that_is_not_a_positive_integer_of_cents_says_why(
    memory: Services, context: FakeContext, amount: object, why: str
) -> None:
    # Given a player with money
    fund(memory, "ann")
    # When an operator deposits an amount that is not a positive integer of cents
    status, body = call(context, "/admin/accounts/ann/deposits", {"amount": amount})
    # Then the 422 says what is wrong with the amount, and the balance has not moved
    assert (status, body["error"]) == (422, "invalid_request"), body
    assert "body.amount" in body["message"] and why in body["message"], body["message"]
    assert memory.accounts.account("ann").balance == 10_000


@pytest.mark.parametrize(
    ("amount", "why"), [(0, "zero changes nothing"), (1.5, "valid integer"), ("-1", "valid integer")]
)
def test_rule_19_an_adjustment_that_is_not_integer_cents_says_why(
    memory: Services, context: FakeContext, amount: object, why: str
) -> None:
    fund(memory, "ann")
    status, body = call(context, "/admin/accounts/ann/adjustments", {"amount": amount, "reason": "goodwill"})
    assert (status, body["error"]) == (422, "invalid_request"), body
    assert "body.amount" in body["message"] and why in body["message"], body["message"]
    assert memory.accounts.account("ann").balance == 10_000


@pytest.mark.parametrize("route", ["deposits", "adjustments"])
def test_rule_19_money_goes_only_to_an_account_that_exists(memory: Services, context: FakeContext, route: str) -> None:
    # When an operator credits a player who never signed in and holds no money
    status, body = call(context, f"/admin/accounts/zed/{route}", credit(route))
    # Then it is a 404 (no such account), nothing is credited and nothing is audited
    assert (status, body["error"]) == (404, "not_found"), body
    assert "sign" in body["message"]
    assert memory.accounts.account("zed").balance == 0
    assert memory.audit.listing(player="zed").records == ()


@pytest.mark.parametrize("route", ["deposits", "adjustments"])
def test_rule_19_a_players_first_sign_in_opens_the_account_operators_credit(
    memory: Services, context: FakeContext, route: str
) -> None:
    # Given a new player who signed in once (their client read their account)
    response = api(http_event("GET", "/me/account", player="zed"), context)
    assert (response["statusCode"], answer_json(response)["balance"]) == (200, 0)
    # When an operator credits them
    status, body = call(context, f"/admin/accounts/zed/{route}", credit(route))
    # Then the money is there
    assert status == 201, body
    assert memory.accounts.account("zed").balance == 100
