"""What the OpenAPI document says beyond the routes' types: tags, summaries and how to get a token.

The routes (``functions/api``, ``functions/admin``) give the paths, parameters and schemas; this module
groups each operation under one tag with a one-line summary, keyed by ``"METHOD /path"`` in the
document's path syntax. ``tests/integration/test_api_documents.py`` fails on an operation without
an entry here, so a new route is documented when it is added.
"""

from __future__ import annotations

from typing import Any, Final

TAGS: Final[tuple[dict[str, str], ...]] = (
    {"name": "Lobby", "description": "Tournaments open, running and finished: details, standings."},
    {
        "name": "Registration",
        "description": "Entering a tournament and leaving it before the start; rebuys and the add-on.",
    },
    {"name": "Account", "description": "The player's balance and ledger (integer cents)."},
    {
        "name": "Play",
        "description": "A table as the caller may see it, decisions, sitting out and back, finished hands. "
        "The WebSocket API pushes the same table views (asyncapi.json).",
    },
    {
        "name": "Operators: tournaments",
        "description": "Creating, terminating, cancelling and restarting tournaments (operators group only).",
    },
    {
        "name": "Operators: players",
        "description": "A player's stack, disqualification, chat mutes and a table's chat (operators group only).",
    },
    {"name": "Operators: money", "description": "Deposits and balance adjustments (operators group only)."},
    {"name": "Operators: audit", "description": "Every operator act: who, when, why, before and after."},
)

OPERATIONS: Final[dict[str, tuple[str, str]]] = {
    "GET /tournaments": ("Lobby", "List the tournaments"),
    "GET /tournaments/{id}": ("Lobby", "Read a tournament: structure, payouts, players, places"),
    "GET /tournaments/{id}/standings": ("Lobby", "Read the standings: every player's chips and place"),
    "POST /tournaments/{id}/registrations": ("Registration", "Register the caller (buy-in and fee charged)"),
    "GET /tournaments/{id}/registrations/me": ("Registration", "Read the caller's registration"),
    "DELETE /tournaments/{id}/registrations/me": ("Registration", "Unregister the caller before the start (refunded)"),
    "POST /tournaments/{id}/rebuys": ("Registration", "Buy a rebuy (rebuy tournaments)"),
    "POST /tournaments/{id}/addons": ("Registration", "Buy the add-on (rebuy tournaments)"),
    "GET /me/account": ("Account", "Read the caller's balance (opens the account at the first call)"),
    "GET /me/ledger": ("Account", "Read the caller's ledger entries"),
    "GET /me/profile": ("Account", "Read the caller's display name"),
    "PUT /me/profile": ("Account", "Choose the caller's display name (unique regardless of case)"),
    "GET /tournaments/{id}/tables/{table}": ("Play", "Read a table as the caller sees it, with the decision clock"),
    "POST /tournaments/{id}/tables/{table}/actions": (
        "Play",
        "Act at the caller's seat (fold, check, call, bet, raise)",
    ),
    "POST /tournaments/{id}/away": ("Play", "Sit out: the time-out acts for the caller"),
    "POST /tournaments/{id}/back": ("Play", "Come back from sitting out"),
    "GET /tournaments/{id}/tables/{table}/hands/{hand}": (
        "Play",
        "Read a finished hand's history (PHH) with its fairness proof",
    ),
    "POST /admin/tournaments": ("Operators: tournaments", "Create a tournament"),
    "POST /admin/tournaments/{id}/terminate": (
        "Operators: tournaments",
        "Terminate a tournament (recovery restarts or compensates)",
    ),
    "POST /admin/tournaments/{id}/cancel": ("Operators: tournaments", "Cancel a tournament before it plays"),
    "POST /admin/tournaments/{id}/restart": ("Operators: tournaments", "Restart a terminated tournament"),
    "GET /admin/tournaments/{id}/recovery": (
        "Operators: tournaments",
        "Read a terminated tournament's recovery: window left, outcome, amounts paid",
    ),
    "POST /admin/tournaments/{id}/players/{player}/stack": (
        "Operators: players",
        "Add chips to a stack or remove them",
    ),
    "POST /admin/tournaments/{id}/players/{player}/disqualify": ("Operators: players", "Disqualify a player"),
    "POST /admin/players/{player}/mute": ("Operators: players", "Mute a player in chat"),
    "DELETE /admin/players/{player}/mute": ("Operators: players", "Lift a player's chat mute"),
    "GET /admin/tournaments/{id}/tables/{table}/chat": ("Operators: players", "Read a table's chat, refused lines too"),
    "POST /admin/accounts/{player}/deposits": ("Operators: money", "Credit a player's account"),
    "POST /admin/accounts/{player}/adjustments": ("Operators: money", "Correct a player's balance either way"),
    "GET /admin/audit": ("Operators: audit", "List operator acts, by tournament or player, or the latest"),
}

HOW_TO_GET_A_TOKEN: Final = (
    "How to get a token. On AWS, players sign up and sign in with the stack's Cognito user pool (stack outputs "
    "UserPoolId, UserPoolClientId): a mobile app signs in with SRP (USER_SRP_AUTH, e.g. Amplify's signIn) on "
    "UserPoolClientId; the web client (stack output AppUrl) signs in on the user pool's hosted page (authorization "
    "code flow, client WebClientId). Send the ID or access token as Authorization: Bearer <token>; it lasts one hour "
    "(renew it with the refresh token). Operators are members of the user pool group operators (their token's "
    "cognito:groups); only they may call /admin/*. On the local stack, tourney local token --player NAME "
    "[--operator] prints a token it accepts."
)


def describe(document: dict[str, Any]) -> dict[str, Any]:
    """The document with its tags, each operation's tag and summary, and how to get a token (in place)."""
    document["tags"] = [dict(tag) for tag in TAGS]
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            entry = OPERATIONS.get(f"{method.upper()} {path}")
            if entry is not None:
                tag, summary = entry
                operation["tags"] = [tag]
                operation["summary"] = summary
    scheme = document.setdefault("components", {}).setdefault("securitySchemes", {}).get("jwt")
    if scheme is not None:
        scheme["description"] = f"A Cognito JWT, checked by the HTTP API's JWT authorizer. {HOW_TO_GET_A_TOKEN}"
    info = document.setdefault("info", {})
    info["description"] = f"{info.get('description', '')} {HOW_TO_GET_A_TOKEN}".strip()
    return document
