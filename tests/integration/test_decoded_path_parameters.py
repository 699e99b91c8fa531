"""A path parameter may hold any character but ``/``: the HTTP API delivers the path percent-decoded.

API Gateway's HTTP API decodes ``rawPath`` before the function sees it, so
``/admin/accounts/%E1%B9%B0%CC%BA/deposits`` arrives as
``/admin/accounts/Ṱ̺/deposits``. Such a parameter reaches the route and its
validation (a 422 naming the bad field: a player id is letters, digits, ``_``,
``.`` and ``-``) or its service (the route's own 404 for an id that names
nothing), never the 404 "no such route" of a path no route matches.
"""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

from typing import Any

import pytest
from tourney.bootstrap import Services

from functions.admin.app import handler as admin
from functions.api.app import handler as api
from tests.support.events import FakeContext, answer_json, http_event
from tests.support.functions import clock, context, memory  # noqa: F401

ODD_NAMES = {
    "combining marks": "Ṱ̺̺",
    "a control character": "\x1cZ",
    "a space and an accent": "a b\u0301",
    "a tab": "x\ty",
}


def call(function: Any, context: FakeContext, method: str, path: str, **kw: Any) -> tuple[int, Any]:
    response = function(http_event(method, path, **kw), context)
    return response["statusCode"], answer_json(response)


@pytest.mark.parametrize("name", ODD_NAMES.values(), ids=ODD_NAMES.keys())
def test_a_decoded_player_name_reaches_the_route(memory: Services, context: FakeContext, name: str) -> None:
    # When an operator credits, and mutes, a player named with characters Powertools' own pattern misses
    deposit = call(admin, context, "POST", f"/admin/accounts/{name}/deposits", body={"amount": 100},
                   player="olga", operator=True)  # fmt: skip
    mute = call(admin, context, "POST", f"/admin/players/{name}/mute", body={"reason": "abuse"},
                player="olga", operator=True)  # fmt: skip
    # Then each route's own validation answered, for that very name: not a player id (422), never a 404 "no such
    # route"; and nothing was credited
    for status, body in (deposit, mute):
        assert (status, body["error"]) == (422, "invalid_request") and "path.player" in body["message"], body
    assert memory.accounts.account(name).balance == 0


@pytest.mark.parametrize("name", ODD_NAMES.values(), ids=ODD_NAMES.keys())
def test_a_decoded_tournament_id_that_names_nothing_is_the_routes_own_404(
    memory: Services, context: FakeContext, name: str
) -> None:
    # When a player asks for a tournament by an id that names none
    status, body = call(api, context, "GET", f"/tournaments/{name}")
    # Then the route answers (a 404 for the tournament, or a 422 for the id), not "no such route"
    assert status in (404, 422) and body["message"] != "no such route", body
