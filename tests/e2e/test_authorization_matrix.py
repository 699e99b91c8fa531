"""Who may do what: every HTTP route and WebSocket message, as an anonymous caller, another player and an
operator, against the local stack.

The table ``MATRIX`` has one row per route of ``infra.wiring.HTTP_ROUTES``
and per WebSocket route of ``infra.wiring.WEBSOCKET_ROUTES``, with the status
each kind of caller gets; :func:`test_every_route_and_message_has_a_row`
fails when a route is wired without a row. The resources belong to ``OWNER``
(registered, and seated at table 1 of a running tournament, the hand waiting
for a decision); "another player" is ``OTHER``, funded but registered
nowhere; the operator is in the operators group. The anonymous caller has no
token: the HTTP API's JWT authorizer answers 401 before any function runs,
and the WebSocket API refuses the connection (so no message of theirs is
ever sent: their cell is the 401 of ``$connect``).

A WebSocket answer is a frame: ``{"type": "error", "error": code}`` counts as
the HTTP status of that code (``tourney.entrypoints.errors.STATUS_BY_ERROR``),
any other frame as 200. Every refusal (4xx) is also checked to have changed
nothing the owner has: the table's hand and decision, the owner's balance and
registrations. A cell may list several statuses where the outcome depends on
state the test does not fix (the operators' routes still being built).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from tourney.domain import chat as _chat_refusals  # noqa: F401  (their codes: in_hand, observer, ...)
from tourney.domain.errors import TourneyError
from tourney.entrypoints.errors import EdgeError, status_of

from infra import wiring
from infra.local.runtime import LocalRuntime
from tests.e2e.seeding import PATIENCE, call, create, fund, later, local_stack, register, seed_running
from tests.infra import conftest as infra_conftest

REPO_ROOT = Path(__file__).resolve().parents[2]

shared_synth = infra_conftest.synthesized

OWNER, SEATMATE, OTHER, OPERATOR = "az-ann", "az-cat", "az-bob", "az-olga"
CALLERS = ("anonymous", "other", "operator")

Expected = int | tuple[int, ...]


@dataclass(frozen=True)
class Row:
    """One route or message: what is sent (placeholders filled from the seeds) and the status of each caller."""

    path: str  # HTTP: the path; WebSocket: unused
    anonymous: Expected
    other: Expected
    operator: Expected
    body: Any = None
    message: dict[str, Any] = field(default_factory=dict)  # WebSocket: the client message


def http(path: str, anonymous: Expected, other: Expected, operator: Expected, body: Any = None) -> Row:
    return Row(path, anonymous, other, operator, body=body)


def ws(message: dict[str, Any], other: Expected, operator: Expected) -> Row:
    return Row("", 401, other, operator, message=message)


DECISION = {"hand": "{hand}", "seq": "{seq}", "action": "fold"}
WS_DECISION = {"hand": "{hand}", "seq": "{seq}", "kind": "fold"}
REASON = {"reason": "authorization matrix"}
NEW_TOURNAMENT = {"name": "matrix", "format": "freezeout", "buy_in": 100, "entry_fee": 10, "start_at": "{later}"}
OPERATOR_ACT = (200, 201, 204, 404, 409)
"""An operator's route still being built: allowed (not 401 or 403), whatever the state makes of it."""

MATRIX: dict[str, Row] = {
    # -- players: anyone with a token reads the lobby; each acts only as themselves ----------------------------------
    "GET /tournaments": http("/tournaments", 401, 200, 200),
    "GET /tournaments/{id}": http("/tournaments/{run}", 401, 200, 200),
    # each caller reads their own registration: the owner's is never shown to another ("not_registered")
    "GET /tournaments/{id}/registrations/me": http("/tournaments/{open}/registrations/me", 401, 200, 200),
    "GET /tournaments/{id}/standings": http("/tournaments/{run}/standings", 401, 200, 200),
    # another player registers themselves (funded: 201); the operator has no money of their own (422)
    "POST /tournaments/{id}/registrations": http("/tournaments/{open2}/registrations", 401, 201, 422, body={}),
    # nobody unregisters the owner: each caller's own registration is looked up, and there is none
    "DELETE /tournaments/{id}/registrations/me": http("/tournaments/{open}/registrations/me", 401, 404, 404),
    "GET /me/account": http("/me/account", 401, 200, 200),
    "GET /me/ledger": http("/me/ledger", 401, 200, 200),
    "GET /me/profile": http("/me/profile", 401, 200, 200),
    # each caller names themselves; the operator, second, finds the name taken
    "PUT /me/profile": http("/me/profile", 401, 200, 409, body={"display_name": "Matrix Player"}),
    "GET /tournaments/{id}/tables/{table}": http("/tournaments/{run}/tables/1", 401, 200, 200),
    # the owner's decision, sent by someone else: not their seat, operators included
    "POST /tournaments/{id}/tables/{table}/actions": http(
        "/tournaments/{run}/tables/1/actions", 401, 403, 403, body=DECISION
    ),
    "POST /tournaments/{id}/rebuys": http("/tournaments/{run}/rebuys", 401, 404, 404),
    "POST /tournaments/{id}/addons": http("/tournaments/{run}/addons", 401, 404, 404),
    "POST /tournaments/{id}/away": http("/tournaments/{run}/away", 401, 404, 404),
    "POST /tournaments/{id}/back": http("/tournaments/{run}/back", 401, 404, 404),
    # a finished hand's history is public, with only the cards that were shown
    "GET /tournaments/{id}/tables/{table}/hands/{hand}": http("/tournaments/{run}/tables/1/hands/1", 401, 200, 200),
    # -- operators only ---------------------------------------------------------------------------------------------
    "POST /admin/tournaments": http("/admin/tournaments", 401, 403, 201, body=NEW_TOURNAMENT),
    "POST /admin/tournaments/{id}/terminate": http("/admin/tournaments/{adm1}/terminate", 401, 403, 200, body=REASON),
    "POST /admin/tournaments/{id}/restart": http("/admin/tournaments/{run}/restart", 401, 403, 409, body=REASON),
    "POST /admin/tournaments/{id}/cancel": http("/admin/tournaments/{adm2}/cancel", 401, 403, 200, body=REASON),
    "POST /admin/accounts/{player}/deposits": http(
        "/admin/accounts/{other}/deposits", 401, 403, 201, body={"amount": 100}
    ),
    "POST /admin/tournaments/{id}/players/{player}/stack": http(
        "/admin/tournaments/{open2}/players/{owner}/stack", 401, 403, OPERATOR_ACT, body={"delta": 1, **REASON}
    ),
    "POST /admin/tournaments/{id}/players/{player}/disqualify": http(
        "/admin/tournaments/{adm1}/players/{other}/disqualify", 401, 403, OPERATOR_ACT, body=REASON
    ),
    "POST /admin/players/{player}/mute": http("/admin/players/{other}/mute", 401, 403, OPERATOR_ACT, body=REASON),
    "DELETE /admin/players/{player}/mute": http("/admin/players/{other}/mute", 401, 403, OPERATOR_ACT),
    "POST /admin/accounts/{player}/adjustments": http(
        "/admin/accounts/{other}/adjustments", 401, 403, OPERATOR_ACT, body={"amount": 1, **REASON}
    ),
    "GET /admin/audit": http("/admin/audit?tournament={run}", 401, 403, OPERATOR_ACT),
    "GET /admin/tournaments/{id}/tables/{table}/chat": http(
        "/admin/tournaments/{run}/tables/1/chat", 401, 403, OPERATOR_ACT
    ),
    "GET /admin/tournaments/{id}/recovery": http("/admin/tournaments/{run}/recovery", 401, 403, OPERATOR_ACT),
    # -- the spec, for everyone ---------------------------------------------------------------------------------------
    "GET /openapi.json": http("/openapi.json", 200, 200, 200),
    "GET /asyncapi.json": http("/asyncapi.json", 200, 200, 200),
    "GET /swagger": http("/swagger", 200, 200, 200),
    # -- WebSocket: the anonymous caller's connection is refused; the others connect and send as themselves ---------
    "WS $connect": ws({}, 200, 200),
    "WS $disconnect": ws({}, 200, 200),
    "WS $default": ws({"action": "dance"}, 422, 422),
    # anyone may watch any table, as an observer (no hole card)
    "WS subscribe": ws({"action": "subscribe", "tournament_id": "{run}", "table_id": "1"}, 200, 200),
    "WS act": ws({"action": "act", "tournament_id": "{run}", "table_id": "1", **WS_DECISION}, 403, 403),
    # rule 18: observers read the chat but do not write it ('observer', docs/interfaces.md); operators may always write
    "WS chat": ws({"action": "chat", "tournament_id": "{run}", "table_id": "1", "text": "hello"}, 409, 200),
}


def wired() -> set[str]:
    return {route.route_key for route in wiring.HTTP_ROUTES} | {f"WS {key}" for key in wiring.WEBSOCKET_ROUTES}


def test_every_route_and_message_has_a_row() -> None:
    # A route wired without a row here fails: add its row (its status for each kind of caller)
    missing = wired() - set(MATRIX)
    assert not missing, f"routes without a row in the authorization matrix: {sorted(missing)}"


# -- the seeded stack --------------------------------------------------------------------------------------------------


@dataclass
class Seeds:
    stack: LocalRuntime
    values: dict[str, Any]

    def fill(self, template: Any) -> Any:
        """``template`` with ``"{name}"`` placeholders replaced by the seeds (a whole placeholder keeps its type)."""
        if isinstance(template, str):
            if template.startswith("{") and template.endswith("}") and template[1:-1] in self.values:
                return self.values[template[1:-1]]
            return template.format(**self.values)
        if isinstance(template, dict):
            return {key: self.fill(value) for key, value in template.items()}
        return template

    def token(self, caller: str) -> str | None:
        return {
            "anonymous": None,
            "other": self.stack.token(OTHER),
            "operator": self.stack.token(OPERATOR, operator=True),
        }[caller]

    def owner_state(self) -> Any:
        """What no refused request may change: the table's hand and decision, the owner's money and entries."""
        values, token = self.values, self.stack.token(OWNER)
        view = call(self.stack, "GET", f"/tournaments/{values['run']}/tables/1", token)[1]
        return (
            view["hand"],
            view["seq"],
            (view.get("to_act") or {}).get("seq"),
            call(self.stack, "GET", "/me/account", token)[1]["balance"],
            call(self.stack, "GET", f"/tournaments/{values['open']}/registrations/me", token)[1]["status"],
            [seat["away"] for seat in view["seats"]],
        )


@pytest.fixture(scope="module")
def seeds(shared_synth: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seeds]:
    with local_stack(shared_synth, tmp_path_factory) as runtime:
        fund(runtime, OPERATOR, OWNER, SEATMATE, OTHER)
        running, view = seed_running(runtime, OPERATOR, "az-run", (OWNER, SEATMATE))
        for tid in ("az-open", "az-open2", "az-adm1", "az-adm2"):
            create(runtime, OPERATOR, tid, later())
        assert register(runtime, "az-open", OWNER) and register(runtime, "az-open2", OWNER)
        if view["to_act"]["player"] != OWNER:  # the owner's decision is the one the others send
            decision = {"hand": view["hand"], "seq": view["to_act"]["seq"], "action": "call"}
            token = runtime.token(SEATMATE)
            assert call(runtime, "POST", f"/tournaments/{running}/tables/1/actions", token, decision)[0] == 200
            view = call(runtime, "GET", f"/tournaments/{running}/tables/1", runtime.token(OWNER))[1]
        assert view["to_act"]["player"] == OWNER, view
        values = {
            "run": running, "open": "az-open", "open2": "az-open2", "adm1": "az-adm1", "adm2": "az-adm2",
            "owner": OWNER, "other": OTHER, "hand": view["hand"], "seq": view["to_act"]["seq"],
            "later": later().strftime("%Y-%m-%dT%H:%M:%SZ"),
        }  # fmt: skip
        yield Seeds(runtime, values)


# -- one caller, one route ---------------------------------------------------------------------------------------------


def status_of_code(code: str) -> int:
    """The HTTP status of an error frame's code (``invalid_request``: 422)."""
    if code == "invalid_request":
        return 422
    pending: list[type[Exception]] = [TourneyError, EdgeError]
    while pending:
        cls = pending.pop()
        if getattr(cls, "code", None) == code:
            return int(status_of(cls.__new__(cls)))
        pending.extend(cls.__subclasses__())
    raise AssertionError(f"an error frame with an unknown code {code!r}")


def send_http(seeds: Seeds, route: str, row: Row, caller: str) -> tuple[int, Any]:
    method = route.split(" ", 1)[0]
    body = seeds.fill(row.body) if row.body is not None else None
    return call(seeds.stack, method, seeds.fill(row.path), seeds.token(caller), body)


def send_ws(seeds: Seeds, route: str, row: Row, caller: str) -> tuple[int, Any]:
    """Connect as ``caller`` and send the row's message: the status of the answer (connect: 200 or its refusal)."""
    token = seeds.token(caller)
    url = seeds.stack.urls["ws"] + (f"?token={token}" if token else "")

    async def scenario() -> tuple[int, Any]:
        async with aiohttp.ClientSession() as session:
            try:
                ws_ = await session.ws_connect(url)
            except aiohttp.WSServerHandshakeError as refused:
                return refused.status, None
            async with ws_:
                if route in ("WS $connect", "WS $disconnect"):
                    return 200, None
                await ws_.send_str(json.dumps(seeds.fill(row.message)))
                frame: dict[str, Any] = await ws_.receive_json(timeout=PATIENCE)
                return (status_of_code(frame["error"]) if frame.get("type") == "error" else 200), frame

    return asyncio.run(scenario())


def expected_in(status: int, expected: Expected) -> bool:
    return status in expected if isinstance(expected, tuple) else status == expected


@pytest.mark.parametrize("route", list(MATRIX))
def test_authorization_matrix(seeds: Seeds, route: str) -> None:
    if route not in wired():
        pytest.skip(f"{route} is not wired yet (docs/interfaces.md names it)")
    row = MATRIX[route]
    send = send_ws if route.startswith("WS ") else send_http
    for caller in CALLERS:
        # Given what the owner has, when this caller sends the request
        before = seeds.owner_state()
        status, answer = send(seeds, route, row, caller)
        expected = getattr(row, caller)
        # Then the answer is the row's status for this caller
        assert expected_in(status, expected), f"{route} as {caller}: {status} {answer}, expected {expected}"
        if status >= 400:
            # and a refusal changed nothing of the owner's
            assert seeds.owner_state() == before, f"{route} as {caller} was refused yet changed the owner's state"
        if status == 401 and not route.startswith("WS "):
            assert answer == {"message": "Unauthorized"}  # the JWT authorizer's own answer (docs/openapi.json)
        if route == "GET /tournaments/{id}/registrations/me" and status == 200:
            assert answer["status"] == "not_registered", answer
        if route in ("WS subscribe", "GET /tournaments/{id}/tables/{table}") and status == 200:
            view = answer["table"] if route.startswith("WS ") else answer
            assert all(seat["cards"] == [] for seat in view["seats"]), f"{caller} saw hole cards: {view}"
